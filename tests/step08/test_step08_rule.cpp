// Step 08's host side: the tile table, packing, and the rule that picks a configuration. No GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "choose_config.hpp"
#include "choose_split.hpp"
#include "common/named_values.hpp"
#include "tests/support/exception_message.hpp"

using step08::Config;
using step08::Occupancy;
using step08::Packing;
using step08::TileShape;

namespace {

using tutorial_test::message_of;

// An H100: 132 multiprocessors holding one 128 x 256 block, two 128 x 128 blocks, six 64 x 64
// blocks or four 4 x 128 blocks each (the H200 holds as many).
const Occupancy kH100{{132, {1, 1, 2, 3, 6, 8, 4, 8, 8, 4, 2}}, 50LL << 20};

// The rule's scope without the 8 x 4 tile, and with K never split.
step08::RuleScope without_dot_tile() {
    step08::RuleScope scope;
    scope.leave_out(TileShape::t8x4);
    return scope;
}

step08::RuleScope whole_k() {
    step08::RuleScope scope;
    scope.max_splits = 1;
    return scope;
}

}  // namespace

// ---- split plans --------------------------------------------------------------------------------

TEST(Step08Names, RoundTripAndRead) {
    for (const TileShape tile : step08::all_tiles())
        EXPECT_EQ(step08::parse_tile_shape(step08::tile_name(tile)), tile);
    EXPECT_EQ(step08::config_name({TileShape::t128x128, 1}), "128x128");
    EXPECT_EQ(step08::config_name({TileShape::t64x64, 4}), "64x64 split 4");
    EXPECT_EQ(step08::tile_size(TileShape::t64x64).rows, 64);
    EXPECT_EQ(step08::tile_size(TileShape::t128x128).cols, 128);
    EXPECT_EQ(step08::tile_size(TileShape::t128x256).cols, 256);
    EXPECT_EQ(step08::tile_name(TileShape::t128x256), std::string("128x256"));
    EXPECT_EQ(step07::parse_splits("1"), 1);
    EXPECT_EQ(step07::parse_splits("16"), 16);
    EXPECT_EQ(step07::parse_splits("64"), 64);
}

TEST(Step08Names, UnknownTileNamesTheAllowedOnes) {
    EXPECT_EQ(message_of([] { step08::parse_tile_shape("128x64"); }),
              "'128x64' is not a tile shape of step 08; choose 128x256, 256x128, 128x128, 64x128, "
              "64x64, 16x128, 128x32, 128x16, 8x4, 4x128 or 8x128");
    EXPECT_THROW(step08::parse_tile_shape(""), std::invalid_argument);
}

TEST(Step08Names, PackingRoundTripsAndNamesTheAllowedOnes) {
    for (const Packing packing : {Packing::automatic, Packing::off, Packing::on})
        EXPECT_EQ(step08::parse_packing(tutorial::name_of(step08::kPackings, packing)), packing);
    EXPECT_EQ(step08::config_name({TileShape::t128x256, 2, Packing::on}),
              "128x256 split 2, packed");
    EXPECT_EQ(step08::config_name({TileShape::t64x64, 1, Packing::off}), "64x64, unpacked");
    EXPECT_EQ(message_of([] { step08::parse_packing("yes"); }),
              "'yes' is not a packing of step 08; choose auto, on or off");
    EXPECT_THROW(step08::parse_packing(""), std::invalid_argument);
}

TEST(Step08Packing, WorthItWorkedOutByHand) {
    ASSERT_EQ(step08::kPackMinIntensity, 650.0) << "the cases below are worked out for 650";
    // Packing moves B and C, (k + m) n floats, for m n k multiply-adds: m k / (m + k) per float.
    // A cube of side s: s / 2, so it packs from s = 1300 on.
    EXPECT_TRUE(step08::worth_packing(1300, 1300, 1300));
    EXPECT_FALSE(step08::worth_packing(1299, 1299, 1299));
    EXPECT_TRUE(step08::worth_packing(4097, 4097, 4097));   // 2048.5 per float
    EXPECT_TRUE(step08::worth_packing(3075, 3073, 3077));   // 1538
    EXPECT_TRUE(step08::worth_packing(1000, 1001, 6000));   // 857
    EXPECT_FALSE(step08::worth_packing(1023, 1025, 1027));  // 512.5
    EXPECT_FALSE(step08::worth_packing(2152, 3910, 751));   // 556.7
    EXPECT_FALSE(step08::worth_packing(777, 5555, 333));    // 233.1
    // n does not count: a wide or a narrow B gives the same measure.
    EXPECT_TRUE(step08::worth_packing(2000, 3, 2000));
    EXPECT_TRUE(step08::worth_packing(2000, 30001, 2000));
    EXPECT_FALSE(step08::worth_packing(1200, 30001, 1200));
    // Fewer than 650 rows never pack, however big B is: 128 x 8191 gives 126 per float.
    EXPECT_FALSE(step08::worth_packing(128, 8191, 8191));
    EXPECT_FALSE(step08::worth_packing(649, 100000, 1000000));
    // A dot product moves both vectors for as many multiply-adds: never.
    EXPECT_FALSE(step08::worth_packing(1, 1, 5001));
    // The largest sizes do not overflow the count.
    EXPECT_TRUE(step08::worth_packing(46339, 46339, 46339));
}

TEST(Step08Packing, OnlyWhenFloat4CannotReadTheOperands) {
    const Config automatic{TileShape::t128x256, 1, Packing::automatic};
    const Config on{TileShape::t64x64, 2, Packing::on};
    const Config off{TileShape::t128x128, 1, Packing::off};
    using step06::Float4;
    for (const Config& config : {automatic, on, off})
        EXPECT_FALSE(step08::packs(config, 4096, 4096, 4096, Float4::all))
            << step08::config_name(config);
    EXPECT_TRUE(step08::packs(automatic, 4097, 4097, 4097, Float4::none));
    EXPECT_FALSE(step08::packs(automatic, 67, 45, 33, Float4::none));
    EXPECT_TRUE(step08::packs(on, 3, 3, 3, Float4::none));
    EXPECT_FALSE(step08::packs(off, 4097, 4097, 4097, Float4::none));
    // With B and C on float4 only A is read element by element: the rule leaves it, forcing packs.
    EXPECT_FALSE(step08::packs(automatic, 4096, 4096, 4095, Float4::b_and_c));
    EXPECT_TRUE(step08::packs(on, 4096, 4096, 4095, Float4::b_and_c));
    EXPECT_FALSE(step08::packs(off, 4096, 4096, 4095, Float4::b_and_c));
}

// ---- the estimate -------------------------------------------------------------------------------

TEST(Step08Estimate, CountsBlocksAndWavesByHand) {
    // 1024^3 with 128 x 128 tiles: 8 x 8 = 64 blocks on 132 multiprocessors x 2 slots: 0.24 waves.
    const step08::Estimate whole =
        step08::estimate(1024, 1024, 1024, {TileShape::t128x128, 1}, kH100);
    EXPECT_EQ(whole.blocks, 64);
    EXPECT_NEAR(whole.waves, 64.0 / 264.0, 1e-12);
    EXPECT_EQ(whole.reduction, 0.0);
    // Split in 4: 256 blocks, 0.97 waves; the reduction moves (4 + 1) x 1024^2 floats.
    const step08::Estimate split =
        step08::estimate(1024, 1024, 1024, {TileShape::t128x128, 4}, kH100);
    EXPECT_EQ(split.blocks, 256);
    EXPECT_NEAR(split.waves, 256.0 / 264.0, 1e-12);
    EXPECT_GT(split.reduction, 0.0);
    // 64 x 64 tiles: 16 x 16 = 256 blocks, six slots per multiprocessor.
    const step08::Estimate small =
        step08::estimate(1024, 1024, 1024, {TileShape::t64x64, 1}, kH100);
    EXPECT_EQ(small.blocks, 256);
    EXPECT_NEAR(small.waves, 256.0 / 792.0, 1e-12);
}

TEST(Step08Estimate, ALastPartialRoundCostsMoreThanItsShare) {
    // One multiprocessor with two 128 x 128 slots, 7 blocks of 128 x 128 x 16: three full rounds
    // of two blocks, then one block alone, which runs at (1 / 2)^0.4 of a full round's speed per
    // block. A block of two to a multiprocessor pays its start and end as 24 / 2^2 = 6 more
    // columns of K; the block alone has no neighbour to hide them and pays all 24. In all
    // (6 x 22 + 40 / 0.5^0.4) columns' work at the 128 x 128 tile's speed (0.87).
    const Occupancy one{{1, {1, 1, 2, 3, 6}}};  // in the order of TileShape
    const double shared_block = 128.0 * 128.0 * (16.0 + 24.0 / 4.0);
    const double lone_block = 128.0 * 128.0 * (16.0 + 24.0);
    const step08::Estimate seven =
        step08::estimate(7 * 128, 128, 16, {TileShape::t128x128, 1}, one);
    EXPECT_NEAR(seven.compute, (6.0 * shared_block + lone_block / std::pow(0.5, 0.4)) / 0.87, 1e-6);
    // Eight blocks fill four rounds: no block runs alone, so the eighth costs its share.
    const step08::Estimate eight =
        step08::estimate(8 * 128, 128, 16, {TileShape::t128x128, 1}, one);
    EXPECT_NEAR(eight.compute, 8.0 * shared_block / 0.87, 1e-6);
}

TEST(Step08Estimate, AShortKCostsTheBigTilesTheirStartAndEnd) {
    // 8294 x 1355 x 16 on the H200 (step 08's notes, "The rule refitted on the H200"): one slice
    // of K, so each block's start and end are most of its time. 128 x 256 blocks sit alone on a
    // multiprocessor and pay 24 columns on top of their 16; 64 x 128 blocks, three to a
    // multiprocessor, pay 24 / 9. The rule takes a tile that shares its multiprocessors, as
    // measured: 64 x 128 0.0353 ms, 128 x 256 0.0417.
    const step08::Estimate big = step08::estimate(8294, 1355, 16, {TileShape::t128x256, 1}, kH100);
    EXPECT_NEAR(big.compute, 3.0 * 128.0 * 256.0 * (16.0 + 24.0), 1e-6);
    const Config chosen = step08::choose_config(8294, 1355, 16, kH100);
    EXPECT_NE(chosen.tile, TileShape::t128x256);
    EXPECT_NE(chosen.tile, TileShape::t256x128);
    EXPECT_EQ(chosen.splits, 1);
    // A long K hides it: at 4096^3 the start and end are 24 columns of 4096.
    EXPECT_EQ(step08::choose_config(4096, 4096, 4096, kH100).tile, TileShape::t128x256);
}

TEST(Step08Estimate, MoreMultiprocessorsNeverMakeItSlower) {
    for (const int multiprocessors : {1, 8, 60, 132, 264}) {
        Occupancy more = kH100;
        more.multiprocessors = multiprocessors * 2;
        Occupancy fewer = kH100;
        fewer.multiprocessors = multiprocessors;
        for (const Config config : {Config{TileShape::t128x128, 1}, Config{TileShape::t64x64, 3}}) {
            EXPECT_LE(step08::estimate(3000, 2000, 1000, config, more).total(),
                      step08::estimate(3000, 2000, 1000, config, fewer).total());
        }
    }
}

// ---- the rule -----------------------------------------------------------------------------------

TEST(Step08Rule, BigSquaresTakeTheBigTileUnsplitWithStreamK) {
    // 4096^3: 512 blocks of 128 x 256 are 3.9 waves; splitting would only add the reduction, and
    // stream-K shares the 116 tiles of the last wave among all 132 multiprocessors.
    for (const int size : {4096, 8192}) {
        const Config config = step08::choose_config(size, size, size, kH100);
        EXPECT_EQ(config.tile, TileShape::t128x256) << size;
        EXPECT_EQ(config.splits, 1) << size;
        EXPECT_EQ(config.workers, 132) << size;
    }
}

TEST(Step08Estimate, StreamKCountsTheWholeWavesThenEqualShares) {
    // 4096^3, 128 x 256 on 132 multiprocessors: three whole rounds, then 116 / 132 of one, plus
    // four tiles of traffic per worker. Every block, a worker too, pays 24 columns for its start
    // and end, alone on its multiprocessor.
    const double tile_work = 128.0 * 256.0 * (4096.0 + 24.0);
    const step08::Estimate plain =
        step08::estimate(4096, 4096, 4096, {TileShape::t128x256, 1}, kH100);
    const step08::Estimate shared = step08::estimate(
        4096, 4096, 4096, {TileShape::t128x256, 1, Packing::automatic, 132}, kH100);
    EXPECT_NEAR(plain.compute, 4.0 * tile_work, 1e-3);
    EXPECT_NEAR(shared.compute, 3.0 * tile_work + 128.0 * 256.0 * (116.0 / 132.0 * 4096.0 + 24.0),
                1e-3);
    EXPECT_NEAR(shared.reduction, 80.0 * 4.0 * 128.0 * 256.0, 1e-6);
    EXPECT_EQ(shared.blocks, 396 + 132);
    EXPECT_LT(shared.total(), plain.total());
}

TEST(Step08Rule, StreamKOnlyWhereItPays) {
    // 8192 x 8192 x 128: K = 128 is 8 slices, so the 68 tiles of the last wave are short work
    // and moving the partial tiles would cost more than the wave.
    EXPECT_EQ(step08::choose_config(8192, 8192, 128, kH100).workers, 0);
    // Whole waves (132 tiles of 128 x 256) leave nothing to share.
    EXPECT_EQ(step08::choose_config(128 * 12, 256 * 11, 4096, kH100).workers, 0);
    // Less than one wave: split-K's business, not stream-K's.
    EXPECT_EQ(step08::choose_config(1024, 1024, 1024, kH100).workers, 0);
    // Every candidate with stream-K has whole tiles before the shared ones and one worker per
    // resident block.
    for (const step08::Estimate& candidate : step08::candidates(6000, 6000, 6000, kH100)) {
        if (candidate.config.workers == 0)
            continue;
        EXPECT_EQ(candidate.config.splits, 1);
        EXPECT_EQ(candidate.config.workers,
                  std::min(step07::kMaxWorkers,
                           132 * kH100.blocks_per_multiprocessor(candidate.config.tile)));
    }
}

TEST(Step08Rule, FewTilesAndLongKAreSplit) {
    // 1024 x 1024 x 16384: 64 big tiles fill a quarter of a wave, so K is split.
    const Config long_k = step08::choose_config(1024, 1024, 16384, kH100);
    EXPECT_GT(long_k.splits, 1);
    // 128 x 8192 x 8192: 64 big tiles again.
    EXPECT_GT(step08::choose_config(128, 8192, 8192, kH100).splits, 1);
    // A dot product, 1 x 1 x 5000: one block, so as many ranges as the rule allows: 64 asked
    // for, which makes 63 ranges of 80 columns (ranges are whole slices of 16), on the 8 x 4 tile.
    // 128 would leave ranges of 40 columns, under kMinSplitDepth.
    const Config dot = step08::choose_config(1, 1, 5000, kH100);
    EXPECT_EQ(dot.splits, 64);
    EXPECT_EQ(step07::plan_splits(5000, dot.splits).count, 63);
    EXPECT_EQ(dot.tile, TileShape::t8x4) << step08::tile_name(dot.tile);
    // 256 x 256 x 16384: 16 small tiles; 64 ranges of 256 columns.
    EXPECT_EQ(step08::choose_config(256, 256, 16384, kH100).splits, 64);
}

TEST(Step08Rule, ShortKIsNeverSplit) {
    // 8192 x 8192 x 128: 4096 blocks already; and K of 128 cannot keep 64 columns in 3 ranges.
    EXPECT_EQ(step08::choose_config(8192, 8192, 128, kH100).splits, 1);
    EXPECT_EQ(step08::choose_config(64, 4096, 8, kH100).splits, 1);
    EXPECT_EQ(step08::choose_config(300, 300, 1, kH100).splits, 1);
}

TEST(Step08Rule, NarrowCTakesTheNarrowerTile) {
    // 8192 x 128 x 8192: a 128 x 256 block would leave half of its columns empty; 256 x 128
    // blocks, K split in 4, make 128 blocks for 132 slots (measured on the H100: 0.93 of cuBLAS,
    // against 0.89 for 128 x 128 split 4).
    const Config config = step08::choose_config(8192, 128, 8192, kH100);
    EXPECT_EQ(config.tile, TileShape::t256x128);
    EXPECT_EQ(config.splits, 4);
}

TEST(Step08Rule, FewRowsOrColumnsTakeAThinTile) {
    // Measured on the H100 (step 08's notes): 16 x 8192 x 8192 ran at 1.49 of cuBLAS as 16 x 128
    // split 8 and at 0.72 as 64 x 64 split 16; 8192 x 16 x 8192 at 0.98 as 128 x 16 split 8, and
    // 8192 x 32 x 8192 at 0.95 as 128 x 32 split 8 against 0.80 as 128 x 16 split 8.
    // One to four rows are the 4 x 128 tile's, one column the 8 x 4 tile's (below). With five rows
    // the 8 x 128 tile reads B once: on the H100 6 x 4041 x 10611 ran at 2.06 of cuBLAS as
    // 8 x 128 split 8, against 1.96 as 16 x 128 split 32.
    for (const int few : {5, 16, 32}) {
        SCOPED_TRACE(few);
        const Config rows = step08::choose_config(few, 8192, 8192, kH100);
        EXPECT_EQ(rows.tile, few == 5 ? TileShape::t8x128 : TileShape::t16x128);
        EXPECT_GT(rows.splits, 1);  // 64 tiles or 64 blocks: K is split to fill the GPU
        if (few > 5)
            EXPECT_EQ(step08::choose_config(8192, few, 8192, kH100).tile,
                      few == 16 ? TileShape::t128x16 : TileShape::t128x32);
    }
    // At 64 rows a thin tile reads B four times: 64 x 128 split 6 (0.92) beat 64 x 64 split 6
    // (0.87) and 16 x 128 (0.46 whole).
    EXPECT_EQ(step08::choose_config(64, 8192, 8192, kH100).tile, TileShape::t64x128);
    // Small squares fill a fifth of the GPU at most, and there a thin tile's many blocks win: on
    // the H200 257^3 ran at 1.14 of cuBLAS as 16 x 128 split 4 and at 0.91 as 64 x 64 split 4.
    // From 640 up a square never takes a 16-wide tile: its slower blocks cost more than the
    // padding that a wider tile multiplies. From 1000 up it takes a big or a 64-row tile.
    EXPECT_EQ(step08::choose_config(257, 257, 257, kH100).tile, TileShape::t16x128);
    for (const int size : {640, 1000, 4096}) {
        SCOPED_TRACE(size);
        const TileShape tile = step08::choose_config(size, size, size, kH100).tile;
        EXPECT_TRUE(tile != TileShape::t16x128 && tile != TileShape::t128x16);
        if (size >= 1000)
            EXPECT_TRUE(tile != TileShape::t128x32 && tile != TileShape::t64x64);
    }
}

TEST(Step08Estimate, NothingCostsLessThanReadingAAndBOnce) {
    // 4096 x 16 x 4096 as 128 x 16 split 32: 1024 blocks of 2048 x 128 multiply-adds, 8 on each
    // multiprocessor at a time, cost less than streaming A and B once, (4096 + 16) x 4096 floats at
    // 40 multiply-adds a float over 132 multiprocessors, so the estimate is that floor.
    const double floor = 40.0 * (4096.0 + 16.0) * 4096.0 / 132.0;
    const step08::Estimate split32 =
        step08::estimate(4096, 16, 4096, {TileShape::t128x16, 32}, kH100);
    EXPECT_NEAR(split32.compute, floor, 1e-6 * floor);
    // At the floor, fewer splits only save reduction traffic: measured on the H100, 128 x 32 and
    // 128 x 16 split 16 ran at 1.01 and 0.99 of cuBLAS where 128 x 16 split 32 ran at 0.90 (step
    // 08's notes).
    const Config chosen = step08::choose_config(4096, 16, 4096, kH100);
    EXPECT_EQ(chosen.splits, 16);
    EXPECT_TRUE(chosen.tile == TileShape::t128x16 || chosen.tile == TileShape::t128x32);
    // A big square is nowhere near it.
    const step08::Estimate square =
        step08::estimate(4096, 4096, 4096, {TileShape::t128x256, 1}, kH100);
    EXPECT_GT(square.compute, 10.0 * 40.0 * 8192.0 * 4096.0 / 132.0);
}

TEST(Step08Rule, EveryTileCompetesForACTallerThanTheGrid) {
    // A grid has at most 65535 blocks along y, where the rows of C go, and gemm() multiplies a
    // taller C in bands of rows: the rule picks as for any other C. 1,000,000 rows of one column
    // (125,000 blocks of the 8 x 4 tile) take the 8 x 4 tile, and 20,000,000 rows (78,125 blocks
    // of the tallest tile) get a configuration.
    EXPECT_EQ(step08::choose_config(1000000, 1, 8192, kH100).tile, TileShape::t8x4);
    EXPECT_NO_THROW(step08::choose_config(20000000, 4, 4, kH100));
    // gemm()'s bands: 65535 blocks of the tile's rows each.
    EXPECT_EQ(step08::rows_per_band(TileShape::t8x4), 65535LL * 8);
    EXPECT_EQ(step08::rows_per_band(TileShape::t4x128), 65535LL * 4);
    EXPECT_EQ(step08::rows_per_band(TileShape::t256x128), 65535LL * 256);
    // Only a scope with no candidate for the shape is refused, by name.
    step08::RuleScope dot_alone;
    dot_alone.tiles = {TileShape::t8x4};
    EXPECT_EQ(step08::choose_config(100, 1, 100, kH100, dot_alone).tile, TileShape::t8x4);
    const std::string message =
        message_of([&] { step08::choose_config(100, 2, 100, kH100, dot_alone); });
    EXPECT_NE(message.find("no tile of the rule's scope is a candidate for 100 x 2 x 100"),
              std::string::npos)
        << message;
}

TEST(Step08Rule, OneColumnTakesTheDotTile) {
    // Where C has one column the 8 x 4 tile is the only candidate, whatever K: on the H200 it was
    // the fastest configuration of every one-column shape swept, K = 1 to 127 too (step 08's
    // notes); with 2 to 5 columns it is never one.
    const int sizes[][2] = {{8192, 8192}, {1, 65536}, {1000, 1000}, {4096, 128}, {65536, 300},
                            {13288, 12},  {2304, 28}, {40, 124},    {892, 1}};
    for (const auto& [m, k] : sizes) {
        SCOPED_TRACE(std::to_string(m) + "x1x" + std::to_string(k));
        for (const step08::Estimate& candidate : step08::candidates(m, 1, k, kH100)) {
            EXPECT_EQ(candidate.config.tile, TileShape::t8x4);
            EXPECT_EQ(candidate.config.workers, 0);
        }
        EXPECT_EQ(step08::choose_config(m, 1, k, kH100).tile, TileShape::t8x4);
        // Without it (the benchmark's comparison), the others compete as before.
        EXPECT_NE(step08::choose_config(m, 1, k, kH100, without_dot_tile()).tile, TileShape::t8x4);
        for (const int n : {2, 3, 4, 5}) {
            for (const step08::Estimate& candidate : step08::candidates(m, n, k, kH100))
                EXPECT_NE(candidate.config.tile, TileShape::t8x4) << n << " columns";
        }
    }
    // Its threads share K instead of stream-K workers: the rule gives it none.
    EXPECT_EQ(step08::stream_k_workers(TileShape::t8x4, kH100), 0);
}

TEST(Step08Rule, TheDotTileSplitsUntilEveryMultiprocessorHasTwoBlocks) {
    // 8192 x 1 x 8192: 1024 blocks for 132 multiprocessors, K whole. 1024 x 1 x 65536: 128 blocks,
    // so 4 ranges (0.0737 ms on the H200, 0.0892 in 2, 0.1265 whole). 1 x 1 x 65536: one block,
    // so as many ranges as the rule allows.
    EXPECT_EQ(step08::choose_config(8192, 1, 8192, kH100).splits, 1);
    EXPECT_EQ(step08::choose_config(1024, 1, 65536, kH100).splits, 4);
    EXPECT_EQ(step08::choose_config(1, 1, 65536, kH100).splits, step07::kMaxSplits);
    // Where K is short, the reduction's launch costs more than the split saves: 1024 x 1 x 1024
    // took 0.0076 ms whole and 0.0108 to 0.0120 in 2 to 16 ranges, 300 x 1 x 130 0.0072 whole and
    // 0.0110 in 2.
    EXPECT_EQ(step08::choose_config(1024, 1, 1024, kH100).splits, 1);
    EXPECT_EQ(step08::choose_config(300, 1, 130, kH100).splits, 1);
}

TEST(Step08Estimate, CountsTheDotTilesFloatsByHand) {
    // 8192 x 1 x 8192, K whole: 1024 blocks of 8 rows, each reading 8 x 8192 floats of A at 40
    // multiply-adds a float, spread over the 132 multiprocessors.
    const step08::Estimate e =
        step08::estimate(8192, 1, 8192, {TileShape::t8x4, 1, Packing::automatic}, kH100);
    EXPECT_EQ(e.blocks, 1024);
    EXPECT_NEAR(e.waves, 1024.0 / (132 * 8), 1e-12);
    EXPECT_DOUBLE_EQ(e.compute, 1024.0 * 8 * 8192 * 40 / 132);
    EXPECT_DOUBLE_EQ(e.reduction, 0.0);
    // A range under 512 columns gives a row 8 threads, so its steps are 4 x 8 = 32 columns, and
    // a part of a step costs a whole one: K = 100 costs 128, K = 130 costs 160.
    const step08::Estimate short_k =
        step08::estimate(8192, 1, 100, {TileShape::t8x4, 1, Packing::automatic}, kH100);
    EXPECT_DOUBLE_EQ(short_k.compute, 1024.0 * 8 * 128 * 40 / 132);
    const step08::Estimate short_130 =
        step08::estimate(8192, 1, 130, {TileShape::t8x4, 1, Packing::automatic}, kH100);
    EXPECT_DOUBLE_EQ(short_130.compute, 1024.0 * 8 * 160 * 40 / 132);
    // Fewer than two blocks per multiprocessor: each block reads at half speed, so the busiest
    // multiprocessor costs two blocks' share, 1 x 1 x 65536.
    const step08::Estimate few =
        step08::estimate(1, 1, 65536, {TileShape::t8x4, 1, Packing::automatic}, kH100);
    EXPECT_DOUBLE_EQ(few.compute, 2.0 * 8 * 65536 * 40);
    // A split adds the reduction's launch, 1.2e6, to its traffic: 1024 x 1 x 65536 in 4 ranges.
    const step08::Estimate split =
        step08::estimate(1024, 1, 65536, {TileShape::t8x4, 4, Packing::automatic}, kH100);
    EXPECT_DOUBLE_EQ(split.reduction, 80.0 * 5 * 1024 / 132 + 1.2e6);
    // The 8 x 4 tile reads A and B where they are: nothing to pack, even when asked.
    EXPECT_FALSE(
        step08::packs({TileShape::t8x4, 1, Packing::on}, 8192, 1, 8191, step06::Float4::none));
}

TEST(Step08Rule, OneToFourRowsTakeTheRowTile) {
    // One to four rows of C, kRowMinCols columns or more, and K of one step of the block's
    // threads: the 4 x 128 tile alone, never with stream-K. Five rows: never alone. K under 8, or
    // one column (the 8 x 4 tile's case): never.
    const int sizes[][2] = {{4096, 4096}, {3000, 1000}, {128, 8},    {256, 65536},
                            {1000, 100},  {16, 65536},  {100, 20000}};
    for (const auto& [n, k] : sizes) {
        for (int m = 1; m <= step08::kRowRows; ++m) {
            SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k));
            const std::vector<step08::Estimate> all = step08::candidates(m, n, k, kH100);
            ASSERT_FALSE(all.empty());
            for (const step08::Estimate& candidate : all) {
                EXPECT_EQ(candidate.config.tile, TileShape::t4x128);
                EXPECT_EQ(candidate.config.workers, 0);
            }
        }
        int others = 0;
        for (const step08::Estimate& candidate : step08::candidates(5, n, k, kH100))
            others += candidate.config.tile != TileShape::t4x128;
        EXPECT_GT(others, 0) << "5 rows";
    }
    // Fewer columns than the tile's 128, down to two: one block across, K split the most (on the
    // H200 1 x 16 x 65536 took 0.0146 ms in 256 ranges, the 128 x 32 tile 0.0274).
    for (const int n : {2, 3, 16, 64, 127}) {
        const Config narrow = step08::choose_config(1, n, 65536, kH100);
        EXPECT_EQ(narrow.tile, TileShape::t4x128) << n << " columns";
        EXPECT_EQ(narrow.splits, 256) << n << " columns";
    }
    for (const step08::Estimate& candidate : step08::candidates(1, 4096, 7, kH100))
        EXPECT_NE(candidate.config.tile, TileShape::t4x128) << "K = 7";
    // However big B is: with kRowLoads loads in flight the tile read B faster than every other
    // tile, and than cuBLAS, up to 1 x 30000 x 12000 on the H200. 1 x 8192 x 8192 in 8 ranges:
    // 64 columns of blocks, 512 blocks.
    const Config big = step08::choose_config(1, 8192, 8192, kH100);
    EXPECT_EQ(big.tile, TileShape::t4x128);
    EXPECT_EQ(big.splits, 8);
    EXPECT_EQ(step08::choose_config(1, 30000, 12000, kH100).tile, TileShape::t4x128);
    // Its blocks run in waves of 4 per multiprocessor, 528: 1 x 12000 x 16384 (94 columns of
    // blocks) in 6 ranges would leave 36 blocks for a second wave as long as the first (0.252 ms
    // on the H200), in 16 ranges the waves are shorter (0.188 ms).
    EXPECT_EQ(step08::choose_config(1, 12000, 16384, kH100).splits, 16);
    // Enough blocks to read B at full speed: 1 x 4096 x 4096 in 16 ranges, 512 blocks, as the
    // H100 measured fastest; 1 x 3000 x 1000 in 8, the most its 1000 rows allow.
    EXPECT_EQ(step08::choose_config(1, 4096, 4096, kH100).splits, 16);
    EXPECT_EQ(step08::choose_config(1, 3000, 1000, kH100).splits, 8);
    EXPECT_EQ(step08::choose_config(1, 1, 4096, kH100).tile, TileShape::t8x4);
    EXPECT_EQ(step08::stream_k_workers(TileShape::t4x128, kH100), 0);
    EXPECT_FALSE(
        step08::packs({TileShape::t4x128, 1, Packing::on}, 1, 8191, 8191, step06::Float4::none));
}

// Whether the rule tries `tile` for an m x n x k multiply on an H100.
bool tries_tile(TileShape tile, int m, int n, int k) {
    const std::vector<step08::Estimate> all = step08::candidates(m, n, k, kH100);
    return std::any_of(all.begin(), all.end(), [&](const step08::Estimate& candidate) {
        return candidate.config.tile == tile;
    });
}

TEST(Step08Rule, FiveRowsOrMoreLeaveTheFourRowTileOut) {
    // From five rows on the 4 x 128 tile is no candidate, whatever n, K and the cache: the 8 x 128
    // tile reads B half as often. On the H100 (the notes page) 26 x 2734 x 2198 took 0.0310 ms as
    // 8 x 128 split 3 and 0.0417 as 4 x 128 split 3; 32 x 1255 x 984 0.0145 and 0.0178 (split 6).
    const int sizes[][2] = {{1042, 158}, {3000, 1000}, {227, 947}, {64, 16}, {12999, 616}};
    for (const int m : {5, 17, 32, 64, 65, 1000}) {
        for (const auto& [n, k] : sizes) {
            SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k));
            EXPECT_FALSE(tries_tile(TileShape::t4x128, m, n, k));
        }
    }
    // The 8 x 128 tile is offered from 5 to kStagedRowsMaxRows rows, from kStagedRowsMinCols
    // columns and K of kStagedRowsMinDepth, whether B fits the cache or not (25 x 10008 x 4293: B
    // 172 MB); not past that box.
    using step08::kStagedRowsMaxRows, step08::kStagedRowsMinCols, step08::kStagedRowsMinDepth;
    EXPECT_TRUE(tries_tile(TileShape::t8x128, 5, kStagedRowsMinCols, kStagedRowsMinDepth));
    EXPECT_TRUE(tries_tile(TileShape::t8x128, kStagedRowsMaxRows, 1042, 158));
    EXPECT_TRUE(tries_tile(TileShape::t8x128, 25, 10008, 4293));
    EXPECT_FALSE(tries_tile(TileShape::t8x128, 4, 1042, 158));
    EXPECT_FALSE(tries_tile(TileShape::t8x128, kStagedRowsMaxRows + 1, 1042, 158));
    EXPECT_FALSE(tries_tile(TileShape::t8x128, 10, kStagedRowsMinCols - 1, 158));
    EXPECT_FALSE(tries_tile(TileShape::t8x128, 10, 1042, kStagedRowsMinDepth - 1));
    for (const auto& [m, n, k] :
         {std::array<int, 3>{26, 2734, 2198}, std::array<int, 3>{32, 1255, 984},
          std::array<int, 3>{10, 1042, 158}}) {
        EXPECT_EQ(step08::choose_config(m, n, k, kH100).tile, TileShape::t8x128)
            << m << "x" << n << "x" << k;
    }
}

TEST(Step08Rule, TheRowTilesSplitsPayAThirdOfTheLaunchBesideOtherTiles) {
    // A split pays the reduction's traffic plus a fixed price for its second kernel: the 8 x 4
    // tile's and the 4 x 128 tile's whole, where they compete only with themselves, and a third
    // of it for the 8 x 128 tile, beside the 16 x 128 tile.
    const auto fixed_price = [](int m, int n, int k, TileShape tile, int splits) {
        const step08::Estimate split =
            step08::estimate(m, n, k, {tile, splits, Packing::automatic}, kH100);
        // The traffic: `splits` partial tiles written and read, and C written.
        return split.reduction - 80.0 * (splits + 1.0) * m * n / 132.0;
    };
    EXPECT_NEAR(fixed_price(1000, 1, 4096, TileShape::t8x4, 4), 1.2e6, 1.0);
    EXPECT_NEAR(fixed_price(4, 409, 1660, TileShape::t4x128, 4), 1.2e6, 1.0);
    EXPECT_NEAR(fixed_price(32, 1255, 984, TileShape::t8x128, 6), 4e5, 1.0);
    EXPECT_NEAR(fixed_price(32, 1255, 984, TileShape::t16x128, 6), 0.0, 1.0);
    // Measured on the H100 (the notes page): 32 x 1255 x 984 took 0.0145 ms as 8 x 128 split 6;
    // with four rows 4 x 409 x 166 0.0108 whole, 0.0145 split in 2.
    const Config c32 = step08::choose_config(32, 1255, 984, kH100);
    EXPECT_EQ(c32.tile, TileShape::t8x128);
    EXPECT_GT(c32.splits, 1);
    const Config c4 = step08::choose_config(4, 409, 166, kH100);
    EXPECT_EQ(c4.tile, TileShape::t4x128);
    EXPECT_EQ(c4.splits, 1);
}

TEST(Step08Estimate, CountsTheRowTilesCacheReadsByHand) {
    // The 4 x 128 tile forced on more than four rows (the 8 x 128 tile's groups of eight rows are
    // counted the same way). 10 x 1042 x 158 with K whole: 3 groups of 4 rows times 9 blocks
    // across, 27 blocks, fewer than the 396 that read at full speed, so the estimate is one
    // block's: 128 columns over 160 rows (20 steps of 8) at 40 multiply-adds a float, the first
    // group's from memory, the two others' from the cache at 0.2 of that, on average over the
    // three.
    const step08::Config whole{TileShape::t4x128, 1, Packing::automatic};
    const step08::Estimate e = step08::estimate(10, 1042, 158, whole, kH100);
    EXPECT_EQ(e.blocks, 27);
    EXPECT_DOUBLE_EQ(e.compute, 128.0 * 160 * 40 * (1 + 2 * 0.2) / 3);
    // Without a cache to hold B every group reads it from memory.
    Occupancy no_cache = kH100;
    no_cache.cache_bytes = 0;
    EXPECT_DOUBLE_EQ(step08::estimate(10, 1042, 158, whole, no_cache).compute, 128.0 * 160 * 40);
    // B of exactly the cache's bytes fits; one column more does not (K = 100: 13 steps of 8).
    Occupancy small_cache = kH100;
    small_cache.cache_bytes = 1000 * 100 * sizeof(float);
    EXPECT_DOUBLE_EQ(step08::estimate(10, 1000, 100, whole, small_cache).compute,
                     128.0 * 104 * 40 * (1 + 2 * 0.2) / 3);
    EXPECT_DOUBLE_EQ(step08::estimate(10, 1001, 100, whole, small_cache).compute, 128.0 * 104 * 40);
}

TEST(Step08Estimate, CountsTheRowTilesFloatsByHand) {
    // 1 x 4096 x 4096 in 32 ranges of 128: 32 x 32 = 1024 blocks, each reading 128 columns of B
    // over its 128 rows at 40 multiply-adds a float, spread over 3 blocks on each of the 132
    // multiprocessors (both of its waves, 528 and 496 blocks, have more than those 396).
    const step08::Estimate e =
        step08::estimate(1, 4096, 4096, {TileShape::t4x128, 32, Packing::automatic}, kH100);
    EXPECT_EQ(e.blocks, 1024);
    EXPECT_DOUBLE_EQ(e.compute, 1024.0 * 128 * 128 * 40 / (3 * 132));
    // The reduction moves 33 tiles of 1 x 4096 at 80 a float, and its launch costs 1.2e6 on top.
    EXPECT_DOUBLE_EQ(e.reduction, 80.0 * 33 * 4096 / 132 + 1.2e6);
    // Each range costs its own rows in whole steps of 8, the last range's too: K = 5 costs 8
    // rows, and 1 x 4096 x 4097 in ranges of 272 rows (16 ranges, the last of 17 rows) costs
    // 15 x 272 + 24 rows.
    const step08::Estimate short_k =
        step08::estimate(4, 4096, 5, {TileShape::t4x128, 1, Packing::automatic}, kH100);
    EXPECT_DOUBLE_EQ(short_k.compute, 32.0 * 128 * 8 * 40 / 32);
    const step08::Estimate ragged =
        step08::estimate(1, 4096, 4097, {TileShape::t4x128, 16, Packing::automatic}, kH100);
    EXPECT_EQ(ragged.blocks, 512);
    EXPECT_DOUBLE_EQ(ragged.compute, 32.0 * 128 * (15 * 272 + 24) * 40 / (3 * 132));
}

TEST(Step08Rule, MaxSplitsOfOneNeverSplitsNorStreams) {
    // Neither split-K nor stream-K: the multiply needs no workspace (step 09's inner multiplies).
    for (const int k : {1, 100, 5000, 16384}) {
        EXPECT_EQ(step08::choose_config(1, 1, k, kH100, whole_k()).splits, 1);
        EXPECT_EQ(step08::choose_config(2048, 2048, k, kH100, whole_k()).splits, 1);
        EXPECT_EQ(step08::choose_config(4096, 4096, k, kH100, whole_k()).workers, 0);
        EXPECT_EQ(step08::choose_config(6000, 6000, k, kH100, whole_k()).workers, 0);
    }
}

TEST(Step08Rule, PicksTheSmallestEstimateOfAllCandidates) {
    for (const int m : {1, 100, 1000, 4097}) {
        for (const int k : {1, 64, 800, 16384}) {
            const auto all = step08::candidates(m, 2000, k, kH100);
            ASSERT_FALSE(all.empty());
            const Config chosen = step08::choose_config(m, 2000, k, kH100);
            const double chosen_total = step08::estimate(m, 2000, k, chosen, kH100).total();
            for (const step08::Estimate& other : all)
                EXPECT_LE(chosen_total, other.total()) << step08::config_name(other.config);
            // Every candidate keeps its ranges at least kMinSplitDepth deep.
            for (const step08::Estimate& other : all) {
                if (other.config.splits > 1) {
                    EXPECT_GE((k + other.config.splits - 1) / other.config.splits,
                              step07::kMinSplitDepth);
                }
            }
        }
    }
}

TEST(Step08Rule, MeasuredMidSizesTakeTheirFastestKind) {
    // Measured on the H100 with every configuration (step 08's notes): 1792^3 ran fastest as
    // 392 blocks of 64 x 128, K whole, in one wave (1.04 of cuBLAS; 128 x 256 split 4: 0.99;
    // 128 x 128 split 4: 0.95), 640^3 with K split (64 x 128 split 6: 1.20; 64 x 64 split 4:
    // 1.17; 128 x 128 split 4: 0.83).
    const Config big = step08::choose_config(1792, 1792, 1792, kH100);
    EXPECT_EQ(big.tile, TileShape::t64x128);
    EXPECT_EQ(big.splits, 1);
    EXPECT_GE(step08::choose_config(640, 640, 640, kH100).splits, 2);
    EXPECT_NE(step08::choose_config(640, 640, 640, kH100).tile, TileShape::t128x128);
}

TEST(Step08Rule, ANearTieBetween64x64And64x128GoesTo64x128) {
    // 777 x 5555 x 333: 1131 blocks of 64 x 64 or 572 of 64 x 128, both about 1.43 waves, and
    // estimates 0.15% apart at the speeds 0.80 and 0.85. 64 x 128 ran faster on both GPUs (H100
    // 0.1088 ms against 0.1159, H200 0.1048 against 0.1147; step 08's notes, "Fitting the rule"),
    // as at equal splits in 151 of the 172 pairs of the committed sweeps: rated 0.86, it wins.
    const Config config = step08::choose_config(777, 5555, 333, kH100);
    EXPECT_EQ(config.tile, TileShape::t64x128);
    EXPECT_EQ(config.splits, 1);
    EXPECT_EQ(config.workers, 0);
}

TEST(Step08Rule, SplitFactorsThatDoNotDivideKStillCompeteOnceEach) {
    // Ranges are whole slices, so a factor may make fewer ranges than it asks for: at 20001
    // columns, 64 make 63 ranges of 320 and 128 make 126 of 160. Such factors are tried too, but
    // no tile twice with the same ranges: each factor tried makes more than the one before it.
    for (const auto& shape : std::vector<std::vector<int>>{
             {128, 128, 20001}, {100, 100, 10000}, {50, 50, 60001}, {300, 300, 1000}}) {
        const int k = shape[2];
        std::vector<int> ranges_of_64x64;
        for (const auto& candidate : step08::candidates(shape[0], shape[1], k, kH100)) {
            if (candidate.config.tile == TileShape::t64x64 && candidate.config.workers == 0)
                ranges_of_64x64.push_back(step07::plan_splits(k, candidate.config.splits).count);
        }
        ASSERT_FALSE(ranges_of_64x64.empty()) << k;
        for (std::size_t i = 1; i < ranges_of_64x64.size(); ++i)
            EXPECT_GT(ranges_of_64x64[i], ranges_of_64x64[i - 1]) << k;
        if (k >= 16384)
            EXPECT_GE(ranges_of_64x64.back(), 63) << k;
    }
    const std::vector<int> wanted = {1, 2, 3, 4, 6, 8, 16, 32, 63, 126, 251};
    std::vector<int> got;
    for (const auto& candidate : step08::candidates(128, 128, 20001, kH100)) {
        if (candidate.config.tile == TileShape::t128x32 && candidate.config.workers == 0)
            got.push_back(step07::plan_splits(20001, candidate.config.splits).count);
    }
    EXPECT_EQ(got, wanted);
}

TEST(Step08Rule, AGpuWithFewerMultiprocessorsSplitsLess) {
    // 1024^3 on 132 multiprocessors is split; on 8 the 64 big tiles already make 4 waves.
    EXPECT_GT(step08::choose_config(1024, 1024, 1024, kH100).splits, 1);
    EXPECT_EQ(step08::choose_config(1024, 1024, 1024, Occupancy{{8, {2, 6}}}).splits, 1);
}

TEST(Step08Names, TheRowTileRefusesStreamK) {
    EXPECT_EQ(message_of([] {
                  step08::check_config({TileShape::t4x128, 1, Packing::automatic, 2});
              }),
              "the 4x128 tile shares K among its threads, not among stream-K workers: got 2 "
              "stream-K workers");
    EXPECT_NO_THROW(step08::check_config({TileShape::t4x128, 256, Packing::automatic, 0}));
}

TEST(Step08Names, TheDotTileRefusesStreamK) {
    // The 8 x 4 tile splits K among its threads and by split-K, never by stream-K.
    EXPECT_EQ(message_of([] {
                  step08::check_config({TileShape::t8x4, 1, Packing::automatic, 4});
              }),
              "the 8x4 tile shares K among its threads, not among stream-K workers: got 4 "
              "stream-K workers");
    EXPECT_NO_THROW(step08::check_config({TileShape::t8x4, 64, Packing::automatic, 0}));
}
