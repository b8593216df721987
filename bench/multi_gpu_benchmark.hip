/// \file
/// \brief `multi_gpu_benchmark`: step 09 against its own inner kernel and against cuBLASXt and
/// Tiled-MM at their best, in one run, on the same inputs, with the device memory each of them
/// used.
///
/// For an n x n x n multiply it measures, for each inner kernel asked for:
///  - "resident": the inner kernel alone on matrices already in the first device's memory
///    (events), at n where A, B and C fit there, or at --resident-n;
///  - "stream": step09::gemm from pinned host memory on the first listed device, with the budget
///    of --device-memory (by default the device's free memory, so that the multiply is out of core
///    exactly when A, B and C do not fit), and on all listed devices when more than one is listed
///    (host wall time, transfers included);
/// then cublasXtSgemm from the same pinned host memory at every block dim of a sweep (the
/// library's default 1024 up to one that covers n in one block, less those too small to matter at
/// this n or too large for the device), on the first device and on all listed devices; then
/// Tiled-MM's gemm from the same pinned host memory at every tile and number of streams of a sweep
/// (by default the tiles 4096, 5000 and 8192 with 2, 3 and 4 streams), each with a context made
/// once and reused, on the first device only: Tiled-MM is a one-GPU library (on a build without
/// it, one row says "not built"); and last each inner kernel streamed again with a budget equal to
/// the device memory that the fastest block dim of cuBLASXt used, where that changes the plan, so
/// that the two are also compared at equal memory. Each is --warmup untimed runs (1), then the
/// median of -i repetitions, and each result is verified before it counts (every element for small
/// n, Freivalds' check of all of C above).
///
/// The host holds A, B and C of size n in pinned memory and nothing else of that size, so n can
/// go as far as host memory does (n = 90000 takes 97 GB).
///
/// The device memory a contender used is how far the device's free memory fell below where it
/// stood before the contender's first call, sampled by a host thread every millisecond while it
/// runs (hipMemGetInfo); for the step, its plan's buffers are given as well. The ratios come from
/// this one run and are stated without targets. Results go to stdout as tables and, with --json,
/// to a file; with --trace, every copy and kernel of the last run of each streamed row goes to a
/// CSV file.
#include <hip/hip_runtime.h>

#include <CLI/CLI.hpp>

#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bench/cublasxt_sgemm.hpp"
#include "bench/cublasxt_sweep.hpp"
#include "bench/multi_gpu_json.hpp"
#include "bench/multi_gpu_report.hpp"
#include "bench/multi_gpu_runs.hpp"
#include "bench/tiledmm_gemm.hpp"
#include "bench/tiledmm_sweep.hpp"
#include "common/byte_size.hpp"
#include "common/command_line.hpp"
#include "common/device.hpp"
#include "common/errors.hpp"
#include "common/hip_check.hpp"
#include "common/host_memory.hpp"
#include "common/program.hpp"
#include "common/vendor_blas.hpp"
#include "warp_tiled_gemm.hpp"

namespace bench::multi_gpu {
namespace {

// The budget per entry of --device-memory: all (nothing: the device's free memory), auto (a third
// of A + B + C) or a size.
std::optional<std::uint64_t> budget_option(const Settings& settings) {
    const std::uint64_t matrix_bytes =
        static_cast<std::uint64_t>(settings.n) * settings.n * sizeof(float);
    if (settings.device_memory == "auto")
        return matrix_bytes;
    if (settings.device_memory == "all")
        return std::nullopt;
    try {
        return tutorial::parse_byte_size(settings.device_memory);
    } catch (const std::invalid_argument& error) {
        throw tutorial::UsageError(std::string("--device-memory: ") + error.what());
    }
}

std::vector<step09::InnerKernel> inner_kernels(const Settings& settings, int device) {
    std::vector<step09::InnerKernel> inners;
    std::stringstream list(settings.inner);
    std::string item;
    while (std::getline(list, item, ',')) {
        step09::InnerKernel inner;
        try {
            inner = step09::parse_inner_kernel(item);
        } catch (const std::invalid_argument& error) {
            throw tutorial::UsageError(std::string("--inner: ") + error.what());
        }
        tutorial::select_device(device);
        if (const auto why_not = step09::inner_kernel_unavailable(inner)) {
            std::cout << "inner kernel " << item << " skipped: " << *why_not << "\n";
            continue;
        }
        inners.push_back(inner);
    }
    return inners;
}

// The first device's free and total memory, as hipMemGetInfo reports them now.
std::pair<std::uint64_t, std::uint64_t> device_memory(int device) {
    tutorial::select_device(device);
    std::size_t free_memory = 0, total_memory = 0;
    HIP_CHECK(hipMemGetInfo(&free_memory, &total_memory));
    return {free_memory, total_memory};
}

std::uint64_t square_bytes(int n) {
    return static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(n) * sizeof(float);
}

// The size of the resident rows: --resident-n, or n where A, B and C fit in the first device's
// free memory together; 0 (no resident rows) otherwise, said on the terminal.
int resident_size(const Settings& settings, std::uint64_t free_memory) {
    if (settings.resident_n > 0)
        return settings.resident_n;
    if (3 * square_bytes(settings.n) <= free_memory)
        return settings.n;
    std::cout << "resident rows left out: A, B and C of n = " << settings.n << " take "
              << tutorial::format_bytes(3 * square_bytes(settings.n)) << ", more than the "
              << tutorial::format_bytes(free_memory)
              << " free on the first device; --resident-n measures them at a size that fits\n";
    return 0;
}

int run(const Settings& settings) {
    // The command line first: a wrong value is refused before any device is looked for.
    const TiledMmSweep tiledmm = tiledmm_sweep(settings);
    // Asked before anything is allocated. The checks read the matrices where they are, so A, B
    // and C are all the host holds (and, before them, the resident rows' own, if smaller).
    tutorial::require_host_memory(settings.n, settings.n, settings.n);
    if (settings.resident_n > 0)
        tutorial::require_host_memory(settings.resident_n, settings.resident_n,
                                      settings.resident_n);
    std::vector<int> listed;
    if (!settings.devices.empty())
        listed = tutorial::parse_number_list("--devices", settings.devices, 0, 1023);
    std::vector<int> devices;
    try {
        devices = step09::devices_or_all(listed);
    } catch (const std::invalid_argument& error) {
        throw tutorial::UsageError(std::string("--devices: ") + error.what());
    }
    const std::vector<int> all = distinct(devices);
    const std::vector<int> first{devices.front()};
    const auto [free_memory, total_memory] = device_memory(devices.front());
    const std::vector<int> block_dims =
        settings.block_dims.empty() ? default_block_dims(settings.n, total_memory)
        : settings.block_dims == "none"
            ? std::vector<int>{}
            : tutorial::parse_number_list("--block-dims", settings.block_dims, 1, 65536);
    const int resident_n = resident_size(settings, free_memory);
    const std::optional<std::uint64_t> budget = budget_option(settings);
    const std::vector<step09::InnerKernel> inners = inner_kernels(settings, devices.front());

    RunFacts facts;
    facts.devices = devices;
    for (const int id : all)
        facts.gpus.push_back(std::to_string(id) + ": " + tutorial::select_device(id).name);
    HIP_CHECK(hipDriverGetVersion(&facts.driver));
    HIP_CHECK(hipRuntimeGetVersion(&facts.runtime));
    tutorial::select_device(devices.front());
    std::string why_no_vendor, why_no_host_blas;
    const auto vendor = tutorial::make_vendor_blas(why_no_vendor);
    facts.vendor_blas = vendor ? vendor->name() : "none (" + why_no_vendor + ")";
    // Made here for its name and to learn whether the build has it; each measurement makes its own.
    bool have_cublasxt = false;
    if (const auto probe = bench::make_cublasxt(all, why_no_host_blas)) {
        facts.host_blas = probe->name();
        have_cublasxt = true;
    } else {
        facts.host_blas = "none (" + why_no_host_blas + ")";
    }
    facts.tiledmm = bench::tiledmm_name();

    // The plans, made once each: what is printed is what runs.
    const int n = settings.n;
    const step09::Plan plan_one =
        step09::plan_for(n, n, n, stream_options(kPlanningKernel, first, settings, budget));
    const std::optional<step09::Plan> plan_all =
        devices.size() > 1
            ? std::optional(step09::plan_for(
                  n, n, n, stream_options(kPlanningKernel, devices, settings, budget)))
            : std::nullopt;
    facts.budget = plan_one.budget_bytes;
    facts.budget_option = settings.device_memory;
    facts.device_memory_total = total_memory;
    facts.host_memory_available = tutorial::available_host_memory().value_or(0);

    std::cout << "GPUs:";
    for (const std::string& gpu : facts.gpus)
        std::cout << "  " << gpu;
    std::cout << "\ndriver " << facts.driver << ", runtime " << facts.runtime
              << "\nvendor BLAS: " << facts.vendor_blas << "\nhost BLAS: " << facts.host_blas
              << "\none-GPU peer: " << facts.tiledmm << "\nn = " << n << ", devices "
              << tutorial::join(devices, ",") << ", budget per entry "
              << tutorial::format_bytes(plan_one.budget_bytes)
              << (settings.device_memory == "auto" ? " (auto: a third of A + B + C)"
                  : settings.device_memory == "all"
                      ? " (all: free memory less " +
                            tutorial::format_bytes(step09::kAllMemoryMargin) + ")"
                      : "")
              << "; A + B + C " << tutorial::format_bytes(3 * square_bytes(n)) << ", device "
              << tutorial::format_bytes(total_memory) << " ("
              << (3 * square_bytes(n) > total_memory ? "out of core: the matrices do not fit"
                                                     : "the matrices would fit whole")
              << ")\none device: " << step09::describe_plan(plan_one)
              << (plan_all ? "all devices: " + step09::describe_plan(*plan_all) : "")
              << "cuBLASXt block dims: "
              << (block_dims.empty() ? std::string("none") : tutorial::join(block_dims, ", "))
              << "\nTiled-MM tiles: "
              << (tiledmm.tiles.empty()
                      ? std::string("none")
                      : tutorial::join(tiledmm.tiles, ", ") + " with " +
                            tutorial::join(tiledmm.streams, ", ") + " streams, on device " +
                            std::to_string(devices.front()) + " only (a one-GPU library)")
              << "\ntiming: " << settings.warmup << " warm-up, then the median of "
              << settings.iterations
              << " runs; resident: events, stream, cuBLASXt and Tiled-MM: host wall time from host "
                 "matrices to host result\nused MiB: the largest fall of a device's free memory "
                 "during the runs (sampled every ms); plan MiB: the step's buffers on a device\n\n";
    print_header();

    std::vector<Measurement> rows;
    bool all_verified = true;
    // The JSON file is written again after every row, marked incomplete until the end: at
    // n = 90000 a row takes minutes, and a run stopped early still leaves what it measured.
    auto record = [&](Measurement m) {
        print_row(m);
        // A peer that could not be measured (not built, not run) says so; it fails nothing.
        all_verified = all_verified && (m.verified || !m.status.empty());
        rows.push_back(std::move(m));
        if (!settings.json_path.empty())
            write_json(settings, facts, rows, ratios_of(rows, inners, first, devices), false);
    };
    // The resident rows first: at a size of their own, their inputs are freed before A, B and C
    // of size n are made.
    std::optional<Inputs> inputs;
    if (resident_n > 0) {
        std::optional<Inputs> resident_inputs;
        if (resident_n != n)
            resident_inputs.emplace(resident_n, settings.seed);
        else
            inputs.emplace(n, settings.seed);
        for (const step09::InnerKernel inner : inners) {
            record(measure_resident(inner, devices.front(),
                                    resident_inputs ? *resident_inputs : *inputs, settings));
        }
    }
    if (!inputs)
        inputs.emplace(n, settings.seed);
    for (const step09::InnerKernel inner : inners) {
        record(measure_stream(plan_one, stream_options(inner, first, settings, budget), "option",
                              settings, *inputs));
        if (plan_all) {
            record(measure_stream(*plan_all, stream_options(inner, devices, settings, budget),
                                  "option", settings, *inputs));
        }
    }
    if (have_cublasxt && !block_dims.empty())
        sweep_cublasxt(first, all, block_dims, settings, *inputs, record);
    sweep_tiledmm(devices.front(), tiledmm, settings, *inputs, record);

    // The step again, within the memory that the fastest cuBLASXt configuration used per device.
    stream_at_cublasxt_memory(rows, first, devices, inners, settings, *inputs, record);

    const std::vector<Ratio> ratios = ratios_of(rows, inners, first, devices);
    std::cout << "\nratios (throughput, from this run; > 1: the first is faster):\n";
    for (const Ratio& ratio : ratios) {
        std::cout << "  " << std::left << std::setw(84) << ratio.name << std::right
                  << std::setprecision(3) << std::setw(7) << ratio.value << "\n";
    }
    if (!settings.trace_path.empty()) {
        write_trace(settings.trace_path, rows);
        std::cout << "\nwrote " << settings.trace_path << "\n";
    }
    if (!settings.json_path.empty()) {
        write_json(settings, facts, rows, ratios, true);
        std::cout << "\nwrote " << settings.json_path << "\n";
    }
    return all_verified ? tutorial::kExitVerified : tutorial::kExitVerificationFailed;
}

}  // namespace
}  // namespace bench::multi_gpu

int main(int argc, char** argv) {
    bench::multi_gpu::Settings settings;
    CLI::App app{
        "Step 09 against its inner kernel on device-resident matrices, against cuBLASXt at every "
        "block dim of a sweep and against Tiled-MM at every tile and number of streams of a "
        "sweep, from pinned host memory, in one run, with the device memory each used.",
        "multi_gpu_benchmark"};
    app.add_option("--n", settings.n, "m = n = k (default 16384); host memory must hold A, B and C")
        ->check(CLI::Range(1, step06::kMaxSize));
    app.add_option("--resident-n", settings.resident_n,
                   "size of the resident rows (default: n where A, B and C fit in the first "
                   "device's free memory, else none)")
        ->check(CLI::Range(1, step06::kMaxSize));
    app.add_option("-d,--devices", settings.devices,
                   "comma-separated device ids, an id may repeat (default: all devices)");
    app.add_option("--device-memory", settings.device_memory,
                   "budget per device entry: all (free memory less " +
                       tutorial::format_bytes(step09::kAllMemoryMargin) +
                       ", the default), auto (a third of A + B + C), or a size such as 2GiB");
    app.add_option("--inner", settings.inner,
                   "comma-separated inner kernels among " + step09::inner_kernel_choices() +
                       " (default " + settings.inner + ")");
    app.add_option("--block-dims", settings.block_dims,
                   "comma-separated cuBLASXt block dims (default 1024 to 32768 in powers of "
                   "two, n / 2 and n: none above n or below n / 16, none whose tiles cannot fit "
                   "the device); none: no cuBLASXt rows");
    app.add_option("--tiledmm-tiles", settings.tiledmm_tiles,
                   "comma-separated Tiled-MM tile edges, 1 to " +
                       std::to_string(bench::kTiledMmMaxTile) +
                       " (default 4096, 5000 and 8192, each at most n); none: no Tiled-MM "
                       "rows. Tiled-MM is a one-GPU library: it runs on the first device only");
    app.add_option("--tiledmm-streams", settings.tiledmm_streams,
                   "comma-separated numbers of Tiled-MM streams, 1 to " +
                       std::to_string(bench::kTiledMmMaxStreams) +
                       ", each with every tile (default " + settings.tiledmm_streams + ")");
    app.add_option("-i,--iterations", settings.iterations, "timed runs after the warm-up")
        ->check(CLI::Range(1, 1000));
    app.add_option("--warmup", settings.warmup,
                   "untimed runs first (default 1; at n = 90000 a run takes half a minute, and "
                   "0 lets the median of three runs stand in for it)")
        ->check(CLI::Range(0, 100));
    app.add_option("--chunk-rows", settings.chunk_rows, "rows per chunk, 0 = from the budget")
        ->check(CLI::Range(0, step06::kMaxSize));
    app.add_option("--panel-cols", settings.panel_cols, "columns per panel, 0 = from the budget")
        ->check(CLI::Range(0, step06::kMaxSize));
    app.add_option("--panel-copy", settings.panel_copy,
                   "how panels of B reach the devices: " + step09::panel_copy_choices() +
                       " (default " + settings.panel_copy + ")");
    app.add_option("--share-panels", settings.share_panels,
                   "on: devices that can read each other's memory share each panel of B, each "
                   "bringing its share of the rows from the host (the default); off: each brings "
                   "whole panels")
        ->check(CLI::IsMember({"on", "off"}));
    app.add_option("--json", settings.json_path, "also write the results to this JSON file");
    app.add_option("--trace", settings.trace_path,
                   "also write every copy and kernel of the last run of each streamed row to this "
                   "CSV file");
    app.add_option("--commit", settings.commit, "the commit measured, recorded in the JSON");
    app.add_option("--seed", settings.seed, "seed of the random inputs");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        return app.exit(error) == 0 ? 0 : tutorial::kExitBadUsage;
    }
    return tutorial::exit_code_of("multi_gpu_benchmark",
                                  [&] { return bench::multi_gpu::run(settings); });
}
