#include "every_shape_tiles.hpp"

#include "tile_table.hpp"

namespace step08 {

STEP06_DEFINE_TILE_TABLE_FUNCTIONS("a tile shape of step 08")

}  // namespace step08
