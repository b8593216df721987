#include "common/freivalds.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <type_traits>
#include <vector>

#include "common/verify.hpp"

namespace tutorial {
namespace {

// Runs body(begin, end) over row ranges of [0, rows), on several threads when there is enough
// work: the check streams gigabytes of A and C where it matters.
template <class Body>
void over_rows(int rows, double work, const Body& body) {
    const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
    const int threads = work < 1.0e7 ? 1 : static_cast<int>(std::min<unsigned>(hardware, 64u));
    if (threads == 1 || rows < 2 * threads) {
        body(0, rows);
        return;
    }
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
        const int begin = static_cast<int>(static_cast<long long>(rows) * t / threads);
        const int end = static_cast<int>(static_cast<long long>(rows) * (t + 1) / threads);
        pool.emplace_back([&body, begin, end] { body(begin, end); });
    }
    for (std::thread& thread : pool)
        thread.join();
}

// Y = M·X in double for a rows x cols matrix M and a cols x t matrix X, both stored row by row:
// all t trials in one pass over M. With `absolute`, |M| instead of M.
template <typename T>
std::vector<double> times(ConstMatrixView<T> m, const std::vector<double>& x, int t,
                          bool absolute) {
    std::vector<double> y(static_cast<std::size_t>(m.rows()) * t, 0.0);
    over_rows(m.rows(), static_cast<double>(m.rows()) * m.cols() * t, [&](int begin, int end) {
        for (int i = begin; i < end; ++i) {
            const T* row =
                m.data() + static_cast<std::size_t>(i) * static_cast<std::size_t>(m.cols());
            double* out = y.data() + static_cast<std::size_t>(i) * t;
            for (int j = 0; j < m.cols(); ++j) {
                const double value = static_cast<double>(row[j]);
                const double factor = absolute ? std::fabs(value) : value;
                const double* signs = x.data() + static_cast<std::size_t>(j) * t;
                for (int s = 0; s < t; ++s)
                    out[s] += factor * signs[s];
            }
        }
    });
    return y;
}

// Whether a right C is exact: integers always; floating-point operands that hold integers only
// and whose every partial sum is an integer below 2^digits (each row's sum of |a| times the
// largest |b| bounds them), which the format then holds exactly in any order of summation.
template <typename T>
bool exact_product(ConstMatrixView<T> a, ConstMatrixView<T> b) {
    if constexpr (std::is_integral_v<T>) {
        return true;
    } else {
        const auto whole = [](T value) {
            return std::isfinite(value) && std::trunc(value) == value;
        };
        double largest_b = 0.0;
        for (std::size_t i = 0; i < b.size(); ++i) {
            if (!whole(b.data()[i]))
                return false;
            largest_b = std::max(largest_b, std::fabs(static_cast<double>(b.data()[i])));
        }
        const double limit = std::ldexp(1.0, std::numeric_limits<T>::digits);
        for (int i = 0; i < a.rows(); ++i) {
            double row_sum = 0.0;
            for (int p = 0; p < a.cols(); ++p) {
                const T value = a(i, p);
                if (!whole(value))
                    return false;
                row_sum += std::fabs(static_cast<double>(value));
            }
            if (row_sum * largest_b >= limit)
                return false;
        }
        return true;
    }
}

}  // namespace

template <typename T>
FreivaldsReport freivalds_check(ConstMatrixView<T> a, ConstMatrixView<T> b, ConstMatrixView<T> c,
                                const FreivaldsOptions& options) {
    if (a.cols() != b.rows() || c.rows() != a.rows() || c.cols() != b.cols())
        throw std::invalid_argument("freivalds_check: shapes of A, B and C do not fit together");
    if (options.trials < 1)
        throw std::invalid_argument("freivalds_check: at least one trial, not " +
                                    std::to_string(options.trials));
    const int m = a.rows();
    const int k = a.cols();
    const int n = b.cols();
    FreivaldsReport report;
    report.exact = exact_product(a, b);
    report.rows = m;
    report.k = k;
    // The bounds do not depend on the signs: (|A|·|B|·1)_i and (|C|·1)_i.
    const std::vector<double> ones(static_cast<std::size_t>(n), 1.0);
    const std::vector<double> magnitude = times(a, times(b, ones, 1, true), 1, true);
    const std::vector<double> c_magnitude = times(c, ones, 1, true);
    // Exact products: every sum of A·(B·x) is at most (|A|·|B|·1)_i in size, so below 2^53
    // double computes it exactly, and a right C gives exactly the same C·x.
    double factor = 0.0;
    double slack = 0.0;
    if (report.exact) {
        for (const double value : magnitude) {
            if (value >= std::ldexp(1.0, std::numeric_limits<double>::digits))
                throw std::invalid_argument(
                    "freivalds_check: integer products this large are not exact in double");
        }
    } else {
        factor = 2.0 * gamma_k(k, std::numeric_limits<T>::epsilon() / 2.0);
        // The check's own double arithmetic: sums of n + k terms, on both sides.
        slack = 2.0 * gamma_k(n + k, std::numeric_limits<double>::epsilon() / 2.0);
    }
    // The signs of trial s are column s of X (n x t): drawn trial by trial, so that a trial's
    // signs depend on the seed and the trials before it only.
    const int t = options.trials;
    std::vector<double> x(static_cast<std::size_t>(n) * t);
    std::mt19937_64 random(options.seed);
    for (int s = 0; s < t; ++s)
        for (int j = 0; j < n; ++j)
            x[static_cast<std::size_t>(j) * t + s] = (random() & 1u) != 0 ? 1.0 : -1.0;
    const std::vector<double> cx = times(c, x, t, false);
    const std::vector<double> abx = times(a, times(b, x, t, false), t, false);
    report.trials = t;
    double worst_ratio = -1.0;
    for (int i = 0; i < m; ++i) {
        const auto r = static_cast<std::size_t>(i);
        const double bound = factor * magnitude[r] + slack * (magnitude[r] + c_magnitude[r]);
        for (int s = 0; s < t; ++s) {
            const double got = cx[r * t + s];
            const double difference = std::fabs(got - abx[r * t + s]);
            const bool ok = std::isfinite(got) && difference <= bound;
            const double ratio = !std::isfinite(difference)
                                     ? std::numeric_limits<double>::infinity()
                                 : bound > 0.0      ? difference / bound
                                 : difference > 0.0 ? std::numeric_limits<double>::infinity()
                                                    : 0.0;
            if (ratio > worst_ratio || (!ok && report.passed)) {
                worst_ratio = ratio;
                report.worst_trial = s;
                report.worst_row = i;
                report.worst_difference = difference;
                report.worst_bound = bound;
            }
            if (!ok)
                report.passed = false;
        }
    }
    return report;
}

std::string FreivaldsReport::summary() const {
    std::ostringstream out;
    out.precision(3);
    out << "verification " << (passed ? "passed" : "FAILED") << ": Freivalds' check, " << trials
        << (trials == 1 ? " trial" : " trials")
        << " of C·x against A·(B·x) with random signs x, all " << rows << " rows";
    if (exact) {
        out << (passed ? " equal" : " not all equal");
    } else {
        out << (passed ? " within" : " not all within")
            << " |C·x - A·(B·x)|_i <= 2 gamma_K (|A||B|·1)_i, K = " << k;
    }
    if (worst_row >= 0 && !(passed && exact)) {
        out << "; worst row " << worst_row << " (trial " << worst_trial + 1 << "): difference "
            << worst_difference << ", bound " << worst_bound;
    }
    return out.str();
}

template FreivaldsReport freivalds_check(ConstMatrixView<float>, ConstMatrixView<float>,
                                         ConstMatrixView<float>, const FreivaldsOptions&);
template FreivaldsReport freivalds_check(ConstMatrixView<double>, ConstMatrixView<double>,
                                         ConstMatrixView<double>, const FreivaldsOptions&);
template FreivaldsReport freivalds_check(ConstMatrixView<int>, ConstMatrixView<int>,
                                         ConstMatrixView<int>, const FreivaldsOptions&);

}  // namespace tutorial
