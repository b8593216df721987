/// \file
/// \brief Step 08's block tiles, named, sized and rated in one table: step 06's two, a tall one,
/// two smaller ones, three thin ones and the one-column tile. Plain host code, no HIP, tested on
/// every build.
#pragma once

#include <cstddef>
#include <iterator>
#include <string>

#include "tile_shape.hpp"

namespace step08 {

/// The block tiles this step launches: big and smaller ones for C of every shape (256 x 128 for a
/// C of about 128 columns, 64 x 128 for one of about 64 rows), thin ones for a C of a few rows or
/// a few columns, where a square tile would mostly multiply padding, and a dot-product tile for a
/// C of one column, where reading A once is the whole cost.
enum class TileShape {
    t128x256,  ///< step 06's: 8 warps of 32 x 128, 8 x 16 per thread
    t256x128,  ///< 8 warps of 32 x 128 one above the other, 8 x 16 per thread
    t128x128,  ///< step 06's: 4 warps of 32 x 128, 8 x 16 per thread
    t64x128,   ///< 4 warps of 32 x 64, 8 x 8 per thread
    t64x64,    ///< 2 warps of 32 x 64, 8 x 8 per thread
    t16x128,   ///< 2 warps side by side, 16 x 64 each, 4 x 8 per thread
    t128x32,   ///< 2 warps one above the other, 64 x 32 each, 8 x 8 per thread
    t128x16,   ///< 2 warps one above the other, 64 x 16 each, 8 x 4 per thread
    t8x4,      ///< 8 groups of 32 threads (8 where K is short), each one row's dot products
    t4x128,    ///< 32 columns of float4 times 8 steps along K, four rows of C
    t8x128,    ///< as 4 x 128, eight rows of C, A's chunk staged in shared memory
};

/// One row of the table of tile shapes.
struct TileShapeRow {
    TileShape value;
    const char* name;  ///< as reports and the command line spell it
    int rows;          ///< rows of C per block
    int cols;          ///< columns of C per block
    double speed;      ///< multiply-adds per second of one block, as a share of a 128 x 256 block's
};

// [tile table]
/// Every tile shape of step 08: the one place that names, sizes and rates them. The speeds were
/// fitted to sweeps on the H200 (the notes page), the 8 x 128 and 64 x 128 tiles' on the H100; the
/// 8 x 4 and 4 x 128 tiles' cost is counted in floats read instead (see estimate()), and the
/// 8 x 128 tile's as the larger of its floats read and its multiply-adds at its speed.
constexpr TileShapeRow kTileShapes[] = {
    {TileShape::t128x256, "128x256", 128, 256, 1.0},
    {TileShape::t256x128, "256x128", 256, 128, 0.97},
    {TileShape::t128x128, "128x128", 128, 128, 0.87},
    {TileShape::t64x128, "64x128", 64, 128, 0.92},
    {TileShape::t64x64, "64x64", 64, 64, 0.80},
    {TileShape::t16x128, "16x128", 16, 128, 0.60},
    {TileShape::t128x32, "128x32", 128, 32, 0.68},
    {TileShape::t128x16, "128x16", 128, 16, 0.50},
    {TileShape::t8x4, "8x4", 8, 4, 1.0},
    {TileShape::t4x128, "4x128", 4, 128, 1.0},
    {TileShape::t8x128, "8x128", 8, 128, 0.5},
};
// [tile table]

/// The tile's size.
step06::TileSize tile_size(TileShape tile);

/// The most rows of C one launch of `tile` covers: 65535 blocks of its rows along the grid's y.
/// gemm() multiplies a taller C in bands of that many rows.
long long rows_per_band(TileShape tile);

/// The tile's name: "128x256", "64x64", "16x128"...
const char* tile_name(TileShape tile);

/// Every tile's name, as a list in words: "128x256, 256x128, ..., 128x16 or 8x4".
std::string tile_choices();

/// The tile called `text`. Throws std::invalid_argument naming the accepted names when there is
/// none.
TileShape parse_tile_shape(const std::string& text);

/// Step 08's occupancy: resident blocks per multiprocessor of each tile of kTileShapes, and the
/// size of the L2 cache, which decides whether a row tile's blocks find B there when several of
/// them read it.
struct Occupancy : step06::OccupancyOf<TileShape, std::size(kTileShapes)> {
    long long cache_bytes = 0;  ///< the L2 cache's bytes (hipDeviceProp_t::l2CacheSize); 0: none
};

/// Whether `tile` streams one operand instead of tiling both in shared memory: the 8 x 4 tile
/// (A, for one column of C) and the row tiles, 4 x 128 and 8 x 128 (B, for a few rows). None packs
/// or takes stream-K workers, and the rule counts their cost in floats read.
constexpr bool streams_operand(TileShape tile) {
    return tile == TileShape::t8x4 || tile == TileShape::t4x128 || tile == TileShape::t8x128;
}

/// Rows of C in one block of the 4 x 128 tile.
constexpr int kRowRows = 4;

/// Threads across one block of the 4 x 128 tile, each with 4 neighbouring columns.
constexpr int kRowLanes = 32;

/// Columns of C in one block of the 4 x 128 tile.
constexpr int kRowCols = 4 * kRowLanes;

/// The fewest columns of C for which the rule offers the 4 x 128 tile: two (one is the 8 x 4
/// tile's). Narrower than its 128, a block leaves lanes idle, but with one block across and K split
/// up to 256 ways it still reads B faster than a thin tile: on the H200 1 x 16 x 65536 took
/// 0.0146 ms against the 128 x 32 tile's 0.0274, and 1 x 2 x 65536 0.0147 against 0.0332.
constexpr int kRowMinCols = 2;

/// Threads of one block of the 4 x 128 tile that share its range of K: step s takes rows s,
/// s + kRowSteps, ... of B.
constexpr int kRowSteps = 8;

/// Rows of B that each thread of the 4 x 128 tile loads before it multiplies any of them: its
/// loads in flight. One at a time, the H200 read B at 2.2 TB/s where cuBLAS reached 2.6.
constexpr int kRowLoads = 4;

/// Rows of C in one block of the 8 x 128 tile: each thread sums eight rows of C for its four
/// columns, with A's floats staged in shared memory.
constexpr int kStagedRows = 8;

/// Columns of K whose floats of A the 8 x 128 tile stages at a time: every thread's kRowLoads rows
/// of B, one float of A per thread.
constexpr int kStagedChunk = kRowSteps * kRowLoads;

/// The most rows of C for which the rule offers the 8 x 128 tile, beside the others.
constexpr int kStagedRowsMaxRows = 64;

/// The fewest columns of C for which the rule offers the 8 x 128 tile: half its width.
constexpr int kStagedRowsMinCols = 64;

/// The shortest K for which the rule offers the 8 x 128 tile: two steps of its threads.
constexpr int kStagedRowsMinDepth = 2 * kRowSteps;

/// Rows of C in one block of the 8 x 4 tile: one per group of kDotLanes threads.
constexpr int kDotRows = 8;

/// Threads that share the dot products of one row of C in the 8 x 4 tile: each takes 4 columns of
/// A's row at a time, so the group covers 4 kDotLanes columns per step.
constexpr int kDotLanes = 32;

/// Threads per row of the 8 x 4 tile when its range of K is short: each then takes 4 times as many
/// steps as one of kDotLanes, and a group sums 3 shuffles deep instead of 5.
constexpr int kDotShortLanes = 8;

/// Threads per row of the 8 x 4 tile for ranges of K `depth` columns long: kDotShortLanes where
/// kDotLanes threads would take fewer than 4 float4 steps each (depth under 16 kDotLanes, 512),
/// otherwise kDotLanes. Either way a block is kDotRows groups.
constexpr int dot_lanes(int depth) {
    return depth < 16 * kDotLanes ? kDotShortLanes : kDotLanes;
}

}  // namespace step08
