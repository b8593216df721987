// Step 10's host-side pieces, no MPI and no GPU: ScaLAPACK's block-cyclic arithmetic (owner,
// NUMROC, global <-> local) against a model that deals the blocks out one by one, and the choice
// and reading of the process grid.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "block_cyclic.hpp"
#include "grid_shape.hpp"

using step10::BlockCyclic;
using step10::GridShape;

namespace {

// Where each global index goes when blocks are dealt out by hand: block b to process
// (b + source) % processes, each process appending its blocks in order.
struct Dealt {
    std::vector<int> owner;                    // by global index
    std::vector<int> local;                    // by global index
    std::vector<std::vector<int>> by_process;  // global indices, in local order
};

Dealt deal(int extent, int block, int processes, int source) {
    Dealt dealt{std::vector<int>(extent), std::vector<int>(extent),
                std::vector<std::vector<int>>(processes)};
    for (int start = 0, b = 0; start < extent; start += block, ++b) {
        const int process = (b + source) % processes;
        for (int global = start; global < extent && global < start + block; ++global) {
            dealt.owner[global] = process;
            dealt.local[global] = static_cast<int>(dealt.by_process[process].size());
            dealt.by_process[process].push_back(global);
        }
    }
    return dealt;
}

}  // namespace

// Every size up to 40, blocks from 1 to past the extent, 1 to 5 processes, every source.
TEST(BlockCyclic, AgreesWithDealingTheBlocksOut) {
    for (int extent = 0; extent <= 40; ++extent)
        for (int block = 1; block <= 45; block += (block < 8 ? 1 : 9))
            for (int processes = 1; processes <= 5; ++processes)
                for (int source = 0; source < processes; ++source) {
                    const BlockCyclic layout{extent, block, processes, source};
                    const Dealt dealt = deal(extent, block, processes, source);
                    const std::string where = "extent " + std::to_string(extent) + ", block " +
                                              std::to_string(block) + ", processes " +
                                              std::to_string(processes) + ", source " +
                                              std::to_string(source);
                    int total = 0;
                    for (int p = 0; p < processes; ++p) {
                        const auto& mine = dealt.by_process[p];
                        ASSERT_EQ(layout.local_count(p), static_cast<int>(mine.size()))
                            << where << ", process " << p;
                        total += layout.local_count(p);
                        for (int l = 0; l < static_cast<int>(mine.size()); ++l)
                            ASSERT_EQ(layout.to_global(l, p), mine[l]) << where << ", local " << l;
                    }
                    ASSERT_EQ(total, extent) << where;
                    for (int g = 0; g < extent; ++g) {
                        ASSERT_EQ(layout.owner(g), dealt.owner[g]) << where << ", global " << g;
                        ASSERT_EQ(layout.to_local(g), dealt.local[g]) << where << ", global " << g;
                    }
                }
}

// Values of ScaLAPACK's NUMROC(N, NB, IPROC, ISRCPROC, NPROCS), worked by hand from its definition.
TEST(BlockCyclic, LocalCountMatchesNumrocExamples) {
    // 7 rows in blocks of 4 over 3 processes: 4, 3 and none; blocks larger than a rank's share.
    EXPECT_EQ((BlockCyclic{7, 4, 3, 0}.local_count(0)), 4);
    EXPECT_EQ((BlockCyclic{7, 4, 3, 0}.local_count(1)), 3);
    EXPECT_EQ((BlockCyclic{7, 4, 3, 0}.local_count(2)), 0);
    // 10 in blocks of 3 over 2: blocks 0, 2 (rows 0-2, 6-8) and 1, 3 (rows 3-5, 9).
    EXPECT_EQ((BlockCyclic{10, 3, 2, 0}.local_count(0)), 6);
    EXPECT_EQ((BlockCyclic{10, 3, 2, 0}.local_count(1)), 4);
    // The same from source 1: process 1 gets the first block.
    EXPECT_EQ((BlockCyclic{10, 3, 2, 1}.local_count(1)), 6);
    EXPECT_EQ((BlockCyclic{10, 3, 2, 1}.local_count(0)), 4);
    EXPECT_EQ((BlockCyclic{10, 3, 2, 0}.to_global(3, 0)), 6);
    EXPECT_EQ((BlockCyclic{10, 3, 2, 0}.to_global(3, 1)), 9);
    EXPECT_EQ((BlockCyclic{10, 3, 2, 0}.to_local(9)), 3);
}

TEST(BlockCyclic, BlocksAndTheirExtents) {
    const BlockCyclic layout{10, 4, 3, 0};
    EXPECT_EQ(layout.block_count(), 3);
    EXPECT_EQ(layout.block_extent(0), 4);
    EXPECT_EQ(layout.block_extent(1), 4);
    EXPECT_EQ(layout.block_extent(2), 2);
    EXPECT_EQ((BlockCyclic{1, 64, 4, 0}.block_count()), 1);
    EXPECT_EQ((BlockCyclic{1, 64, 4, 0}.block_extent(0)), 1);
}

TEST(BlockCyclic, CheckRefusesWhatIsNotALayout) {
    EXPECT_THROW((BlockCyclic{5, 0, 2, 0}.check()), std::invalid_argument);
    EXPECT_THROW((BlockCyclic{5, 2, 0, 0}.check()), std::invalid_argument);
    EXPECT_THROW((BlockCyclic{-1, 2, 2, 0}.check()), std::invalid_argument);
    EXPECT_THROW((BlockCyclic{5, 2, 2, 2}.check()), std::invalid_argument);
    EXPECT_NO_THROW((BlockCyclic{0, 1, 1, 0}.check()));
}

TEST(GridShape, SquarestGridHasEveryProcessAndTheClosestSides) {
    const std::vector<std::pair<int, GridShape>> expected = {
        {1, {1, 1}}, {2, {1, 2}}, {3, {1, 3}}, {4, {2, 2}},  {6, {2, 3}},
        {7, {1, 7}}, {8, {2, 4}}, {9, {3, 3}}, {12, {3, 4}}, {16, {4, 4}}};
    for (const auto& [processes, shape] : expected) {
        const GridShape chosen = step10::squarest_grid(processes);
        EXPECT_EQ(chosen.rows, shape.rows) << processes;
        EXPECT_EQ(chosen.cols, shape.cols) << processes;
    }
    // No other factorization is closer to square.
    for (int processes = 1; processes <= 64; ++processes) {
        const GridShape chosen = step10::squarest_grid(processes);
        ASSERT_EQ(chosen.size(), processes);
        ASSERT_LE(chosen.rows, chosen.cols);
        for (int rows = 1; rows <= processes; ++rows)
            if (processes % rows == 0 && rows <= processes / rows)
                ASSERT_LE(chosen.cols - chosen.rows, processes / rows - rows) << processes;
    }
    EXPECT_THROW(step10::squarest_grid(0), std::invalid_argument);
}

TEST(GridShape, ParseReadsGridsThatFitTheRun) {
    const GridShape shape = step10::parse_grid("3x1", 3);
    EXPECT_EQ(shape.rows, 3);
    EXPECT_EQ(shape.cols, 1);
    EXPECT_EQ(step10::to_string(step10::parse_grid("1x4", 4)), "1x4");
    EXPECT_EQ(step10::to_string(step10::parse_grid("auto", 6)), "2x3");
}

TEST(GridShape, ParseRefusesWithAMessageThatSaysWhy) {
    auto message = [](const std::string& text, int processes) -> std::string {
        try {
            step10::parse_grid(text, processes);
        } catch (const std::invalid_argument& error) {
            return error.what();
        }
        return "accepted";
    };
    EXPECT_EQ(message("2x2", 2),
              "2x2 has 4 processes, but the run has 2 (mpirun -np); choose PRxPC with PR * PC = "
              "2");
    for (const char* bad : {"", "2", "x2", "2x", "0x2", "2x0", "-1x-2", "2x2x1", "axb", "2 x 1"})
        EXPECT_NE(message(bad, 2).find("is not a grid"), std::string::npos) << "'" << bad << "'";
}
