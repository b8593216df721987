/// \file
/// \brief `multi_gpu_benchmark`: step 09 against its own inner kernel and against cuBLASXt at its
/// best, in one run, on the same inputs, with the device memory each of them used.
///
/// For an n x n x n multiply it measures, for each inner kernel asked for:
///  - "resident": the inner kernel alone on matrices already in the first device's memory
///    (events);
///  - "stream": step09::gemm from pinned host memory on the first listed device, with the budget
///    of --device-memory (by default a third of A + B + C, so that it runs out of core), and on
///    all listed devices when more than one is listed (host wall time, transfers included);
/// then cublasXtSgemm from the same pinned host memory at every block dim of a sweep (the
/// library's default 1024 up to one that covers n in one block), on the first device and on all
/// listed devices; and last each inner kernel streamed again with a budget equal to the device
/// memory that the fastest block dim of cuBLASXt used, so that the two are also compared at equal
/// memory. Each is one warm-up, then the median of -i repetitions, and each result is verified
/// (sampled rows) before it counts.
///
/// The device memory a contender used is how far the device's free memory fell below where it
/// stood before the contender's first call, sampled by a host thread every millisecond while it
/// runs (hipMemGetInfo); for the step, its plan's buffers are given as well. The ratios come from
/// this one run and are stated without targets. Results go to stdout as tables and, with --json,
/// to a file; with --trace, every copy and kernel of the last run of each streamed row goes to a
/// CSV file.
#include <hip/hip_runtime.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench/cublasxt_sgemm.hpp"
#include "bench/results_json.hpp"
#include "common/byte_size.hpp"
#include "common/command_line.hpp"
#include "common/device.hpp"
#include "common/device_buffer.hpp"
#include "common/errors.hpp"
#include "common/gpu_timer.hpp"
#include "common/hip_handles.hpp"
#include "common/matrix.hpp"
#include "common/report.hpp"
#include "common/vendor_blas.hpp"
#include "common/verify.hpp"
#include "host_memory.hpp"
#include "inner_kernel.hpp"
#include "multi_gpu_gemm.hpp"

namespace {

struct Settings {
    int n = 16384;
    std::string devices;                 // comma-separated ids; empty: all devices
    std::string device_memory = "auto";  // auto: (A + B + C) / 3, out of core
    std::string inner = std::string(step09::kInnerKernels[0].name) + ",vendor";  // default, BLAS
    std::string block_dims;  // comma-separated; empty: default_block_dims(n)
    int iterations = 5;
    int chunk_rows = 0;
    int panel_cols = 0;
    std::string panel_copy = step09::panel_copy_name(step09::PanelCopy::first_by_kernel);
    std::string json_path;
    std::string trace_path;
    std::string commit = "unknown";
    std::uint64_t seed = 42;
};

// One measured row.
struct Measurement {
    std::string what;   // "resident", "stream" or "cublasxt"
    std::string inner;  // the inner kernel, or the library
    std::vector<int> devices;
    int block_dim = 0;  // cuBLASXt's block dim; 0 for the others
    // For the stream rows: "option" (the budget of --device-memory) or "cublasxt" (the memory
    // the fastest cuBLASXt configuration used).
    std::string budget_from;
    tutorial::TimingSummary timing;
    bool verified = false;
    std::uint64_t memory_used = 0;  // the largest fall of free memory over the devices (sampled)
    std::uint64_t plan_bytes = 0;   // stream rows: the plan's buffers on the busiest device
    std::optional<step09::GemmStatistics> statistics;  // stream rows: the last run
};

struct Ratio {
    std::string name;
    double value;
};

// cuBLASXt's default block dim (1024), the sizes around it that overlap copies and work best for
// large n, and the ones that cover n in two blocks and in one; none larger than n.
std::vector<int> default_block_dims(int n) {
    std::vector<int> dims{1024, 2048, 4096, 8192, (n + 1) / 2, n};
    for (int& dim : dims)
        dim = std::min(dim, n);
    std::sort(dims.begin(), dims.end());
    dims.erase(std::unique(dims.begin(), dims.end()), dims.end());
    return dims;
}

// Watches the free memory of some devices from a host thread while it lives. used() is how far
// it fell below where it stood when the watch began, at most over the devices: the memory the
// work in between took, whoever allocated it (a library's own buffers and workspaces included).
class FreeMemoryWatch {
  public:
    explicit FreeMemoryWatch(std::vector<int> devices)
        : devices_(std::move(devices)), start_(devices_.size()), lowest_(devices_.size()) {
        int current = 0;
        HIP_CHECK(hipGetDevice(&current));
        for (std::size_t i = 0; i < devices_.size(); ++i)
            start_[i] = lowest_[i] = free_bytes(devices_[i]).value_or(0);
        HIP_CHECK(hipSetDevice(current));
        thread_ = std::thread([this] {
            while (!stop_.load()) {
                sample();
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
        });
    }
    ~FreeMemoryWatch() { stop(); }
    FreeMemoryWatch(const FreeMemoryWatch&) = delete;
    FreeMemoryWatch& operator=(const FreeMemoryWatch&) = delete;

    // Stops watching and returns the largest fall of free memory over the devices.
    std::uint64_t used() {
        stop();
        std::uint64_t most = 0;
        for (std::size_t i = 0; i < devices_.size(); ++i)
            most =
                std::max<std::uint64_t>(most, start_[i] > lowest_[i] ? start_[i] - lowest_[i] : 0);
        return most;
    }

  private:
    // A failed reading is skipped: the watch must not disturb the work it watches.
    static std::optional<std::size_t> free_bytes(int device) {
        std::size_t free_memory = 0, total_memory = 0;
        if (hipSetDevice(device) != hipSuccess ||
            hipMemGetInfo(&free_memory, &total_memory) != hipSuccess) {
            (void)hipGetLastError();
            return std::nullopt;
        }
        return free_memory;
    }
    void sample() {
        for (std::size_t i = 0; i < devices_.size(); ++i) {
            if (const auto now = free_bytes(devices_[i]))
                lowest_[i] = std::min(lowest_[i], *now);
        }
    }
    void stop() {
        if (!thread_.joinable())
            return;
        stop_ = true;
        thread_.join();
    }

    std::vector<int> devices_;
    std::vector<std::size_t> start_, lowest_;
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

// The inputs, in ordinary memory for the reference and in pinned memory for the copies.
struct Inputs {
    int n;
    tutorial::Matrix<float> a, b;
    tutorial::PinnedBuffer<float> host_a, host_b, host_c;

    Inputs(int size, std::uint64_t seed)
        : n(size),
          a(size, size),
          b(size, size),
          host_a(a.size()),
          host_b(b.size()),
          host_c(a.size()) {
        tutorial::fill_random(a, seed);
        tutorial::fill_random(b, seed + 1);
        std::memcpy(host_a.get(), a.data(), a.bytes());
        std::memcpy(host_b.get(), b.data(), b.bytes());
    }

    // All bits set is a NaN: an element that no run writes fails the verification.
    void poison_c() { std::memset(host_c.get(), 0xFF, a.bytes()); }

    bool verify_c(const std::string& what) const {
        tutorial::Matrix<float> c(n, n);
        std::memcpy(c.data(), host_c.get(), c.bytes());
        const tutorial::VerifyReport report = tutorial::verify_gemm(a, b, c);
        if (!report.passed)
            std::cerr << what << ": " << report.summary() << "\n";
        return report.passed;
    }
};

// The inner kernel alone, on matrices in the first device's memory, event-timed.
Measurement measure_resident(step09::InnerKernel inner, int device, Inputs& inputs,
                             int iterations) {
    tutorial::select_device(device);
    const int n = inputs.n;
    const step09::InnerMultiply multiply(inner, /*lanes=*/1);
    tutorial::DeviceBuffer<float> a(inputs.a.size()), b(inputs.b.size()), c(inputs.a.size());
    a.upload(inputs.a);
    b.upload(inputs.b);
    const tutorial::Stream stream;
    HIP_CHECK(hipMemsetAsync(c.get(), 0xFF, c.bytes(), stream.get()));
    Measurement result;
    result.what = "resident";
    result.inner = step09::inner_kernel_name(inner);
    result.devices = {device};
    result.timing = tutorial::time_with_events(stream.get(), 1, iterations, [&] {
        multiply(0, a.get(), b.get(), c.get(), n, n, n, stream.get());
    });
    stream.synchronize();
    HIP_CHECK(hipMemcpy(inputs.host_c.get(), c.get(), c.bytes(), hipMemcpyDeviceToHost));
    result.verified = inputs.verify_c("resident " + result.inner);
    return result;
}

// Host wall time of `multiply` (which leaves C in inputs.host_c): one warm-up, then the median;
// the memory used is what `watch` saw from its start to the end of the last run.
void time_from_host(Measurement& result, Inputs& inputs, int iterations, FreeMemoryWatch& watch,
                    const std::function<void()>& multiply) {
    inputs.poison_c();
    result.timing = tutorial::time_on_host(1, iterations, multiply);
    result.memory_used = watch.used();
    result.verified = inputs.verify_c(result.what + " " + result.inner + " on " +
                                      tutorial::join(result.devices, ","));
}

std::vector<int> distinct(std::vector<int> devices) {
    std::sort(devices.begin(), devices.end());
    devices.erase(std::unique(devices.begin(), devices.end()), devices.end());
    return devices;
}

// The plans do not depend on the inner kernel: any one makes them.
constexpr step09::InnerKernel kPlanningKernel = step09::kInnerKernels[0].kernel;

// The options of the step on `devices` with `budget` per entry (nothing: all).
step09::MultiGpuOptions stream_options(step09::InnerKernel inner, const std::vector<int>& devices,
                                       const Settings& settings,
                                       std::optional<std::uint64_t> budget) {
    step09::MultiGpuOptions options;
    options.devices = devices;
    options.device_memory_bytes = budget;
    options.inner = inner;
    options.chunk_rows = settings.chunk_rows;
    options.panel_cols = settings.panel_cols;
    options.host_memory = step09::HostMemory::pinned;
    options.panel_copy = step09::parse_panel_copy(settings.panel_copy);
    return options;
}

// The step following `plan`, the one printed for it, made by plan_for() for `options`.
Measurement measure_stream(const step09::Plan& plan, const step09::MultiGpuOptions& options,
                           const std::string& budget_from, const Settings& settings,
                           Inputs& inputs) {
    const std::vector<int>& devices = options.devices;
    Measurement result;
    result.what = "stream";
    result.inner = step09::inner_kernel_name(options.inner);
    result.devices = devices;
    result.budget_from = budget_from;
    for (const int device : devices) {
        const auto entries = std::count(devices.begin(), devices.end(), device);
        result.plan_bytes = std::max<std::uint64_t>(
            result.plan_bytes, static_cast<std::uint64_t>(entries) * plan.buffers.total_bytes());
    }
    // The step keeps its buffers from one call to the next (step09::Workspace), as a program that
    // multiplies again and again would; cuBLASXt, likewise, is timed with one handle over all its
    // calls. The warm-up allocates the buffers inside the watch, which therefore sees them all,
    // and the timed calls reuse them. They are freed before the next row.
    FreeMemoryWatch watch(distinct(devices));
    step09::Workspace workspace;
    time_from_host(result, inputs, settings.iterations, watch, [&] {
        result.statistics = step09::gemm(inputs.host_a.get(), inputs.host_b.get(),
                                         inputs.host_c.get(), plan, options, workspace);
    });
    return result;
}

// cuBLASXt on `devices` (distinct) with one block dim, from a handle of its own: the watch starts
// before the handle is made, so whatever the library keeps on the devices counts, and nothing an
// earlier block dim left behind is taken for free.
Measurement measure_cublasxt(const std::vector<int>& devices, int block_dim,
                             const Settings& settings, Inputs& inputs) {
    Measurement result;
    result.what = "cublasxt";
    result.inner = "cuBLASXt";
    result.devices = devices;
    result.block_dim = block_dim;
    FreeMemoryWatch watch(devices);
    std::string why_not;
    const std::unique_ptr<bench::HostBlas> blas = bench::make_cublasxt(devices, why_not);
    if (!blas)
        throw tutorial::RuntimeFailure(why_not);
    blas->set_block_dim(block_dim);
    const int n = inputs.n;
    time_from_host(result, inputs, settings.iterations, watch, [&] {
        blas->sgemm(inputs.host_a.get(), inputs.host_b.get(), inputs.host_c.get(), n, n, n);
    });
    return result;
}

std::string what_text(const Measurement& m) {
    if (m.what == "cublasxt")
        return "cuBLASXt, block dim " + std::to_string(m.block_dim);
    if (m.what == "stream")
        return "stream " + m.inner + (m.budget_from == "cublasxt" ? ", cuBLASXt's memory" : "");
    return "resident " + m.inner;
}

std::string plan_text(const Measurement& m) {
    if (!m.statistics)
        return "-";
    const step09::Plan& plan = m.statistics->plan;
    return std::to_string(plan.chunks.size()) + "x" + std::to_string(plan.panels.size()) + " (" +
           std::to_string(plan.chunk_rows) + "x" + std::to_string(plan.panel_cols) + ")";
}

std::string mib(std::uint64_t bytes) {
    std::ostringstream text;
    text << std::fixed << std::setprecision(0) << static_cast<double>(bytes) / (1 << 20);
    return text.str();
}

// Kernel busy time and hidden copy time over all entries of the last run, as percentages.
std::pair<double, double> overlap(const step09::GemmStatistics& statistics) {
    double span = 0, compute = 0, copy = 0, hidden = 0;
    for (const step09::EntryStatistics& entry : statistics.entries) {
        span += entry.span_ms;
        compute += entry.compute_ms;
        copy += entry.copy_ms;
        hidden += entry.hidden_copy_ms;
    }
    return {span > 0 ? 100.0 * compute / span : 0.0, copy > 0 ? 100.0 * hidden / copy : 0.0};
}

void print_header() {
    std::cout << std::left << std::setw(36) << "what" << std::setw(9) << "devices" << std::setw(22)
              << "plan" << std::right << std::setw(11) << "median ms" << std::setw(11) << "min ms"
              << std::setw(5) << "runs" << std::setw(11) << "GFLOPS" << std::setw(10) << "used MiB"
              << std::setw(10) << "plan MiB" << std::setw(9) << "kernels" << std::setw(9)
              << "hidden"
              << "  result\n";
}

void print_row(const Measurement& m, int n) {
    std::cout << std::left << std::setw(36) << what_text(m) << std::setw(9)
              << tutorial::join(m.devices, ",") << std::setw(22) << plan_text(m) << std::right
              << std::fixed << std::setprecision(2) << std::setw(11) << m.timing.median_ms
              << std::setw(11) << m.timing.min_ms << std::setw(5) << m.timing.repetitions
              << std::setprecision(1) << std::setw(11)
              << tutorial::gflops(n, n, n, m.timing.median_ms) << std::setw(10)
              << (m.what == "resident" ? "-" : mib(m.memory_used)) << std::setw(10)
              << (m.statistics ? mib(m.plan_bytes) : "-");
    if (m.statistics) {
        const auto [busy, hidden] = overlap(*m.statistics);
        std::cout << std::setw(8) << busy << "%" << std::setw(8) << hidden << "%";
    } else {
        std::cout << std::setw(9) << "-" << std::setw(9) << "-";
    }
    std::cout << "  " << (m.verified ? "verified" : "FAILED") << std::endl;
}

const char* kind_name(step09::Operation::Kind kind) {
    switch (kind) {
        case step09::Operation::Kind::copy_a:
            return "copy_a";
        case step09::Operation::Kind::copy_b:
            return "copy_b";
        case step09::Operation::Kind::kernel:
            return "kernel";
        case step09::Operation::Kind::copy_c:
            return "copy_c";
    }
    return "?";
}

// Every operation of the last run of each streamed row, one per line, for plotting.
void write_trace(const std::string& path, const std::vector<Measurement>& rows) {
    std::ofstream out(path);
    if (!out)
        throw tutorial::RuntimeFailure("cannot write " + path);
    out << "inner,budget_from,devices,entry,device,operation,chunk,panel,begin_ms,end_ms\n";
    for (const Measurement& m : rows) {
        if (!m.statistics)
            continue;
        for (const step09::EntryStatistics& entry : m.statistics->entries) {
            for (const step09::Operation& op : entry.operations) {
                out << m.inner << "," << m.budget_from << "," << tutorial::join(m.devices, " ")
                    << "," << entry.entry << "," << entry.device << "," << kind_name(op.kind) << ","
                    << op.chunk << "," << op.panel << "," << op.begin_ms << "," << op.end_ms
                    << "\n";
            }
        }
    }
}

// What the run was: the machine, the libraries and the settings, for the JSON file.
struct RunFacts {
    std::vector<std::string> gpus;
    int driver = 0;
    int runtime = 0;
    std::string vendor_blas;
    std::string host_blas;
    std::vector<int> devices;
    std::uint64_t budget = 0;  // per entry, for the "option" rows
};

void write_row_json(std::ostream& out, const Measurement& m, int n) {
    using bench::json_number;
    using bench::json_text;
    out << "    {\"measurement\": " << json_text(m.what) << ", \"inner\": " << json_text(m.inner)
        << ", \"devices\": [" << tutorial::join(m.devices, ", ") << "]";
    if (m.what == "cublasxt")
        out << ", \"block_dim\": " << m.block_dim;
    if (m.what == "stream")
        out << ", \"budget_from\": " << json_text(m.budget_from);
    out << ", \"median_ms\": " << json_number(m.timing.median_ms)
        << ", \"min_ms\": " << json_number(m.timing.min_ms)
        << ", \"repetitions\": " << m.timing.repetitions
        << ", \"gflops\": " << json_number(tutorial::gflops(n, n, n, m.timing.median_ms));
    if (m.what != "resident")
        out << ", \"device_memory_used_bytes\": " << m.memory_used;
    if (m.statistics) {
        const step09::GemmStatistics& statistics = *m.statistics;
        const step09::Plan& plan = statistics.plan;
        const auto [busy, hidden] = overlap(statistics);
        int panel_copies = 0, panels_by_kernel = 0;
        std::uint64_t bytes_in = 0;
        double setup = 0.0, teardown = 0.0, span = 0.0;
        std::vector<int> chunks;
        for (const step09::EntryStatistics& entry : statistics.entries) {
            chunks.push_back(entry.chunks);
            panel_copies += entry.panel_copies;
            panels_by_kernel += entry.panels_by_kernel;
            bytes_in += entry.bytes_to_device;
            setup = std::max(setup, entry.setup_ms);
            teardown = std::max(teardown, entry.teardown_ms);
            span = std::max(span, entry.span_ms);
        }
        out << ", \"budget_bytes\": " << plan.budget_bytes << ", \"plan_bytes\": " << m.plan_bytes
            << ", \"chunks\": " << plan.chunks.size() << ", \"panels\": " << plan.panels.size()
            << ", \"chunk_rows\": " << plan.chunk_rows << ", \"panel_cols\": " << plan.panel_cols
            << ", \"kernel_busy_percent\": " << json_number(busy)
            << ", \"copy_hidden_percent\": " << json_number(hidden) << ", \"chunks_per_entry\": ["
            << tutorial::join(chunks, ", ") << "], \"panel_copies\": " << panel_copies
            << ", \"panels_by_kernel\": " << panels_by_kernel
            << ", \"bytes_to_device\": " << bytes_in
            << ", \"device_span_ms\": " << json_number(span)
            << ", \"host_setup_ms\": " << json_number(setup)
            << ", \"host_teardown_ms\": " << json_number(teardown);
    }
    out << ", \"verified\": " << (m.verified ? "true" : "false") << "}";
}

void write_json(const Settings& settings, const RunFacts& facts,
                const std::vector<Measurement>& rows, const std::vector<Ratio>& ratios) {
    using bench::json_number;
    using bench::json_text;
    std::ofstream out(settings.json_path);
    if (!out)
        throw tutorial::RuntimeFailure("cannot write " + settings.json_path);
    out << "{\n  \"benchmark\": \"multi_gpu\",\n  \"gpus\": [";
    for (std::size_t i = 0; i < facts.gpus.size(); ++i)
        out << (i ? ", " : "") << json_text(facts.gpus[i]);
    out << "],\n  \"driver_version\": " << facts.driver
        << ",\n  \"runtime_version\": " << facts.runtime
        << ",\n  \"platform\": " << json_text(tutorial::gpu_platform())
        << ",\n  \"vendor_blas\": " << json_text(facts.vendor_blas)
        << ",\n  \"host_blas\": " << json_text(facts.host_blas)
        << ",\n  \"date\": " << json_text(bench::utc_date())
        << ",\n  \"commit\": " << json_text(settings.commit) << ",\n  \"n\": " << settings.n
        << ",\n  \"devices\": [" << tutorial::join(facts.devices, ", ")
        << "],\n  \"budget_bytes\": " << facts.budget
        << ",\n  \"panel_copy\": " << json_text(settings.panel_copy) << ",\n  \"results\": [\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
        write_row_json(out, rows[i], settings.n);
        out << (i + 1 < rows.size() ? "," : "") << "\n";
    }
    out << "  ],\n  \"ratios\": [\n";
    for (std::size_t i = 0; i < ratios.size(); ++i) {
        out << "    {\"name\": " << json_text(ratios[i].name)
            << ", \"value\": " << json_number(ratios[i].value) << "}"
            << (i + 1 < ratios.size() ? "," : "") << "\n";
    }
    out << "  ]\n}\n";
}

const Measurement* find(const std::vector<Measurement>& rows, const std::string& what,
                        const std::string& inner, const std::vector<int>& devices,
                        const std::string& budget_from = "") {
    for (const Measurement& m : rows) {
        if (m.what == what && m.inner == inner && m.devices == devices &&
            m.budget_from == budget_from)
            return &m;
    }
    return nullptr;
}

// The fastest verified cuBLASXt row on `devices`, or nullptr.
const Measurement* best_cublasxt(const std::vector<Measurement>& rows,
                                 const std::vector<int>& devices) {
    const Measurement* best = nullptr;
    for (const Measurement& m : rows) {
        if (m.what == "cublasxt" && m.devices == devices && m.verified &&
            (best == nullptr || m.timing.median_ms < best->timing.median_ms))
            best = &m;
    }
    return best;
}

// The budget per entry of --device-memory: auto (a third of A + B + C), all (nothing) or a size.
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

// The ratios of this run, as throughput ratios (> 1: the first is faster).
std::vector<Ratio> ratios_of(const std::vector<Measurement>& rows,
                             const std::vector<step09::InnerKernel>& inners,
                             const std::vector<int>& first, const std::vector<int>& devices) {
    std::vector<Ratio> ratios;
    // "x / y": the throughput of x over that of y, the time of y over that of x.
    auto ratio = [&](const std::string& name, const Measurement* x, const Measurement* y) {
        if (x && y)
            ratios.push_back({name, y->timing.median_ms / x->timing.median_ms});
    };
    const std::vector<int> all = distinct(devices);
    for (const step09::InnerKernel inner : inners) {
        const std::string name = step09::inner_kernel_name(inner);
        const Measurement* one = find(rows, "stream", name, first, "option");
        ratio("stream " + name + " on 1 device / resident " + name, one,
              find(rows, "resident", name, first));
        for (const std::vector<int>* on : {&first, &all}) {
            if (on == &all && all.size() == 1)
                continue;
            const std::vector<int>& stream_devices = on == &first ? first : devices;
            const std::string where =
                on == &first ? "1 device" : "devices " + tutorial::join(*on, ",");
            const Measurement* best = best_cublasxt(rows, *on);
            if (best == nullptr)
                continue;
            const std::string versus =
                " / best cuBLASXt (block dim " + std::to_string(best->block_dim) + "), " + where;
            ratio("stream " + name + versus, find(rows, "stream", name, stream_devices, "option"),
                  best);
            ratio("stream " + name + " at cuBLASXt's memory" + versus,
                  find(rows, "stream", name, stream_devices, "cublasxt"), best);
        }
        if (devices.size() > 1) {
            ratio("stream " + name + " on " + tutorial::join(devices, ",") + " / on 1 device",
                  find(rows, "stream", name, devices, "option"), one);
        }
    }
    return ratios;
}

int run(const Settings& settings) {
    // Five n x n matrices live at once (A and B twice, pinned C) and a sixth while a result is
    // verified: asked before anything is allocated.
    const std::uint64_t needed = 6ull * settings.n * settings.n * sizeof(float);
    if (const auto shortfall = step09::host_memory_shortfall(
            needed, step09::available_host_memory(),
            "six " + std::to_string(settings.n) + " x " + std::to_string(settings.n) +
                " float matrices (A and B twice, C twice)"))
        throw tutorial::RuntimeFailure(*shortfall);
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
    const std::vector<int> block_dims =
        settings.block_dims.empty()
            ? default_block_dims(settings.n)
            : tutorial::parse_number_list("--block-dims", settings.block_dims, 1, 65536);
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

    std::cout << "GPUs:";
    for (const std::string& gpu : facts.gpus)
        std::cout << "  " << gpu;
    std::cout << "\ndriver " << facts.driver << ", runtime " << facts.runtime
              << "\nvendor BLAS: " << facts.vendor_blas << "\nhost BLAS: " << facts.host_blas
              << "\nn = " << n << ", devices " << tutorial::join(devices, ",")
              << ", budget per entry " << tutorial::format_bytes(plan_one.budget_bytes)
              << (settings.device_memory == "auto" ? " (auto: a third of A + B + C)" : "")
              << "\none device: " << step09::describe_plan(plan_one)
              << (plan_all ? "all devices: " + step09::describe_plan(*plan_all) : "")
              << "cuBLASXt block dims: " << tutorial::join(block_dims, ", ")
              << "\ntiming: 1 warm-up, then the median of " << settings.iterations
              << " runs; resident: events, stream and cuBLASXt: host wall time from host "
                 "matrices to host result\nused MiB: the largest fall of a device's free memory "
                 "during the runs (sampled every ms); plan MiB: the step's buffers on a device\n\n";
    print_header();

    Inputs inputs(n, settings.seed);
    std::vector<Measurement> rows;
    bool all_verified = true;
    auto record = [&](Measurement m) {
        print_row(m, n);
        all_verified = all_verified && m.verified;
        rows.push_back(std::move(m));
    };
    for (const step09::InnerKernel inner : inners) {
        record(measure_resident(inner, devices.front(), inputs, settings.iterations));
        record(measure_stream(plan_one, stream_options(inner, first, settings, budget), "option",
                              settings, inputs));
        if (plan_all) {
            record(measure_stream(*plan_all, stream_options(inner, devices, settings, budget),
                                  "option", settings, inputs));
        }
    }
    for (const int block_dim : block_dims) {
        if (!have_cublasxt)
            break;
        record(measure_cublasxt(first, block_dim, settings, inputs));
        if (all.size() > 1)
            record(measure_cublasxt(all, block_dim, settings, inputs));
    }

    // The step again, within the memory that the fastest cuBLASXt configuration used per device.
    for (const std::vector<int>* on : {&first, &all}) {
        const Measurement* best = best_cublasxt(rows, *on);
        if (best == nullptr || (on == &all && all.size() == 1))
            continue;
        const std::vector<int>& stream_devices = on == &first ? first : devices;
        std::uint64_t most_entries = 0;
        for (const int device : stream_devices) {
            most_entries = std::max<std::uint64_t>(
                most_entries, std::count(stream_devices.begin(), stream_devices.end(), device));
        }
        const std::uint64_t equal = best->memory_used / most_entries;
        step09::Plan plan;
        try {
            plan = step09::plan_for(
                n, n, n, stream_options(kPlanningKernel, stream_devices, settings, equal));
        } catch (const std::invalid_argument& error) {
            std::cout << "the step within " << tutorial::format_bytes(equal)
                      << " per entry (cuBLASXt's memory): not run, " << error.what() << "\n";
            continue;
        }
        std::cout << "within cuBLASXt's memory on " << tutorial::join(stream_devices, ",") << ": "
                  << step09::describe_plan(plan);
        for (const step09::InnerKernel inner : inners) {
            record(measure_stream(plan, stream_options(inner, stream_devices, settings, equal),
                                  "cublasxt", settings, inputs));
        }
    }

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
        write_json(settings, facts, rows, ratios);
        std::cout << "\nwrote " << settings.json_path << "\n";
    }
    return all_verified ? tutorial::kExitVerified : tutorial::kExitVerificationFailed;
}

}  // namespace

int main(int argc, char** argv) {
    Settings settings;
    CLI::App app{
        "Step 09 against its inner kernel on device-resident matrices and against cuBLASXt at "
        "every block dim of a sweep, from pinned host memory, in one run, with the device memory "
        "each used.",
        "multi_gpu_benchmark"};
    app.add_option("--n", settings.n, "m = n = k (default 16384)")->check(CLI::Range(1, 46340));
    app.add_option("-d,--devices", settings.devices,
                   "comma-separated device ids, an id may repeat (default: all devices)");
    app.add_option("--device-memory", settings.device_memory,
                   "budget per device entry: auto (a third of A + B + C), "
                   "all, or a size such as 2GiB");
    app.add_option("--inner", settings.inner,
                   "comma-separated inner kernels among " + step09::inner_kernel_choices() +
                       " (default " + settings.inner + ")");
    app.add_option("--block-dims", settings.block_dims,
                   "comma-separated cuBLASXt block dims (default 1024, 2048, 4096, 8192, n / 2 "
                   "and n, none above n)");
    app.add_option("-i,--iterations", settings.iterations, "timed runs after one warm-up")
        ->check(CLI::Range(1, 1000));
    app.add_option("--chunk-rows", settings.chunk_rows, "rows per chunk, 0 = from the budget")
        ->check(CLI::Range(0, 65536));
    app.add_option("--panel-cols", settings.panel_cols, "columns per panel, 0 = from the budget")
        ->check(CLI::Range(0, 65536));
    app.add_option("--panel-copy", settings.panel_copy,
                   "how panels of B reach the devices: " + step09::panel_copy_choices() +
                       " (default " + settings.panel_copy + ")");
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
    try {
        return run(settings);
    } catch (const tutorial::UsageError& error) {
        std::cerr << "multi_gpu_benchmark: " << error.what() << "\n";
        return tutorial::kExitBadUsage;
    } catch (const std::invalid_argument& error) {
        std::cerr << "multi_gpu_benchmark: " << error.what() << "\n";
        return tutorial::kExitBadUsage;
    } catch (const tutorial::RuntimeFailure& error) {
        std::cerr << "multi_gpu_benchmark: " << error.what() << "\n";
        return tutorial::kExitRuntimeFailure;
    }
}
