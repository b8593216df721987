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
#include "worked_example.hpp"

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
    /*max_size=*/step06::kMaxSize,
    /*int_indexing=*/false,
};

int run_worked_example(const tutorial::Options& options) {
    // [worked example]
    const step06::WorkedOperands operands = step06::worked_operands();
    const tutorial::Matrix<float>& a = operands.a;
    const tutorial::Matrix<float>& b = operands.b;
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
    const auto general = [](const std::optional<step06::TileShape>& forced,
                            const tutorial::Options& options) {
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
    // --tile: the tile it forces, nothing for auto; read before any GPU is looked for, as is a C
    // taller than one grid holds (step 08 multiplies it in bands).
    const auto parse_tile = [](const tutorial::Options& options) {
        const auto tile = tutorial::parse_unless_auto(options, "--tile", step06::parse_tile_shape);
        step06::check_rows_fit_grid("-m", options.m, tile);
        return tile;
    };
    return tutorial::run_gpu_step_flow(argc, argv, kStep, parse_tile, run_worked_example, general);
}
