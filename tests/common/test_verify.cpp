#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "common/matrix.hpp"
#include "common/reference_gemm.hpp"
#include "common/verify.hpp"

using tutorial::Matrix;

namespace {

// A float product summed in the opposite order from the reference: a correct result whose error
// is real but within the bound.
Matrix<float> float_product_reversed(const Matrix<float>& a, const Matrix<float>& b) {
    Matrix<float> c(a.rows(), b.cols());
    for (int i = 0; i < a.rows(); ++i)
        for (int j = 0; j < b.cols(); ++j) {
            float sum = 0.0f;
            for (int p = a.cols() - 1; p >= 0; --p)
                sum += a(i, p) * b(p, j);
            c(i, j) = sum;
        }
    return c;
}

struct Product {
    Matrix<float> a, b, c;
};

Product random_product(int m, int n, int k, std::uint64_t seed) {
    Product p{Matrix<float>(m, k), Matrix<float>(k, n), Matrix<float>()};
    tutorial::fill_random(p.a, seed);
    tutorial::fill_random(p.b, seed + 1);
    p.c = float_product_reversed(p.a, p.b);
    return p;
}

double bound_of(const Product& p, int row, int col) {
    const auto ref = tutorial::reference_gemm_rows(p.a, p.b, {row});
    return 2.0 * tutorial::gamma_k(p.a.cols(), std::ldexp(1.0, -24)) * ref.magnitude(0, col);
}

}  // namespace

TEST(Verify, CorrectFloatResultWithRoundingErrorPasses) {
    const Product p = random_product(37, 23, 301, 11);
    // The float result really differs from the double reference somewhere...
    const Matrix<double> exact = tutorial::reference_gemm(p.a, p.b);
    double largest = 0.0;
    for (int i = 0; i < 37; ++i)
        for (int j = 0; j < 23; ++j)
            largest = std::max(largest, std::fabs(p.c(i, j) - exact(i, j)));
    ASSERT_GT(largest, 0.0);
    // ...and is still accepted.
    const tutorial::VerifyReport report = tutorial::verify_gemm(p.a, p.b, p.c);
    EXPECT_TRUE(report.passed) << report.summary();
    EXPECT_EQ(report.checked, 37u * 23u);
    EXPECT_EQ(report.failures, 0u);
}

TEST(Verify, OneWrongElementIsCaughtAndNamed) {
    Product p = random_product(19, 29, 64, 5);
    p.c(13, 17) += 0.01f;
    const tutorial::VerifyReport report = tutorial::verify_gemm(p.a, p.b, p.c);
    EXPECT_FALSE(report.passed);
    EXPECT_EQ(report.failures, 1u);
    EXPECT_EQ(report.worst_row, 13);
    EXPECT_EQ(report.worst_col, 17);
    EXPECT_NE(report.summary().find("FAILED"), std::string::npos);
    EXPECT_NE(report.summary().find("C(13, 17)"), std::string::npos) << report.summary();
}

TEST(Verify, BoundIsTheEdgeBetweenPassAndFail) {
    Product p = random_product(4, 4, 100, 21);
    const Matrix<double> exact = tutorial::reference_gemm(p.a, p.b);
    const double bound = bound_of(p, 2, 3);
    ASSERT_GT(bound, 0.0);
    p.c(2, 3) = static_cast<float>(exact(2, 3) + 0.5 * bound);
    EXPECT_TRUE(tutorial::verify_gemm(p.a, p.b, p.c).passed)
        << "an error of half the bound must pass";
    p.c(2, 3) = static_cast<float>(exact(2, 3) + 3.0 * bound);
    const tutorial::VerifyReport report = tutorial::verify_gemm(p.a, p.b, p.c);
    EXPECT_FALSE(report.passed) << "an error of three times the bound must fail";
    EXPECT_EQ(report.worst_row, 2);
    EXPECT_EQ(report.worst_col, 3);
}

TEST(Verify, NaNAlwaysFails) {
    Product p = random_product(8, 8, 8, 2);
    p.c(5, 1) = std::numeric_limits<float>::quiet_NaN();
    const tutorial::VerifyReport report = tutorial::verify_gemm(p.a, p.b, p.c);
    EXPECT_FALSE(report.passed);
    EXPECT_EQ(report.worst_row, 5);
    EXPECT_EQ(report.worst_col, 1);
    EXPECT_NE(report.summary().find("nan"), std::string::npos) << report.summary();
}

TEST(Verify, InfinityAlwaysFails) {
    Product p = random_product(8, 8, 8, 3);
    p.c(0, 7) = -std::numeric_limits<float>::infinity();
    const tutorial::VerifyReport report = tutorial::verify_gemm(p.a, p.b, p.c);
    EXPECT_FALSE(report.passed);
    EXPECT_EQ(report.worst_row, 0);
    EXPECT_EQ(report.worst_col, 7);
}

TEST(Verify, ZeroRowNeedsExactZero) {
    // A row of zeros makes |A||B| zero there, so the bound is zero and only 0 passes.
    Product p = random_product(3, 5, 6, 9);
    for (int j = 0; j < 6; ++j)
        p.a(1, j) = 0.0f;
    p.c = float_product_reversed(p.a, p.b);
    EXPECT_TRUE(tutorial::verify_gemm(p.a, p.b, p.c).passed);
    p.c(1, 4) = 1e-30f;
    EXPECT_FALSE(tutorial::verify_gemm(p.a, p.b, p.c).passed);
}

TEST(Verify, IntegersCompareExactly) {
    Matrix<int> a(6, 9), b(9, 4);
    tutorial::fill_random(a, 1, -9, 9);
    tutorial::fill_random(b, 2, -9, 9);
    Matrix<int> c(6, 4);
    const Matrix<double> exact = tutorial::reference_gemm(a, b);
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 4; ++j)
            c(i, j) = static_cast<int>(exact(i, j));
    const tutorial::VerifyReport good = tutorial::verify_gemm(a, b, c);
    EXPECT_TRUE(good.passed) << good.summary();
    EXPECT_TRUE(good.exact);
    c(4, 2) += 1;
    const tutorial::VerifyReport bad = tutorial::verify_gemm(a, b, c);
    EXPECT_FALSE(bad.passed);
    EXPECT_EQ(bad.worst_row, 4);
    EXPECT_EQ(bad.worst_col, 2);
}

TEST(Verify, MismatchedShapesAreRejected) {
    const Matrix<float> a(3, 4), b(5, 2), c(3, 2);
    EXPECT_THROW(tutorial::verify_gemm(a, b, c), std::invalid_argument);
}

// One reference checks several results of the same product, each as verify_gemm would: the
// benchmark programs verify every kernel of a shape against one reference.
TEST(Verify, OneReferenceChecksManyResultsAsVerifyGemmDoes) {
    Product p = random_product(21, 18, 97, 8);
    const tutorial::GemmReference<float> reference(p.a, p.b);
    const tutorial::VerifyReport good = reference.check(p.c);
    EXPECT_TRUE(good.passed) << good.summary();
    EXPECT_EQ(good.summary(), tutorial::verify_gemm(p.a, p.b, p.c).summary());
    Matrix<float> wrong = p.c;
    wrong(20, 0) -= 0.05f;
    const tutorial::VerifyReport bad = reference.check(wrong);
    EXPECT_FALSE(bad.passed);
    EXPECT_EQ(bad.worst_row, 20);
    EXPECT_EQ(bad.worst_col, 0);
    EXPECT_EQ(bad.summary(), tutorial::verify_gemm(p.a, p.b, wrong).summary());
    // The reference is unchanged by the checks: the correct result still passes after the wrong.
    EXPECT_TRUE(reference.check(p.c).passed);
}

TEST(Verify, OneReferenceRejectsShapesThatDoNotFit) {
    const Matrix<float> a(3, 4), b(5, 2);
    EXPECT_THROW(tutorial::GemmReference<float>(a, b), std::invalid_argument);
    const Matrix<float> b_fits(4, 2), c_wrong(2, 3);
    const tutorial::GemmReference<float> reference(a, b_fits);
    EXPECT_THROW((void)reference.check(c_wrong), std::invalid_argument);
}

TEST(Verify, LargeProductsAreSampledIncludingFirstAndLastRow) {
    tutorial::VerifyOptions options;
    options.max_reference_work = 1000.0 * 100 * 100;
    const std::vector<int> rows = tutorial::rows_to_verify(5000, 100, 100, options);
    ASSERT_EQ(rows.size(), 1000u);
    EXPECT_EQ(rows.front(), 0);
    EXPECT_EQ(rows.back(), 4999);
    for (std::size_t i = 1; i < rows.size(); ++i)
        EXPECT_LT(rows[i - 1], rows[i]);
    EXPECT_EQ(tutorial::rows_to_verify(50, 100, 100, options).size(), 50u);
}

TEST(Verify, SampledCheckStillCatchesAWrongSampledRow) {
    Product p = random_product(40, 8, 8, 4);
    tutorial::VerifyOptions options;
    options.max_reference_work = 10.0 * 8 * 8;
    p.c(39, 3) = 100.0f;  // the last row is always sampled
    const tutorial::VerifyReport report = tutorial::verify_gemm(p.a, p.b, p.c, options);
    EXPECT_FALSE(report.passed);
    EXPECT_EQ(report.rows_checked, 10);
    EXPECT_NE(report.summary().find("sampled rows"), std::string::npos);
}

TEST(Verify, GammaK) {
    const double u = std::ldexp(1.0, -24);
    EXPECT_DOUBLE_EQ(tutorial::gamma_k(1, u), u / (1.0 - u));
    EXPECT_DOUBLE_EQ(tutorial::gamma_k(1024, u), 1024 * u / (1.0 - 1024 * u));
    EXPECT_TRUE(std::isinf(tutorial::gamma_k(1 << 24, u)));
}

// K = 5,592,406 in float: 2 gamma_K >= 1, so the bound would pass a C of zeros (and K = 2^24 any
// finite C). It fails instead, compares nothing and says why; shorter K check as ever.
TEST(Verify, NoBoundMeansNoPass) {
    const int k = tutorial::kLongestCheckableK + 1;
    Matrix<float> a(1, k), b(k, 2), c(1, 2);
    tutorial::fill_random(a, 31);
    tutorial::fill_random(b, 32);
    c(0, 0) = 1.0e6f;  // wrong, and finite
    c(0, 1) = -3.0f;
    const tutorial::VerifyReport report = tutorial::verify_gemm(a, b, c);
    EXPECT_FALSE(report.passed);
    EXPECT_FALSE(report.bounded);
    EXPECT_EQ(report.checked, 0u);
    EXPECT_NE(report.summary().find("verification impossible: K = 5592406"), std::string::npos)
        << report.summary();
    EXPECT_GE(2.0 * tutorial::gamma_k(k, std::ldexp(1.0, -24)), 1.0);
    EXPECT_LT(2.0 * tutorial::gamma_k(k - 1, std::ldexp(1.0, -24)), 1.0);
    const Product shorter = random_product(1, 2, 2000, 33);
    EXPECT_TRUE(tutorial::verify_gemm(shorter.a, shorter.b, shorter.c).bounded);
}
