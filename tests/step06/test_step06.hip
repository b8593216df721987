#include <gtest/gtest.h>
#include <hip/hip_runtime.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/command_line.hpp"
#include "common/device_buffer.hpp"
#include "common/hip_check.hpp"
#include "common/matrix.hpp"
#include "common/verify.hpp"
#include "every_shape_gemm.hpp"
#include "tests/support/gpu_test.hpp"
#include "tests/support/shapes.hpp"

using step06::Config;
using step06::Packing;
using step06::TileShape;
using tutorial::Matrix;
using tutorial_test::Shape;
using tutorial_test::shape_name;

namespace {

// A configuration to test; no value means the rule's choice (step06::gemm without a Config).
// Unpacked, shapes whose n or k is not a multiple of 4 take the scalar path; packed, the float4
// path on padded copies.
using Choice = std::optional<Config>;

const Choice kChoices[] = {
    Config{TileShape::t128x256, 1, Packing::off},    Config{TileShape::t128x256, 3, Packing::off},
    Config{TileShape::t128x128, 2, Packing::off},    Config{TileShape::t64x64, 1, Packing::off},
    Config{TileShape::t64x64, 16, Packing::off},     Config{TileShape::t64x64, 64, Packing::off},
    Config{TileShape::t128x256, 1, Packing::on},     Config{TileShape::t64x64, 3, Packing::on},
    Config{TileShape::t128x256, 1, Packing::off, 3}, Config{TileShape::t64x64, 1, Packing::on, 7},
    Config{TileShape::t16x128, 1, Packing::off},     Config{TileShape::t16x128, 8, Packing::off},
    Config{TileShape::t128x16, 1, Packing::off},     Config{TileShape::t128x16, 4, Packing::on},
    Config{TileShape::t16x128, 1, Packing::off, 5},  Config{TileShape::t8x4, 1, Packing::off},
    Config{TileShape::t8x4, 5, Packing::on},         std::nullopt};

std::string choice_name(const Choice& choice) {
    if (!choice)
        return "rule";
    std::string name = step06::tile_name(choice->tile);
    name = "t" + name + "_s" + std::to_string(choice->splits);
    if (choice->workers != 0)
        name += "_streamk" + std::to_string(choice->workers);
    return choice->packing == Packing::on ? name + "_packed" : name;
}

void run(const Choice& choice, const float* a, const float* b, float* c, int m, int n, int k) {
    if (choice)
        step06::gemm(a, b, c, m, n, k, nullptr, *choice);
    else
        step06::gemm(a, b, c, m, n, k, nullptr);
}

// Where each matrix starts inside its device allocation, in floats: 4 keeps hipMalloc's 16-byte
// alignment, 1 breaks it.
struct Offsets {
    int a = 4, b = 4, c = 4;
};

constexpr int kGuard = 64;              // floats of sentinel after C's last element
constexpr float kSentinel = -12345.0f;  // what C's allocation holds before the multiply

// Multiplies with `choice` into a C surrounded by sentinels and returns C; fails the test when
// anything outside C changed.
Matrix<float> multiply_on_gpu(const Choice& choice, const Matrix<float>& a, const Matrix<float>& b,
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

    run(choice, device_a.get() + offsets.a, device_b.get() + offsets.b, device_c.get() + offsets.c,
        m, n, k);
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

namespace step06 {
// Readable configurations in GoogleTest's messages (found through the argument's namespace).
void PrintTo(const Config& config, std::ostream* out) {
    *out << config_name(config);
}
}  // namespace step06

// ---- refused before any launch ------------------------------------------------------------------

TEST(Step06Gemm, SplitOutOfRangeIsRejectedBeforeLaunch) {
    EXPECT_THROW(
        step06::gemm(nullptr, nullptr, nullptr, 4, 4, 4, nullptr, Config{TileShape::t64x64, 0}),
        std::invalid_argument);
    EXPECT_THROW(
        step06::gemm(nullptr, nullptr, nullptr, 4, 4, 4, nullptr, Config{TileShape::t128x128, 65}),
        std::invalid_argument);
}

TEST(Step06Gemm, StreamKOutOfRangeOrWithSplitKIsRejectedBeforeLaunch) {
    EXPECT_THROW(step06::gemm(nullptr, nullptr, nullptr, 4, 4, 4, nullptr,
                              Config{TileShape::t64x64, 1, Packing::automatic, -1}),
                 std::invalid_argument);
    EXPECT_THROW(step06::gemm(nullptr, nullptr, nullptr, 4, 4, 4, nullptr,
                              Config{TileShape::t64x64, 1, Packing::automatic, 1025}),
                 std::invalid_argument);
    EXPECT_THROW(step06::gemm(nullptr, nullptr, nullptr, 4, 4, 4, nullptr,
                              Config{TileShape::t128x128, 2, Packing::automatic, 8}),
                 std::invalid_argument);
}

TEST(Step06Gemm, NegativeSizesAreRejected) {
    EXPECT_THROW(step06::gemm(nullptr, nullptr, nullptr, -1, 4, 4, nullptr), std::invalid_argument);
    EXPECT_THROW(
        step06::gemm(nullptr, nullptr, nullptr, 4, 4, -2, nullptr, Config{TileShape::t64x64, 1}),
        std::invalid_argument);
}

// ---- per configuration --------------------------------------------------------------------------

class Step06Config : public testing::TestWithParam<Choice> {};

TEST_P(Step06Config, OverwritesInsteadOfAccumulating) {
    TUTORIAL_REQUIRE_GPU();
    // Two multiplies into the same C: a kernel or reduction that adds to C would double it.
    const int m = 70, n = 36, k = 300;
    Matrix<float> a(m, k), b(k, n), c(m, n);
    tutorial::fill_random(a, 501);
    tutorial::fill_random(b, 502);
    tutorial::DeviceBuffer<float> device_a(a.size()), device_b(b.size()), device_c(c.size());
    device_a.upload(a);
    device_b.upload(b);
    for (int repeat = 0; repeat < 2; ++repeat)
        run(GetParam(), device_a.get(), device_b.get(), device_c.get(), m, n, k);
    HIP_CHECK(hipDeviceSynchronize());
    device_c.download(c);
    const auto report = tutorial::verify_gemm(a, b, c);
    EXPECT_TRUE(report.passed) << report.summary();
}

TEST_P(Step06Config, SameInputsGiveTheSameBits) {
    TUTORIAL_REQUIRE_GPU();
    // The reduction adds the partial tiles in a fixed order, so repeated runs agree bit for bit.
    const int m = 150, n = 260, k = 3000;
    Matrix<float> a(m, k), b(k, n), first(m, n), again(m, n);
    tutorial::fill_random(a, 601);
    tutorial::fill_random(b, 602);
    tutorial::DeviceBuffer<float> device_a(a.size()), device_b(b.size()), device_c(first.size());
    device_a.upload(a);
    device_b.upload(b);
    run(GetParam(), device_a.get(), device_b.get(), device_c.get(), m, n, k);
    device_c.download(first);
    for (int repeat = 0; repeat < 3; ++repeat) {
        HIP_CHECK(hipMemset(device_c.get(), 0xFF, device_c.bytes()));
        run(GetParam(), device_a.get(), device_b.get(), device_c.get(), m, n, k);
        device_c.download(again);
        ASSERT_EQ(std::memcmp(first.data(), again.data(), first.bytes()), 0)
            << "run " << repeat + 2 << " differs from the first";
    }
    const auto report = tutorial::verify_gemm(a, b, first);
    EXPECT_TRUE(report.passed) << report.summary();
}

TEST_P(Step06Config, NanInAMakesExactlyItsRowNan) {
    TUTORIAL_REQUIRE_GPU();
    const int m = 131, n = 67, k = 517;
    const int nan_row = 77, nan_col = 300;
    Matrix<float> a(m, k), b(k, n);
    tutorial::fill_random(a, 701);
    tutorial::fill_random(b, 702);
    a(nan_row, nan_col) = std::numeric_limits<float>::quiet_NaN();
    const Matrix<float> c = multiply_on_gpu(GetParam(), a, b);
    for (int i = 0; i < m; ++i) {
        for (int j = 0; j < n; ++j) {
            if (i == nan_row) {
                ASSERT_TRUE(std::isnan(c(i, j))) << "C(" << i << ", " << j << ") = " << c(i, j);
            } else {
                ASSERT_TRUE(std::isfinite(c(i, j))) << "C(" << i << ", " << j << ") = " << c(i, j);
            }
        }
    }
    // The other rows are still right: check them with the NaN row of A zeroed.
    Matrix<float> a_clean = a, c_clean = c;
    for (int p = 0; p < k; ++p)
        a_clean(nan_row, p) = 0.0f;
    for (int j = 0; j < n; ++j)
        c_clean(nan_row, j) = 0.0f;
    const auto report = tutorial::verify_gemm(a_clean, b, c_clean);
    EXPECT_TRUE(report.passed) << report.summary();
}

TEST_P(Step06Config, NanInBMakesExactlyItsColumnNan) {
    TUTORIAL_REQUIRE_GPU();
    // n = 67: the NaN column is the last of C, next to the three columns packing adds.
    const int m = 45, n = 67, k = 203;
    const int nan_col = n - 1, nan_row = 150;
    Matrix<float> a(m, k), b(k, n);
    tutorial::fill_random(a, 801);
    tutorial::fill_random(b, 802);
    b(nan_row, nan_col) = std::numeric_limits<float>::quiet_NaN();
    const Matrix<float> c = multiply_on_gpu(GetParam(), a, b);
    for (int i = 0; i < m; ++i) {
        for (int j = 0; j < n; ++j) {
            if (j == nan_col) {
                ASSERT_TRUE(std::isnan(c(i, j))) << "C(" << i << ", " << j << ") = " << c(i, j);
            } else {
                ASSERT_TRUE(std::isfinite(c(i, j))) << "C(" << i << ", " << j << ") = " << c(i, j);
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Configs, Step06Config, testing::ValuesIn(kChoices),
                         [](const testing::TestParamInfo<Choice>& info) {
                             return choice_name(info.param);
                         });

// ---- every configuration on every shape ---------------------------------------------------------

class Step06Shapes : public testing::TestWithParam<std::tuple<Choice, Shape>> {};

TEST_P(Step06Shapes, RandomFloatsWithinTheBound) {
    TUTORIAL_REQUIRE_GPU();
    const auto [choice, s] = GetParam();
    Matrix<float> a(s.m, s.k), b(s.k, s.n);
    tutorial::fill_random(a, 1000 + s.m + s.k);
    tutorial::fill_random(b, 2000 + s.n + s.k);
    const Matrix<float> c = multiply_on_gpu(choice, a, b);
    const auto report = tutorial::verify_gemm(a, b, c);
    EXPECT_TRUE(report.passed) << report.summary();
}

TEST_P(Step06Shapes, SmallIntegersExactly) {
    TUTORIAL_REQUIRE_GPU();
    // Integers in [-8, 8] and K < 2^18 keep every partial sum, and the sum of the partial tiles, an
    // integer below 2^24: exact in float whatever the order of the additions.
    const auto [choice, s] = GetParam();
    Matrix<int> a(s.m, s.k), b(s.k, s.n);
    tutorial::fill_random(a, 3000 + s.m, -8, 8);
    tutorial::fill_random(b, 4000 + s.n, -8, 8);
    const Matrix<float> c = multiply_on_gpu(choice, to_float(a), to_float(b));
    const auto report = tutorial::verify_gemm(a, b, to_int(c));
    EXPECT_TRUE(report.passed) << report.summary();
}

// The shapes of the other steps (scalar path: n or k not a multiple of 4; float4 path on partial
// tiles; whole tiles), k = 1, a 5000-long dot product, a short wide one, and two above 1000.
const Shape kShapes[] = {{1, 1, 1},          {3, 3, 2},         {7, 13, 5},     {17, 31, 13},
                         {64, 1, 33},        {1, 50, 40},       {40, 30, 1},    {129, 65, 257},
                         {33, 29, 31},       {64, 63, 65},      {1, 4, 4},      {100, 36, 20},
                         {260, 132, 36},     {256, 256, 64},    {4, 128, 12},   {131, 4, 1028},
                         {1, 1, 5000},       {64, 4096, 8},     {97, 101, 103}, {2, 2, 4096},
                         {1031, 1025, 1037}, {1028, 1024, 1036}};

INSTANTIATE_TEST_SUITE_P(Shapes, Step06Shapes,
                         testing::Combine(testing::ValuesIn(kChoices), testing::ValuesIn(kShapes)),
                         [](const testing::TestParamInfo<std::tuple<Choice, Shape>>& info) {
                             return choice_name(std::get<0>(info.param)) + "_" +
                                    shape_name(std::get<1>(info.param));
                         });

// The rule's own choice on a multiply big enough to be packed (worth_packing()), n and k odd. On
// a GPU only: HIP on the CPU would take minutes over its 29 billion multiply-adds (the packed
// configurations themselves run on every route, forced, in the shape tests above).
TEST(Step06Rule, PacksABigOddMultiplyCorrectly) {
    TUTORIAL_REQUIRE_GPU();
    if (tutorial::hip_runs_on_cpu())
        GTEST_SKIP() << "29 billion multiply-adds are minutes of work for HIP on the CPU";
    const Shape s{3075, 3073, 3077};
    ASSERT_TRUE(step06::worth_packing(s.m, s.n, s.k));
    Matrix<float> a(s.m, s.k), b(s.k, s.n);
    tutorial::fill_random(a, 901);
    tutorial::fill_random(b, 902);
    const Matrix<float> c = multiply_on_gpu(std::nullopt, a, b);
    const auto report = tutorial::verify_gemm(a, b, c);
    EXPECT_TRUE(report.passed) << report.summary();
}

// ---- stream-K with every way of sharing out the last tiles
// ----------------------------------------

// 300 x 520 x 333 in 64 x 64 tiles: 5 x 9 = 45 tiles of 21 K-slices. Each worker count shares
// out a different last wave: 1 and 45 none (whole waves only), 2 one tile, 7 three tiles, 44 one
// tile among 44 workers, 46 and 100 all 45 tiles (fewer tiles than workers, some workers idle),
// 13 six tiles cut mid-tile. Every result must be right and the same bits twice, whoever arrives
// last at a shared tile.
class Step06StreamK : public testing::TestWithParam<int> {};

TEST_P(Step06StreamK, EveryShareIsRightAndRepeatable) {
    TUTORIAL_REQUIRE_GPU();
    const int workers = GetParam();
    const int m = 300, n = 520, k = 333;
    const Config config{TileShape::t64x64, 1, Packing::off, workers};
    Matrix<float> a(m, k), b(k, n), first(m, n), again(m, n);
    tutorial::fill_random(a, 1101);
    tutorial::fill_random(b, 1102);
    first = multiply_on_gpu(config, a, b);
    const auto report = tutorial::verify_gemm(a, b, first);
    EXPECT_TRUE(report.passed) << report.summary();
    again = multiply_on_gpu(config, a, b);
    EXPECT_EQ(std::memcmp(first.data(), again.data(), first.bytes()), 0)
        << "a second run differs from the first";
}

INSTANTIATE_TEST_SUITE_P(Workers, Step06StreamK, testing::Values(1, 2, 7, 13, 44, 45, 46, 100),
                         [](const testing::TestParamInfo<int>& info) {
                             return "workers" + std::to_string(info.param);
                         });

// ---- misaligned pointers ------------------------------------------------------------------------

// n and k are multiples of 4, so only the misaligned pointer sends the launcher to the scalar
// path (or, packed, to padded copies); a float4 access through it would fault or read the wrong
// elements.
class Step06Misaligned : public testing::TestWithParam<std::tuple<Choice, int>> {};

TEST_P(Step06Misaligned, FallsBackToScalarAccess) {
    TUTORIAL_REQUIRE_GPU();
    const auto [choice, which] = GetParam();
    Offsets offsets;
    if (which == 0)
        offsets.a = 1;
    if (which == 1)
        offsets.b = 1;
    if (which == 2)
        offsets.c = 1;
    for (const Shape s : {Shape{68, 36, 44}, Shape{132, 136, 200}}) {
        Matrix<float> a(s.m, s.k), b(s.k, s.n);
        tutorial::fill_random(a, 5000 + which);
        tutorial::fill_random(b, 6000 + which);
        const Matrix<float> c = multiply_on_gpu(choice, a, b, offsets);
        const auto report = tutorial::verify_gemm(a, b, c);
        EXPECT_TRUE(report.passed) << shape_name(s) << ": " << report.summary();
    }
}

std::string misaligned_name(const testing::TestParamInfo<std::tuple<Choice, int>>& info) {
    const char* const pointer_names[] = {"a", "b", "c"};
    return choice_name(std::get<0>(info.param)) + "_misaligned_" +
           pointer_names[std::get<1>(info.param)];
}

INSTANTIATE_TEST_SUITE_P(Pointers, Step06Misaligned,
                         testing::Combine(testing::ValuesIn(kChoices), testing::Values(0, 1, 2)),
                         misaligned_name);

// ---- the device the rule sees -------------------------------------------------------------------

TEST(Step06DeviceSlots, MatchTheDevice) {
    TUTORIAL_REQUIRE_GPU();
    const step06::DeviceSlots slots = step06::device_slots();
    int device = 0;
    HIP_CHECK(hipGetDevice(&device));
    hipDeviceProp_t properties;
    HIP_CHECK(hipGetDeviceProperties(&properties, device));
    const int multiprocessors = properties.multiProcessorCount;
    EXPECT_EQ(slots.multiprocessors, multiprocessors);
    EXPECT_GE(slots.blocks_128x256, 1);
    // A 128 x 128 block has half the threads of a 128 x 256 one, and a 64 x 64 block half of
    // those: at least as many fit.
    EXPECT_GE(slots.blocks_128x128, slots.blocks_128x256);
    EXPECT_GE(slots.blocks_64x64, slots.blocks_128x128);
    // The thin tiles have as many threads as a 64 x 64 block and fewer sums per thread.
    EXPECT_GE(slots.blocks_16x128, slots.blocks_128x256);
    EXPECT_GE(slots.blocks_128x16, slots.blocks_128x256);
}
