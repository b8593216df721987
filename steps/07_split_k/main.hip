/// \file
/// \brief Step 07's program: a worked example of split-K, then the general multiply with the
/// configuration choose_config() picks for its shape on this GPU (or the one --tile, --splits and
/// --stream-k force).
#include <hip/hip_runtime.h>

#include <iostream>
#include <optional>
#include <sstream>
#include <string>

#include "common/command_line.hpp"
#include "common/device.hpp"
#include "common/gpu_gemm_runner.hpp"
#include "common/matrix.hpp"
#include "common/program.hpp"
#include "config_launcher.hpp"
#include "split_k_gemm.hpp"
#include "split_request.hpp"
#include "warp_tiled_gemm.hpp"
#include "worked_example.hpp"

namespace {

const tutorial::StepDescription kStep{
    /*program=*/"step07_split_k",
    /*summary=*/
    "Step 07: split-K and stream-K. Where C has fewer tiles than the GPU has slots, K is split "
    "into ranges whose partial tiles are added in a fixed order; where the last wave of tiles "
    "would run half empty, stream-K shares its K-slices out among one block per slot.",
    /*worked_example=*/
    "A (2 x 32) times B (32 x 2) in float, K split into two ranges of 16 whose partial products "
    "are added in a fixed order",
    /*default_size=*/1024,
    /*default_iterations=*/10,
    /*block_sizes=*/{},
    /*block_help=*/"",
    /*multi_device=*/false,
    /*extra_options=*/
    step07::split_options(
        {"--tile", "step 06's block tile: auto (the choice's), " + step06::tile_choices(), "auto"},
        "the choice's"),
    /*max_size=*/step06::kMaxSize,
    /*int_indexing=*/false,
};

// What --tile, --splits and --stream-k force; nothing where they say auto. Bad text, and a C
// taller than one grid holds, are refused here, before any GPU is looked for.
struct Request {
    std::optional<step06::TileShape> tile;
    step07::SplitRequest split;
};

Request parse_request(const tutorial::Options& options) {
    Request request;
    request.tile = tutorial::parse_unless_auto(options, "--tile", step06::parse_tile_shape);
    request.split = step07::parse_split_request(options);
    step06::check_rows_fit_grid("-m", options.m, request.tile);  // step 08 takes taller C in bands
    return request;
}

// [choice]
// The configuration for an m x n x k multiply: the choice's, with what the command line forces put
// in its place, and (unless --quiet) a line that says which it is. Forcing one of split-K and
// stream-K turns the other off unless it is forced too.
step07::Config resolve(const Request& request, const tutorial::Options& options) {
    const int m = options.m, n = options.n, k = options.k;
    const step06::Occupancy occupancy = step06::occupancy();
    step07::Config config = step07::choose_config(m, n, k, occupancy);
    if (request.tile)
        config.tile = *request.tile;
    step07::apply(request.split, config.splits, config.workers);
    const step06::TileSize size = step06::tile_size(config.tile);
    const step07::StreamKPlan plan = step07::plan_stream_k(m, n, k, size, config.workers);
    std::ostringstream line;
    line << step07::config_name(config)
         << (request.tile || request.split.splits || request.split.workers
                 ? " (forced by the command line)"
                 : " (the choice)")
         << ": " << plan.tiles << " tiles, " << step07::plan_splits(k, config.splits).count
         << " range(s) of K, one wave is " << occupancy.wave(config.tile) << " blocks";
    line << step07::stream_k_summary(plan);
    if (!options.quiet)
        std::cout << "\nConfiguration: " << line.str() << "\n";
    return config;
}
// [choice]

// The general multiply: the configuration for its sizes, run and reported.
int run_general(const Request& request, const tutorial::Options& options) {
    return step07::run_config(options, "07", resolve(request, options));
}

int run_worked_example(const tutorial::Options& options) {
    // [worked example]
    const step06::WorkedOperands operands = step06::worked_operands();  // those of step 06
    const tutorial::Matrix<float>& a = operands.a;
    const tutorial::Matrix<float>& b = operands.b;
    const step07::Config two_ranges{step06::TileShape::t128x128, 2};
    return tutorial::worked_example_on_device<float>(
        options,
        "Worked example: A (2 x 32) times B (32 x 2) in float, one 128x128 tile, K split in two "
        "ranges of 16 (columns 0-15 and 16-31 of A), partial products added in order",
        a, b, step07::launcher_for(two_ranges));
    // [worked example]
}

}  // namespace

int main(int argc, char** argv) {
    return tutorial::run_gpu_step_flow(argc, argv, kStep, parse_request, run_worked_example,
                                       run_general);
}
