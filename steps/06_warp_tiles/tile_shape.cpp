#include "tile_shape.hpp"

#include "common/rounding.hpp"
#include "tile_table.hpp"

namespace step06 {

STEP06_DEFINE_TILE_TABLE_FUNCTIONS("a tile shape of step 06")

// [choose tile]
TileShape choose_tile(int m, int n, const Occupancy& occupancy) {
    const TileSize big = tile_size(TileShape::t128x256);
    const long long tiles =
        tutorial::ceil_div(static_cast<long long>(m), big.rows) * tutorial::ceil_div(n, big.cols);
    return tiles >= occupancy.wave(TileShape::t128x256) ? TileShape::t128x256 : TileShape::t128x128;
}
// [choose tile]

}  // namespace step06
