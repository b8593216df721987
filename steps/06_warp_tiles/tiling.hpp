/// \file
/// \brief Step 06's three levels of tiling: a block tile of C cut into warp tiles, cut into thread
/// tiles, and where one thread's tile lies in its block's. Device code, for .hip files; steps 07
/// and 08 build on it.
#pragma once

#include <hip/hip_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <type_traits>

#include "tile_shape.hpp"

namespace step06 {

// [tiling]
// Block tile kBlockRows x kBlockCols of C, cut into warp tiles of kWarpRows x kWarpCols, cut into
// thread tiles of kThreadRows x kThreadCols. A warp's 32 lanes form a kLaneRows x kLaneCols grid;
// each lane's thread tile is made of 4 x 4 pieces spread over the warp tile, a piece stride apart,
// so that neighbouring lanes read neighbouring float4 from shared memory.
template <int kBlockRows_, int kBlockCols_, int kSlice_, int kWarpRows_, int kWarpCols_,
          int kThreadRows_, int kThreadCols_, int kMinBlocks_ = 2, int kPad_ = 4,
          bool kScalarWholeSlices_ = false>
struct WarpTiling {
    static constexpr int kBlockRows = kBlockRows_;
    static constexpr int kBlockCols = kBlockCols_;
    static constexpr int kSlice = kSlice_;  // K-slice: columns of A, rows of B per step
    static constexpr int kWarpRows = kWarpRows_;
    static constexpr int kWarpCols = kWarpCols_;
    static constexpr int kThreadRows = kThreadRows_;
    static constexpr int kThreadCols = kThreadCols_;
    static constexpr int kMinBlocks = kMinBlocks_;  // blocks one multiprocessor must hold at once
    static constexpr int kLaneRows = kWarpRows / kThreadRows;
    static constexpr int kLaneCols = kWarpCols / kThreadCols;
    static constexpr int kPieceRows = kThreadRows / 4;  // 4 x 4 pieces per thread tile, down
    static constexpr int kPieceCols = kThreadCols / 4;  // and across
    static constexpr int kRowStride = 4 * kLaneRows;    // from one piece to the next, down
    static constexpr int kColStride = 4 * kLaneCols;    // and across
    static constexpr int kWarpsDown = kBlockRows / kWarpRows;
    static constexpr int kWarpsAcross = kBlockCols / kWarpCols;
    static constexpr int kThreads = 32 * kWarpsDown * kWarpsAcross;
    // float4 loads per thread and K-slice: A's kBlockRows x kSlice, B's kSlice x kBlockCols
    static constexpr int kALoads = kBlockRows * kSlice / 4 / kThreads;
    static constexpr int kBLoads = kSlice * kBlockCols / 4 / kThreads;
    static constexpr int kPad = kPad_;  // breaks the bank conflicts of A's transposed store
    // Whether WholeSlices serves the path without float4 too (measured tile by tile)
    static constexpr bool kScalarWholeSlices = kScalarWholeSlices_;
    // Whether accumulate() peels the last slice out of its loop: in tiles of 64 x 128 and more,
    // whose blocks run many slices; the smaller tiles keep one copy of the loop (measured)
    static constexpr bool kPeelLastSlice = kBlockRows * kBlockCols >= 64 * 128;
    // Whether store_block_scalar unrolls its copy loop into C by 4 instead of whole: in tiles of
    // 128 x 128 and more, where the whole loop made ptxas spill (measured)
    static constexpr bool kStoreByFours = kBlockRows * kBlockCols >= 128 * 128;

    static_assert(kLaneRows * kLaneCols == 32, "a warp is 32 lanes");
    static_assert(kLaneRows * kThreadRows == kWarpRows && kLaneCols * kThreadCols == kWarpCols,
                  "thread tiles must cover the warp tile");
    static_assert(kWarpsDown * kWarpRows == kBlockRows && kWarpsAcross * kWarpCols == kBlockCols,
                  "warp tiles must cover the block tile");
    static_assert(kALoads * kThreads * 4 == kBlockRows * kSlice && kALoads >= 1,
                  "A's slice must split evenly into float4 loads");
    static_assert(kBLoads * kThreads * 4 == kSlice * kBlockCols && kBLoads >= 1,
                  "B's slice must split evenly into float4 loads");
};
// [tiling]

// [tile shapes]
// Step 06's two block tiles, both of 32 x 128 warp tiles of 8 x 16 thread tiles (128 sums per
// thread, up to 255 registers): 128 x 256 (8 warps, one block per multiprocessor) and 128 x 128
// (4 warps, two blocks per multiprocessor). Both stage K-slices of 16 and pad A's slice; the
// 128 x 256 tile's two buffers then take 48.5 KiB of shared memory, just over the default limit.
using Tiles128x256 = WarpTiling<128, 256, kSlice, 32, 128, 8, 16, 1>;
using Tiles128x128 = WarpTiling<128, 128, kSlice, 32, 128, 8, 16, 2>;
// [tile shapes]

// [with tiling]
// The tiling of each tile shape of step 06: calls use(Tiling{}) with the WarpTiling type of `tile`.
// With kTileShapes, the one place that lists the tiles.
template <class Use>
void with_tiling(TileShape tile, const Use& use) {
    switch (tile) {
        case TileShape::t128x256:
            return use(Tiles128x256{});
        case TileShape::t128x128:
            return use(Tiles128x128{});
    }
    throw std::invalid_argument("step06: not a TileShape");
}

// Calls use(std::integral_constant<Float4, path>{}): the path as a constant, so that the caller
// launches the kernels built for it.
template <class Use>
void with_float4(Float4 path, const Use& use) {
    switch (path) {
        case Float4::all:
            return use(std::integral_constant<Float4, Float4::all>{});
        case Float4::b_and_c:
            return use(std::integral_constant<Float4, Float4::b_and_c>{});
        case Float4::none:
            return use(std::integral_constant<Float4, Float4::none>{});
    }
    throw std::invalid_argument("step06: not a Float4");
}

// Whether `table` (rows with value, rows and cols) gives `tile` the size of Tiling's block tile.
template <class Tiling, class Row, std::size_t kRows, class Shape>
constexpr bool sized_as(const Row (&table)[kRows], Shape tile) {
    for (const Row& row : table) {
        if (row.value == tile)
            return row.rows == Tiling::kBlockRows && row.cols == Tiling::kBlockCols;
    }
    return false;
}
static_assert(sized_as<Tiles128x256>(kTileShapes, TileShape::t128x256) &&
                  sized_as<Tiles128x128>(kTileShapes, TileShape::t128x128),
              "kTileShapes and the tilings must give each tile the same size");
// [with tiling]

// [thread place]
// Where this thread's first 4 x 4 piece lies in the block tile: its warp's tile, then its lane's
// place in the warp's lane grid.
template <class Tiling>
struct ThreadPlace {
    int row;
    int col;

    __device__ ThreadPlace() {
        const int warp = threadIdx.x / 32;
        const int lane = threadIdx.x % 32;
        row = (warp / Tiling::kWarpsAcross) * Tiling::kWarpRows + 4 * (lane / Tiling::kLaneCols);
        col = (warp % Tiling::kWarpsAcross) * Tiling::kWarpCols + 4 * (lane % Tiling::kLaneCols);
    }
};
// [thread place]

}  // namespace step06
