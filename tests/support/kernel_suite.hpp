/// \file
/// \brief The GPU test harness that the float kernels of steps 05 to 08 register with: the worked
/// example, a C guarded by sentinels, misaligned pointers, exact integers, NaN rows and columns,
/// overwriting, repeatable bits and the shape suite. A step lists its kernels (KernelUnderTest)
/// and calls TUTORIAL_KERNEL_SUITES once; the tests themselves stand here only.
#pragma once

#include <gtest/gtest.h>
#include <hip/hip_runtime.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "common/device_buffer.hpp"
#include "common/gpu_gemm_runner.hpp"
#include "common/hip_check.hpp"
#include "common/matrix.hpp"
#include "common/verify.hpp"
#include "tests/support/gpu_gemm_test.hpp"
#include "tests/support/gpu_test.hpp"
#include "tests/support/shapes.hpp"

namespace tutorial_test {

/// One kernel configuration of a step, as the harness runs it: its name in test names, the
/// multiply on device pointers, and whether it multiplies a C whose rows need more than the grid's
/// 65535 blocks along y in bands of rows (step 08) instead of refusing it.
struct KernelUnderTest {
    std::string name;
    tutorial::GemmLauncher<float> launch;
    bool rows_in_bands = false;
};

/// Lets GoogleTest print a kernel by its name.
inline void PrintTo(const KernelUnderTest& kernel, std::ostream* out) {
    *out << kernel.name;
}

/// The name of a split-K or stream-K configuration of steps 07 and 08 in test names:
/// t<tile>_s<splits>, then _streamk<workers> for stream-K.
template <class Config>
std::string split_k_name(const char* tile, const Config& config) {
    std::string name = std::string("t") + tile + "_s" + std::to_string(config.splits);
    if (config.workers != 0)
        name += "_streamk" + std::to_string(config.workers);
    return name;
}

/// Where each matrix starts inside its device allocation, in floats: 4 keeps hipMalloc's 16-byte
/// alignment, 1 breaks it.
struct Offsets {
    int a = 4, b = 4, c = 4;
};

constexpr int kGuard = 64;              ///< floats of sentinel after C's last element
constexpr float kSentinel = -12345.0f;  ///< what C's allocation holds before the multiply

/// Multiplies with `kernel` into a C surrounded by sentinels and returns C; fails the test when
/// anything outside C changed.
inline tutorial::Matrix<float> multiply_guarded(const KernelUnderTest& kernel,
                                                const tutorial::Matrix<float>& a,
                                                const tutorial::Matrix<float>& b,
                                                const Offsets& offsets = {}) {
    const int m = a.rows(), k = a.cols(), n = b.cols();
    tutorial::DeviceBuffer<float> device_a(a.size() + offsets.a);
    tutorial::DeviceBuffer<float> device_b(b.size() + offsets.b);
    const std::size_t c_size = static_cast<std::size_t>(m) * static_cast<std::size_t>(n);
    tutorial::DeviceBuffer<float> device_c(offsets.c + c_size + kGuard);
    HIP_CHECK(hipMemcpy(device_a.get() + offsets.a, a.data(), a.bytes(), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(device_b.get() + offsets.b, b.data(), b.bytes(), hipMemcpyHostToDevice));
    std::vector<float> whole_c(device_c.size(), kSentinel);
    HIP_CHECK(hipMemcpy(device_c.get(), whole_c.data(), device_c.bytes(), hipMemcpyHostToDevice));
    kernel.launch(device_a.get() + offsets.a, device_b.get() + offsets.b,
                  device_c.get() + offsets.c, m, n, k, nullptr);
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipMemcpy(whole_c.data(), device_c.get(), device_c.bytes(), hipMemcpyDeviceToHost));
    for (int i = 0; i < offsets.c; ++i)
        EXPECT_EQ(whole_c[i], kSentinel) << "written before C, at offset " << i;
    for (int i = 0; i < kGuard; ++i) {
        EXPECT_EQ(whole_c[offsets.c + c_size + i], kSentinel)
            << "written " << i << " floats past the end of C";
    }
    tutorial::Matrix<float> c(m, n);
    std::memcpy(c.data(), whole_c.data() + offsets.c, c.bytes());
    return c;
}

/// A product with one NaN among its inputs: the operands and C.
struct NanProduct {
    tutorial::Matrix<float> a, b, c;
};

/// Random operands of `shape` (seeds `seed` and `seed + 1`) with element (row, col) of `operand`,
/// 'A' or 'B', set to NaN, multiplied with `kernel` (sentinel-guarded).
inline NanProduct multiply_with_a_nan(const KernelUnderTest& kernel, const Shape& shape,
                                      std::uint64_t seed, char operand, int row, int col) {
    auto [a, b] = random_operands<float>(shape, seed, seed + 1);
    (operand == 'A' ? a : b)(row, col) = std::numeric_limits<float>::quiet_NaN();
    tutorial::Matrix<float> c = multiply_guarded(kernel, a, b);
    return {a, b, c};
}

/// Fails the test at the first element of `c` that is not NaN where `nan_at(i, j)` says it must
/// be, or not finite where it says it must not.
template <class NanAt>
void expect_nan_exactly_at(const tutorial::Matrix<float>& c, NanAt nan_at) {
    for (int i = 0; i < c.rows(); ++i) {
        for (int j = 0; j < c.cols(); ++j) {
            if (nan_at(i, j))
                ASSERT_TRUE(std::isnan(c(i, j))) << "C(" << i << ", " << j << ") = " << c(i, j);
            else
                ASSERT_TRUE(std::isfinite(c(i, j))) << "C(" << i << ", " << j << ") = " << c(i, j);
        }
    }
}

/// The common shapes: n or k not a multiple of 4 (the scalar path), k alone not one (float4 for B
/// and C only, where a kernel has that path), multiples of 4 that are not multiples of the tiles
/// (the float4 path on partial tiles), whole tiles, k = 1, a 5000-long dot product, a short wide
/// one, and two above 1000.
inline const std::vector<Shape>& kernel_shapes() {
    static const std::vector<Shape> shapes = {
        {1, 1, 1},    {3, 3, 2},      {7, 13, 5},         {17, 31, 13},      {64, 1, 33},
        {1, 50, 40},  {40, 30, 1},    {129, 65, 257},     {33, 29, 31},      {64, 63, 65},
        {5, 7, 3},    {1, 4, 4},      {100, 36, 20},      {260, 132, 36},    {256, 256, 64},
        {4, 128, 12}, {131, 4, 1028}, {1, 1, 5000},       {64, 4096, 8},     {97, 101, 103},
        {2, 2, 4096}, {70, 260, 203}, {1031, 1025, 1037}, {1028, 1024, 1036}};
    return shapes;
}

/// The shapes of the misaligned-pointer tests: n and k multiples of 4, partial tiles, and k both
/// shorter and longer than a few K-slices.
inline const std::vector<Shape>& misaligned_shapes() {
    static const std::vector<Shape> shapes = {{68, 36, 44}, {132, 136, 20}, {132, 136, 200}};
    return shapes;
}

}  // namespace tutorial_test

// The suites stand outside the namespace so that a test file's INSTANTIATE_TEST_SUITE_P names them
// as they are.
using tutorial_test::KernelUnderTest;

// ---- per kernel ---------------------------------------------------------------------------------

class KernelConfig : public testing::TestWithParam<KernelUnderTest> {};

TEST_P(KernelConfig, WorkedExampleExactly) {
    TUTORIAL_REQUIRE_GPU();
    const tutorial::Matrix<float> a = tutorial_test::worked_example_matrix<float>();
    tutorial_test::expect_worked_example_product(tutorial_test::multiply_guarded(GetParam(), a, a));
}

TEST_P(KernelConfig, RefusesWhatItCannotLaunch) {
    // A GPU only for the choices of steps 06 to 08, which ask it for its occupancy first; then,
    // with null pointers, before any launch: a C of 20,000,000 rows needs more than 65535 blocks of
    // any tile along the grid's y (refused, except where the kernel multiplies in bands of rows:
    // step 08's own tests run those), and a side of 2^31 - 2^16 + 1 is past the int counts of
    // tiles (steps 06 to 08) or makes B past 2^31 - 1 elements (step 05).
    TUTORIAL_REQUIRE_GPU();
    const auto launch = GetParam().launch;
    if (!GetParam().rows_in_bands) {
        const std::string tall = tutorial_test::message_of(
            [&] { launch(nullptr, nullptr, nullptr, 20000000, 4, 4, nullptr); });
        EXPECT_NE(tall.find("at most 65535"), std::string::npos) << tall;
    }
    EXPECT_THROW(launch(nullptr, nullptr, nullptr, 4, 2147418113, 4, nullptr),
                 std::invalid_argument);
}

TEST_P(KernelConfig, OverwritesInsteadOfAccumulating) {
    TUTORIAL_REQUIRE_GPU();
    // Two multiplies into a C of garbage: a kernel or reduction that adds to C would double it.
    const auto [a, b] = tutorial_test::random_operands<float>({70, 36, 300}, 501, 502);
    const tutorial::Matrix<float> c = tutorial_test::multiply_over(
        a, b, tutorial_test::garbage<float>(70, 36, 503), GetParam().launch, 2);
    const auto report = tutorial::verify_gemm(a, b, c);
    EXPECT_TRUE(report.passed) << report.summary();
}

TEST_P(KernelConfig, SameInputsGiveTheSameBits) {
    TUTORIAL_REQUIRE_GPU();
    // Partial tiles are added in a fixed order, so repeated runs agree bit for bit.
    const auto [a, b] = tutorial_test::random_operands<float>({150, 260, 3000}, 601, 602);
    const tutorial::Matrix<float> first = tutorial_test::multiply_guarded(GetParam(), a, b);
    for (int repeat = 0; repeat < 3; ++repeat) {
        const tutorial::Matrix<float> again = tutorial_test::multiply_guarded(GetParam(), a, b);
        ASSERT_EQ(std::memcmp(first.data(), again.data(), first.bytes()), 0)
            << "run " << repeat + 2 << " differs from the first";
    }
    const auto report = tutorial::verify_gemm(a, b, first);
    EXPECT_TRUE(report.passed) << report.summary();
}

TEST_P(KernelConfig, NanInAMakesExactlyItsRowNan) {
    TUTORIAL_REQUIRE_GPU();
    const int nan_row = 77;
    const auto [a, b, c] =
        tutorial_test::multiply_with_a_nan(GetParam(), {131, 67, 517}, 701, 'A', nan_row, 300);
    tutorial_test::expect_nan_exactly_at(c, [](int i, int) { return i == nan_row; });
    // The other rows are still right: check them with the NaN row of A zeroed.
    tutorial::Matrix<float> a_clean = a, c_clean = c;
    for (int p = 0; p < a.cols(); ++p)
        a_clean(nan_row, p) = 0.0f;
    for (int j = 0; j < c.cols(); ++j)
        c_clean(nan_row, j) = 0.0f;
    const auto report = tutorial::verify_gemm(a_clean, b, c_clean);
    EXPECT_TRUE(report.passed) << report.summary();
}

TEST_P(KernelConfig, NanInBMakesExactlyItsColumnNan) {
    TUTORIAL_REQUIRE_GPU();
    // n = 67: the NaN column is the last of C, next to the three columns packing adds.
    const int nan_col = 66;
    const tutorial::Matrix<float> c =
        tutorial_test::multiply_with_a_nan(GetParam(), {45, 67, 203}, 801, 'B', 150, nan_col).c;
    tutorial_test::expect_nan_exactly_at(c, [](int, int j) { return j == nan_col; });
}

// ---- every kernel on every shape ----------------------------------------------------------------

class KernelShapes
    : public testing::TestWithParam<std::tuple<KernelUnderTest, tutorial_test::Shape>> {};

TEST_P(KernelShapes, RandomFloatsWithinTheBound) {
    TUTORIAL_REQUIRE_GPU();
    const auto& [kernel, s] = GetParam();
    const auto [a, b] =
        tutorial_test::random_operands<float>(s, 1000 + s.m + s.k, 2000 + s.n + s.k);
    const tutorial::Matrix<float> c = tutorial_test::multiply_guarded(kernel, a, b);
    const auto report = tutorial::verify_gemm(a, b, c);
    EXPECT_TRUE(report.passed) << report.summary();
}

TEST_P(KernelShapes, SmallIntegersExactly) {
    TUTORIAL_REQUIRE_GPU();
    // Integers in [-8, 8] and K < 2^18 keep every partial sum, and the sum of the partial tiles, an
    // integer below 2^24: exact in float whatever the order of the additions.
    const auto& [kernel, s] = GetParam();
    const auto [a, b] = tutorial_test::random_operands<int>(s, 3000 + s.m, 4000 + s.n, -8, 8);
    const tutorial::Matrix<float> c = tutorial_test::multiply_guarded(
        kernel, tutorial_test::converted<float>(a), tutorial_test::converted<float>(b));
    const auto report = tutorial::verify_gemm(a, b, tutorial_test::converted<int>(c));
    EXPECT_TRUE(report.passed) << report.summary();
}

// ---- misaligned pointers ------------------------------------------------------------------------

// n and k are multiples of 4, so only the misaligned pointer sends the launcher off float4 for its
// matrix (to the scalar path, to float4 for B and C alone where A is the one, or to padded copies);
// a float4 access through it would fault or read the wrong elements.
class KernelMisaligned : public testing::TestWithParam<std::tuple<KernelUnderTest, int>> {};

TEST_P(KernelMisaligned, FallsBackToScalarAccess) {
    TUTORIAL_REQUIRE_GPU();
    const auto& [kernel, which] = GetParam();
    tutorial_test::Offsets offsets;
    if (which == 0)
        offsets.a = 1;
    if (which == 1)
        offsets.b = 1;
    if (which == 2)
        offsets.c = 1;
    for (const tutorial_test::Shape& s : tutorial_test::misaligned_shapes()) {
        const auto [a, b] = tutorial_test::random_operands<float>(s, 5000 + which, 6000 + which);
        const tutorial::Matrix<float> c = tutorial_test::multiply_guarded(kernel, a, b, offsets);
        const auto report = tutorial::verify_gemm(a, b, c);
        EXPECT_TRUE(report.passed) << tutorial_test::shape_name(s) << ": " << report.summary();
    }
}

// Test names: the kernel's, then the shape's or the misaligned pointer's.
inline std::string kernel_test_name(const testing::TestParamInfo<KernelUnderTest>& info) {
    return info.param.name;
}

inline std::string kernel_shape_test_name(
    const testing::TestParamInfo<std::tuple<KernelUnderTest, tutorial_test::Shape>>& info) {
    return std::get<0>(info.param).name + "_" + tutorial_test::shape_name(std::get<1>(info.param));
}

inline std::string kernel_misaligned_test_name(
    const testing::TestParamInfo<std::tuple<KernelUnderTest, int>>& info) {
    const char* const pointers[] = {"a", "b", "c"};
    return std::get<0>(info.param).name + "_misaligned_" + pointers[std::get<1>(info.param)];
}

/// Registers the harness's suites, prefixed `prefix`, for the kernels `kernels` (a
/// std::vector<KernelUnderTest>) returns.
#define TUTORIAL_KERNEL_SUITES(prefix, kernels)                                                   \
    INSTANTIATE_TEST_SUITE_P(prefix, KernelConfig, testing::ValuesIn(kernels()),                  \
                             kernel_test_name);                                                   \
    INSTANTIATE_TEST_SUITE_P(prefix, KernelShapes,                                                \
                             testing::Combine(testing::ValuesIn(kernels()),                       \
                                              testing::ValuesIn(tutorial_test::kernel_shapes())), \
                             kernel_shape_test_name);                                             \
    INSTANTIATE_TEST_SUITE_P(                                                                     \
        prefix, KernelMisaligned,                                                                 \
        testing::Combine(testing::ValuesIn(kernels()), testing::Values(0, 1, 2)),                 \
        kernel_misaligned_test_name)
