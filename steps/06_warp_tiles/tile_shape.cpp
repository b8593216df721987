#include "tile_shape.hpp"

#include "common/named_values.hpp"
#include "common/rounding.hpp"

namespace step06 {

TileSize tile_size(TileShape tile) {
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
    return tutorial::parse_name(kTileShapes, text, "a tile shape of step 06");
}

// [choose tile]
TileShape choose_tile(int m, int n, const Occupancy& occupancy) {
    const TileSize big = tile_size(TileShape::t128x256);
    const long long tiles =
        tutorial::ceil_div(static_cast<long long>(m), big.rows) * tutorial::ceil_div(n, big.cols);
    return tiles >= occupancy.wave(TileShape::t128x256) ? TileShape::t128x256 : TileShape::t128x128;
}
// [choose tile]

}  // namespace step06
