#include <gtest/gtest.h>

#include "common/matrix.hpp"
#include "common/reference_gemm.hpp"

using tutorial::Matrix;

TEST(ReferenceGemm, WorkedExampleFromStep01) {
    const Matrix<int> a{{1, 4}, {2, 5}, {3, 6}};
    const Matrix<int> b{{7, 8, 9}, {10, 11, 12}};
    const Matrix<double> c = tutorial::reference_gemm(a, b);
    const double expected[3][3] = {{47, 52, 57}, {64, 71, 78}, {81, 90, 99}};
    ASSERT_EQ(c.rows(), 3);
    ASSERT_EQ(c.cols(), 3);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            EXPECT_EQ(c(i, j), expected[i][j]) << "C(" << i << ", " << j << ")";
}

TEST(ReferenceGemm, FourByFourExampleOfStep03) {
    const Matrix<int> a{{1, 2, 3, 4}, {5, 6, 7, 8}, {1, 2, 3, 4}, {5, 6, 7, 8}};
    const Matrix<double> c = tutorial::reference_gemm(a, a);
    EXPECT_EQ(c(0, 0), 34.0);  // 1*1 + 2*5 + 3*1 + 4*5, as worked out by hand
    EXPECT_EQ(c(1, 3), 5 * 4 + 6 * 8 + 7 * 4 + 8 * 8);
}

TEST(ReferenceGemm, NonSquareWithNegativeValues) {
    // (1 x 3) times (3 x 2), computed by hand.
    const Matrix<float> a{{2.0f, -1.0f, 0.5f}};
    const Matrix<float> b{{1.0f, -2.0f}, {3.0f, 4.0f}, {-6.0f, 8.0f}};
    const Matrix<double> c = tutorial::reference_gemm(a, b);
    EXPECT_EQ(c(0, 0), 2.0 - 3.0 - 3.0);
    EXPECT_EQ(c(0, 1), -4.0 - 4.0 + 4.0);
}

TEST(ReferenceGemm, IdentityLeavesRandomMatrixUnchanged) {
    Matrix<float> a(5, 7);
    tutorial::fill_random(a, 3);
    Matrix<float> identity(7, 7);
    for (int i = 0; i < 7; ++i)
        identity(i, i) = 1.0f;
    const Matrix<double> c = tutorial::reference_gemm(a, identity);
    for (int i = 0; i < 5; ++i)
        for (int j = 0; j < 7; ++j)
            EXPECT_EQ(c(i, j), static_cast<double>(a(i, j)));
}

TEST(ReferenceGemm, MagnitudeIsProductOfAbsoluteValues) {
    const Matrix<float> a{{2.0f, -1.0f}, {-3.0f, 4.0f}};
    const Matrix<float> b{{-1.0f, 5.0f}, {2.0f, -2.0f}};
    const tutorial::ReferenceRows rows = tutorial::reference_gemm_rows(a, b, {1});
    ASSERT_EQ(rows.rows.size(), 1u);
    EXPECT_EQ(rows.product(0, 0), 3.0 + 8.0);
    EXPECT_EQ(rows.product(0, 1), -15.0 - 8.0);
    EXPECT_EQ(rows.magnitude(0, 0), 3.0 + 8.0);
    EXPECT_EQ(rows.magnitude(0, 1), 15.0 + 8.0);
}
