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
#include <utility>
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

// How far outside its bound a difference lies, for ranking the worst: a difference that is not
// finite, or any difference where the bound is 0 (exact products), beats every ratio.
double ratio_to_bound(double difference, double bound) {
    if (!std::isfinite(difference))
        return std::numeric_limits<double>::infinity();
    if (bound > 0.0)
        return difference / bound;
    return difference > 0.0 ? std::numeric_limits<double>::infinity() : 0.0;
}

// One sampled element of C: where it is, and (A·B)_ij and (|A|·|B|)_ij in double.
struct Sample {
    int row;
    int col;
    double product = 0.0;
    double magnitude = 0.0;
};

// Strata of rows and of columns in C's proportions, at most `samples` cells: the cells are about
// square, so a wrong square block need only be twice a cell's side to hold one whichever way C is
// shaped. A C of at most `samples` elements is all cells of one element.
std::pair<int, int> sample_grid(int m, int n, int samples) {
    if (samples == 0 || m == 0 || n == 0)
        return {0, 0};
    if (static_cast<long long>(m) * n <= samples)
        return {m, n};
    const double square = std::sqrt(static_cast<double>(samples) * m / n);
    const int rows =
        static_cast<int>(std::clamp<long long>(std::llround(square), 1, std::min(m, samples)));
    return {rows, std::clamp(samples / rows, 1, n)};
}

// One element in each cell, uniform within it. The modulo rather than a distribution, whose
// algorithm each standard library chooses, keeps the sample the same everywhere for a seed; its
// bias is below 2^-33 for any cell.
std::vector<Sample> draw_sample(int m, int n, std::pair<int, int> grid, std::uint64_t seed) {
    const auto [grid_rows, grid_cols] = grid;
    const auto start = [](int stratum, int strata, int size) {
        return static_cast<int>(static_cast<long long>(size) * stratum / strata);
    };
    std::vector<Sample> sample;
    sample.reserve(static_cast<std::size_t>(grid_rows) * static_cast<std::size_t>(grid_cols));
    std::mt19937_64 random(seed);
    for (int r = 0; r < grid_rows; ++r) {
        const int top = start(r, grid_rows, m);
        const int height = start(r + 1, grid_rows, m) - top;
        for (int s = 0; s < grid_cols; ++s) {
            const int left = start(s, grid_cols, n);
            const int width = start(s + 1, grid_cols, n) - left;
            const auto row = top + static_cast<int>(random() % static_cast<std::uint64_t>(height));
            const auto col = left + static_cast<int>(random() % static_cast<std::uint64_t>(width));
            sample.push_back({row, col});
        }
    }
    return sample;
}

// Computes (A·B)_ij and (|A|·|B|)_ij of every sampled element. B is walked row by row, for all
// elements at once: a column of B read on its own is one cache line per multiply-add, while here
// each row of B is read once, left to right when the sample is in column order, and each sampled
// row of A stays cached across the steps of p that share its cache lines.
template <typename T>
void compute_sample(ConstMatrixView<T> a, ConstMatrixView<T> b, std::vector<Sample>& sample) {
    std::sort(sample.begin(), sample.end(), [](const Sample& x, const Sample& y) {
        return x.col != y.col ? x.col < y.col : x.row < y.row;
    });
    const auto k = static_cast<std::size_t>(a.cols());
    const auto n = static_cast<std::size_t>(b.cols());
    const int count = static_cast<int>(sample.size());
    over_rows(count, static_cast<double>(count) * a.cols(), [&](int begin, int end) {
        for (std::size_t p = 0; p < k; ++p) {
            const T* b_row = b.data() + p * n;
            for (int s = begin; s < end; ++s) {
                Sample& element = sample[static_cast<std::size_t>(s)];
                const auto a_value =
                    static_cast<double>(a.data()[static_cast<std::size_t>(element.row) * k + p]);
                const auto b_value = static_cast<double>(b_row[element.col]);
                element.product += a_value * b_value;
                element.magnitude += std::fabs(a_value) * std::fabs(b_value);
            }
        }
    });
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
    if (options.samples < 0)
        throw std::invalid_argument("freivalds_check: no negative sample, not " +
                                    std::to_string(options.samples));
    const int m = a.rows();
    const int k = a.cols();
    const int n = b.cols();
    FreivaldsReport report;
    report.exact = exact_product(a, b);
    report.rows = m;
    report.cols = n;
    report.k = k;
    // Floats: an element's error is bounded by 2 gamma_K (|A||B|)_ij, a row's by the sum. Exact
    // products need no bound (below).
    const double factor =
        report.exact ? 0.0 : 2.0 * gamma_k(k, std::numeric_limits<T>::epsilon() / 2.0);
    if (!report.exact && !bound_can_check(factor)) {
        // 2 gamma_K >= 1: a C of zeros would be within the bound, so none is checked against it.
        report.bounded = false;
        report.passed = false;
        report.rows_passed = false;
        return report;
    }
    // The bounds do not depend on the signs: (|A|·|B|·1)_i and (|C|·1)_i.
    const std::vector<double> ones(static_cast<std::size_t>(n), 1.0);
    const std::vector<double> magnitude = times(a, times(b, ones, 1, true), 1, true);
    const std::vector<double> c_magnitude = times(c, ones, 1, true);
    // Exact products: every sum of A·(B·x) is at most (|A|·|B|·1)_i in size, so below 2^53
    // double computes it exactly, and a right C gives exactly the same C·x.
    double slack = 0.0;
    if (report.exact) {
        for (const double value : magnitude) {
            if (value >= std::ldexp(1.0, std::numeric_limits<double>::digits))
                throw std::invalid_argument(
                    "freivalds_check: integer products this large are not exact in double");
        }
    } else {
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
            const double ratio = ratio_to_bound(difference, bound);
            if (ratio > worst_ratio || (!ok && report.rows_passed)) {
                worst_ratio = ratio;
                report.worst_trial = s;
                report.worst_row = i;
                report.worst_difference = difference;
                report.worst_bound = bound;
            }
            if (!ok)
                report.rows_passed = false;
        }
    }
    // The slack of the sample's own double arithmetic: one sum of K products per element.
    const double sample_slack =
        report.exact ? 0.0 : 2.0 * gamma_k(k, std::numeric_limits<double>::epsilon() / 2.0);
    const std::pair<int, int> grid = sample_grid(m, n, options.samples);
    std::vector<Sample> sample = draw_sample(m, n, grid, options.seed);
    compute_sample(a, b, sample);
    report.grid_rows = grid.first;
    report.grid_cols = grid.second;
    report.sampled = static_cast<int>(sample.size());
    worst_ratio = -1.0;
    for (const Sample& element : sample) {
        const auto got = static_cast<double>(c(element.row, element.col));
        const double difference = std::fabs(got - element.product);
        const double bound =
            factor * element.magnitude + sample_slack * (element.magnitude + std::fabs(got));
        const bool ok = std::isfinite(got) && difference <= bound;
        const double ratio = ratio_to_bound(difference, bound);
        if (ratio > worst_ratio || (!ok && report.sample_failures == 0)) {
            worst_ratio = ratio;
            report.sample_worst_row = element.row;
            report.sample_worst_col = element.col;
            report.sample_worst_difference = difference;
            report.sample_worst_bound = bound;
        }
        if (!ok)
            ++report.sample_failures;
    }
    report.passed = report.rows_passed && report.sample_failures == 0;
    return report;
}

std::string FreivaldsReport::summary() const {
    if (!bounded)
        return no_bound_summary(k);
    std::ostringstream out;
    out.precision(3);
    out << "verification " << (passed ? "passed" : "FAILED") << ": Freivalds' check, " << trials
        << (trials == 1 ? " trial" : " trials")
        << " of C·x against A·(B·x) with random signs x, all " << rows << " rows";
    if (exact) {
        out << (rows_passed ? " equal" : " not all equal");
    } else {
        out << (rows_passed ? " within" : " not all within")
            << " |C·x - A·(B·x)|_i <= 2 gamma_K (|A||B|·1)_i, K = " << k;
    }
    if (worst_row >= 0 && !(rows_passed && exact)) {
        out << "; worst row " << worst_row << " (trial " << worst_trial + 1 << "): difference "
            << worst_difference << ", bound " << worst_bound;
    }
    if (sampled == 0)
        return out.str();
    const bool sample_passed = sample_failures == 0;
    out << "; ";
    if (!sample_passed)
        out << sample_failures << " of ";
    if (static_cast<long long>(rows) * cols == sampled)
        out << "all " << sampled << " elements";
    else
        out << sampled << " sampled elements";
    if (exact) {
        out << (sample_passed ? " equal" : " not equal");
    } else {
        out << (sample_passed ? " within" : " outside")
            << " |c_ij - (AB)_ij| <= 2 gamma_K (|A||B|)_ij";
    }
    if (!sample_passed) {
        out << ", worst C(" << sample_worst_row << ", " << sample_worst_col << "): difference "
            << sample_worst_difference;
        if (!exact)
            out << ", bound " << sample_worst_bound;
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
