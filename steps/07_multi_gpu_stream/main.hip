/// \file
/// \brief Step 07's program: the 4x4 worked example cut into 2 chunks and 2 panels, then a
/// multiply of any size from host memory on the listed devices, out of core within a memory budget.
#include <hip/hip_runtime.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/command_line.hpp"
#include "common/device.hpp"
#include "common/device_buffer.hpp"
#include "common/errors.hpp"
#include "common/matrix.hpp"
#include "common/program.hpp"
#include "common/report.hpp"
#include "common/verify.hpp"
#include "multi_gpu_gemm.hpp"

namespace {

const tutorial::StepDescription kStep{
    "step07_multi_gpu_stream",
    "Step 07: C = A·B from host memory on one or more GPUs, out of core: rows of A and C in chunks "
    "shared out from a queue, B streamed through each device in column panels, copies overlapped "
    "with the multiply.",
    "A = B = {{1,2,3,4},{5,6,7,8},{1,2,3,4},{5,6,7,8}} in float, cut into 2 chunks of 2 rows and "
    "2 panels of 2 columns",
    /*default_size=*/4096,
    /*default_iterations=*/5,
    /*block_sizes=*/{},
    /*block_help=*/"",
    /*multi_device=*/true,
    /*extra_options=*/
    {{"--device-memory",
      "device memory per device entry, e.g. 2GiB, 512MiB, 1.5GB; 'all' = free memory less "
      "512 MiB, shared by the entries of a device",
      "all"},
     {"--inner", "the kernel for each tile: step05 (reg8x8_db), step04 (32 x 32 tiles) or vendor",
      "step05"},
     {"--chunk-rows", "rows of A and C per chunk; 0 = chosen from the budget", "0"},
     {"--panel-cols", "columns of B and C per panel; 0 = chosen from the budget", "0"}},
};

// The worked example needs 160 bytes per entry; a fixed budget keeps it independent of
// --device-memory, which is meant for the general multiply.
constexpr std::uint64_t kExampleBudget = 1ull << 20;

int parse_count(const std::string& option, const std::string& text) {
    int value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size() || value < 0 ||
        value > tutorial::kMaxDimension) {
        throw tutorial::UsageError(option + ": '" + text + "' is not a whole number from 0 to " +
                                   std::to_string(tutorial::kMaxDimension));
    }
    return value;
}

// [options]
// The step's own options arrive as text; bad text is a usage error that names the option.
step07::MultiGpuOptions parse_step_options(const tutorial::Options& options) {
    step07::MultiGpuOptions multi;
    const std::string& memory = options.extra.at("--device-memory");
    try {
        multi.device_memory_bytes = memory == "all" ? 0 : step07::parse_byte_size(memory);
    } catch (const std::invalid_argument& error) {
        throw tutorial::UsageError(std::string("--device-memory: ") + error.what() + ", or all");
    }
    try {
        multi.inner = step07::parse_inner_kernel(options.extra.at("--inner"));
    } catch (const std::invalid_argument& error) {
        throw tutorial::UsageError(std::string("--inner: ") + error.what());
    }
    multi.chunk_rows = parse_count("--chunk-rows", options.extra.at("--chunk-rows"));
    multi.panel_cols = parse_count("--panel-cols", options.extra.at("--panel-cols"));
    return multi;
}

// The devices of --devices, or all of them. No GPU at all is a runtime failure (exit 3), an id the
// machine does not have a usage error (exit 2).
std::vector<int> resolve_devices(const std::vector<int>& listed) {
    if (const auto reason = tutorial::gpu_unavailable_reason())
        throw tutorial::RuntimeFailure(*reason);
    const int count = tutorial::device_count();
    std::vector<int> devices = listed;
    if (devices.empty()) {
        for (int id = 0; id < count; ++id)
            devices.push_back(id);
    }
    for (const int id : devices) {
        if (id >= count) {
            throw tutorial::UsageError("--devices: there is no device " + std::to_string(id) +
                                       "; this machine has " + std::to_string(count) +
                                       " (ids 0 to " + std::to_string(count - 1) + ")");
        }
    }
    return devices;
}
// [options]

// The plan, with the planner's refusal (a budget too small, say) turned into a usage error.
step07::Plan plan_or_usage_error(int m, int n, int k, const step07::MultiGpuOptions& multi) {
    try {
        return step07::plan_for(m, n, k, multi);
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
void print_statistics(const step07::GemmStatistics& statistics, bool with_times) {
    for (const step07::EntryStatistics& entry : statistics.entries) {
        std::cout << "  entry " << entry.entry << " on device " << entry.device << ": "
                  << entry.chunks << (entry.chunks == 1 ? " chunk" : " chunks") << " ("
                  << entry.rows << " rows, " << entry.tiles << " tiles, " << entry.panel_copies
                  << " panels copied, "
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
                      << milliseconds(entry.teardown_ms) << " after\n";
        }
    }
}

// [worked example]
int run_worked_example(const tutorial::Options& options, const step07::MultiGpuOptions& multi) {
    const tutorial::Matrix<float> a{{1, 2, 3, 4}, {5, 6, 7, 8}, {1, 2, 3, 4}, {5, 6, 7, 8}};
    const tutorial::Matrix<float> b = a;
    tutorial::Matrix<float> c(4, 4);
    std::fill(c.data(), c.data() + c.size(), std::numeric_limits<float>::quiet_NaN());

    step07::MultiGpuOptions example = multi;
    example.device_memory_bytes = kExampleBudget;
    example.chunk_rows = 2;                              // rows 0-1 and rows 2-3 of A and C
    example.panel_cols = 2;                              // columns 0-1 and columns 2-3 of B and C
    example.host_memory = step07::HostMemory::pageable;  // tutorial::Matrix is ordinary memory
    const step07::GemmStatistics statistics =
        step07::gemm(a.data(), b.data(), c.data(), 4, 4, 4, example);
    // [worked example]
    if (!options.quiet) {
        std::cout << step07::describe_plan(statistics.plan);
        print_statistics(statistics, /*with_times=*/false);
    }
    return tutorial::report_worked_example(
        options,
        std::string("Worked example: A (4 x 4) times B (4 x 4) in float, inner kernel ") +
            step07::inner_kernel_name(multi.inner),
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

// [general multiply]
int run_general(const tutorial::Options& options, step07::MultiGpuOptions multi) {
    const int m = options.m, n = options.n, k = options.k;
    // The budget is resolved once, so every timed call follows the plan printed here.
    const bool all_memory = multi.device_memory_bytes == 0;
    multi.device_memory_bytes = step07::resolve_budget(multi);
    const step07::Plan plan = plan_or_usage_error(m, n, k, multi);
    const std::string names = device_names(multi.devices);
    if (!options.quiet) {
        std::cout << "\nGeneral multiply on " << multi.devices.size()
                  << (multi.devices.size() == 1 ? " device entry" : " device entries")
                  << ", devices " << names << ": C (" << m << " x " << n << ") = A (" << m << " x "
                  << k << ") B (" << k << " x " << n << "), random values in [-1, 1], seed "
                  << options.seed << ", inner kernel " << step07::inner_kernel_name(multi.inner)
                  << "\n"
                  << "Budget per device entry: "
                  << tutorial::format_bytes(multi.device_memory_bytes)
                  << (all_memory ? " (all: free memory less 512 MiB)" : "") << "\n"
                  << step07::describe_plan(plan);
    }

    tutorial::Matrix<float> a(m, k), b(k, n), c(m, n);
    tutorial::fill_random(a, options.seed);
    tutorial::fill_random(b, options.seed + 1);
    // Pinned host copies: the step's copies run asynchronously only from page-locked memory.
    tutorial::PinnedBuffer<float> host_a(a.size()), host_b(b.size()), host_c(c.size());
    std::memcpy(host_a.get(), a.data(), a.bytes());
    std::memcpy(host_b.get(), b.data(), b.bytes());
    // All bits set is a NaN: an element that no run writes fails the verification.
    std::memset(host_c.get(), 0xFF, c.bytes());
    multi.host_memory = step07::HostMemory::pinned;

    step07::GemmStatistics last;
    auto multiply = [&] {
        last = step07::gemm(host_a.get(), host_b.get(), host_c.get(), m, n, k, multi);
    };
    tutorial::RunReport report;
    report.step = "07";
    report.variant = std::string("stream_") + step07::inner_kernel_name(multi.inner);
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
    std::memcpy(c.data(), host_c.get(), c.bytes());
    // [general multiply]

    if (!options.quiet) {
        std::cout << "Last run, per device entry:\n";
        print_statistics(last, /*with_times=*/true);
    }
    int exit_code = tutorial::kExitVerified;
    if (options.verify) {
        const tutorial::VerifyReport verification = tutorial::verify_gemm(a, b, c);
        report.verification = verification.passed ? "passed" : "FAILED";
        if (!options.quiet)
            std::cout << verification.summary() << "\n";
        if (!verification.passed)
            exit_code = tutorial::kExitVerificationFailed;
    }
    if (!options.quiet) {
        if (timing) {
            std::cout << "host matrices to host result: median " << milliseconds(timing->median_ms)
                      << ", min " << milliseconds(timing->min_ms) << " over " << timing->repetitions
                      << " runs\n";
        }
        tutorial::print_report(std::cout, report);
    }
    std::cout << tutorial::result_line(report) << "\n";
    return exit_code;
}

}  // namespace

int main(int argc, char** argv) {
    return tutorial::run_step(argc, argv, kStep, [](const tutorial::Options& options) {
        if (!options.quiet)
            std::cout << kStep.summary << "\n\n";
        step07::MultiGpuOptions multi = parse_step_options(options);
        multi.devices = resolve_devices(options.devices);
        // Chosen first, so a machine without a GPU stops here with a clear message.
        tutorial::select_device(multi.devices.front());
        if (const auto why_not = step07::inner_kernel_unavailable(multi.inner))
            throw tutorial::UsageError("--inner vendor: " + *why_not);

        const int example = run_worked_example(options, multi);
        if (example != tutorial::kExitVerified || options.example_only)
            return example;
        return run_general(options, multi);
    });
}
