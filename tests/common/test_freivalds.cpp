#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/freivalds.hpp"
#include "common/matrix.hpp"
#include "common/program.hpp"
#include "common/reference_gemm.hpp"
#include "common/verify.hpp"

using tutorial::FreivaldsOptions;
using tutorial::Matrix;

namespace {

// C = A·B summed in float, K from the last column back: a right C whose rounding errors are real.
template <typename T>
Matrix<T> product(const Matrix<T>& a, const Matrix<T>& b) {
    Matrix<T> c(a.rows(), b.cols());
    for (int i = 0; i < a.rows(); ++i)
        for (int j = 0; j < b.cols(); ++j) {
            T sum = 0;
            for (int p = a.cols() - 1; p >= 0; --p)
                sum += a(i, p) * b(p, j);
            c(i, j) = sum;
        }
    return c;
}

template <typename T>
struct Operands {
    Matrix<T> a, b, c;
};

template <typename T>
Operands<T> random_operands(int m, int n, int k, T low, T high) {
    Operands<T> o{Matrix<T>(m, k), Matrix<T>(k, n), Matrix<T>()};
    tutorial::fill_random(o.a, 7, low, high);
    tutorial::fill_random(o.b, 8, low, high);
    o.c = product(o.a, o.b);
    return o;
}

// The row's bound for floats: 2 gamma_K sum_j (|A||B|)_ij.
double row_bound(const Operands<float>& o, int row) {
    double sum = 0.0;
    for (int j = 0; j < o.b.cols(); ++j)
        for (int p = 0; p < o.a.cols(); ++p)
            sum += std::fabs(static_cast<double>(o.a(row, p))) * std::fabs(o.b(p, j));
    return 2.0 * tutorial::gamma_k(o.a.cols(), std::numeric_limits<float>::epsilon() / 2.0) * sum;
}

// Runs 100 single-trial checks of the rows, each with its own signs and no sample, and counts
// those that failed at `row`.
template <typename T>
int trials_that_find(const Operands<T>& o, int row) {
    int found = 0;
    for (int seed = 1; seed <= 100; ++seed) {
        const auto report =
            tutorial::freivalds_check(o.a, o.b, o.c, FreivaldsOptions{1, 1000u + seed, 0});
        if (!report.passed && report.worst_row == row)
            ++found;
    }
    return found;
}

// A right C of random floats in [-1, 1]: the double reference rounded to float, with the
// element-wise bound 2 gamma_K (|A||B|)_ij of each element.
struct Rounded {
    Operands<float> o;
    Matrix<double> bound;
};

Rounded rounded_operands(int m, int n, int k) {
    Rounded r{{Matrix<float>(m, k), Matrix<float>(k, n), Matrix<float>(m, n)},
              Matrix<double>(m, n)};
    tutorial::fill_random(r.o.a, 17, -1.0f, 1.0f);
    tutorial::fill_random(r.o.b, 18, -1.0f, 1.0f);
    std::vector<int> rows(static_cast<std::size_t>(m));
    for (int i = 0; i < m; ++i)
        rows[static_cast<std::size_t>(i)] = i;
    const auto reference = tutorial::reference_gemm_rows(r.o.a, r.o.b, rows);
    const double factor = 2.0 * tutorial::gamma_k(k, std::numeric_limits<float>::epsilon() / 2.0);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            r.o.c(i, j) = static_cast<float>(reference.product(i, j));
            r.bound(i, j) = factor * reference.magnitude(i, j);
        }
    return r;
}

// Moves every element of rows [top, top + height) and columns [left, left + width) of C by
// `times` its own bound, up or down at random: a wrong block whose row sums mostly cancel.
void spoil_block(Rounded& r, int top, int left, int height, int width, double times,
                 std::uint64_t seed) {
    std::mt19937_64 random(seed);
    for (int i = top; i < top + height; ++i)
        for (int j = left; j < left + width; ++j) {
            const double sign = (random() & 1u) != 0 ? 1.0 : -1.0;
            r.o.c(i, j) = static_cast<float>(r.o.c(i, j) + sign * times * r.bound(i, j));
        }
}

bool inside(int value, int begin, int size) {
    return value >= begin && value < begin + size;
}

// Where stratum `index` of `strata` over `size` rows or columns begins, as the check cuts them.
int stratum_start(int index, int strata, int size) {
    return static_cast<int>(static_cast<long long>(size) * index / strata);
}

// How far row or column `index` lies into its stratum.
int offset_in_stratum(int index, int strata, int size) {
    int stratum = 0;
    while (stratum_start(stratum + 1, strata, size) <= index)
        ++stratum;
    return index - stratum_start(stratum, strata, size);
}

}  // namespace

TEST(Freivalds, ARightProductPasses) {
    const auto floats = random_operands<float>(123, 77, 301, -1.0f, 1.0f);
    const auto report = tutorial::freivalds_check(floats.a, floats.b, floats.c);
    EXPECT_TRUE(report.passed) << report.summary();
    EXPECT_EQ(report.trials, 20);
    EXPECT_EQ(report.rows, 123);
    // 9471 elements: a sample of them, one in each cell of an 81 x 50 grid (the cells as square
    // as whole strata allow, at most 4096), within their own bounds.
    EXPECT_EQ(report.grid_rows, 81);
    EXPECT_EQ(report.grid_cols, 50);
    EXPECT_EQ(report.sampled, 4050);
    EXPECT_EQ(report.sample_failures, 0);
    EXPECT_NE(report.summary().find(
                  "; 4050 sampled elements within |c_ij - (AB)_ij| <= 2 gamma_K (|A||B|)_ij"),
              std::string::npos)
        << report.summary();
    const auto ints = random_operands<int>(64, 90, 33, -8, 8);
    const auto exact = tutorial::freivalds_check(ints.a, ints.b, ints.c);
    EXPECT_TRUE(exact.passed) << exact.summary();
    EXPECT_TRUE(exact.exact);
    EXPECT_EQ(exact.sampled, 54 * 75);
    EXPECT_NE(exact.summary().find("; 4050 sampled elements equal"), std::string::npos)
        << exact.summary();
}

TEST(Freivalds, AWrongBlockThatTheRowsHideFailsTheSample) {
    // What a stale tile does: a 60 x 90 block of C, each element 8 times its own bound off, with
    // random signs. A row's bound is 600 element bounds, whatever K is, and the block adds about
    // sqrt(90) of its errors to a row's difference, so the rows pass (the worst row at 0.37 of
    // its bound); the sample's cells, about 9 x 9, put dozens of sampled elements in the block,
    // each 8 times outside its bound.
    auto r = rounded_operands(600, 600, 512);
    spoil_block(r, 300, 210, 60, 90, 8.0, 5);
    const auto rows_only = tutorial::freivalds_check(r.o.a, r.o.b, r.o.c, {20, 1, 0});
    EXPECT_TRUE(rows_only.passed) << rows_only.summary();
    EXPECT_EQ(rows_only.sampled, 0);
    const auto report = tutorial::freivalds_check(r.o.a, r.o.b, r.o.c);
    EXPECT_FALSE(report.passed) << report.summary();
    EXPECT_TRUE(report.rows_passed) << report.summary();
    EXPECT_EQ(report.sampled, 4096);
    EXPECT_GT(report.sample_failures, 20);
    EXPECT_TRUE(inside(report.sample_worst_row, 300, 60)) << report.summary();
    EXPECT_TRUE(inside(report.sample_worst_col, 210, 90)) << report.summary();
    EXPECT_GT(report.sample_worst_difference, 7.0 * report.sample_worst_bound);
    EXPECT_EQ(report.summary().find("verification FAILED: "), 0u) << report.summary();
    EXPECT_NE(report.summary().find(" of 4096 sampled elements outside |c_ij - (AB)_ij| <= 2 "
                                    "gamma_K (|A||B|)_ij, worst C("),
              std::string::npos)
        << report.summary();
}

TEST(Freivalds, TheSampleIsDeterministicAndCoversEveryCell) {
    // 300 x 700: a grid of 42 x 97 cells of about 7 x 7 elements.
    auto r = rounded_operands(300, 700, 64);
    const Matrix<float> right = r.o.c;
    const auto clean = tutorial::freivalds_check(r.o.a, r.o.b, r.o.c);
    ASSERT_TRUE(clean.passed) << clean.summary();
    const int grid_rows = clean.grid_rows;
    const int grid_cols = clean.grid_cols;
    EXPECT_LE(grid_rows * grid_cols, 4096);
    EXPECT_GT(grid_rows * grid_cols, 4000);
    EXPECT_EQ(clean.sampled, grid_rows * grid_cols);
    EXPECT_NEAR(300.0 / grid_rows, 700.0 / grid_cols, 1.0);

    // Every element of C off by its own bound times 2 to 12, at random: which one is the worst
    // shows where the sample fell. The same seed falls on the same elements, another seed
    // elsewhere, and within its cell anywhere, not only on its first row or column.
    std::mt19937_64 weights(9);
    for (int i = 0; i < 300; ++i)
        for (int j = 0; j < 700; ++j) {
            const double times = 2.0 + static_cast<double>(weights() % 1000) / 100.0;
            r.o.c(i, j) = static_cast<float>(right(i, j) + times * r.bound(i, j));
        }
    const auto first = tutorial::freivalds_check(r.o.a, r.o.b, r.o.c, {20, 3});
    const auto again = tutorial::freivalds_check(r.o.a, r.o.b, r.o.c, {20, 3});
    EXPECT_EQ(first.summary(), again.summary());
    EXPECT_EQ(first.sample_failures, again.sample_failures);
    int moved = 0;
    int inner_rows = 0;
    int inner_cols = 0;
    for (std::uint64_t seed = 4; seed < 24; ++seed) {
        const auto other = tutorial::freivalds_check(r.o.a, r.o.b, r.o.c, {20, seed});
        moved += other.sample_failures != first.sample_failures ||
                 other.sample_worst_row != first.sample_worst_row ||
                 other.sample_worst_col != first.sample_worst_col;
        inner_rows += offset_in_stratum(other.sample_worst_row, grid_rows, 300) > 0;
        inner_cols += offset_in_stratum(other.sample_worst_col, grid_cols, 700) > 0;
    }
    EXPECT_GE(moved, 16);
    EXPECT_GE(inner_rows, 10);
    EXPECT_GE(inner_cols, 10);

    // One whole cell wrong, each element 8 times its bound: the rows pass, one sampled element
    // fails, whatever the seed, for corner, edge and inner cells.
    const int cells[][2] = {{0, 0},
                            {0, grid_cols - 1},
                            {grid_rows - 1, 0},
                            {grid_rows - 1, grid_cols - 1},
                            {grid_rows / 2, grid_cols / 3}};
    for (const auto& cell : cells) {
        const int top = stratum_start(cell[0], grid_rows, 300);
        const int left = stratum_start(cell[1], grid_cols, 700);
        const int height = stratum_start(cell[0] + 1, grid_rows, 300) - top;
        const int width = stratum_start(cell[1] + 1, grid_cols, 700) - left;
        r.o.c = right;
        spoil_block(r, top, left, height, width, 8.0, 11);
        for (std::uint64_t seed = 1; seed <= 5; ++seed) {
            const auto report = tutorial::freivalds_check(r.o.a, r.o.b, r.o.c, {20, seed});
            EXPECT_TRUE(report.rows_passed) << report.summary();
            EXPECT_FALSE(report.passed) << report.summary();
            EXPECT_EQ(report.sample_failures, 1) << report.summary();
            EXPECT_TRUE(inside(report.sample_worst_row, top, height)) << report.summary();
            EXPECT_TRUE(inside(report.sample_worst_col, left, width)) << report.summary();
        }
    }

    // A wrong region two cells tall and two wide, less one element each way, anywhere: it holds
    // a whole cell.
    const int height = 2 * (300 + grid_rows - 1) / grid_rows - 1;
    const int width = 2 * (700 + grid_cols - 1) / grid_cols - 1;
    std::mt19937_64 random(21);
    for (int region = 0; region < 20; ++region) {
        const int top = static_cast<int>(random() % static_cast<std::uint64_t>(300 - height + 1));
        const int left = static_cast<int>(random() % static_cast<std::uint64_t>(700 - width + 1));
        r.o.c = right;
        spoil_block(r, top, left, height, width, 8.0, 100u + region);
        const auto report = tutorial::freivalds_check(r.o.a, r.o.b, r.o.c);
        EXPECT_FALSE(report.passed) << report.summary();
        EXPECT_TRUE(inside(report.sample_worst_row, top, height)) << report.summary();
        EXPECT_TRUE(inside(report.sample_worst_col, left, width)) << report.summary();
    }
}

TEST(Freivalds, ASmallCIsCheckedElementByElement) {
    // 40 x 50 = 2000 elements, no more than the sample: all of them are checked. One of them off
    // by twice its bound is within its row's bound of 50 element bounds, not within its own.
    auto r = rounded_operands(40, 50, 200);
    auto report = tutorial::freivalds_check(r.o.a, r.o.b, r.o.c);
    EXPECT_TRUE(report.passed) << report.summary();
    EXPECT_EQ(report.sampled, 2000);
    EXPECT_EQ(report.grid_rows, 40);
    EXPECT_EQ(report.grid_cols, 50);
    EXPECT_NE(report.summary().find("; all 2000 elements within"), std::string::npos)
        << report.summary();
    r.o.c(17, 33) = static_cast<float>(r.o.c(17, 33) + 2.0 * r.bound(17, 33));
    report = tutorial::freivalds_check(r.o.a, r.o.b, r.o.c);
    EXPECT_TRUE(report.rows_passed) << report.summary();
    EXPECT_FALSE(report.passed) << report.summary();
    EXPECT_EQ(report.sample_failures, 1);
    EXPECT_EQ(report.sample_worst_row, 17);
    EXPECT_EQ(report.sample_worst_col, 33);
    EXPECT_NE(report.summary().find("; 1 of all 2000 elements outside"), std::string::npos)
        << report.summary();
}

TEST(Freivalds, TheSampleOfAnExactProductAsksForEquality) {
    // Integers, and floats holding small integers: one sampled element off by 1 fails, with no
    // bound. 2000 elements are all sampled.
    auto ints = random_operands<int>(40, 50, 30, -8, 8);
    ints.c(5, 6) += 1;
    const auto report = tutorial::freivalds_check(ints.a, ints.b, ints.c, {20, 1, 4096});
    EXPECT_FALSE(report.passed);
    EXPECT_TRUE(report.exact);
    EXPECT_EQ(report.sample_failures, 1);
    EXPECT_EQ(report.sample_worst_row, 5);
    EXPECT_EQ(report.sample_worst_col, 6);
    EXPECT_EQ(report.sample_worst_difference, 1.0);
    EXPECT_NE(report.summary().find("; 1 of all 2000 elements not equal, worst C(5, 6): "
                                    "difference 1"),
              std::string::npos)
        << report.summary();
    auto floats = random_operands<float>(40, 50, 30, -8.0f, 8.0f);
    for (std::size_t i = 0; i < floats.a.size(); ++i)
        floats.a.data()[i] = std::round(floats.a.data()[i]);
    for (std::size_t i = 0; i < floats.b.size(); ++i)
        floats.b.data()[i] = std::round(floats.b.data()[i]);
    floats.c = product(floats.a, floats.b);
    EXPECT_TRUE(tutorial::freivalds_check(floats.a, floats.b, floats.c).passed);
    floats.c(39, 49) += 1.0f;
    const auto wrong = tutorial::freivalds_check(floats.a, floats.b, floats.c);
    EXPECT_TRUE(wrong.exact);
    EXPECT_EQ(wrong.sample_failures, 1);
    EXPECT_EQ(wrong.sample_worst_row, 39);
    EXPECT_EQ(wrong.sample_worst_col, 49);
}

TEST(Freivalds, OneWrongElementOfALargeCIsFoundInEveryTrial) {
    // 2,550,000 elements of C; one of them is off by 1 (integers) or by just over its row's
    // bound (floats), and each of 100 trials, with its own signs, finds it.
    auto ints = random_operands<int>(1500, 1700, 48, -8, 8);
    ints.c(1234, 567) += 1;
    EXPECT_EQ(trials_that_find(ints, 1234), 100);
    auto floats = random_operands<float>(1500, 1700, 48, -1.0f, 1.0f);
    const double bound = row_bound(floats, 876);
    floats.c(876, 1699) += static_cast<float>(1.01 * bound);
    EXPECT_EQ(trials_that_find(floats, 876), 100);
    // Left right, the same C passes every trial.
    floats.c = product(floats.a, floats.b);
    const auto report = tutorial::freivalds_check(floats.a, floats.b, floats.c, {100, 5});
    EXPECT_TRUE(report.passed) << report.summary();
}

TEST(Freivalds, ACThatPassesElementWisePassesToo) {
    // Every element moved by half its own element-wise bound, all the same way: verify_gemm
    // accepts it, and so must Freivalds' check, whose row bound is the sum of those bounds.
    auto o = random_operands<float>(40, 50, 200, -1.0f, 1.0f);
    const double factor = 2.0 * tutorial::gamma_k(200, std::numeric_limits<float>::epsilon() / 2.0);
    for (int i = 0; i < 40; ++i)
        for (int j = 0; j < 50; ++j) {
            double magnitude = 0.0;
            for (int p = 0; p < 200; ++p)
                magnitude += std::fabs(static_cast<double>(o.a(i, p))) * std::fabs(o.b(p, j));
            o.c(i, j) = static_cast<float>(o.c(i, j) + 0.5 * factor * magnitude);
        }
    EXPECT_TRUE(tutorial::verify_gemm(o.a, o.b, o.c).passed);
    EXPECT_TRUE(tutorial::freivalds_check(o.a, o.b, o.c, {100, 3}).passed);
}

TEST(Freivalds, TwoErrorsThatCancelForSomeSignsAreFound) {
    // +1 and -1 in one row cancel whenever their two signs agree, half the draws; 20 trials all
    // miss them with probability 2^-20.
    auto o = random_operands<int>(30, 40, 20, -8, 8);
    o.c(3, 5) += 1;
    o.c(3, 6) -= 1;
    int missed = 0;
    for (int seed = 1; seed <= 100; ++seed)
        missed +=
            tutorial::freivalds_check(o.a, o.b, o.c, FreivaldsOptions{1, 2000u + seed, 0}).passed;
    EXPECT_GT(missed, 20);
    EXPECT_LT(missed, 80);
    EXPECT_FALSE(tutorial::freivalds_check(o.a, o.b, o.c).passed);
}

TEST(Freivalds, NanFails) {
    auto o = random_operands<float>(10, 11, 12, -1.0f, 1.0f);
    o.c(4, 4) = std::numeric_limits<float>::quiet_NaN();
    const auto report = tutorial::freivalds_check(o.a, o.b, o.c);
    EXPECT_FALSE(report.passed);
    EXPECT_EQ(report.worst_row, 4);
    // 110 elements, all sampled: the NaN among them.
    EXPECT_EQ(report.sample_failures, 1);
    EXPECT_EQ(report.sample_worst_row, 4);
    EXPECT_EQ(report.sample_worst_col, 4);
}

TEST(Freivalds, BadInputIsRefused) {
    const auto o = random_operands<float>(5, 6, 7, -1.0f, 1.0f);
    EXPECT_THROW(tutorial::freivalds_check(o.a, o.b, Matrix<float>(5, 5)), std::invalid_argument);
    EXPECT_THROW(tutorial::freivalds_check(o.a, o.a, o.c), std::invalid_argument);
    EXPECT_THROW(tutorial::freivalds_check(o.a, o.b, o.c, {0, 1}), std::invalid_argument);
    EXPECT_THROW(tutorial::freivalds_check(o.a, o.b, o.c, {20, 1, -1}), std::invalid_argument);
    // Integers whose |A||B| sums reach 2^53 are not exact in double.
    Matrix<int> a(1, 2), b(2, 1), c(1, 1);
    a(0, 0) = a(0, 1) = 1 << 30;
    b(0, 0) = b(1, 0) = 1 << 22;
    EXPECT_THROW(tutorial::freivalds_check(a, b, c), std::invalid_argument);
}

TEST(Freivalds, ReadsMatricesWhereTheyAreThroughViews) {
    // The benchmark checks pinned buffers it does not copy: the same check through views of raw
    // memory gives the same report, and finds the same wrong element.
    auto o = random_operands<float>(300, 200, 100, -1.0f, 1.0f);
    const std::vector<float> a(o.a.data(), o.a.data() + o.a.size());
    const std::vector<float> b(o.b.data(), o.b.data() + o.b.size());
    std::vector<float> c(o.c.data(), o.c.data() + o.c.size());
    const tutorial::ConstMatrixView<float> va(a.data(), 300, 100), vb(b.data(), 100, 200),
        vc(c.data(), 300, 200);
    const auto viewed = tutorial::freivalds_check(va, vb, vc);
    const auto held = tutorial::freivalds_check(o.a, o.b, o.c);
    EXPECT_TRUE(viewed.passed) << viewed.summary();
    EXPECT_EQ(viewed.summary(), held.summary());
    c[static_cast<std::size_t>(123) * 200 + 45] += 1.0f;
    const auto wrong = tutorial::freivalds_check(va, vb, vc);
    EXPECT_FALSE(wrong.passed);
    EXPECT_EQ(wrong.worst_row, 123);
    EXPECT_THROW(tutorial::ConstMatrixView<float>(a.data(), -1, 3), std::invalid_argument);
}

// K = 5,592,406 in float, not integers: the bound would pass a C of zeros, so no C passes; the
// same K with integer operands is exact and checked as ever.
TEST(Freivalds, NoBoundMeansNoPass) {
    const int k = tutorial::kLongestCheckableK + 1;
    Matrix<float> a(1, k), b(k, 1), c(1, 1);
    tutorial::fill_random(a, 41);
    tutorial::fill_random(b, 42);
    c(0, 0) = 12345.0f;
    const auto report = tutorial::freivalds_check(a, b, c);
    EXPECT_FALSE(report.passed);
    EXPECT_FALSE(report.bounded);
    EXPECT_NE(report.summary().find("verification impossible"), std::string::npos)
        << report.summary();
    double sum = 0.0;
    for (int p = 0; p < k; ++p) {
        a(0, p) = static_cast<float>(p % 3 - 1);
        b(p, 0) = 1.0f;
        sum += a(0, p);
    }
    c(0, 0) = static_cast<float>(sum);
    const auto exact = tutorial::freivalds_check(a, b, c);
    EXPECT_TRUE(exact.bounded);
    EXPECT_TRUE(exact.passed) << exact.summary();
}

TEST(CheckProduct, ElementWiseWhereAffordableFreivaldsAbove) {
    // 300 x 200 x 100 is 6e6 multiply-adds, within the reference's budget: checked element by
    // element. 700 x 700 x 700 is 3.4e8, above it: Freivalds' check of all of C. Both catch one
    // wrong element and say which check ran.
    auto small = random_operands<float>(300, 200, 100, -1.0f, 1.0f);
    auto check = tutorial::check_product(small.a, small.b, small.c);
    EXPECT_TRUE(check.passed) << check.summary;
    EXPECT_EQ(check.summary.find("Freivalds"), std::string::npos) << check.summary;
    small.c(7, 8) += 0.5f;
    EXPECT_FALSE(tutorial::check_product(small.a, small.b, small.c).passed);

    auto large = random_operands<int>(700, 700, 700, -2, 2);
    Matrix<float> a(700, 700), b(700, 700), c(700, 700);
    for (std::size_t i = 0; i < a.size(); ++i) {
        a.data()[i] = static_cast<float>(large.a.data()[i]);
        b.data()[i] = static_cast<float>(large.b.data()[i]);
        c.data()[i] = static_cast<float>(large.c.data()[i]);
    }
    const tutorial::ConstMatrixView<float> va(a), vb(b), vc(c);
    check = tutorial::check_product(va, vb, vc);
    EXPECT_TRUE(check.passed) << check.summary;
    EXPECT_NE(check.summary.find("Freivalds"), std::string::npos) << check.summary;
    c(699, 0) += 1.0f;
    check = tutorial::check_product(va, vb, vc);
    EXPECT_FALSE(check.passed);
    EXPECT_NE(check.summary.find("worst row 699"), std::string::npos) << check.summary;
}
