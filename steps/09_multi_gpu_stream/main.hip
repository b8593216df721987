/// \file
/// \brief Step 09's program: the 4x4 worked example cut into 2 chunks and 2 panels, then a
/// multiply of any size from host memory on the listed devices, out of core within a memory budget.
#include <hip/hip_runtime.h>

#include <algorithm>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/byte_size.hpp"
#include "common/command_line.hpp"
#include "common/device.hpp"
#include "common/device_buffer.hpp"
#include "common/errors.hpp"
#include "common/host_memory.hpp"
#include "common/matrix.hpp"
#include "common/program.hpp"
#include "common/report.hpp"
#include "host_registration.hpp"
#include "multi_gpu_gemm.hpp"
#include "warp_tiled_gemm.hpp"

namespace {

const tutorial::StepDescription kStep{
    /*program=*/"step09_multi_gpu_stream",
    /*summary=*/
    "Step 09: C = A·B from host memory on one or more GPUs, out of core: rows of A and C in chunks "
    "shared out from a queue, B streamed through each device in column panels, copies overlapped "
    "with the multiply.",
    /*worked_example=*/
    "A = B = {{1,2,3,4},{5,6,7,8},{1,2,3,4},{5,6,7,8}} in float, cut into 2 chunks of 2 rows and "
    "2 panels of 2 columns",
    /*default_size=*/4096,
    /*default_iterations=*/5,
    /*block_sizes=*/{},
    /*block_help=*/"",
    /*multi_device=*/true,
    /*extra_options=*/
    {{"--device-memory",
      "device memory per device entry, e.g. 2GiB, 512MiB, 1.5GB; 'all' = free memory less " +
          tutorial::format_bytes(step09::kAllMemoryMargin) + ", shared by the entries of a device",
      "all"},
     {"--inner", "the kernel for each tile: " + step09::inner_kernel_choices(),
      step09::kInnerKernels[0].name},
     {"--chunk-rows", "rows of A and C per chunk; 0 = chosen from the budget", "0"},
     {"--panel-cols", "columns of B and C per panel; 0 = chosen from the budget", "0"},
     {"--panel-copy",
      "how panels of B reach the devices: " + step09::panel_copy_choices() +
          " (the first two by a kernel that reads host memory, the rest by the copy engine)",
      step09::panel_copy_name(step09::PanelCopy::first_by_kernel)},
     {"--share-panels",
      "on: devices that can read each other's memory share each panel of B, each bringing its "
      "share of the rows from the host; off: each brings whole panels",
      "on"}},
    /*max_size=*/step06::kMaxSize,
    /*int_indexing=*/false,
};

// The worked example needs 288 bytes per entry; a fixed budget keeps it independent of
// --device-memory, which is meant for the general multiply.
constexpr std::uint64_t kExampleBudget = 1ull << 20;

// The step's own options arrive as text; bad text is a usage error that names the option.
step09::MultiGpuOptions parse_step_options(const tutorial::Options& options) {
    step09::MultiGpuOptions multi;
    const std::string& memory = options.extra.at("--device-memory");
    try {
        if (memory != "all")
            multi.device_memory_bytes = tutorial::parse_byte_size(memory);
    } catch (const std::invalid_argument& error) {
        throw tutorial::UsageError(std::string("--device-memory: ") + error.what() + ", or all");
    }
    try {
        multi.inner = step09::parse_inner_kernel(options.extra.at("--inner"));
    } catch (const std::invalid_argument& error) {
        throw tutorial::UsageError(std::string("--inner: ") + error.what());
    }
    multi.chunk_rows = static_cast<int>(tutorial::parse_whole_number(
        "--chunk-rows", options.extra.at("--chunk-rows"), 0, tutorial::kMaxDimension));
    multi.panel_cols = static_cast<int>(tutorial::parse_whole_number(
        "--panel-cols", options.extra.at("--panel-cols"), 0, tutorial::kMaxDimension));
    try {
        multi.panel_copy = step09::parse_panel_copy(options.extra.at("--panel-copy"));
    } catch (const std::invalid_argument& error) {
        throw tutorial::UsageError(std::string("--panel-copy: ") + error.what());
    }
    const std::string& share = options.extra.at("--share-panels");
    if (share != "on" && share != "off")
        throw tutorial::UsageError("--share-panels: '" + share + "' is neither on nor off");
    multi.share_panels = share == "on";
    return multi;
}

// The devices of --devices, or all of them. No GPU at all is a runtime failure (exit 3), an id the
// machine does not have a usage error (exit 2).
std::vector<int> resolve_devices(const std::vector<int>& listed) {
    try {
        return step09::devices_or_all(listed);
    } catch (const std::invalid_argument& error) {
        throw tutorial::UsageError(std::string("--devices: ") + error.what());
    }
}

// The plan, with the planner's refusal (a budget too small, say) turned into a usage error.
step09::Plan plan_or_usage_error(int m, int n, int k, const step09::MultiGpuOptions& multi) {
    try {
        return step09::plan_for(m, n, k, multi);
    } catch (const std::invalid_argument& error) {
        throw tutorial::UsageError(error.what());
    }
}

std::string percent(double part, double whole) {
    std::ostringstream text;
    text << std::fixed << std::setprecision(1) << (whole > 0.0 ? 100.0 * part / whole : 0.0) << "%";
    return text.str();
}

std::string milliseconds(double value) {
    std::ostringstream text;
    text << std::fixed << std::setprecision(2) << value << " ms";
    return text.str();
}

// Who did what in the last call: chunks, bytes, and how well the copies hid behind the kernels.
void print_statistics(const step09::GemmStatistics& statistics, bool with_times) {
    for (const step09::EntryStatistics& entry : statistics.entries) {
        std::cout << "  entry " << entry.entry << " on device " << entry.device << ": "
                  << entry.chunks << (entry.chunks == 1 ? " chunk" : " chunks") << " ("
                  << entry.rows << (entry.rows == 1 ? " row, " : " rows, ") << entry.tiles
                  << (entry.tiles == 1 ? " tile, " : " tiles, ") << entry.panel_copies
                  << (entry.panel_copies == 1 ? " panel" : " panels") << " copied ("
                  << entry.panels_by_kernel << " by kernel), "
                  << percent(static_cast<double>(entry.rows), statistics.plan.m) << " of C), "
                  << tutorial::format_bytes(entry.bytes_to_device) << " in, "
                  << tutorial::format_bytes(entry.bytes_to_host) << " out\n";
        if (with_times && entry.tiles > 0) {
            std::cout << "    device time " << milliseconds(entry.span_ms) << ": kernels busy "
                      << percent(entry.compute_ms, entry.span_ms) << " of it; copies busy "
                      << milliseconds(entry.copy_ms) << ", "
                      << percent(entry.hidden_copy_ms, entry.copy_ms)
                      << " of that while a kernel was busy; on the host, set-up "
                      << milliseconds(entry.setup_ms) << " before and tear-down "
                      << milliseconds(entry.teardown_ms) << " after; "
                      << (entry.bytes_allocated > 0
                              ? tutorial::format_bytes(entry.bytes_allocated) +
                                    " of device buffers allocated"
                              : std::string("device buffers kept from the run before"))
                      << "\n";
        }
    }
}

// [worked example]
int run_worked_example(const tutorial::Options& options, const step09::MultiGpuOptions& multi) {
    const tutorial::Matrix<float> a{{1, 2, 3, 4}, {5, 6, 7, 8}, {1, 2, 3, 4}, {5, 6, 7, 8}};
    const tutorial::Matrix<float> b = a;
    tutorial::Matrix<float> c(4, 4);
    std::fill(c.data(), c.data() + c.size(), std::numeric_limits<float>::quiet_NaN());

    step09::MultiGpuOptions example = multi;
    example.device_memory_bytes = kExampleBudget;
    example.chunk_rows = 2;                              // rows 0-1 and rows 2-3 of A and C
    example.panel_cols = 2;                              // columns 0-1 and columns 2-3 of B and C
    example.host_memory = step09::HostMemory::pageable;  // tutorial::Matrix is ordinary memory
    const step09::GemmStatistics statistics =
        step09::gemm(a.data(), b.data(), c.data(), 4, 4, 4, example);
    // [worked example]
    if (!options.quiet) {
        std::cout << step09::describe_plan(statistics.plan);
        print_statistics(statistics, /*with_times=*/false);
    }
    return tutorial::report_worked_example(
        options,
        std::string("Worked example: A (4 x 4) times B (4 x 4) in float, inner kernel ") +
            step09::inner_kernel_name(multi.inner),
        a, b, c);
}

std::string device_names(const std::vector<int>& devices) {
    std::string text;
    for (std::size_t i = 0; i < devices.size(); ++i) {
        if (i > 0)
            text += ", ";
        const tutorial::DeviceInfo info = tutorial::select_device(devices[i]);
        text += std::to_string(info.id) + " (" + info.name + ")";
    }
    tutorial::select_device(devices.front());
    return text;
}

int run_general(const tutorial::Options& options, const step09::MultiGpuOptions& multi) {
    const int m = options.m, n = options.n, k = options.k;
    // The plan, with the budget it was made for, is made once: every timed call follows it.
    const step09::Plan plan = plan_or_usage_error(m, n, k, multi);
    const std::string names = device_names(multi.devices);
    if (!options.quiet) {
        std::cout << "\nGeneral multiply on " << multi.devices.size()
                  << (multi.devices.size() == 1 ? " device entry" : " device entries")
                  << ", devices " << names << ": C (" << m << " x " << n << ") = A (" << m << " x "
                  << k << ") B (" << k << " x " << n << "), random values in [-1, 1], seed "
                  << options.seed << ", inner kernel " << step09::inner_kernel_name(multi.inner)
                  << "\n"
                  << "Budget per device entry: " << tutorial::format_bytes(plan.budget_bytes)
                  << (multi.device_memory_bytes
                          ? ""
                          : " (all: free memory less " +
                                tutorial::format_bytes(step09::kAllMemoryMargin) + ")")
                  << "\n"
                  << step09::describe_plan(plan);
    }

    tutorial::Matrix<float> a(m, k), b(k, n), c(m, n);
    tutorial::fill_random(a, options.seed);
    tutorial::fill_random(b, options.seed + 1);
    // All bits set is a NaN: an element that no run writes fails the verification.
    std::memset(c.data(), 0xFF, c.bytes());
    // Page-locked once for all runs: the step's copies run asynchronously only from page-locked
    // memory, and locking it in every call would be timed with the multiply.
    const step09::HostRegistration pinned(
        /*enabled=*/true, {{a.data(), a.bytes()}, {b.data(), b.bytes()}, {c.data(), c.bytes()}});
    step09::MultiGpuOptions run_options = multi;
    run_options.host_memory = step09::HostMemory::pinned;

    // The device buffers, like the host matrices, are set up once: the first run allocates them and
    // the later runs reuse them, as a program that multiplies again and again would.
    step09::Workspace workspace;
    step09::GemmStatistics last;
    auto multiply = [&] {
        last = step09::gemm(a.data(), b.data(), c.data(), plan, run_options, workspace);
    };
    tutorial::RunReport report;
    report.step = "09";
    report.variant = std::string("stream_") + step09::inner_kernel_name(multi.inner);
    report.device = names;
    report.m = m;
    report.n = n;
    report.k = k;
    std::optional<tutorial::TimingSummary> timing;
    if (options.timing) {
        timing = tutorial::time_on_host(options.warmup, options.iterations, multiply);
        report.end_to_end_ms = timing->median_ms;
    } else {
        multiply();
    }

    if (!options.quiet) {
        std::cout << "Last run, per device entry (host matrices " << pinned.note() << "):\n";
        print_statistics(last, /*with_times=*/true);
        if (last.entries.size() > 1)
            std::cout << "Panels of B: " << last.panel_sharing << "\n";
    }
    return tutorial::report_general_multiply(options, report, a, b, c, [&](std::ostream& out) {
        if (timing) {
            out << "host matrices to host result: median " << milliseconds(timing->median_ms)
                << ", min " << milliseconds(timing->min_ms) << " over " << timing->repetitions
                << " runs\n";
        }
    });
}

}  // namespace

int main(int argc, char** argv) {
    return tutorial::run_step(argc, argv, kStep, [](const tutorial::Options& options) {
        if (!options.quiet)
            std::cout << kStep.summary << "\n\n";
        // Usage first (exit 2), then what the machine lacks (exit 3): the devices, host memory.
        step09::MultiGpuOptions multi = parse_step_options(options);
        multi.devices = resolve_devices(options.devices);
        // Chosen first, so a machine without a GPU stops here with a clear message.
        tutorial::select_device(multi.devices.front());
        if (const auto why_not = step09::inner_kernel_unavailable(multi.inner))
            throw tutorial::UsageError("--inner vendor: " + *why_not);
        if (!options.example_only)
            tutorial::require_host_memory(options.m, options.n, options.k);

        const int example = run_worked_example(options, multi);
        if (example != tutorial::kExitVerified || options.example_only)
            return example;
        return run_general(options, multi);
    });
}
