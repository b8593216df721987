// Step 08 on the GPU: its tiles, packing, split-K and stream-K on them, and the rule's choice,
// through the shared kernel harness; the 8 x 4 tile's own paths; bad configurations; the rule
// packing a big odd multiply.
#include <gtest/gtest.h>
#include <hip/hip_runtime.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "common/device.hpp"
#include "every_shape_gemm.hpp"
#include "tests/support/gpu_test.hpp"
#include "tests/support/kernel_suite.hpp"

using step08::Config;
using step08::Packing;
using step08::TileShape;

namespace {

KernelUnderTest with(const Config& config) {
    const char* const packed = config.packing == Packing::on ? "_packed" : "";
    return {tutorial_test::split_k_name(step08::tile_name(config.tile), config) + packed,
            [config](const float* a, const float* b, float* c, int m, int n, int k,
                     hipStream_t stream) { step08::gemm(a, b, c, m, n, k, stream, config); },
            /*rows_in_bands=*/true};
}

// step08::gemm() with the configuration its rule picks.
KernelUnderTest rule() {
    return {"rule",
            [](const float* a, const float* b, float* c, int m, int n, int k, hipStream_t stream) {
                step08::gemm(a, b, c, m, n, k, stream);
            },
            /*rows_in_bands=*/true};
}

// Unpacked, shapes whose n or k is not a multiple of 4 take the scalar path; packed, the float4
// path on padded copies.
std::vector<KernelUnderTest> step08_kernels() {
    return {with({TileShape::t128x256, 1, Packing::on}),
            with({TileShape::t256x128, 1, Packing::off}),
            with({TileShape::t64x128, 3, Packing::on}),
            with({TileShape::t64x64, 1, Packing::off}),
            with({TileShape::t64x64, 16, Packing::off}),
            with({TileShape::t64x64, 3, Packing::on}),
            with({TileShape::t64x64, 1, Packing::on, 7}),
            with({TileShape::t16x128, 1, Packing::off}),
            with({TileShape::t16x128, 8, Packing::off}),
            with({TileShape::t128x32, 8, Packing::off}),
            with({TileShape::t128x16, 1, Packing::off}),
            with({TileShape::t128x16, 4, Packing::on}),
            with({TileShape::t16x128, 1, Packing::off, 5}),
            with({TileShape::t8x4, 1, Packing::off}),
            with({TileShape::t8x4, 5, Packing::on}),
            with({TileShape::t4x128, 1, Packing::off}),
            with({TileShape::t4x128, 6, Packing::on}),
            with({TileShape::t8x128, 1, Packing::off}),
            with({TileShape::t8x128, 5, Packing::off}),
            rule()};
}

}  // namespace

TUTORIAL_KERNEL_SUITES(Step08, step08_kernels);

// ---- the 8 x 4 tile on one to four columns --------------------------------------------------

// What the 8 x 4 tile's launcher tells apart: one column or two to four; K a multiple of 4 (A read
// as float4) or not; ranges of K short (kDotShortLanes threads per row) or long (kDotLanes). Each
// shape in one range of K and in 3, and with A or B one float past hipMalloc's alignment (read
// without float4 then); m is not a multiple of the block's 8 rows.
class Step08DotTile : public testing::TestWithParam<std::tuple<tutorial_test::Shape, int, char>> {};

TEST_P(Step08DotTile, MatchesTheReference) {
    TUTORIAL_REQUIRE_GPU();
    const auto& [s, splits, misaligned] = GetParam();
    tutorial_test::Offsets offsets;
    if (misaligned == 'a')
        offsets.a = 1;
    if (misaligned == 'b')
        offsets.b = 1;
    const auto [a, b] = tutorial_test::random_operands<float>(s, 7000 + s.k, 8000 + s.n);
    const tutorial::Matrix<float> c = tutorial_test::multiply_guarded(
        with({TileShape::t8x4, splits, Packing::off}), a, b, offsets);
    const auto report = tutorial::verify_gemm(a, b, c);
    EXPECT_TRUE(report.passed) << report.summary();
}

// Short and long K, a multiple of 4 and not, for one column; two to four columns.
const std::vector<tutorial_test::Shape> kDotShapes = {
    {1003, 1, 128}, {1003, 1, 127}, {203, 1, 2052}, {203, 1, 2053},
    {61, 2, 1028},  {61, 3, 125},   {61, 4, 100},   {61, 4, 1029}};

// "1003x1x128_s3_misaligned_a": the shape, the ranges of K, the misaligned pointer if any.
std::string dot_test_name(
    const testing::TestParamInfo<std::tuple<tutorial_test::Shape, int, char>>& info) {
    const auto& [s, splits, misaligned] = info.param;
    const std::string pointer =
        misaligned == '-' ? std::string() : std::string("_misaligned_") + misaligned;
    return tutorial_test::shape_name(s) + "_s" + std::to_string(splits) + pointer;
}

INSTANTIATE_TEST_SUITE_P(Step08, Step08DotTile,
                         testing::Combine(testing::ValuesIn(kDotShapes), testing::Values(1, 3),
                                          testing::Values('-', 'a', 'b')),
                         dot_test_name);

// A grid holds 65535 blocks along y, where the rows of C go: a taller C is multiplied in bands of
// rows. The 8 x 4 tile (bands of 524,280 rows) at the tallest C one band holds and 13 rows past it,
// K whole and split in 3 (each band's own partial tiles and reduction, in the same workspace); the
// 4 x 128 tile (bands of 262,140 rows) a few rows past its band; the 16 x 128 tile (bands of
// 1,048,560 rows) with stream-K (the second band's one tile shared by all five workers) and split
// in 3 on a packed B (n odd: B packed again for each band). Sentinels after C catch a band written
// past its end; the check of every element, one at the wrong rows.
TEST(Step08Gemm, ACTallerThanTheGridGoesInBands) {
    TUTORIAL_REQUIRE_GPU();
    const int dot_band = static_cast<int>(step08::rows_per_band(TileShape::t8x4));
    const int row_band = static_cast<int>(step08::rows_per_band(TileShape::t4x128));
    const int thin_band = static_cast<int>(step08::rows_per_band(TileShape::t16x128));
    const std::tuple<tutorial_test::Shape, Config> cases[] = {
        {{dot_band, 1, 4}, {TileShape::t8x4, 1, Packing::off}},
        {{dot_band + 13, 1, 4}, {TileShape::t8x4, 1, Packing::off}},
        {{dot_band + 13, 1, 40}, {TileShape::t8x4, 3, Packing::off}},
        {{row_band + 3, 130, 5}, {TileShape::t4x128, 1, Packing::off}},
        {{thin_band + 5, 4, 4}, {TileShape::t16x128, 1, Packing::automatic, 5}},
        {{thin_band + 21, 5, 7}, {TileShape::t16x128, 3, Packing::on}},
    };
    std::uint64_t seed = 9001;
    for (const auto& [s, config] : cases) {
        const auto [a, b] = tutorial_test::random_operands<float>(s, seed, seed + 1);
        seed += 2;
        const tutorial::Matrix<float> c = tutorial_test::multiply_guarded(with(config), a, b);
        const auto report = tutorial::verify_gemm(a, b, c);
        EXPECT_TRUE(report.passed) << tutorial_test::shape_name(s) << " "
                                   << step08::config_name(config) << ": " << report.summary();
    }
}

// The rule's own choice for 20,000,000 x 4 x 4, 78,125 blocks of even the tallest tile: in bands.
// On a GPU only: HIP on the CPU would take minutes over its blocks.
TEST(Step08Rule, MultipliesACTallerThanTheGridInBands) {
    TUTORIAL_REQUIRE_GPU();
    if (tutorial::hip_runs_on_cpu())
        GTEST_SKIP() << "78,125 or more blocks are minutes of work for HIP on the CPU";
    const tutorial_test::Shape s{20000000, 4, 4};
    const auto [a, b] = tutorial_test::random_operands<float>(s, 9101, 9102);
    const tutorial::Matrix<float> c = tutorial_test::multiply_guarded(rule(), a, b);
    const auto report = tutorial::verify_gemm(a, b, c);
    EXPECT_TRUE(report.passed) << report.summary();
}

TEST(Step08Gemm, BadConfigurationsAreRejectedBeforeLaunch) {
    for (const Config& config :
         {Config{TileShape::t64x64, 0}, Config{TileShape::t128x128, step07::kMaxSplits + 1},
          Config{TileShape::t64x64, 1, Packing::automatic, 1025},
          Config{TileShape::t128x128, 2, Packing::automatic, 8},
          Config{TileShape::t8x4, 1, Packing::automatic, 4},
          Config{TileShape::t4x128, 1, Packing::automatic, 4}}) {
        EXPECT_THROW(step08::gemm(nullptr, nullptr, nullptr, 4, 4, 4, nullptr, config),
                     std::invalid_argument)
            << step08::config_name(config);
    }
    EXPECT_THROW(step08::gemm(nullptr, nullptr, nullptr, -1, 4, 4, nullptr), std::invalid_argument);
}

// The rule's own choice on a multiply big enough to be packed (worth_packing()), n and k odd. On
// a GPU only: HIP on the CPU would take minutes over its 29 billion multiply-adds (the packed
// configurations themselves run on every route, forced, in the harness above).
TEST(Step08Rule, PacksABigOddMultiplyCorrectly) {
    TUTORIAL_REQUIRE_GPU();
    if (tutorial::hip_runs_on_cpu())
        GTEST_SKIP() << "29 billion multiply-adds are minutes of work for HIP on the CPU";
    const tutorial_test::Shape s{3075, 3073, 3077};
    ASSERT_TRUE(step08::worth_packing(s.m, s.n, s.k));
    tutorial::Matrix<float> a(s.m, s.k), b(s.k, s.n);
    tutorial::fill_random(a, 901);
    tutorial::fill_random(b, 902);
    const tutorial::Matrix<float> c = tutorial_test::multiply_guarded(rule(), a, b);
    const auto report = tutorial::verify_gemm(a, b, c);
    EXPECT_TRUE(report.passed) << report.summary();
}

// C of 5 to 32 rows: the 4 x 128 tile forced there runs 2 to 8 groups of four rows over the same
// B. The rule's own choice, and the tile forced with K whole and in 3 ranges (a short last group of
// rows in each), match the reference.
TEST(Step08Rule, FewRowsPastFourMatchTheReference) {
    TUTORIAL_REQUIRE_GPU();
    for (const tutorial_test::Shape& s : std::vector<tutorial_test::Shape>{
             {10, 256, 64}, {24, 512, 300}, {31, 300, 65}, {5, 129, 1001}}) {
        SCOPED_TRACE(tutorial_test::shape_name(s));
        const auto [a, b] = tutorial_test::random_operands<float>(s, 1100 + s.m, 1200 + s.n);
        for (const KernelUnderTest& kernel :
             {rule(), with({TileShape::t4x128, 1, Packing::automatic}),
              with({TileShape::t4x128, 3, Packing::automatic})}) {
            const auto report =
                tutorial::verify_gemm(a, b, tutorial_test::multiply_guarded(kernel, a, b));
            EXPECT_TRUE(report.passed) << kernel.name << ": " << report.summary();
        }
    }
}

// C of 5 to 64 rows: the rule tries the 8 x 128 tile there, whatever the size of B. Forced with K
// whole and in 3 ranges, it matches the reference where its last block of eight rows is short,
// n is odd (B read element by element) and K ends inside a chunk of A.
TEST(Step08Rule, TheStagedRowTileMatchesTheReference) {
    TUTORIAL_REQUIRE_GPU();
    const step08::Occupancy occupancy = step08::occupancy();
    for (const tutorial_test::Shape& s : std::vector<tutorial_test::Shape>{
             {5, 64, 16}, {13, 257, 100}, {40, 1000, 33}, {64, 131, 517}}) {
        SCOPED_TRACE(tutorial_test::shape_name(s));
        const std::vector<step08::Estimate> all = step08::candidates(s.m, s.n, s.k, occupancy);
        EXPECT_TRUE(std::any_of(all.begin(), all.end(), [](const step08::Estimate& e) {
            return e.config.tile == TileShape::t8x128;
        }));
        const auto [a, b] = tutorial_test::random_operands<float>(s, 1300 + s.m, 1400 + s.n);
        for (const KernelUnderTest& kernel : {with({TileShape::t8x128, 1, Packing::automatic}),
                                              with({TileShape::t8x128, 3, Packing::automatic})}) {
            const auto report =
                tutorial::verify_gemm(a, b, tutorial_test::multiply_guarded(kernel, a, b));
            EXPECT_TRUE(report.passed) << kernel.name << ": " << report.summary();
        }
    }
}

TEST(Step08Occupancy, MatchesTheDevice) {
    TUTORIAL_REQUIRE_GPU();
    const step08::Occupancy occupancy = step08::occupancy();
    EXPECT_EQ(occupancy.multiprocessors,
              tutorial_test::current_device_properties().multiProcessorCount);
    EXPECT_EQ(occupancy.cache_bytes, tutorial_test::current_device_properties().l2CacheSize);
    const auto blocks = [&](TileShape tile) { return occupancy.blocks[static_cast<int>(tile)]; };
    EXPECT_GE(blocks(TileShape::t128x256), 1);
    // Fewer threads per block: at least as many blocks fit.
    EXPECT_GE(blocks(TileShape::t128x128), blocks(TileShape::t128x256));
    EXPECT_GE(blocks(TileShape::t256x128), 1);
    EXPECT_GE(blocks(TileShape::t64x128), blocks(TileShape::t128x128));
    EXPECT_GE(blocks(TileShape::t64x64), blocks(TileShape::t64x128));
    // The thin tiles have as many threads as a 64 x 64 block and fewer sums per thread.
    EXPECT_GE(blocks(TileShape::t16x128), blocks(TileShape::t128x256));
    EXPECT_GE(blocks(TileShape::t128x32), blocks(TileShape::t128x256));
    EXPECT_GE(blocks(TileShape::t128x16), blocks(TileShape::t128x32));
    EXPECT_GE(blocks(TileShape::t8x4), 1);
    EXPECT_GE(blocks(TileShape::t4x128), 1);
    EXPECT_GE(blocks(TileShape::t8x128), 1);
}
