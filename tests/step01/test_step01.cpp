#include <gtest/gtest.h>

#include "common/matrix.hpp"
#include "common/verify.hpp"
#include "serial_gemm.hpp"
#include "tests/support/shapes.hpp"

using tutorial::Matrix;

TEST(Step01, WorkedExampleExactly) {
    const Matrix<int> a{{1, 4}, {2, 5}, {3, 6}};
    const Matrix<int> b{{7, 8, 9}, {10, 11, 12}};
    Matrix<int> c(3, 3);
    step01::gemm(a.data(), b.data(), c.data(), 3, 3, 2);
    const int expected[3][3] = {{47, 52, 57}, {64, 71, 78}, {81, 90, 99}};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            EXPECT_EQ(c(i, j), expected[i][j]) << "C(" << i << ", " << j << ")";
}

TEST(Step01, OverwritesInsteadOfAccumulating) {
    const Matrix<int> a{{2}};
    const Matrix<int> b{{3}};
    Matrix<int> c{{100}};
    step01::gemm(a.data(), b.data(), c.data(), 1, 1, 1);
    EXPECT_EQ(c(0, 0), 6);
}

using tutorial_test::Shape;

class Step01Shapes : public testing::TestWithParam<Shape> {};

TEST_P(Step01Shapes, IntegersMatchExactly) {
    const Shape s = GetParam();
    Matrix<int> a(s.m, s.k), b(s.k, s.n), c(s.m, s.n);
    tutorial::fill_random(a, 100 + s.m, -20, 20);
    tutorial::fill_random(b, 200 + s.n, -20, 20);
    step01::gemm(a.data(), b.data(), c.data(), s.m, s.n, s.k);
    const auto report = tutorial::verify_gemm(a, b, c);
    EXPECT_TRUE(report.passed) << report.summary();
}

TEST_P(Step01Shapes, FloatsWithinTheBound) {
    const Shape s = GetParam();
    Matrix<float> a(s.m, s.k), b(s.k, s.n), c(s.m, s.n);
    tutorial::fill_random(a, 300 + s.k);
    tutorial::fill_random(b, 400 + s.m);
    step01::gemm(a.data(), b.data(), c.data(), s.m, s.n, s.k);
    const auto report = tutorial::verify_gemm(a, b, c);
    EXPECT_TRUE(report.passed) << report.summary();
    EXPECT_EQ(report.checked, static_cast<std::size_t>(s.m) * s.n);
}

INSTANTIATE_TEST_SUITE_P(Shapes, Step01Shapes,
                         testing::Values(Shape{1, 1, 1}, Shape{3, 3, 2}, Shape{7, 13, 5},
                                         Shape{17, 31, 13}, Shape{64, 1, 33}, Shape{1, 50, 40},
                                         Shape{40, 30, 1}, Shape{129, 65, 257}),
                         [](const testing::TestParamInfo<Shape>& info) {
                             return std::to_string(info.param.m) + "x" +
                                    std::to_string(info.param.n) + "x" +
                                    std::to_string(info.param.k);
                         });
