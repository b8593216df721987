/// \file
/// \brief The serial reference multiply every step is checked against.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

#include "common/matrix.hpp"

namespace tutorial {

/// Rows of the exact-as-possible product C = A·B, computed in double, together with |A|·|B|
/// (the sum of |a_ip|·|b_pj|), which scales the error bound of each element.
struct ReferenceRows {
    std::vector<int> rows;     ///< which rows of C were computed, in increasing order
    Matrix<double> product;    ///< product(i, j) is row rows[i], column j of A·B
    Matrix<double> magnitude;  ///< magnitude(i, j) is the same element of |A|·|B|
};

/// Computes the selected rows of A·B and |A|·|B| in double. The i-p-j loop order walks B row by
/// row, so the reference stays fast enough to check large results on a sample of rows.
template <typename T>
ReferenceRows reference_gemm_rows(const Matrix<T>& a, const Matrix<T>& b, std::vector<int> rows) {
    const int n = b.cols();
    const int k = a.cols();
    ReferenceRows result{std::move(rows), Matrix<double>(0, 0), Matrix<double>(0, 0)};
    const int count = static_cast<int>(result.rows.size());
    result.product = Matrix<double>(count, n);
    result.magnitude = Matrix<double>(count, n);
    for (int i = 0; i < count; ++i) {
        const int row = result.rows[static_cast<std::size_t>(i)];
        for (int p = 0; p < k; ++p) {
            const double a_value = static_cast<double>(a(row, p));
            const double a_abs = std::fabs(a_value);
            const T* b_row = b.data() + static_cast<std::size_t>(p) * static_cast<std::size_t>(n);
            double* product_row = &result.product(i, 0);
            double* magnitude_row = &result.magnitude(i, 0);
            for (int j = 0; j < n; ++j) {
                const double b_value = static_cast<double>(b_row[j]);
                product_row[j] += a_value * b_value;
                magnitude_row[j] += a_abs * std::fabs(b_value);
            }
        }
    }
    return result;
}

/// The whole product A·B in double: the reference for small matrices and the worked examples.
template <typename T>
Matrix<double> reference_gemm(const Matrix<T>& a, const Matrix<T>& b) {
    std::vector<int> all_rows(static_cast<std::size_t>(a.rows()));
    for (int i = 0; i < a.rows(); ++i)
        all_rows[static_cast<std::size_t>(i)] = i;
    return reference_gemm_rows(a, b, std::move(all_rows)).product;
}

}  // namespace tutorial
