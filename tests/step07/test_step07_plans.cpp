// Step 07's host side: how K is split and shared out, the names, and the simple choice. No GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "choose_split.hpp"
#include "tests/support/exception_message.hpp"

namespace {

using tutorial_test::message_of;

// An H100 for step 06's two tiles: 132 multiprocessors holding one 128 x 256 block or two
// 128 x 128 blocks each.
const step06::Occupancy kH100{132, {1, 2}};

}  // namespace

TEST(Step07SplitPlan, WorkedOutByHand) {
    // 1037 in 3: ceil(1037 / 3) = 346, rounded up to 352 (22 slices); 1037 = 352 + 352 + 333.
    EXPECT_EQ(step07::plan_splits(1037, 3).depth, 352);
    EXPECT_EQ(step07::plan_splits(1037, 3).count, 3);
    // 32 in 2: two ranges of one slice each (the worked example of the program).
    EXPECT_EQ(step07::plan_splits(32, 2).depth, 16);
    EXPECT_EQ(step07::plan_splits(32, 2).count, 2);
    // 40 in 4: ceil(40 / 4) = 10, rounded up to 16: only 3 ranges (16 + 16 + 8) are needed.
    EXPECT_EQ(step07::plan_splits(40, 4).depth, 16);
    EXPECT_EQ(step07::plan_splits(40, 4).count, 3);
    // K = 1 cannot be split; K = 0 is one empty range (C becomes zero).
    EXPECT_EQ(step07::plan_splits(1, 16).count, 1);
    EXPECT_EQ(step07::plan_splits(0, 4).depth, 0);
    EXPECT_EQ(step07::plan_splits(0, 4).count, 1);
}

TEST(Step07SplitPlan, RangesCoverKExactlyOnce) {
    for (const int k : {1, 2, 15, 16, 17, 33, 100, 257, 1000, 4097, 5000, 65536}) {
        for (int splits = 1; splits <= step07::kMaxSplits; ++splits) {
            const step07::SplitPlan plan = step07::plan_splits(k, splits);
            SCOPED_TRACE("k = " + std::to_string(k) + ", splits = " + std::to_string(splits));
            EXPECT_EQ(plan.depth % step06::kSlice, 0) << "a range starts inside a slice";
            EXPECT_GE(plan.count, 1);
            EXPECT_LE(plan.count, splits);
            EXPECT_GE(static_cast<long long>(plan.count) * plan.depth, k) << "K not covered";
            EXPECT_LT(static_cast<long long>(plan.count - 1) * plan.depth, k)
                << "the last range is empty";
            if (splits == 1)
                EXPECT_GE(plan.depth, k);
        }
    }
}

// ---- names and bad input ------------------------------------------------------------------------

TEST(Step07Names, SplitOutOfRangeNamesTheRange) {
    for (const char* text : {"0", "257", "1000", "0256", "-1", "2x", "", " 3", "1e1"}) {
        SCOPED_TRACE(text);
        EXPECT_THROW(step07::parse_splits(text), std::invalid_argument);
    }
    EXPECT_EQ(message_of([] { step07::parse_splits("257"); }),
              "'257' is not a split factor; choose a whole number from 1 to 256");
    EXPECT_EQ(message_of([] {
                  step07::check_config({step06::TileShape::t128x128, 0});
              }),
              "a split factor is a whole number from 1 to 256, not 0");
    EXPECT_THROW(step07::check_config({step06::TileShape::t128x128, 257}), std::invalid_argument);
    EXPECT_NO_THROW(step07::check_config({step06::TileShape::t128x128, 256}));
    EXPECT_EQ(step07::parse_splits("256"), 256);
}

TEST(Step07Names, StreamKWorkersRoundTripAndNameTheAllowedOnes) {
    EXPECT_EQ(step07::config_name({step06::TileShape::t128x256, 1, 132}), "128x256 stream-K 132");
    EXPECT_EQ(step07::config_name({step06::TileShape::t128x128, 4}), "128x128 split 4");
    EXPECT_EQ(step07::parse_workers("0"), 0);
    EXPECT_EQ(step07::parse_workers("132"), 132);
    EXPECT_EQ(step07::parse_workers("1024"), 1024);
    for (const char* text : {"", "-1", "1025", "12x", " 5", "+5", "1e3", "99999"})
        EXPECT_THROW(step07::parse_workers(text), std::invalid_argument) << "'" << text << "'";
    EXPECT_EQ(message_of([] { step07::parse_workers("1025"); }),
              "'1025' is not a number of stream-K workers; choose a whole number from 0 (no "
              "stream-K) to 1024");
    EXPECT_EQ(message_of([] {
                  step07::check_config({step06::TileShape::t128x128, 2, 8});
              }),
              "split-K or stream-K, not both: got split 2 with 8 stream-K workers");
    EXPECT_THROW(step07::check_config({step06::TileShape::t128x128, 1, -1}), std::invalid_argument);
    EXPECT_THROW(step07::check_config({step06::TileShape::t128x128, 1, 1025}),
                 std::invalid_argument);
    EXPECT_NO_THROW(step07::check_config({step06::TileShape::t128x128, 1, 1024}));
}

// ---- stream-K plans -----------------------------------------------------------------------------

TEST(Step07StreamKPlan, WorkedOutByHand) {
    // 4096^3 in 128 x 256 tiles: 32 x 16 = 512 tiles, three waves of 132 whole (396), and 116
    // tiles of 256 K-slices shared by 132 workers: 29696 slices, 224 or 225 each.
    const step07::StreamKPlan plan =
        step07::plan_stream_k(4096, 4096, 4096, step06::TileSize{128, 256}, 132);
    EXPECT_EQ(plan.tiles, 512);
    EXPECT_EQ(plan.first_tile, 396);
    EXPECT_EQ(plan.slices, 256);
    EXPECT_EQ(plan.workers, 132);
    EXPECT_EQ(plan.total, 116 * 256);
    EXPECT_EQ(plan.begin(1), 224);  // 29696 / 132 = 224.97
    EXPECT_EQ(plan.begin(132), plan.total);
    EXPECT_EQ(plan.owner(0), 0);
    EXPECT_EQ(plan.owner(224), 1);
    EXPECT_EQ(plan.owner(plan.total - 1), 131);
}

TEST(Step07StreamKPlan, NoneWhereTheWavesAreWhole) {
    // 132 tiles of 128 x 256 on 132 workers, 264 on 132, no workers, K = 0: nothing shared.
    EXPECT_EQ(
        step07::plan_stream_k(128 * 12, 256 * 11, 500, step06::TileSize{128, 256}, 132).workers, 0);
    EXPECT_EQ(
        step07::plan_stream_k(128 * 24, 256 * 11, 500, step06::TileSize{128, 256}, 132).workers, 0);
    EXPECT_EQ(step07::plan_stream_k(4096, 4096, 4096, step06::TileSize{128, 256}, 0).workers, 0);
    EXPECT_EQ(step07::plan_stream_k(4096, 4096, 0, step06::TileSize{128, 256}, 132).workers, 0);
    const step07::StreamKPlan none =
        step07::plan_stream_k(128 * 12, 256 * 11, 500, step06::TileSize{128, 256}, 132);
    EXPECT_EQ(none.first_tile, none.tiles) << "without stream-K every tile is whole";
}

TEST(Step07StreamKPlan, CountsPastAnIntStayExact) {
    // 65535 x 16776704 tiles of 128 x 128: the whole ones were cast to int (-25165824 printed).
    const step07::StreamKPlan plan =
        step07::plan_stream_k(8388480, 2147418112, 1, step06::TileSize{128, 128}, 1000);
    EXPECT_EQ(plan.tiles, 65535LL * 16776704);
    EXPECT_EQ(plan.first_tile, plan.tiles - plan.tiles % 1000);
    EXPECT_EQ(plan.total, plan.tiles % 1000);
}

TEST(Step07StreamKPlan, FewerTilesThanWorkersAreAllShared) {
    const step07::StreamKPlan plan =
        step07::plan_stream_k(100, 100, 17, step06::TileSize{64, 64}, 7);
    EXPECT_EQ(plan.tiles, 4);
    EXPECT_EQ(plan.first_tile, 0);
    EXPECT_EQ(plan.slices, 2);  // K = 17 needs two slices of 16
    EXPECT_EQ(plan.total, 8);
}

TEST(Step07StreamKPlan, EverySliceHasExactlyOneOwner) {
    // Shares cover [0, total) in order, without gaps or overlaps, differ by at most one slice, and
    // owner() finds the share that holds each slice (also with idle workers, when total <
    // workers).
    for (const int workers : {1, 2, 3, 7, 44, 132, 264, 1024}) {
        for (const int m : {1, 64, 300, 1000, 4097}) {
            for (const int k : {1, 16, 17, 333, 4096}) {
                const step07::StreamKPlan plan =
                    step07::plan_stream_k(m, 520, k, step06::TileSize{64, 64}, workers);
                if (plan.workers == 0)
                    continue;
                ASSERT_EQ(plan.total,
                          static_cast<long long>(plan.tiles - plan.first_tile) * plan.slices);
                ASSERT_GT(plan.tiles - plan.first_tile, 0);
                ASSERT_LT(plan.tiles - plan.first_tile,
                          std::max<long long>(workers, plan.tiles + 1));
                ASSERT_EQ(plan.begin(0), 0);
                ASSERT_EQ(plan.begin(workers), plan.total);
                for (int w = 0; w < workers; ++w) {
                    const long long size = plan.begin(w + 1) - plan.begin(w);
                    ASSERT_GE(size, plan.total / workers);
                    ASSERT_LE(size, plan.total / workers + 1);
                }
                for (long long x = 0; x < plan.total; x += 1 + plan.total / 997) {
                    const int w = plan.owner(x);
                    ASSERT_LE(plan.begin(w), x) << "workers " << workers << ", slice " << x;
                    ASSERT_LT(x, plan.begin(w + 1)) << "workers " << workers << ", slice " << x;
                }
            }
        }
    }
}

// ---- packing ------------------------------------------------------------------------------------

// ---- the choice ---------------------------------------------------------------------------------

TEST(Step07Choice, FewTilesSplitKIntoAsManyRangesAsOneWaveHolds) {
    // 1024^2 in 128 x 128 tiles (128 x 256 would not fill a wave): 64 tiles, one wave is 264
    // blocks, so 4 ranges (256 blocks) fit and 6 (384) do not; 16384 / 4 keeps every range deep.
    const step07::Config config = step07::choose_config(1024, 1024, 16384, kH100);
    EXPECT_EQ(config.tile, step06::TileShape::t128x128);
    EXPECT_EQ(config.splits, 4);
    EXPECT_EQ(config.workers, 0);
    // 256 x 256: 4 tiles, 64 ranges would make 256 blocks; K = 16384 keeps ranges of 256.
    EXPECT_EQ(step07::choose_config(256, 256, 16384, kH100).splits, 64);
    // Short K is never split below kMinSplitDepth columns per range: 4 tiles, K = 100.
    EXPECT_EQ(step07::choose_config(256, 256, 100, kH100).splits, 1);
    // 100 x 100: one tile. 128 ranges asked of 10000 columns are 79 deep, rounded up to 80 (whole
    // slices), and make 125; 256 would be 40 deep, under kMinSplitDepth.
    const step07::Config one_tile = step07::choose_config(100, 100, 10000, kH100);
    EXPECT_EQ(one_tile.splits, 128);
    EXPECT_EQ(step07::plan_splits(10000, one_tile.splits).count, 125);
}

TEST(Step07Choice, AHalfEmptyLastWaveIsSharedByStreamK) {
    // 4096^2 in 128 x 256 tiles: 512 tiles, 3 waves of 132 and 116 left over (more than half a
    // wave): whole tiles. 4096 x 3072: 384 tiles, 2 waves and 120 (more than half): whole too.
    EXPECT_EQ(step07::choose_config(4096, 4096, 4096, kH100).workers, 0);
    // 128 x 256 tiles, 140 of them (20 x 7): one wave and 8 left over: stream-K over 132.
    const step07::Config shared = step07::choose_config(128 * 20, 256 * 7, 4096, kH100);
    EXPECT_EQ(shared.tile, step06::TileShape::t128x256);
    EXPECT_EQ(shared.workers, 132);
    EXPECT_EQ(shared.splits, 1);
    // Whole waves: nothing to share.
    EXPECT_EQ(step07::choose_config(128 * 12, 256 * 22, 4096, kH100).workers, 0);
}

TEST(Step07Choice, EmptyOrShortKNeedsNothing) {
    EXPECT_EQ(step07::choose_config(100, 100, 0, kH100).splits, 1);
    EXPECT_EQ(step07::choose_config(100, 100, 1, kH100).splits, 1);
    EXPECT_EQ(step07::choose_config(0, 100, 100, kH100).workers, 0);
}
