#include "every_shape_tiles.hpp"

#include "common/named_values.hpp"

namespace step08 {

step06::TileSize tile_size(TileShape tile) {
    const TileShapeRow& row = tutorial::row_of(kTileShapes, tile);
    return {row.rows, row.cols};
}

const char* tile_name(TileShape tile) {
    return tutorial::name_of(kTileShapes, tile);
}

std::string tile_choices() {
    return tutorial::names_in_words(kTileShapes);
}

TileShape parse_tile_shape(const std::string& text) {
    return tutorial::parse_name(kTileShapes, text, "a tile shape of step 08");
}

}  // namespace step08
