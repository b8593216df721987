/// \file
/// \brief Step 06's program: a worked example of split-K, then the general multiply with the
/// configuration the rule picks for its shape on this GPU (or the one --tile, --splits and
/// --stream-k force).
#include <hip/hip_runtime.h>

#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "common/device.hpp"
#include "common/errors.hpp"
#include "common/gpu_gemm_runner.hpp"
#include "common/matrix.hpp"
#include "common/program.hpp"
#include "common/verify.hpp"
#include "every_shape_gemm.hpp"

namespace {

const tutorial::StepDescription kStep{
    "step06_every_shape",
    "Step 06: warp tiles, six block-tile shapes, split-K and stream-K, with a rule that picks "
    "the configuration for each shape from the waves of blocks it gives on this GPU.",
    "A (2 x 32) times B (32 x 2) in float, K split into two ranges of 16 whose partial products "
    "are added in a fixed order",
    /*default_size=*/1024,
    /*default_iterations=*/10,
    /*block_sizes=*/{},
    /*block_help=*/"",
    /*multi_device=*/false,
    /*extra_options=*/
    {{"--tile", "the block tile: auto (the rule's choice), " + step06::tile_choices(), "auto"},
     {"--splits", "ranges K is split into: auto (the rule's choice) or 1 to 64", "auto"},
     {"--stream-k",
      "blocks that share out the last, partial wave of tiles: auto (the rule's choice), 0 (no "
      "stream-K) or 1 to 1024",
      "auto"},
     {"--pack",
      "copy A and B into rows padded to 4 floats when float4 cannot read them: auto (when the "
      "multiply repays the copies), on or off",
      "auto"}},
};

// What --tile, --splits, --stream-k and --pack ask for: the tile, the splits and the stream-K
// workers are the rule's choice unless given.
struct Request {
    bool tile_forced = false;
    bool splits_forced = false;
    bool workers_forced = false;
    step06::Config config;  // config.packing is always what --pack says
};

Request parse_request(const tutorial::Options& options) {
    Request request;
    const std::string& tile = options.extra.at("--tile");
    const std::string& splits = options.extra.at("--splits");
    try {
        if (tile != "auto") {
            request.config.tile = step06::parse_tile_shape(tile);
            request.tile_forced = true;
        }
    } catch (const std::invalid_argument& error) {
        throw tutorial::UsageError(std::string("--tile: ") + error.what() + " (or auto)");
    }
    try {
        if (splits != "auto") {
            request.config.splits = step06::parse_splits(splits);
            request.splits_forced = true;
        }
    } catch (const std::invalid_argument& error) {
        throw tutorial::UsageError(std::string("--splits: ") + error.what() + " (or auto)");
    }
    const std::string& workers = options.extra.at("--stream-k");
    try {
        if (workers != "auto") {
            request.config.workers = step06::parse_workers(workers);
            request.workers_forced = true;
        }
    } catch (const std::invalid_argument& error) {
        throw tutorial::UsageError(std::string("--stream-k: ") + error.what() + " (or auto)");
    }
    // Forcing one of split-K and stream-K turns the other off unless it is forced too; the 8 x 4
    // tile never takes stream-K.
    try {
        if (request.workers_forced && (request.splits_forced || request.tile_forced))
            step06::check_config(request.config);
    } catch (const std::invalid_argument& error) {
        throw tutorial::UsageError(std::string(request.splits_forced ? "--splits and --stream-k: "
                                                                     : "--tile and --stream-k: ") +
                                   error.what());
    }
    try {
        request.config.packing = step06::parse_packing(options.extra.at("--pack"));
    } catch (const std::invalid_argument& error) {
        throw tutorial::UsageError(std::string("--pack: ") + error.what());
    }
    return request;
}

// [choice]
// The configuration for an m x n x k multiply: the rule's, with what the command line forces put
// in its place, and a line that says which it is and what the rule counted.
step06::Config resolve(const Request& request, int m, int n, int k, std::string& why) {
    const step06::DeviceSlots slots = step06::device_slots();
    step06::Config config = step06::choose_config(m, n, k, slots);
    // Stream-K asked for where the rule took the 8 x 4 tile, which has none: the rule's choice
    // among the other tiles.
    if (request.workers_forced && request.config.workers != 0 && !request.tile_forced &&
        config.tile == step06::TileShape::t8x4) {
        config = step06::choose_config(m, n, k, slots, step06::kMaxSplits, /*dot_tile=*/false);
    }
    if (request.tile_forced) {
        config.tile = request.config.tile;
        if (config.workers != 0)  // the rule's stream-K, with the forced tile's workers
            config.workers = slots.stream_k_workers(config.tile);
    }
    if (request.splits_forced) {
        config.splits = request.config.splits;
        if (!request.workers_forced && config.splits != 1)
            config.workers = 0;
    }
    if (request.workers_forced) {
        config.workers = request.config.workers;
        if (!request.splits_forced && config.workers != 0)
            config.splits = 1;
    }
    config.packing = request.config.packing;
    const step06::Estimate estimate = step06::estimate(m, n, k, config, slots);
    std::ostringstream line;
    line << step06::config_name(config)
         << (request.tile_forced || request.splits_forced || request.workers_forced ||
                     config.packing != step06::Packing::automatic
                 ? " (forced by the command line)"
                 : " (the rule's choice)")
         << ": " << estimate.blocks << " blocks on " << slots.multiprocessors
         << " multiprocessors holding " << slots.blocks_per_multiprocessor(config.tile) << " each, "
         << std::fixed << std::setprecision(2) << estimate.waves << " waves";
    const step06::StreamKPlan plan = step06::plan_stream_k(m, n, k, config.tile, config.workers);
    if (plan.workers > 0) {
        line << "; stream-K: " << plan.first_tile << " whole tiles, then "
             << plan.tiles - plan.first_tile << " shared by " << plan.workers << " blocks";
    }
    // The program's matrices come from hipMalloc (16-byte aligned): only n and k can stop float4.
    if (step06::packs(config, m, n, k, n % 4 == 0 && k % 4 == 0))
        line << "; A and B packed into rows padded to 4 floats";
    why = line.str();
    return config;
}
// [choice]

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
    const step06::Config two_ranges{step06::TileShape::t64x64, 2};
    const tutorial::Matrix<float> c = tutorial::multiply_on_device<float>(
        a, b,
        [&](const float* da, const float* db, float* dc, int m, int n, int k, hipStream_t stream) {
            step06::gemm(da, db, dc, m, n, k, stream, two_ranges);
        });
    // [worked example]
    return tutorial::report_worked_example(
        options,
        "Worked example: A (2 x 32) times B (32 x 2) in float, 64x64 tiles, K split in two ranges "
        "of 16 (columns 0-15 and 16-31 of A), partial products added in order",
        a, b, c);
}

}  // namespace

int main(int argc, char** argv) {
    return tutorial::run_step(argc, argv, kStep, [](const tutorial::Options& options) {
        if (!options.quiet)
            std::cout << kStep.summary << "\n\n";
        const Request request = parse_request(options);
        tutorial::select_device(options.devices.front());
        const int example = run_worked_example(options);
        if (example != tutorial::kExitVerified || options.example_only)
            return example;

        // [general multiply]
        std::string why;
        const step06::Config config = resolve(request, options.m, options.n, options.k, why);
        if (!options.quiet)
            std::cout << "\nConfiguration: " << why << "\n";
        return tutorial::run_gpu_gemm(
            options, {"06", step06::config_name(config)},
            [&](const float* a, const float* b, float* c, int m, int n, int k, hipStream_t stream) {
                step06::gemm(a, b, c, m, n, k, stream, config);
            });
        // [general multiply]
    });
}
