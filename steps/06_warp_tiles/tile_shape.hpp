/// \file
/// \brief Step 06's block tiles, named in one table, and the choice between them: plain host code,
/// no HIP, so it is tested on every build.
#pragma once

#include <cstddef>
#include <iterator>
#include <string>

namespace step06 {

/// Columns of A (rows of B) that a block stages in shared memory per step of its loop over K: one
/// K-slice.
constexpr int kSlice = 16;

/// Which matrices the kernels read or write with float4, as float4_path() finds them. A's rows
/// are k floats long, B's and C's n: with k odd and n a multiple of 4, B and C still take float4.
enum class Float4 {
    all,      ///< A, B and C
    b_and_c,  ///< B and C, while A is read element by element
    none,     ///< all three element by element
};

/// The Float4 path of an m x n x k multiply whose matrices are 16-byte aligned, as hipMalloc's are:
/// B and C take float4 when n is a multiple of 4, A too when k is one.
constexpr Float4 float4_path(int n, int k) {
    return n % 4 != 0 ? Float4::none : k % 4 != 0 ? Float4::b_and_c : Float4::all;
}

/// The block tiles step 06 launches, both cut into 32 x 128 warp tiles of 8 x 16 thread tiles.
enum class TileShape {
    t128x256,  ///< 128 x 256 of C per block, 8 warps (256 threads)
    t128x128,  ///< 128 x 128 of C per block, 4 warps (128 threads)
};

/// One row of the table of tile shapes: the value, its name as reports and the command line spell
/// it, and the rows and columns of C that one block computes.
struct TileShapeRow {
    TileShape value;
    const char* name;
    int rows;
    int cols;
};

// [tile table]
/// Every tile shape of step 06, largest first: the one place that names and sizes them.
constexpr TileShapeRow kTileShapes[] = {
    {TileShape::t128x256, "128x256", 128, 256},
    {TileShape::t128x128, "128x128", 128, 128},
};
// [tile table]

/// Rows and columns of C that one block of a tile computes.
struct TileSize {
    int rows;
    int cols;
};

/// The tile's size, from kTileShapes.
TileSize tile_size(TileShape tile);

/// The tile's name: "128x256" or "128x128".
const char* tile_name(TileShape tile);

/// Every tile's name, as a list in words: "128x256 or 128x128".
std::string tile_choices();

/// The tile called `text`. Throws std::invalid_argument naming the accepted names when there is
/// none.
TileShape parse_tile_shape(const std::string& text);

/// What a choice of tile needs to know of the GPU: its multiprocessors, and how many blocks of each
/// of `Shape`'s tiles one multiprocessor holds at once (from the occupancy calculator), in the
/// order of the enum. Steps 07 and 08 use it with their own tables.
template <class Shape, std::size_t kShapes>
struct OccupancyOf {
    int multiprocessors = 1;
    int blocks[kShapes] = {};

    /// Resident blocks of `tile` per multiprocessor (at least 1).
    int blocks_per_multiprocessor(Shape tile) const {
        const int resident = blocks[static_cast<std::size_t>(tile)];
        return resident > 0 ? resident : 1;
    }
    /// Blocks of `tile` the whole GPU runs at once: one wave.
    long long wave(Shape tile) const {
        return static_cast<long long>(multiprocessors > 0 ? multiprocessors : 1) *
               blocks_per_multiprocessor(tile);
    }
};

/// Step 06's occupancy: one entry per tile of kTileShapes.
using Occupancy = OccupancyOf<TileShape, std::size(kTileShapes)>;

/// The tile step 06 takes for an m x n C: 128 x 256, the faster per block, when its tiles fill at
/// least one wave of the GPU; otherwise 128 x 128, which makes twice as many blocks to spread
/// over the multiprocessors.
TileShape choose_tile(int m, int n, const Occupancy& occupancy);

}  // namespace step06
