#include "every_shape_tiles.hpp"

#include "common/index_limits.hpp"
#include "tile_table.hpp"

namespace step08 {

STEP06_DEFINE_TILE_TABLE_FUNCTIONS("a tile shape of step 08")

long long rows_per_band(TileShape tile) {
    return tutorial::kMaxGridY * tile_size(tile).rows;
}

}  // namespace step08
