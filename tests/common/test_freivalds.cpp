#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/freivalds.hpp"
#include "common/matrix.hpp"
#include "common/program.hpp"
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

// Runs 100 single-trial checks, each with its own signs, and counts those that failed at `row`.
template <typename T>
int trials_that_find(const Operands<T>& o, int row) {
    int found = 0;
    for (int seed = 1; seed <= 100; ++seed) {
        const auto report =
            tutorial::freivalds_check(o.a, o.b, o.c, FreivaldsOptions{1, 1000u + seed});
        if (!report.passed && report.worst_row == row)
            ++found;
    }
    return found;
}

}  // namespace

TEST(Freivalds, ARightProductPasses) {
    const auto floats = random_operands<float>(123, 77, 301, -1.0f, 1.0f);
    const auto report = tutorial::freivalds_check(floats.a, floats.b, floats.c);
    EXPECT_TRUE(report.passed) << report.summary();
    EXPECT_EQ(report.trials, 20);
    EXPECT_EQ(report.rows, 123);
    const auto ints = random_operands<int>(64, 90, 33, -8, 8);
    const auto exact = tutorial::freivalds_check(ints.a, ints.b, ints.c);
    EXPECT_TRUE(exact.passed) << exact.summary();
    EXPECT_TRUE(exact.exact);
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
            tutorial::freivalds_check(o.a, o.b, o.c, FreivaldsOptions{1, 2000u + seed}).passed;
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
}

TEST(Freivalds, BadInputIsRefused) {
    const auto o = random_operands<float>(5, 6, 7, -1.0f, 1.0f);
    EXPECT_THROW(tutorial::freivalds_check(o.a, o.b, Matrix<float>(5, 5)), std::invalid_argument);
    EXPECT_THROW(tutorial::freivalds_check(o.a, o.a, o.c), std::invalid_argument);
    EXPECT_THROW(tutorial::freivalds_check(o.a, o.b, o.c, {0, 1}), std::invalid_argument);
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
