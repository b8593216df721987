/// \file
/// \brief Step 08's program: a worked example of packing, then the general multiply with the
/// configuration the rule picks for its shape on this GPU (or the one --tile, --splits,
/// --stream-k and --pack force).
#include <hip/hip_runtime.h>

#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>

#include "common/command_line.hpp"
#include "common/device.hpp"
#include "common/gpu_gemm_runner.hpp"
#include "common/matrix.hpp"
#include "common/program.hpp"
#include "common/rounding.hpp"
#include "config_launcher.hpp"
#include "every_shape_gemm.hpp"
#include "split_request.hpp"
#include "warp_tiled_gemm.hpp"

namespace {

const tutorial::StepDescription kStep{
    /*program=*/"step08_every_shape",
    /*summary=*/
    "Step 08: every shape. Eleven block tiles (three thin, one for one column, two for a few "
    "rows), split-K, stream-K and packing, with a rule that picks the configuration for each "
    "shape from the waves of blocks it gives on this GPU.",
    /*worked_example=*/
    "A (3 x 6) times B (6 x 3) in float, packed: B's rows padded to 4 floats",
    /*default_size=*/1024,
    /*default_iterations=*/10,
    /*block_sizes=*/{},
    /*block_help=*/"",
    /*multi_device=*/false,
    /*extra_options=*/
    step07::split_options(
        {"--tile", "the block tile: auto (the rule's choice), " + step08::tile_choices(), "auto"},
        "the rule's choice",
        {{"--pack",
          "copy B into rows padded to 4 floats when float4 cannot read it or C: auto (when the "
          "multiply repays the copies), on or off",
          "auto"}}),
    /*max_size=*/step06::kMaxSize,
    /*int_indexing=*/false,
};

int run_worked_example(const tutorial::Options& options) {
    // [worked example]
    // A counts 1..18 row by row; B is 1 on its diagonal and 2 below it, 0 above.
    tutorial::Matrix<float> a(3, 6), b(6, 3);
    for (int i = 0; i < 3; ++i) {
        for (int p = 0; p < 6; ++p)
            a(i, p) = static_cast<float>(6 * i + p + 1);
    }
    for (int p = 0; p < 6; ++p) {
        for (int j = 0; j < 3; ++j)
            b(p, j) = p == j ? 1.0f : p > j ? 2.0f : 0.0f;
    }
    const step08::Config packed{step08::TileShape::t64x64, 1, step08::Packing::on};
    return tutorial::worked_example_on_device<float>(
        options,
        "Worked example: A (3 x 6) times B (6 x 3) in float, B packed into B' (6 x 4) with zeros, "
        "multiplied by one 64x64 tile (A element by element) into C' (3 x 4), copied into C",
        a, b, step07::launcher_for(packed));
    // [worked example]
}

// What --tile, --splits, --stream-k and --pack ask for; nothing where they say auto. Bad text is
// refused here, before any GPU is looked for.
struct Request {
    std::optional<step08::TileShape> tile;
    step07::SplitRequest split;
    step08::Packing packing = step08::Packing::automatic;
};

Request parse_request(const tutorial::Options& options) {
    Request request;
    request.tile = tutorial::parse_unless_auto(options, "--tile", step08::parse_tile_shape);
    request.split = step07::parse_split_request(options);
    if (request.tile && request.split.workers) {
        tutorial::parse_option("--tile and --stream-k", [&] {
            step08::check_config(
                {*request.tile, 1, step08::Packing::automatic, *request.split.workers});
            return 0;
        });
    }
    request.packing = tutorial::parse_option(
        "--pack", [&] { return step08::parse_packing(options.extra.at("--pack")); });
    return request;
}

// [choice]
// The configuration for an m x n x k multiply: the rule's, with what the command line forces put
// in its place, and (unless --quiet) a line that says which it is and what the rule counted.
// Forcing one of split-K and stream-K turns the other off unless it is forced too.
step08::Config resolve(const Request& request, const tutorial::Options& options) {
    const int m = options.m, n = options.n, k = options.k;
    const step08::Occupancy occupancy = step08::occupancy();
    step08::RuleScope scope;
    if (request.split.workers.value_or(0) != 0 && !request.tile) {
        // Stream-K asked for: the rule's choice among the tiles that have it (all but 8 x 4 and
        // the row tiles).
        scope.leave_out(step08::TileShape::t8x4);
        scope.leave_out(step08::TileShape::t4x128);
        scope.leave_out(step08::TileShape::t8x128);
    }
    step08::Config config = step08::choose_config(m, n, k, occupancy, scope);
    if (request.tile) {
        config.tile = *request.tile;
        if (config.workers != 0)  // the rule's stream-K, with the forced tile's workers
            config.workers = step08::stream_k_workers(config.tile, occupancy);
    }
    step07::apply(request.split, config.splits, config.workers);
    config.packing = request.packing;
    // The program's matrices come from hipMalloc (16-byte aligned): only n and k can stop float4.
    const bool packs = step08::packs(config, m, n, k, step06::float4_path(n, k));
    if (config.packing == step08::Packing::on && !packs)
        config.packing = step08::Packing::automatic;  // nothing to pack: not named "packed"
    const bool forced = request.tile || request.split.splits || request.split.workers ||
                        request.packing != step08::Packing::automatic;
    const step08::Estimate estimate = step08::estimate(m, n, k, config, occupancy);
    std::ostringstream line;
    line << step08::config_name(config)
         << (forced ? " (forced by the command line)" : " (the rule's choice)") << ": "
         << estimate.blocks << " blocks on " << occupancy.multiprocessors
         << " multiprocessors holding " << occupancy.blocks_per_multiprocessor(config.tile)
         << " each, " << std::fixed << std::setprecision(2) << estimate.waves << " waves";
    // Each band of rows is a multiply of its own, with its own stream-K plan ("; stream-K: ...").
    const long long band = step08::rows_per_band(config.tile);
    auto stream_k = [&](long long rows, const std::string& where) {
        const std::string summary = step07::stream_k_summary(step07::plan_stream_k(
            static_cast<int>(rows), n, k, step08::tile_size(config.tile), config.workers));
        const std::string head = "; stream-K";
        return summary.empty() ? summary : head + where + summary.substr(head.size());
    };
    if (m > band) {
        const long long last = m - (m - 1) / band * band;
        line << "; in " << tutorial::ceil_div(m, band) << " bands of up to " << band << " rows"
             << stream_k(band, last == band ? " in each band" : " in each full band");
        if (last != band)
            line << stream_k(last, " in the last band");
    } else {
        line << stream_k(m, "");
    }
    if (packs)
        line << "; B packed into rows padded to 4 floats";
    if (!options.quiet)
        std::cout << "\nConfiguration: " << line.str() << "\n";
    return config;
}
// [choice]

// The general multiply: the configuration for its sizes, run and reported.
int run_general(const Request& request, const tutorial::Options& options) {
    return step07::run_config(options, "08", resolve(request, options));
}

}  // namespace

int main(int argc, char** argv) {
    return tutorial::run_gpu_step_flow(argc, argv, kStep, parse_request, run_worked_example,
                                       run_general);
}
