/// \file
/// \brief Element-wise verification of a product against the double reference.
///
/// Floating-point results are accepted when, for every element,
/// |c_ij - ref_ij| <= 2 * gamma_K * (|A|·|B|)_ij with gamma_K = K*u / (1 - K*u) and u the unit
/// roundoff of the element type (2^-24 for float). gamma_K * (|A|·|B|)_ij is the classic worst-case
/// bound for a dot product of length K summed in any order, with or without fused multiply-add;
/// the factor 2 leaves room for the rounding of the reference and of the bound themselves.
/// NaN and Inf always fail. Integer results must match exactly. Where 2 * gamma_K >= 1 (K*u >= 1/3:
/// K of 5,592,406 or more in float) the bound is at least (|A|·|B|)_ij itself, which even a C of
/// zeros meets, so it tells no wrong C from the right one: the check then fails, saying that it
/// could not be made.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "common/matrix.hpp"
#include "common/reference_gemm.hpp"

namespace tutorial {

/// What a verification found; `summary()` is the sentence the programs print.
struct VerifyReport {
    bool passed = true;
    bool exact = false;  ///< integer comparison (no tolerance)
    bool bounded =
        true;  ///< false where 2 gamma_K >= 1: no useful bound, nothing compared, not passed
    std::size_t checked = 0;   ///< elements compared
    std::size_t failures = 0;  ///< elements outside the bound
    int rows_checked = 0;      ///< rows of C compared (all of them unless sampled)
    int rows_total = 0;
    int k = 0;
    // The worst element: the largest error relative to its bound (a NaN or Inf beats everything).
    int worst_row = -1;
    int worst_col = -1;
    double worst_got = 0.0;
    double worst_expected = 0.0;
    double worst_error = 0.0;
    double worst_bound = 0.0;

    /// One line: passed or FAILED, how much was checked, and the worst element.
    std::string summary() const;
};

/// Settings of `verify_gemm`.
struct VerifyOptions {
    /// Multiply-adds the CPU reference may spend. Products larger than this are checked on an
    /// evenly spaced sample of rows that always includes the first and the last row.
    double max_reference_work = 3.0e8;
};

/// gamma_K = K*u / (1 - K*u) for unit roundoff u; infinity when K*u >= 1 (no bound exists).
double gamma_k(int k, double unit_roundoff);

/// The longest K whose float products the bound can check: 2 gamma_K < 1, that is K*u < 1/3 with
/// u = 2^-24 (beyond it a C of zeros is within the bound).
constexpr int kLongestCheckableK = (1 << 24) / 3;

/// Whether a tolerance factor 2 gamma_K (or 0 for exact products) can tell a wrong C from the right
/// one: it must stay below 1, or a C of zeros, |0 - (AB)_ij| <= (|A||B|)_ij, is within the bound.
inline bool bound_can_check(double tolerance_factor) {
    return tolerance_factor < 1.0;
}

/// The sentence of a check that could not be made because 2 gamma_K >= 1 (see the file comment).
std::string no_bound_summary(int k);

/// The rows `verify_gemm` compares for an m x n x k product under `options`.
std::vector<int> rows_to_verify(int m, int n, int k, const VerifyOptions& options);

namespace detail {
/// Compares `got` (rows x n, the full C) with the reference rows; `tolerance_factor` is
/// 2 * gamma_K for floating point and 0 for exact comparison.
template <typename T>
VerifyReport compare_with_reference(const Matrix<T>& got, const ReferenceRows& reference,
                                    double tolerance_factor, bool exact, int k) {
    VerifyReport report;
    report.exact = exact;
    report.k = k;
    report.rows_total = got.rows();
    report.rows_checked = static_cast<int>(reference.rows.size());
    if (!exact && !bound_can_check(tolerance_factor)) {
        // A C of zeros would be within the bound, and so would many a wrong C: no check is made,
        // and none passes.
        report.bounded = false;
        report.passed = false;
        return report;
    }
    double worst_ratio = -1.0;
    for (int i = 0; i < report.rows_checked; ++i) {
        const int row = reference.rows[static_cast<std::size_t>(i)];
        for (int col = 0; col < got.cols(); ++col) {
            const double value = static_cast<double>(got(row, col));
            const double expected = reference.product(i, col);
            const double bound = tolerance_factor * reference.magnitude(i, col);
            const double error = std::fabs(value - expected);
            const bool ok = std::isfinite(value) && error <= bound;
            double ratio;
            if (!std::isfinite(value)) {
                ratio = std::numeric_limits<double>::infinity();
            } else if (bound > 0.0) {
                ratio = error / bound;
            } else {
                ratio = error > 0.0 ? std::numeric_limits<double>::max() : 0.0;
            }
            ++report.checked;
            if (!ok)
                ++report.failures;
            if (ratio > worst_ratio) {
                worst_ratio = ratio;
                report.worst_row = row;
                report.worst_col = col;
                report.worst_got = value;
                report.worst_expected = expected;
                report.worst_error = std::isfinite(value) ? error : value;
                report.worst_bound = bound;
            }
        }
    }
    report.passed = report.failures == 0;
    return report;
}

/// Throws std::invalid_argument unless the shapes of A, B and C fit together.
inline void require_fit(bool fits) {
    if (!fits)
        throw std::invalid_argument("verify_gemm: shapes of A, B and C do not fit together");
}
}  // namespace detail

/// The double reference of one product A·B, computed once, against which any number of results
/// can be checked (see the file comment for the bound): the benchmark programs verify every kernel
/// they time on the same inputs, and the reference, not the kernel, is what costs CPU time.
/// Shapes that do not fit together fail with a message.
template <typename T>
class GemmReference {
  public:
    GemmReference(const Matrix<T>& a, const Matrix<T>& b, const VerifyOptions& options = {})
        : rows_(a.rows()), cols_(b.cols()), k_(a.cols()), reference_(reference_of(a, b, options)) {}

    /// Checks `c` (m x n) element by element against the reference.
    VerifyReport check(const Matrix<T>& c) const {
        detail::require_fit(c.rows() == rows_ && c.cols() == cols_);
        if constexpr (std::is_integral_v<T>) {
            return detail::compare_with_reference(c, reference_, 0.0, true, k_);
        } else {
            const double unit_roundoff = std::numeric_limits<T>::epsilon() / 2.0;
            return detail::compare_with_reference(c, reference_, 2.0 * gamma_k(k_, unit_roundoff),
                                                  false, k_);
        }
    }

  private:
    static ReferenceRows reference_of(const Matrix<T>& a, const Matrix<T>& b,
                                      const VerifyOptions& options) {
        detail::require_fit(a.cols() == b.rows());
        return reference_gemm_rows(a, b, rows_to_verify(a.rows(), b.cols(), a.cols(), options));
    }

    int rows_;
    int cols_;
    int k_;
    ReferenceRows reference_;
};

/// Checks C = A·B element by element against the double reference: one GemmReference, one check.
/// A is m x k, B is k x n, C is m x n.
template <typename T>
VerifyReport verify_gemm(const Matrix<T>& a, const Matrix<T>& b, const Matrix<T>& c,
                         const VerifyOptions& options = {}) {
    detail::require_fit(c.rows() == a.rows() && c.cols() == b.cols());
    return GemmReference<T>(a, b, options).check(c);
}

}  // namespace tutorial
