// Step 06's host side: the tile table and the choice of tile. No GPU.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "tile_shape.hpp"

using step06::TileShape;

TEST(Step06Tiles, NamesRoundTripAndSizesComeFromTheTable) {
    for (const step06::TileShapeRow& row : step06::kTileShapes) {
        EXPECT_EQ(step06::parse_tile_shape(row.name), row.value);
        EXPECT_EQ(std::string(step06::tile_name(row.value)), row.name);
        EXPECT_EQ(step06::tile_size(row.value).rows, row.rows);
        EXPECT_EQ(step06::tile_size(row.value).cols, row.cols);
    }
    EXPECT_EQ(step06::tile_choices(), "128x256 or 128x128");
    try {
        step06::parse_tile_shape("64x64");
        FAIL() << "64x64 is not a tile of step 06";
    } catch (const std::invalid_argument& error) {
        EXPECT_EQ(std::string(error.what()),
                  "'64x64' is not a tile shape of step 06; choose 128x256 or 128x128");
    }
}

TEST(Step06Float4, BAndCNeedNAndATooNeedsK) {
    using step06::Float4;
    EXPECT_EQ(step06::float4_path(256, 128), Float4::all);
    EXPECT_EQ(step06::float4_path(256, 127), Float4::b_and_c);
    EXPECT_EQ(step06::float4_path(255, 128), Float4::none);
    EXPECT_EQ(step06::float4_path(255, 127), Float4::none);
    EXPECT_EQ(step06::float4_path(4, 1), Float4::b_and_c);
}

TEST(Step06Tiles, TheBigTileOnlyWhereItFillsAWave) {
    // An H100: 132 multiprocessors, one 128 x 256 block or two 128 x 128 blocks each.
    const step06::Occupancy h100{132, {1, 2}};
    EXPECT_EQ(h100.wave(TileShape::t128x256), 132);
    EXPECT_EQ(h100.wave(TileShape::t128x128), 264);
    // 4096^2: 32 x 16 = 512 tiles of 128 x 256, more than a wave.
    EXPECT_EQ(step06::choose_tile(4096, 4096, h100), TileShape::t128x256);
    // 128 x 12 rows by 256 x 11 columns: exactly 132 tiles, one whole wave.
    EXPECT_EQ(step06::choose_tile(128 * 12, 256 * 11, h100), TileShape::t128x256);
    // One tile fewer does not fill it.
    EXPECT_EQ(step06::choose_tile(128 * 12, 256 * 11 - 256, h100), TileShape::t128x128);
    EXPECT_EQ(step06::choose_tile(1024, 1024, h100), TileShape::t128x128);
    EXPECT_EQ(step06::choose_tile(1, 1, h100), TileShape::t128x128);
    // A GPU of 8 multiprocessors fills a wave with 8 tiles.
    EXPECT_EQ(step06::choose_tile(1024, 512, step06::Occupancy{8, {1, 2}}), TileShape::t128x256);
}
