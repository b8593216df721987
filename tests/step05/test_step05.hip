#include <gtest/gtest.h>
#include <hip/hip_runtime.h>

#include <cstring>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/device_buffer.hpp"
#include "common/hip_check.hpp"
#include "common/matrix.hpp"
#include "common/verify.hpp"
#include "lds_float4_gemm.hpp"
#include "tests/support/gpu_test.hpp"
#include "tests/support/shapes.hpp"

using step05::Variant;
using tutorial::Matrix;
using tutorial_test::Shape;
using tutorial_test::shape_name;

namespace {

// A kernel to test: the variant and, for seed and lds_ab, the block size.
struct Config {
    Variant variant;
    int block;
};

const Config kConfigs[] = {{Variant::seed, 8},    {Variant::seed, 16},  {Variant::lds_ab, 8},
                           {Variant::lds_ab, 16}, {Variant::reg8x8, 8}, {Variant::reg8x8_db, 8}};

std::string config_name(const Config& config) {
    std::string name = step05::variant_name(config.variant);
    if (config.variant == Variant::seed || config.variant == Variant::lds_ab)
        name += std::to_string(config.block);
    return name;
}

// Readable parameters in GoogleTest's output instead of their bytes.
void PrintTo(const Config& config, std::ostream* out) {
    *out << config_name(config);
}

// Where each matrix starts inside its device allocation, in floats. 4 floats (16 bytes) keeps the
// 16-byte alignment of hipMalloc; 1 float breaks it, so float4 accesses would be misaligned.
struct Offsets {
    int a = 4, b = 4, c = 4;
};

constexpr int kGuard = 64;              // floats of sentinel after C's last element
constexpr float kSentinel = -12345.0f;  // what C's allocation holds before the multiply

// Copies A and B into larger device allocations at the given offsets, fills C's allocation with the
// sentinel, multiplies with `config`, and returns C. Fails the test when anything outside C
// changed.
Matrix<float> multiply_on_gpu(const Config& config, const Matrix<float>& a, const Matrix<float>& b,
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

    step05::gemm(device_a.get() + offsets.a, device_b.get() + offsets.b, device_c.get() + offsets.c,
                 m, n, k, nullptr, config.variant, config.block);
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipMemcpy(whole_c.data(), device_c.get(), device_c.bytes(), hipMemcpyDeviceToHost));

    for (int i = 0; i < offsets.c; ++i)
        EXPECT_EQ(whole_c[i], kSentinel) << "written before C, at offset " << i;
    for (int i = 0; i < kGuard; ++i) {
        EXPECT_EQ(whole_c[offsets.c + c_size + i], kSentinel)
            << "written " << i << " floats past the end of C";
    }
    Matrix<float> c(m, n);
    std::memcpy(c.data(), whole_c.data() + offsets.c, c.bytes());
    return c;
}

Matrix<float> to_float(const Matrix<int>& matrix) {
    Matrix<float> result(matrix.rows(), matrix.cols());
    for (std::size_t i = 0; i < matrix.size(); ++i)
        result.data()[i] = static_cast<float>(matrix.data()[i]);
    return result;
}

Matrix<int> to_int(const Matrix<float>& matrix) {
    Matrix<int> result(matrix.rows(), matrix.cols());
    for (std::size_t i = 0; i < matrix.size(); ++i)
        result.data()[i] = static_cast<int>(matrix.data()[i]);
    return result;
}

}  // namespace

// ---- no GPU needed ----------------------------------------------------------------------------

TEST(Step05Variants, NamesRoundTrip) {
    for (const Variant variant : step05::kAllVariants) {
        EXPECT_EQ(step05::parse_variant(step05::variant_name(variant)), variant)
            << step05::variant_name(variant);
    }
    EXPECT_STREQ(step05::variant_name(Variant::reg8x8_db), "reg8x8_db");
}

TEST(Step05Variants, UnknownNameIsRejected) {
    EXPECT_THROW(step05::parse_variant("reg8x8db"), std::invalid_argument);
    EXPECT_THROW(step05::parse_variant(""), std::invalid_argument);
}

TEST(Step05Variants, UnsupportedBlockIsRejectedBeforeLaunch) {
    EXPECT_THROW(step05::gemm(nullptr, nullptr, nullptr, 4, 4, 4, nullptr, Variant::seed, 12),
                 std::invalid_argument);
}

TEST(Step05Gemm, RejectsNegativeSizes) {
    for (const Variant variant : step05::kAllVariants) {
        EXPECT_THROW(step05::gemm(nullptr, nullptr, nullptr, -1, 4, 4, nullptr, variant),
                     std::invalid_argument)
            << step05::variant_name(variant);
        EXPECT_THROW(step05::gemm(nullptr, nullptr, nullptr, 4, -1, 4, nullptr, variant),
                     std::invalid_argument)
            << step05::variant_name(variant);
        EXPECT_THROW(step05::gemm(nullptr, nullptr, nullptr, 4, 4, -1, nullptr, variant),
                     std::invalid_argument)
            << step05::variant_name(variant);
    }
}

TEST(Step05Gemm, EmptyProductLaunchesNothing) {
    EXPECT_NO_THROW(step05::gemm(nullptr, nullptr, nullptr, 0, 5, 3, nullptr));
    EXPECT_NO_THROW(step05::gemm(nullptr, nullptr, nullptr, 5, 0, 3, nullptr, Variant::reg8x8));
}

// ---- per kernel ---------------------------------------------------------------------------------

class Step05Kernel : public testing::TestWithParam<Config> {};

TEST_P(Step05Kernel, WorkedExampleExactly) {
    TUTORIAL_REQUIRE_GPU();
    const Matrix<float> a{{1, 2, 3, 4}, {5, 6, 7, 8}, {1, 2, 3, 4}, {5, 6, 7, 8}};
    const Matrix<float> c = multiply_on_gpu(GetParam(), a, a);
    const float expected[4][4] = {
        {34, 44, 54, 64}, {82, 108, 134, 160}, {34, 44, 54, 64}, {82, 108, 134, 160}};
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            EXPECT_EQ(c(i, j), expected[i][j]) << "C(" << i << ", " << j << ")";
}

TEST_P(Step05Kernel, OverwritesInsteadOfAccumulating) {
    TUTORIAL_REQUIRE_GPU();
    // Two multiplies into the same C: a kernel that adds to C would return twice the product.
    const int m = 70, n = 36, k = 44;
    Matrix<float> a(m, k), b(k, n), c(m, n);
    tutorial::fill_random(a, 501);
    tutorial::fill_random(b, 502);
    tutorial::DeviceBuffer<float> device_a(a.size()), device_b(b.size()), device_c(c.size());
    device_a.upload(a);
    device_b.upload(b);
    for (int run = 0; run < 2; ++run) {
        step05::gemm(device_a.get(), device_b.get(), device_c.get(), m, n, k, nullptr,
                     GetParam().variant, GetParam().block);
    }
    HIP_CHECK(hipDeviceSynchronize());
    device_c.download(c);
    const auto report = tutorial::verify_gemm(a, b, c);
    EXPECT_TRUE(report.passed) << report.summary();
}

INSTANTIATE_TEST_SUITE_P(Kernels, Step05Kernel, testing::ValuesIn(kConfigs),
                         [](const testing::TestParamInfo<Config>& info) {
                             return config_name(info.param);
                         });

// ---- every kernel on every shape ----------------------------------------------------------------

class Step05Shapes : public testing::TestWithParam<std::tuple<Config, Shape>> {};

TEST_P(Step05Shapes, RandomFloatsWithinTheBound) {
    TUTORIAL_REQUIRE_GPU();
    const auto [config, s] = GetParam();
    Matrix<float> a(s.m, s.k), b(s.k, s.n);
    tutorial::fill_random(a, 1000 + s.m + s.k);
    tutorial::fill_random(b, 2000 + s.n + s.k);
    const Matrix<float> c = multiply_on_gpu(config, a, b);
    const auto report = tutorial::verify_gemm(a, b, c);
    EXPECT_TRUE(report.passed) << report.summary();
}

TEST_P(Step05Shapes, SmallIntegersExactly) {
    TUTORIAL_REQUIRE_GPU();
    // Integers in [-8, 8] and K < 2^18 keep every partial sum an integer below 2^24: exact in
    // float.
    const auto [config, s] = GetParam();
    Matrix<int> a(s.m, s.k), b(s.k, s.n);
    tutorial::fill_random(a, 3000 + s.m, -8, 8);
    tutorial::fill_random(b, 4000 + s.n, -8, 8);
    const Matrix<float> c = multiply_on_gpu(config, to_float(a), to_float(b));
    const auto report = tutorial::verify_gemm(a, b, to_int(c));
    EXPECT_TRUE(report.passed) << report.summary();
}

// The common shapes, n and k not multiples of 4 (the scalar path), multiples of 4 that are not
// multiples of the tiles (the float4 path on partial tiles), whole tiles, and two sizes above 1000.
const Shape kShapes[] = {{1, 1, 1},      {3, 3, 2},          {7, 13, 5},        {17, 31, 13},
                         {64, 1, 33},    {1, 50, 40},        {40, 30, 1},       {129, 65, 257},
                         {33, 29, 31},   {64, 63, 65},       {5, 7, 3},         {1, 4, 4},
                         {100, 36, 20},  {260, 132, 36},     {256, 256, 64},    {4, 128, 12},
                         {131, 4, 1028}, {1031, 1025, 1037}, {1028, 1024, 1036}};

INSTANTIATE_TEST_SUITE_P(Shapes, Step05Shapes,
                         testing::Combine(testing::ValuesIn(kConfigs), testing::ValuesIn(kShapes)),
                         [](const testing::TestParamInfo<std::tuple<Config, Shape>>& info) {
                             return config_name(std::get<0>(info.param)) + "_" +
                                    shape_name(std::get<1>(info.param));
                         });

// ---- misaligned pointers ------------------------------------------------------------------------

// n and k are multiples of 4, so only the misaligned pointer can send the launcher to the scalar
// path; a float4 access through it would fault or read the wrong elements.
class Step05Misaligned : public testing::TestWithParam<std::tuple<Config, int>> {};

TEST_P(Step05Misaligned, FallsBackToScalarAccess) {
    TUTORIAL_REQUIRE_GPU();
    const auto [config, which] = GetParam();
    Offsets offsets;
    if (which == 0)
        offsets.a = 1;
    if (which == 1)
        offsets.b = 1;
    if (which == 2)
        offsets.c = 1;
    for (const Shape s : {Shape{68, 36, 44}, Shape{132, 136, 20}}) {
        Matrix<float> a(s.m, s.k), b(s.k, s.n);
        tutorial::fill_random(a, 5000 + which);
        tutorial::fill_random(b, 6000 + which);
        const Matrix<float> c = multiply_on_gpu(config, a, b, offsets);
        const auto report = tutorial::verify_gemm(a, b, c);
        EXPECT_TRUE(report.passed) << shape_name(s) << ": " << report.summary();
    }
}

std::string misaligned_name(const testing::TestParamInfo<std::tuple<Config, int>>& info) {
    const char* const pointer_names[] = {"a", "b", "c"};
    return config_name(std::get<0>(info.param)) + "_misaligned_" +
           pointer_names[std::get<1>(info.param)];
}

INSTANTIATE_TEST_SUITE_P(Pointers, Step05Misaligned,
                         testing::Combine(testing::ValuesIn(kConfigs), testing::Values(0, 1, 2)),
                         misaligned_name);
