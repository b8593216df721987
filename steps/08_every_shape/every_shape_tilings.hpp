/// \file
/// \brief Step 08's warp tilings: step 06's two tiles, a tall one, two smaller ones and three thin
/// ones, and which tiling each tile shape launches. Device code, for .hip files.
#pragma once

#include <cstddef>
#include <stdexcept>

#include "every_shape_tiles.hpp"
#include "tiling.hpp"

namespace step08 {

// [tile shapes]
// 256 x 128 stacks step 06's warp tiles eight high, for a C of about 128 columns and many rows.
// 64 x 128 and 64 x 64 use 32 x 64 warp tiles of 8 x 8 thread tiles, three and six blocks per
// multiprocessor. The thin tiles, for a C of a few rows or a few columns: two warps side by side
// (16 x 128, 4 x 8 per thread) or one above the other (128 x 32 with 8 x 8, 128 x 16 with 8 x 4
// per thread). With K-slices of 16, A's slice of a 16-row tile is 64 float4, one per thread, and
// so is B's slice of a 16-column tile. 16 x 128 and 128 x 32 take whole slices without bounds
// checks on the path without float4 too (`true` at the end; the notes measure each tile).
using Tiles256x128 = step06::WarpTiling<256, 128, step06::kSlice, 32, 128, 8, 16, 1>;
using Tiles64x128 = step06::WarpTiling<64, 128, step06::kSlice, 32, 64, 8, 8, 3>;
using Tiles64x64 = step06::WarpTiling<64, 64, step06::kSlice, 32, 64, 8, 8, 6>;
using Tiles16x128 = step06::WarpTiling<16, 128, step06::kSlice, 16, 64, 4, 8, 8, 4, true>;
using Tiles128x32 = step06::WarpTiling<128, 32, step06::kSlice, 64, 32, 8, 8, 4, 4, true>;
using Tiles128x16 = step06::WarpTiling<128, 16, step06::kSlice, 64, 16, 8, 4, 8>;
// [tile shapes]

// [with tiling]
// Calls use(Tiling{}) with the WarpTiling of `tile`; the 8 x 4 tile has none (it is not a warp
// tiling: see dot_kernel.hpp). With kTileShapes, the one place that lists the tiles.
template <class Use>
void with_tiling(TileShape tile, const Use& use) {
    switch (tile) {
        case TileShape::t128x256:
            return use(step06::Tiles128x256{});
        case TileShape::t256x128:
            return use(Tiles256x128{});
        case TileShape::t128x128:
            return use(step06::Tiles128x128{});
        case TileShape::t64x128:
            return use(Tiles64x128{});
        case TileShape::t64x64:
            return use(Tiles64x64{});
        case TileShape::t16x128:
            return use(Tiles16x128{});
        case TileShape::t128x32:
            return use(Tiles128x32{});
        case TileShape::t128x16:
            return use(Tiles128x16{});
        case TileShape::t8x4:
        case TileShape::t4x128:
        case TileShape::t8x128:
            break;
    }
    throw std::invalid_argument("step08::with_tiling: not a warp-tiled TileShape");
}
// [with tiling]

static_assert(step06::sized_as<step06::Tiles128x256>(kTileShapes, TileShape::t128x256) &&
                  step06::sized_as<Tiles256x128>(kTileShapes, TileShape::t256x128) &&
                  step06::sized_as<step06::Tiles128x128>(kTileShapes, TileShape::t128x128) &&
                  step06::sized_as<Tiles64x128>(kTileShapes, TileShape::t64x128) &&
                  step06::sized_as<Tiles64x64>(kTileShapes, TileShape::t64x64) &&
                  step06::sized_as<Tiles16x128>(kTileShapes, TileShape::t16x128) &&
                  step06::sized_as<Tiles128x32>(kTileShapes, TileShape::t128x32) &&
                  step06::sized_as<Tiles128x16>(kTileShapes, TileShape::t128x16),
              "kTileShapes and the tilings must give each tile the same size");

}  // namespace step08
