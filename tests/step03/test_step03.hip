#include <gtest/gtest.h>

#include <stdexcept>

#include <cstdint>
#include <string>

#include "common/device.hpp"
#include "common/device_buffer.hpp"
#include "common/gpu_gemm_runner.hpp"
#include "common/hip_check.hpp"
#include "common/matrix.hpp"
#include "common/verify.hpp"
#include "steps/03_tiled_2x2/tiled_gemm.hpp"
#include "tests/support/gpu_gemm_test.hpp"
#include "tests/support/gpu_test.hpp"
#include "tests/support/shapes.hpp"

using tutorial::Matrix;

namespace {

// Runs step03::gemm over a C full of garbage (see tutorial_test::multiply_over).
template <typename T>
Matrix<T> multiply_over_garbage(const Matrix<T>& a, const Matrix<T>& b,
                                std::uint64_t garbage_seed) {
    return tutorial_test::multiply_over<T>(
        a, b, tutorial_test::garbage<T>(a.rows(), b.cols(), garbage_seed), step03::gemm<T>);
}

}  // namespace

TEST(Step03, WorkedExampleExactly) {
    TUTORIAL_REQUIRE_GPU();
    tutorial::select_device(0);
    const Matrix<int> a = tutorial_test::worked_example_matrix<int>();
    tutorial_test::expect_worked_example_product(
        tutorial::multiply_on_device<int>(a, a, step03::gemm<int>));
}

TEST(Step03, OverwritesInsteadOfAccumulating) {
    TUTORIAL_REQUIRE_GPU();
    tutorial::select_device(0);
    Matrix<int> a(3, 5), b(5, 3);
    tutorial::fill_random(a, 11, -9, 9);
    tutorial::fill_random(b, 12, -9, 9);
    const Matrix<int> first = multiply_over_garbage(a, b, 13);
    const Matrix<int> second = multiply_over_garbage(a, b, 14);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            EXPECT_EQ(first(i, j), second(i, j)) << "C(" << i << ", " << j << ")";
    EXPECT_TRUE(tutorial::verify_gemm(a, b, first).passed);
}

// Every element of C must be written: C starts as NaN (all bits set), which never verifies.
TEST(Step03, WritesEveryElement) {
    TUTORIAL_REQUIRE_GPU();
    tutorial::select_device(0);
    const int m = 9, n = 7, k = 5;
    Matrix<float> a(m, k), b(k, n), c(m, n);
    tutorial::fill_random(a, 21);
    tutorial::fill_random(b, 22);
    tutorial::DeviceBuffer<float> device_a(a.size()), device_b(b.size()), device_c(c.size());
    device_a.upload(a);
    device_b.upload(b);
    HIP_CHECK(hipMemset(device_c.get(), 0xFF, device_c.bytes()));
    step03::gemm(device_a.get(), device_b.get(), device_c.get(), m, n, k, nullptr);
    HIP_CHECK(hipDeviceSynchronize());
    device_c.download(c);
    const auto report = tutorial::verify_gemm(a, b, c);
    EXPECT_TRUE(report.passed) << report.summary();
}

using tutorial_test::Shape;

class Step03Shapes : public testing::TestWithParam<Shape> {};

TEST_P(Step03Shapes, IntegersMatchExactly) {
    TUTORIAL_REQUIRE_GPU();
    tutorial::select_device(0);
    tutorial_test::expect_shape_over_garbage<int>(GetParam(), step03::gemm<int>);
}

TEST_P(Step03Shapes, FloatsWithinTheBound) {
    TUTORIAL_REQUIRE_GPU();
    tutorial::select_device(0);
    tutorial_test::expect_shape_over_garbage<float>(GetParam(), step03::gemm<float>);
}

// 65536 rows, the most the command line allows, need 32768 rows of 2 x 2 blocks: one grid.
INSTANTIATE_TEST_SUITE_P(Shapes, Step03Shapes,
                         testing::Values(Shape{1, 1, 1}, Shape{2, 2, 2}, Shape{4, 4, 4},
                                         Shape{3, 5, 7}, Shape{17, 31, 13}, Shape{40, 30, 1},
                                         Shape{64, 1, 33}, Shape{1, 50, 40}, Shape{5, 3, 2},
                                         Shape{129, 65, 257}, Shape{1031, 1025, 1037},
                                         Shape{65536, 3, 5}),
                         [](const testing::TestParamInfo<Shape>& info) {
                             return std::to_string(info.param.m) + "x" +
                                    std::to_string(info.param.n) + "x" +
                                    std::to_string(info.param.k);
                         });

// The argument checks come before any HIP call, so these need no GPU.
TEST(Step03Gemm, RejectsNegativeSizes) {
    tutorial_test::expect_negative_sizes_rejected<float>(step03::gemm<float>);
    tutorial_test::expect_negative_sizes_rejected<int>(step03::gemm<int>);
}

TEST(Step03Gemm, RejectsSizesItCannotIndex) {
    tutorial_test::expect_unindexable_sizes_rejected<float>(step03::gemm<float>);
    tutorial_test::expect_unindexable_sizes_rejected<int>(step03::gemm<int>);
}

TEST(Step03Gemm, EmptyProductLaunchesNothing) {
    tutorial_test::expect_empty_product_launches_nothing<float>(step03::gemm<float>);
    tutorial_test::expect_empty_product_launches_nothing<int>(step03::gemm<int>);
}
