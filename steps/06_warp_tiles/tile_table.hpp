/// \file
/// \brief The functions that name, size and parse the tiles of a table of tile shapes, written once
/// for step 06's table and step 08's.
#pragma once

#include <string>

#include "common/named_values.hpp"
#include "tile_shape.hpp"

/// Defines tile_size(), tile_name(), tile_choices() and parse_tile_shape() (declared with the
/// table) in the namespace it stands in, from that namespace's TileShape, TileShapeRow and
/// kTileShapes; `what` names a tile shape in parse_tile_shape()'s error, e.g. "a tile shape of
/// step 06". A macro because each step declares the four functions for its own enum.
#define STEP06_DEFINE_TILE_TABLE_FUNCTIONS(what)                         \
    ::step06::TileSize tile_size(TileShape tile) {                       \
        const TileShapeRow& row = ::tutorial::row_of(kTileShapes, tile); \
        return {row.rows, row.cols};                                     \
    }                                                                    \
    const char* tile_name(TileShape tile) {                              \
        return ::tutorial::name_of(kTileShapes, tile);                   \
    }                                                                    \
    std::string tile_choices() {                                         \
        return ::tutorial::names_in_words(kTileShapes);                  \
    }                                                                    \
    TileShape parse_tile_shape(const std::string& text) {                \
        return ::tutorial::parse_name(kTileShapes, text, what);          \
    }
