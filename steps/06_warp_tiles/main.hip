/// \file
/// \brief Step 06's program: a worked example through one 128 x 128 block tile, then the general
/// multiply with the tile choose_tile() takes for its C on this GPU (or the one --tile forces).
#include <hip/hip_runtime.h>

#include <iostream>
#include <optional>
#include <string>

#include "common/command_line.hpp"
#include "common/device.hpp"
#include "common/gpu_gemm_runner.hpp"
#include "common/matrix.hpp"
#include "common/program.hpp"
#include "warp_tiled_gemm.hpp"

namespace {

const tutorial::StepDescription kStep{
    /*program=*/"step06_warp_tiles",
    /*summary=*/
    "Step 06: block, warp and thread tiles. Each block computes a 128 x 256 or 128 x 128 tile of "
    "C, each warp a 32 x 128 part of it and each thread 8 x 16 values from registers, while the "
    "next K-slice of A and B arrives in the second shared-memory buffer.",
    /*worked_example=*/
    "A (2 x 32) times B (32 x 2) in float through one 128 x 128 block tile, K in two slices of 16",
    /*default_size=*/2048,
    /*default_iterations=*/10,
    /*block_sizes=*/{},
    /*block_help=*/"",
    /*multi_device=*/false,
    /*extra_options=*/
    {{"--tile",
      "the block tile: auto (128x256 when its tiles fill the GPU once, else 128x128), " +
          step06::tile_choices(),
      "auto"}},
};

int run_worked_example(const tutorial::Options& options) {
    // [worked example]
    // Row 0 of A is all ones, row 1 counts 1..32; column 0 of B is all ones, column 1 counts 1..32.
    tutorial::Matrix<float> a(2, 32), b(32, 2);
    for (int p = 0; p < 32; ++p) {
        a(0, p) = 1.0f;
        a(1, p) = static_cast<float>(p + 1);
        b(p, 0) = 1.0f;
        b(p, 1) = static_cast<float>(p + 1);
    }
    const tutorial::Matrix<float> c = tutorial::multiply_on_device<float>(
        a, b,
        [](const float* da, const float* db, float* dc, int m, int n, int k, hipStream_t stream) {
            step06::gemm(da, db, dc, m, n, k, stream, step06::TileShape::t128x128);
        });
    // [worked example]
    return tutorial::report_worked_example(
        options,
        "Worked example: A (2 x 32) times B (32 x 2) in float, one 128x128 block tile, K-slices "
        "0-15 and 16-31 through the two shared-memory buffers",
        a, b, c);
}

}  // namespace

int main(int argc, char** argv) {
    std::optional<step06::TileShape> forced;  // what --tile asks for, none for auto
    const auto prepare = [&](const tutorial::Options& options) {
        const std::string& tile = options.extra.at("--tile");
        if (tile != "auto") {
            forced = tutorial::parse_option(
                "--tile", [&] { return step06::parse_tile_shape(tile); }, " (or auto)");
        }
    };
    const auto general = [&](const tutorial::Options& options) {
        // [general multiply]
        const step06::Occupancy occupancy = step06::occupancy();
        const step06::TileShape tile =
            forced.value_or(step06::choose_tile(options.m, options.n, occupancy));
        if (!options.quiet) {
            std::cout << "\nTile: " << step06::tile_name(tile)
                      << (forced ? " (forced; one wave is " : " (its tiles against one wave of ")
                      << occupancy.wave(tile) << " blocks: " << occupancy.multiprocessors
                      << " multiprocessors holding " << occupancy.blocks_per_multiprocessor(tile)
                      << " each)\n";
        }
        return tutorial::run_gpu_gemm(
            options, {"06", step06::tile_name(tile)},
            [&](const float* a, const float* b, float* c, int m, int n, int k, hipStream_t stream) {
                step06::gemm(a, b, c, m, n, k, stream, tile);
            });
        // [general multiply]
    };
    return tutorial::run_gpu_step_flow(argc, argv, kStep, {prepare, run_worked_example, general});
}
