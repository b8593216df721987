/// \file
/// \brief For GPU step tests: run a step's entry point on a C that already holds other values,
/// the worked example, exact integers through float kernels, and the entry point's size checks.
#pragma once

#include <gtest/gtest.h>
#include <hip/hip_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "common/device_buffer.hpp"
#include "common/gpu_gemm_runner.hpp"
#include "common/hip_check.hpp"
#include "common/matrix.hpp"
#include "common/verify.hpp"
#include "tests/support/exception_message.hpp"
#include "tests/support/shapes.hpp"

namespace tutorial_test {

/// Random values in [-1000000, 1000000] for C before a multiply, far from any product the tests
/// form.
template <typename T>
tutorial::Matrix<T> garbage(int rows, int cols, std::uint64_t seed) {
    tutorial::Matrix<T> c(rows, cols);
    tutorial::fill_random(c, seed, T(-1000000), T(1000000));
    return c;
}

/// A (m x k) and B (k x n) of one product, for structured bindings: `auto [a, b] = ...`.
template <typename T>
struct Operands {
    tutorial::Matrix<T> a, b;
};

/// Random A and B of `shape`, each from its own seed, with values in [low, high] (by default
/// fill_random's [-1, 1]).
template <typename T>
Operands<T> random_operands(const Shape& shape, std::uint64_t seed_a, std::uint64_t seed_b,
                            T low = T(-1), T high = T(1)) {
    Operands<T> operands{tutorial::Matrix<T>(shape.m, shape.k),
                         tutorial::Matrix<T>(shape.k, shape.n)};
    tutorial::fill_random(operands.a, seed_a, low, high);
    tutorial::fill_random(operands.b, seed_b, low, high);
    return operands;
}

/// Copies A, B and `c_before` to the device, runs `launch` `runs` times into the same C, and
/// returns C. Because C starts out holding `c_before`, a kernel that skips an element fails
/// verification; with two runs, so does one that adds into C instead of overwriting it.
template <typename T>
tutorial::Matrix<T> multiply_over(const tutorial::Matrix<T>& a, const tutorial::Matrix<T>& b,
                                  tutorial::Matrix<T> c_before,
                                  const tutorial::GemmLauncher<T>& launch, int runs = 1) {
    tutorial::DeviceBuffer<T> device_a(a.size()), device_b(b.size()), device_c(c_before.size());
    device_a.upload(a);
    device_b.upload(b);
    device_c.upload(c_before);
    for (int run = 0; run < runs; ++run)
        launch(device_a.get(), device_b.get(), device_c.get(), a.rows(), b.cols(), a.cols(),
               nullptr);
    HIP_CHECK(hipDeviceSynchronize());
    device_c.download(c_before);
    return c_before;
}

/// The shape tests of steps 02 to 04: random A and B of `shape` (seeds `seed_a` and `seed_b`;
/// integers in [-20, 20], floats in [-1, 1]) multiplied with `launch` over a C of garbage (seed
/// `seed_c`), then checked against the reference product, exactly for integers.
template <typename T>
void expect_product_over_garbage(const Shape& shape, const tutorial::GemmLauncher<T>& launch,
                                 std::uint64_t seed_a, std::uint64_t seed_b, std::uint64_t seed_c) {
    const T bound = std::is_integral_v<T> ? T(20) : T(1);
    const auto [a, b] = random_operands<T>(shape, seed_a, seed_b, -bound, bound);
    const tutorial::Matrix<T> c = multiply_over(a, b, garbage<T>(shape.m, shape.n, seed_c), launch);
    const auto report = tutorial::verify_gemm(a, b, c);
    EXPECT_TRUE(report.passed) << shape_name(shape) << ": " << report.summary();
    if constexpr (std::is_integral_v<T>)
        EXPECT_TRUE(report.exact) << shape_name(shape);
}

/// The shape test of steps 02 and 03 in type T, with seeds drawn from the shape: A, B and C's
/// garbage from 100 + m, 200 + n and 300 + k for integers, from 400 + k, 500 + m and 600 + n for
/// floats.
template <typename T>
void expect_shape_over_garbage(const Shape& s, const tutorial::GemmLauncher<T>& launch) {
    if constexpr (std::is_integral_v<T>)
        expect_product_over_garbage<T>(s, launch, 100 + s.m, 200 + s.n, 300 + s.k);
    else
        expect_product_over_garbage<T>(s, launch, 400 + s.k, 500 + s.m, 600 + s.n);
}

/// The same values as float or as int (exact for the small integers the tests use).
template <class To, class From>
tutorial::Matrix<To> converted(const tutorial::Matrix<From>& matrix) {
    tutorial::Matrix<To> result(matrix.rows(), matrix.cols());
    for (std::size_t i = 0; i < matrix.size(); ++i)
        result.data()[i] = static_cast<To>(matrix.data()[i]);
    return result;
}

/// A, and B, of the worked example that the steps print: the rows 1 2 3 4 and 5 6 7 8, twice.
template <typename T>
tutorial::Matrix<T> worked_example_matrix() {
    return tutorial::Matrix<T>{{1, 2, 3, 4}, {5, 6, 7, 8}, {1, 2, 3, 4}, {5, 6, 7, 8}};
}

/// Checks, element by element and exactly, that `c` is the worked example's product A·A.
template <typename T>
void expect_worked_example_product(const tutorial::Matrix<T>& c) {
    ASSERT_EQ(c.rows(), 4);
    ASSERT_EQ(c.cols(), 4);
    const T expected[4][4] = {
        {34, 44, 54, 64}, {82, 108, 134, 160}, {34, 44, 54, 64}, {82, 108, 134, 160}};
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            EXPECT_EQ(c(i, j), expected[i][j]) << "C(" << i << ", " << j << ")";
}

/// A negative m, n or k is refused with std::invalid_argument before any HIP call (null
/// pointers, no GPU needed).
template <typename T>
void expect_negative_sizes_rejected(const tutorial::GemmLauncher<T>& launch) {
    for (const Shape s : {Shape{-1, 4, 4}, Shape{4, -1, 4}, Shape{4, 4, -1}}) {
        EXPECT_THROW(launch(nullptr, nullptr, nullptr, s.m, s.n, s.k, nullptr),
                     std::invalid_argument)
            << shape_name(s);
    }
}

/// Sizes that kernels indexing with 32-bit ints (steps 02-05) cannot reach are refused with
/// std::invalid_argument naming the limit, before any HIP call (null pointers, no GPU needed): A, B
/// or C past 2^31 - 1 elements, and a C whose rows (or, with `columns_on_y`, columns) need more
/// than 65535 blocks along the grid's y.
template <typename T>
void expect_unindexable_sizes_rejected(const tutorial::GemmLauncher<T>& launch,
                                       bool columns_on_y = false) {
    for (const Shape s : {Shape{70000, 32768, 64}, Shape{70000, 64, 32768}, Shape{64, 70000, 32768},
                          Shape{46341, 46341, 1}}) {
        const std::string message =
            message_of([&] { launch(nullptr, nullptr, nullptr, s.m, s.n, s.k, nullptr); });
        EXPECT_NE(message.find("at most 2147483647 elements per matrix"), std::string::npos)
            << shape_name(s) << ": " << message;
    }
    // 2^31 - 1 rows (or columns) of one element: every matrix fits 32-bit indexing, the grid does
    // not.
    const Shape tall = columns_on_y ? Shape{1, 2147483647, 1} : Shape{2147483647, 1, 1};
    const std::string message =
        message_of([&] { launch(nullptr, nullptr, nullptr, tall.m, tall.n, tall.k, nullptr); });
    EXPECT_NE(message.find("a grid has at most 65535"), std::string::npos)
        << shape_name(tall) << ": " << message;
}

/// An empty C (m or n zero) returns before any launch, so null pointers are never touched.
template <typename T>
void expect_empty_product_launches_nothing(const tutorial::GemmLauncher<T>& launch) {
    for (const Shape s : {Shape{0, 5, 3}, Shape{5, 0, 3}})
        EXPECT_NO_THROW(launch(nullptr, nullptr, nullptr, s.m, s.n, s.k, nullptr)) << shape_name(s);
}

}  // namespace tutorial_test
