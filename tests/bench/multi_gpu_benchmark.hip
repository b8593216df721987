/// \file
/// \brief `multi_gpu_benchmark`: step 07 against its own inner kernel and against cuBLASXt, in one
/// run, on the same inputs.
///
/// For an n x n x n multiply it measures, for each inner kernel asked for:
///  - "resident": the inner kernel alone on matrices already in device 0's memory (events);
///  - "stream, 1 device": step07::gemm from pinned host memory on the first listed device, with a
///    budget of a third of A + B + C by default, so the multiply runs out of core in at least four
///    chunks at n = 16384 (host wall time, transfers included);
///  - "stream, all devices": the same on every listed device (when more than one is listed);
/// and then cublasXtSgemm from the same pinned host memory on the first device and on all listed
/// devices. Each is one warm-up, then the median of -i repetitions, and each result is verified
/// (sampled rows) before it counts. The ratios come from this one run. Results go to stdout as a
/// table and, with --json, to a file; with --trace, every copy and kernel of the last run of each
/// streamed row goes to a CSV file.
#include <hip/hip_runtime.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "common/device.hpp"
#include "common/device_buffer.hpp"
#include "common/errors.hpp"
#include "common/gpu_timer.hpp"
#include "common/hip_handles.hpp"
#include "common/matrix.hpp"
#include "common/report.hpp"
#include "common/vendor_blas.hpp"
#include "common/verify.hpp"
#include "lds_float4_gemm.hpp"
#include "multi_gpu_gemm.hpp"
#include "tests/bench/cublasxt_sgemm.hpp"
#include "tiled_gemm.hpp"

namespace {

struct Settings {
    int n = 16384;
    std::string devices;                 // comma-separated ids; empty: all devices
    std::string device_memory = "auto";  // auto: (A + B + C) / 3, out of core
    std::string inner = "step05,vendor";
    int iterations = 5;
    int chunk_rows = 0;
    int panel_cols = 0;
    std::string json_path;
    std::string trace_path;
    std::string commit = "unknown";
    std::uint64_t seed = 42;
};

// One measured row of the table.
struct Measurement {
    std::string what;   // "resident", "stream" or "cublasxt"
    std::string inner;  // the inner kernel, or the library
    std::vector<int> devices;
    tutorial::TimingSummary timing;
    bool verified = false;
    std::optional<step07::GemmStatistics> statistics;  // for the stream rows
};

struct Ratio {
    std::string name;
    double value;
    std::string target;
};

std::vector<int> split_ids(const std::string& text) {
    std::vector<int> ids;
    std::stringstream list(text);
    std::string item;
    while (std::getline(list, item, ',')) {
        try {
            std::size_t used = 0;
            ids.push_back(std::stoi(item, &used));
            if (used != item.size() || ids.back() < 0)
                throw std::invalid_argument(item);
        } catch (const std::exception&) {
            throw tutorial::UsageError("--devices: '" + text + "' is not a list of device ids");
        }
    }
    return ids;
}

std::string join(const std::vector<int>& ids, char separator = ',') {
    std::string text;
    for (std::size_t i = 0; i < ids.size(); ++i)
        text += (i ? std::string(1, separator) : "") + std::to_string(ids[i]);
    return text;
}

std::string today() {
    const std::time_t now = std::time(nullptr);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d", std::gmtime(&now));
    return text;
}

std::string json_escape(const std::string& text) {
    std::string out;
    for (const char c : text) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out;
}

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
Measurement measure_resident(step07::InnerKernel inner, int device, Inputs& inputs,
                             int iterations) {
    tutorial::select_device(device);
    const int n = inputs.n;
    std::unique_ptr<tutorial::VendorBlas> vendor;
    if (inner == step07::InnerKernel::vendor) {
        std::string why_not;
        vendor = tutorial::make_vendor_blas(why_not);
    }
    tutorial::DeviceBuffer<float> a(inputs.a.size()), b(inputs.b.size()), c(inputs.a.size());
    a.upload(inputs.a);
    b.upload(inputs.b);
    const tutorial::Stream stream;
    HIP_CHECK(hipMemsetAsync(c.get(), 0xFF, c.bytes(), stream.get()));
    auto run = [&] {
        switch (inner) {
            case step07::InnerKernel::step05:
                step05::gemm(a.get(), b.get(), c.get(), n, n, n, stream.get(),
                             step05::Variant::reg8x8_db);
                break;
            case step07::InnerKernel::step04:
                step04::gemm<float>(a.get(), b.get(), c.get(), n, n, n, stream.get(), 32);
                break;
            case step07::InnerKernel::vendor:
                vendor->sgemm(a.get(), b.get(), c.get(), n, n, n, stream.get());
                break;
        }
    };
    Measurement result{"resident", step07::inner_kernel_name(inner), {device}, {}, false, {}};
    result.timing = tutorial::time_with_events(stream.get(), 1, iterations, run);
    stream.synchronize();
    HIP_CHECK(hipMemcpy(inputs.host_c.get(), c.get(), c.bytes(), hipMemcpyDeviceToHost));
    result.verified = inputs.verify_c("resident " + result.inner);
    return result;
}

// Host wall time of `multiply` (which leaves C in inputs.host_c): one warm-up, then the median.
void time_from_host(Measurement& result, Inputs& inputs, int iterations,
                    const std::function<void()>& multiply) {
    inputs.poison_c();
    result.timing = tutorial::time_on_host(1, iterations, multiply);
    result.verified =
        inputs.verify_c(result.what + " " + result.inner + " on " + join(result.devices));
}

Measurement measure_stream(step07::InnerKernel inner, const std::vector<int>& devices,
                           const Settings& settings, std::uint64_t budget, Inputs& inputs) {
    step07::MultiGpuOptions options;
    options.devices = devices;
    options.device_memory_bytes = budget;
    options.inner = inner;
    options.chunk_rows = settings.chunk_rows;
    options.panel_cols = settings.panel_cols;
    options.host_memory = step07::HostMemory::pinned;
    Measurement result{"stream", step07::inner_kernel_name(inner), devices, {}, false, {}};
    const int n = inputs.n;
    time_from_host(result, inputs, settings.iterations, [&] {
        result.statistics = step07::gemm(inputs.host_a.get(), inputs.host_b.get(),
                                         inputs.host_c.get(), n, n, n, options);
    });
    return result;
}

Measurement measure_cublasxt(bench::HostBlas& blas, const std::vector<int>& devices,
                             const Settings& settings, Inputs& inputs) {
    Measurement result{"cublasxt", "cuBLASXt", devices, {}, false, {}};
    const int n = inputs.n;
    time_from_host(result, inputs, settings.iterations, [&] {
        blas.sgemm(inputs.host_a.get(), inputs.host_b.get(), inputs.host_c.get(), n, n, n);
    });
    return result;
}

std::string plan_text(const Measurement& m) {
    if (!m.statistics)
        return "-";
    const step07::Plan& plan = m.statistics->plan;
    return std::to_string(plan.chunks.size()) + "x" + std::to_string(plan.panels.size()) + " (" +
           std::to_string(plan.chunk_rows) + "x" + std::to_string(plan.panel_cols) + ")";
}

// Kernel busy time and hidden copy time over all entries of the last run, as percentages.
std::pair<double, double> overlap(const step07::GemmStatistics& statistics) {
    double span = 0, compute = 0, copy = 0, hidden = 0;
    for (const step07::EntryStatistics& entry : statistics.entries) {
        span += entry.span_ms;
        compute += entry.compute_ms;
        copy += entry.copy_ms;
        hidden += entry.hidden_copy_ms;
    }
    return {span > 0 ? 100.0 * compute / span : 0.0, copy > 0 ? 100.0 * hidden / copy : 0.0};
}

void print_row(const Measurement& m, int n) {
    std::cout << std::left << std::setw(10) << m.what << std::setw(10) << m.inner << std::setw(9)
              << join(m.devices) << std::setw(22) << plan_text(m) << std::right << std::fixed
              << std::setprecision(2) << std::setw(11) << m.timing.median_ms << std::setw(11)
              << m.timing.min_ms << std::setw(5) << m.timing.repetitions << std::setprecision(1)
              << std::setw(11) << tutorial::gflops(n, n, n, m.timing.median_ms);
    if (m.statistics) {
        const auto [busy, hidden] = overlap(*m.statistics);
        std::cout << std::setw(8) << busy << "%" << std::setw(8) << hidden << "%";
    } else {
        std::cout << std::setw(9) << "-" << std::setw(9) << "-";
    }
    std::cout << "  " << (m.verified ? "verified" : "FAILED") << std::endl;
}

const char* kind_name(step07::Operation::Kind kind) {
    switch (kind) {
        case step07::Operation::Kind::copy_a:
            return "copy_a";
        case step07::Operation::Kind::copy_b:
            return "copy_b";
        case step07::Operation::Kind::kernel:
            return "kernel";
        case step07::Operation::Kind::copy_c:
            return "copy_c";
    }
    return "?";
}

// Every operation of the last run of each streamed row, one per line, for plotting.
void write_trace(const std::string& path, const std::vector<Measurement>& rows) {
    std::ofstream out(path);
    if (!out)
        throw tutorial::RuntimeFailure("cannot write " + path);
    out << "inner,devices,entry,device,operation,chunk,panel,begin_ms,end_ms\n";
    for (const Measurement& m : rows) {
        if (!m.statistics)
            continue;
        for (const step07::EntryStatistics& entry : m.statistics->entries) {
            for (const step07::Operation& op : entry.operations) {
                out << m.inner << "," << join(m.devices, ' ') << "," << entry.entry << ","
                    << entry.device << "," << kind_name(op.kind) << "," << op.chunk << ","
                    << op.panel << "," << op.begin_ms << "," << op.end_ms << "\n";
            }
        }
    }
}

void write_json(const Settings& settings, const std::vector<std::string>& gpus, int driver,
                int runtime, const std::string& vendor, const std::string& host_blas,
                const std::vector<int>& devices, std::uint64_t budget,
                const std::vector<Measurement>& rows, const std::vector<Ratio>& ratios) {
    std::ofstream out(settings.json_path);
    if (!out)
        throw tutorial::RuntimeFailure("cannot write " + settings.json_path);
    out << "{\n  \"benchmark\": \"multi_gpu\",\n  \"gpus\": [";
    for (std::size_t i = 0; i < gpus.size(); ++i)
        out << (i ? ", " : "") << "\"" << json_escape(gpus[i]) << "\"";
    out << "],\n  \"driver_version\": " << driver << ",\n  \"runtime_version\": " << runtime
        << ",\n  \"platform\": \"" << json_escape(tutorial::gpu_platform())
        << "\",\n  \"vendor_blas\": \"" << json_escape(vendor) << "\",\n  \"host_blas\": \""
        << json_escape(host_blas) << "\",\n  \"date\": \"" << today() << "\",\n  \"commit\": \""
        << json_escape(settings.commit) << "\",\n  \"n\": " << settings.n << ",\n  \"devices\": ["
        << join(devices) << "],\n  \"budget_bytes\": " << budget << ",\n  \"results\": [\n";
    out << std::setprecision(6);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Measurement& m = rows[i];
        out << "    {\"measurement\": \"" << m.what << "\", \"inner\": \"" << json_escape(m.inner)
            << "\", \"devices\": [" << join(m.devices) << "], \"median_ms\": " << m.timing.median_ms
            << ", \"min_ms\": " << m.timing.min_ms << ", \"repetitions\": " << m.timing.repetitions
            << ", \"gflops\": "
            << tutorial::gflops(settings.n, settings.n, settings.n, m.timing.median_ms);
        if (m.statistics) {
            const step07::Plan& plan = m.statistics->plan;
            const auto [busy, hidden] = overlap(*m.statistics);
            out << ", \"chunks\": " << plan.chunks.size() << ", \"panels\": " << plan.panels.size()
                << ", \"chunk_rows\": " << plan.chunk_rows
                << ", \"panel_cols\": " << plan.panel_cols << ", \"kernel_busy_percent\": " << busy
                << ", \"copy_hidden_percent\": " << hidden << ", \"chunks_per_entry\": [";
            int panel_copies = 0;
            std::uint64_t bytes_in = 0;
            double setup = 0.0, teardown = 0.0, span = 0.0;
            for (std::size_t e = 0; e < m.statistics->entries.size(); ++e) {
                out << (e ? ", " : "") << m.statistics->entries[e].chunks;
                panel_copies += m.statistics->entries[e].panel_copies;
                bytes_in += m.statistics->entries[e].bytes_to_device;
                setup = std::max(setup, m.statistics->entries[e].setup_ms);
                teardown = std::max(teardown, m.statistics->entries[e].teardown_ms);
                span = std::max(span, m.statistics->entries[e].span_ms);
            }
            out << "], \"panel_copies\": " << panel_copies << ", \"bytes_to_device\": " << bytes_in;
            out << ", \"device_span_ms\": " << span << ", \"host_setup_ms\": " << setup
                << ", \"host_teardown_ms\": " << teardown;
        }
        out << ", \"verified\": " << (m.verified ? "true" : "false") << "}"
            << (i + 1 < rows.size() ? "," : "") << "\n";
    }
    out << "  ],\n  \"ratios\": [\n";
    for (std::size_t i = 0; i < ratios.size(); ++i) {
        out << "    {\"name\": \"" << json_escape(ratios[i].name)
            << "\", \"value\": " << ratios[i].value << ", \"target\": \""
            << json_escape(ratios[i].target) << "\"}" << (i + 1 < ratios.size() ? "," : "") << "\n";
    }
    out << "  ]\n}\n";
}

const Measurement* find(const std::vector<Measurement>& rows, const std::string& what,
                        const std::string& inner, const std::vector<int>& devices) {
    for (const Measurement& m : rows) {
        if (m.what == what && m.inner == inner && m.devices == devices)
            return &m;
    }
    return nullptr;
}

int run(const Settings& settings) {
    if (const auto reason = tutorial::gpu_unavailable_reason())
        throw tutorial::RuntimeFailure(*reason);
    const int count = tutorial::device_count();
    std::vector<int> devices = split_ids(settings.devices);
    if (devices.empty()) {
        for (int id = 0; id < count; ++id)
            devices.push_back(id);
    }
    for (const int id : devices) {
        if (id >= count) {
            throw tutorial::UsageError("--devices: there is no device " + std::to_string(id) +
                                       "; this machine has " + std::to_string(count));
        }
    }
    std::vector<int> distinct = devices;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    const std::vector<int> first{devices.front()};

    const int n = settings.n;
    const std::uint64_t matrix_bytes = static_cast<std::uint64_t>(n) * n * sizeof(float);
    std::uint64_t budget = 0;  // "all": each call shares out the free memory itself
    if (settings.device_memory == "auto") {
        budget = matrix_bytes;  // a third of A + B + C
    } else if (settings.device_memory != "all") {
        try {
            budget = step07::parse_byte_size(settings.device_memory);
        } catch (const std::invalid_argument& error) {
            throw tutorial::UsageError(std::string("--device-memory: ") + error.what());
        }
    }

    std::vector<step07::InnerKernel> inners;
    std::stringstream list(settings.inner);
    std::string item;
    while (std::getline(list, item, ',')) {
        step07::InnerKernel inner;
        try {
            inner = step07::parse_inner_kernel(item);
        } catch (const std::invalid_argument& error) {
            throw tutorial::UsageError(std::string("--inner: ") + error.what());
        }
        tutorial::select_device(devices.front());
        if (const auto why_not = step07::inner_kernel_unavailable(inner)) {
            std::cout << "inner kernel " << item << " skipped: " << *why_not << "\n";
            continue;
        }
        inners.push_back(inner);
    }

    std::vector<std::string> gpus;
    for (const int id : distinct)
        gpus.push_back(std::to_string(id) + ": " + tutorial::select_device(id).name);
    int driver = 0, runtime = 0;
    HIP_CHECK(hipDriverGetVersion(&driver));
    HIP_CHECK(hipRuntimeGetVersion(&runtime));
    tutorial::select_device(devices.front());
    std::string why_no_vendor, why_no_host_blas;
    const auto vendor = tutorial::make_vendor_blas(why_no_vendor);
    const std::string vendor_name = vendor ? vendor->name() : "none (" + why_no_vendor + ")";
    auto xt_first = bench::make_cublasxt(first, why_no_host_blas);
    std::unique_ptr<bench::HostBlas> xt_all;
    if (xt_first && distinct.size() > 1)
        xt_all = bench::make_cublasxt(distinct, why_no_host_blas);
    const std::string host_blas_name =
        xt_first ? (xt_all ? xt_all->name() : xt_first->name()) : "none (" + why_no_host_blas + ")";

    step07::MultiGpuOptions probe;
    probe.devices = first;
    probe.device_memory_bytes = budget;
    probe.chunk_rows = settings.chunk_rows;
    probe.panel_cols = settings.panel_cols;
    const step07::Plan plan = step07::plan_for(n, n, n, probe);
    const std::uint64_t resolved_budget = plan.budget_bytes;

    std::cout << "GPUs:";
    for (const std::string& gpu : gpus)
        std::cout << "  " << gpu;
    std::cout << "\ndriver " << driver << ", runtime " << runtime
              << "\nvendor BLAS: " << vendor_name << "\nhost BLAS: " << host_blas_name
              << "\nn = " << n << ", devices " << join(devices) << ", budget per entry "
              << tutorial::format_bytes(resolved_budget)
              << (settings.device_memory == "auto" ? " (auto: a third of A + B + C)" : "")
              << "\none device: " << step07::describe_plan(plan)
              << "timing: 1 warm-up, then the median of " << settings.iterations
              << " runs; resident: events, stream and cublasxt: host wall time from host "
                 "matrices to host result\n\n";
    if (plan.chunks.size() < 4)
        std::cout << "note: this budget gives " << plan.chunks.size()
                  << " chunks on one device, fewer than the 4 the target asks for\n\n";
    std::cout << "what      inner     devices  plan                   median ms     min ms runs "
                 "    GFLOPS  kernels  hidden  result\n";

    Inputs inputs(n, settings.seed);
    std::vector<Measurement> rows;
    bool all_verified = true;
    auto record = [&](Measurement m) {
        print_row(m, n);
        all_verified = all_verified && m.verified;
        rows.push_back(std::move(m));
    };
    for (const step07::InnerKernel inner : inners) {
        record(measure_resident(inner, devices.front(), inputs, settings.iterations));
        record(measure_stream(inner, first, settings, budget, inputs));
        if (devices.size() > 1)
            record(measure_stream(inner, devices, settings, budget, inputs));
    }
    if (xt_first) {
        record(measure_cublasxt(*xt_first, first, settings, inputs));
        if (xt_all)
            record(measure_cublasxt(*xt_all, distinct, settings, inputs));
    }

    // The ratios, each from this one run (throughput ratios: > 1 means the first is faster).
    std::vector<Ratio> ratios;
    const Measurement* xt_one = find(rows, "cublasxt", "cuBLASXt", first);
    const Measurement* xt_many = find(rows, "cublasxt", "cuBLASXt", distinct);
    for (const step07::InnerKernel inner : inners) {
        const std::string name = step07::inner_kernel_name(inner);
        const Measurement* resident = find(rows, "resident", name, first);
        const Measurement* one = find(rows, "stream", name, first);
        const Measurement* many =
            devices.size() > 1 ? find(rows, "stream", name, devices) : nullptr;
        if (resident && one) {
            ratios.push_back({"stream " + name + " on 1 device / resident " + name,
                              resident->timing.median_ms / one->timing.median_ms, ">= 0.90"});
        }
        if (one && many) {
            ratios.push_back({"stream " + name + " on " + join(devices) + " / on 1 device",
                              one->timing.median_ms / many->timing.median_ms,
                              ">= 1.85 for two devices"});
        }
        if (one && xt_one) {
            ratios.push_back({"stream " + name + " / cuBLASXt, 1 device",
                              xt_one->timing.median_ms / one->timing.median_ms,
                              name == "vendor" ? ">= 1.00" : "stated"});
        }
        if (many && xt_many) {
            ratios.push_back({"stream " + name + " / cuBLASXt, devices " + join(distinct),
                              xt_many->timing.median_ms / many->timing.median_ms,
                              name == "vendor" ? ">= 1.00" : "stated"});
        }
    }
    std::cout << "\nratios (throughput, from this run):\n";
    for (const Ratio& ratio : ratios) {
        std::cout << "  " << std::left << std::setw(52) << ratio.name << std::right
                  << std::setprecision(3) << std::setw(7) << ratio.value << "   target "
                  << ratio.target << "\n";
    }
    if (!settings.trace_path.empty()) {
        write_trace(settings.trace_path, rows);
        std::cout << "\nwrote " << settings.trace_path << "\n";
    }
    if (!settings.json_path.empty()) {
        write_json(settings, gpus, driver, runtime, vendor_name, host_blas_name, devices,
                   resolved_budget, rows, ratios);
        std::cout << "\nwrote " << settings.json_path << "\n";
    }
    return all_verified ? tutorial::kExitVerified : tutorial::kExitVerificationFailed;
}

}  // namespace

int main(int argc, char** argv) {
    Settings settings;
    CLI::App app{
        "Step 07 against its inner kernel on device-resident matrices and against "
        "cuBLASXt, from pinned host memory, in one run.",
        "multi_gpu_benchmark"};
    app.add_option("--n", settings.n, "m = n = k (default 16384)")->check(CLI::Range(1, 46340));
    app.add_option("-d,--devices", settings.devices,
                   "comma-separated device ids, an id may repeat (default: all devices)");
    app.add_option("--device-memory", settings.device_memory,
                   "budget per device entry: auto (a third of A + B + C), "
                   "all, or a size such as 2GiB");
    app.add_option("--inner", settings.inner,
                   "comma-separated inner kernels among step05, step04, vendor "
                   "(default step05,vendor)");
    app.add_option("-i,--iterations", settings.iterations, "timed runs after one warm-up")
        ->check(CLI::Range(1, 1000));
    app.add_option("--chunk-rows", settings.chunk_rows, "rows per chunk, 0 = from the budget")
        ->check(CLI::Range(0, 65536));
    app.add_option("--panel-cols", settings.panel_cols, "columns per panel, 0 = from the budget")
        ->check(CLI::Range(0, 65536));
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
