/// \file
/// \brief `gemm_benchmark`: times every step's kernel and the vendor BLAS on the same inputs.
///
/// For each shape, A and B are filled from the seed and uploaded once; every kernel then runs on
/// those inputs. Each kernel is first run once into a C poisoned with NaNs and checked against the
/// double reference: only a verified kernel is timed and counted. Timing is a few warm-up runs,
/// then event-timed repetitions (on the host clock for the CPU step), and the median counts. The
/// vendor BLAS runs on the same device buffers, so every ratio compares like with like. A kernel
/// whose last measurement predicts more than --max-seconds-per-run for the next shape is skipped
/// there, and the skip is recorded. Results go to stdout as a table and, with --json, to a file
/// that docs/results/make_results.py turns into the tables and the chart of the docs.
#include <hip/hip_runtime.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "bench/kernels.hpp"
#include "bench/results_json.hpp"
#include "bench/shapes.hpp"
#include "common/command_line.hpp"
#include "common/device.hpp"
#include "common/device_buffer.hpp"
#include "common/errors.hpp"
#include "common/gpu_gemm_runner.hpp"
#include "common/gpu_timer.hpp"
#include "common/hip_handles.hpp"
#include "common/program.hpp"
#include "common/report.hpp"
#include "common/vendor_blas.hpp"
#include "common/verify.hpp"

namespace {

using bench::Shape;
using bench::shape_text;

struct Settings {
    std::vector<int> sizes{256, 512, 1024, 2048, 4096, 8192};
    // Not square, and not a multiple of any tile: 1000 x 3000 x 500 keeps step 05 on its float4
    // path, 4097 x 1023 x 2049 forces its scalar path, 3000 x 2000 x 1000 is step 04's example.
    std::vector<std::string> shapes{"1000x3000x500", "3000x2000x1000", "4097x1023x2049"};
    std::string suite;  // a named list of shapes (bench/shapes.cpp), after sizes and shapes
    int iterations = 10;
    int warmup = 3;
    double seconds_per_kernel = 10.0;
    double max_seconds_per_run = 10.0;
    std::vector<std::string> filters;  // a kernel runs when its 'step variant' contains any
    std::string json_path;
    std::string commit = "unknown";
    int device = 0;
    std::uint64_t seed = 42;
    std::string command;  // the command line, recorded in the JSON
};

struct Result {
    bench::Kernel kernel;
    Shape shape;
    tutorial::TimingSummary timing;
    bool verified;
    double vendor_ms;  // NaN without a vendor BLAS
};

struct Skip {
    bench::Kernel kernel;
    Shape shape;
    double predicted_ms;
};

double operations(const Shape& s) {
    return 2.0 * static_cast<double>(s.m) * static_cast<double>(s.n) * static_cast<double>(s.k);
}

// The driver as its vendor names it: on NVIDIA the kernel module's version ("580.159.04") from
// /proc/driver/nvidia/version; elsewhere the HIP driver version number.
std::string driver_description(int hip_driver_version) {
    std::ifstream nvidia("/proc/driver/nvidia/version");
    std::string line;
    if (nvidia && std::getline(nvidia, line)) {
        std::istringstream words(line);
        std::string word;
        while (words >> word) {
            const bool version = word.find('.') != std::string::npos &&
                                 std::all_of(word.begin(), word.end(), [](char c) {
                                     return (c >= '0' && c <= '9') || c == '.';
                                 });
            if (version)
                return word;
        }
    }
    return "HIP driver version " + std::to_string(hip_driver_version);
}

std::string host_cpu_name() {
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line)) {
        if (line.rfind("model name", 0) == 0) {
            const std::size_t colon = line.find(':');
            const std::size_t name = line.find_first_not_of(" \t", colon + 1);
            if (colon != std::string::npos && name != std::string::npos)
                return line.substr(name);
        }
    }
    return "unknown";
}

// Repetitions that fit the per-kernel budget, from one run of `probe_ms`: at least 3.
int affordable_repetitions(const Settings& settings, double probe_ms) {
    const int affordable =
        static_cast<int>(settings.seconds_per_kernel * 1000.0 / std::max(probe_ms, 1e-3));
    return std::clamp(affordable, 3, settings.iterations);
}

tutorial::VerifyReport report_verification(const bench::Kernel& kernel, const Shape& shape,
                                           const tutorial::VerifyReport& report) {
    if (!report.passed) {
        std::cerr << kernel.step << " " << kernel.variant << " at " << shape_text(shape) << ": "
                  << report.summary() << "\n";
    }
    return report;
}

// A GPU kernel: one run into a C poisoned with NaNs (all bits set) is verified first; only a
// verified kernel is timed. That run, timed with events, also sets the number of repetitions.
Result measure_on_gpu(const bench::Kernel& kernel, const Settings& settings,
                      const tutorial::Matrix<float>& a, const tutorial::Matrix<float>& b,
                      const tutorial::GemmReference<float>& reference,
                      const tutorial::DeviceBuffer<float>& device_a,
                      const tutorial::DeviceBuffer<float>& device_b,
                      tutorial::DeviceBuffer<float>& device_c, const tutorial::Stream& stream) {
    const Shape shape{a.rows(), b.cols(), a.cols()};
    auto run = [&] {
        kernel.launch(device_a.get(), device_b.get(), device_c.get(), shape.m, shape.n, shape.k,
                      stream.get());
    };
    HIP_CHECK(hipMemsetAsync(device_c.get(), 0xFF, device_c.bytes(), stream.get()));
    const tutorial::TimingSummary probe = tutorial::time_with_events(stream.get(), 0, 1, run);
    tutorial::Matrix<float> c(shape.m, shape.n);
    device_c.download(c);
    const bool verified = report_verification(kernel, shape, reference.check(c)).passed;
    Result result{kernel, shape, probe, verified, std::numeric_limits<double>::quiet_NaN()};
    if (!verified)
        return result;
    // A kernel that takes over a second has been warmed up by the verified run already.
    const int warmup = probe.median_ms > 1000.0 ? 0 : settings.warmup;
    result.timing = tutorial::time_with_events(
        stream.get(), warmup, affordable_repetitions(settings, probe.median_ms), run);
    return result;
}

// The CPU step: the same order of verification and timing, on the host clock.
Result measure_on_cpu(const bench::Kernel& kernel, const Settings& settings,
                      const tutorial::Matrix<float>& a, const tutorial::Matrix<float>& b,
                      const tutorial::GemmReference<float>& reference) {
    const Shape shape{a.rows(), b.cols(), a.cols()};
    tutorial::Matrix<float> c(shape.m, shape.n);
    std::fill(c.data(), c.data() + c.size(), std::numeric_limits<float>::quiet_NaN());
    auto run = [&] { kernel.host(a.data(), b.data(), c.data(), shape.m, shape.n, shape.k); };
    const tutorial::TimingSummary probe = tutorial::time_on_host(0, 1, run);
    const bool verified = report_verification(kernel, shape, reference.check(c)).passed;
    Result result{kernel, shape, probe, verified, std::numeric_limits<double>::quiet_NaN()};
    if (!verified)
        return result;
    const int warmup = probe.median_ms > 1000.0 ? 0 : settings.warmup;
    result.timing =
        tutorial::time_on_host(warmup, affordable_repetitions(settings, probe.median_ms), run);
    return result;
}

void print_row(const Result& r) {
    const double gflops = tutorial::gflops(r.shape.m, r.shape.n, r.shape.k, r.timing.median_ms);
    std::cout << std::left << std::setw(6) << r.kernel.step << std::setw(18) << r.kernel.variant
              << std::right << std::setw(6) << r.shape.m << std::setw(6) << r.shape.n
              << std::setw(6) << r.shape.k;
    if (!r.verified) {
        std::cout << "  FAILED verification, not timed" << std::endl;
        return;
    }
    std::cout << std::fixed << std::setprecision(4) << std::setw(12) << r.timing.median_ms
              << std::setw(12) << r.timing.min_ms << std::setw(5) << r.timing.repetitions
              << std::setprecision(1) << std::setw(11) << gflops;
    if (std::isnan(r.vendor_ms)) {
        std::cout << std::setw(10) << "-";
    } else {
        std::cout << std::setw(9) << 100.0 * r.vendor_ms / r.timing.median_ms << "%";
    }
    std::cout << "  verified" << std::endl;
}

void print_skip(const Skip& s) {
    std::cout << std::left << std::setw(6) << s.kernel.step << std::setw(18) << s.kernel.variant
              << std::right << std::setw(6) << s.shape.m << std::setw(6) << s.shape.n
              << std::setw(6) << s.shape.k << "  skipped: about " << std::fixed
              << std::setprecision(1) << s.predicted_ms / 1000.0 << " s per run predicted"
              << std::endl;
}

void write_json(const Settings& settings, const bench::RunHeader& header,
                const std::vector<Result>& results, const std::vector<Skip>& skipped) {
    std::vector<bench::Measurement> measurements;
    for (const Result& r : results) {
        measurements.push_back({r.kernel.step, r.kernel.variant, r.kernel.on_cpu(), r.shape.m,
                                r.shape.n, r.shape.k, r.timing.median_ms, r.timing.min_ms,
                                r.verified ? r.timing.repetitions : 0, r.verified});
    }
    std::vector<bench::SkippedRun> skips;
    for (const Skip& s : skipped) {
        skips.push_back(
            {s.kernel.step, s.kernel.variant, s.shape.m, s.shape.n, s.shape.k, s.predicted_ms});
    }
    std::ofstream out(settings.json_path);
    if (out)
        bench::write_results_json(out, header, measurements, skips);
    out.flush();
    if (!out)
        throw tutorial::RuntimeFailure("cannot write " + settings.json_path);
}

// The sizes, the shapes and the suite's shapes, each shape once, in that order.
std::vector<Shape> shapes_to_run(const Settings& settings) {
    std::vector<Shape> shapes;
    const auto add = [&](const Shape& shape) {
        const bool seen = std::any_of(shapes.begin(), shapes.end(), [&](const Shape& s) {
            return s.m == shape.m && s.n == shape.n && s.k == shape.k;
        });
        if (!seen)
            shapes.push_back(shape);
    };
    for (const int size : settings.sizes)
        add({size, size, size});
    for (const std::string& text : settings.shapes)
        add(bench::parse_shape(text));
    if (const bench::ShapeSuite* suite = bench::find_suite(settings.suite)) {
        for (std::size_t i = 0; i < suite->count; ++i)
            add(bench::parse_shape(suite->shapes[i].shape, "--suite " + settings.suite));
    }
    return shapes;
}

int run(const Settings& settings) {
    const std::vector<Shape> shapes = shapes_to_run(settings);
    const tutorial::DeviceInfo device = tutorial::select_device(settings.device);
    bench::RunHeader header;
    header.gpu = device.name;
    header.multiprocessors = device.multiprocessors;
    int clock_khz = 0;
    HIP_CHECK(hipDeviceGetAttribute(&clock_khz, hipDeviceAttributeClockRate, device.id));
    header.clock_mhz = clock_khz / 1000.0;
    HIP_CHECK(hipDriverGetVersion(&header.driver_version));
    HIP_CHECK(hipRuntimeGetVersion(&header.runtime_version));
    header.driver = driver_description(header.driver_version);
    header.platform = tutorial::gpu_platform();
    header.host_cpu = host_cpu_name();
    header.date = bench::utc_date();
    header.commit = settings.commit;
    header.command = settings.command;
    header.warmup = settings.warmup;
    header.iterations = settings.iterations;
    header.seconds_per_kernel = settings.seconds_per_kernel;
    header.max_seconds_per_run = settings.max_seconds_per_run;
    header.seed = settings.seed;
    header.suite = bench::find_suite(settings.suite);
    std::string why_no_vendor;
    auto vendor = tutorial::make_vendor_blas(why_no_vendor);
    header.vendor_blas = vendor ? vendor->name() : "none";
    std::cout << "GPU: " << device.name << ", " << header.multiprocessors << " multiprocessors at "
              << header.clock_mhz << " MHz (driver " << header.driver << ", runtime "
              << header.runtime_version << ")\n"
              << "CPU (step 01): " << header.host_cpu << "\n"
              << "vendor BLAS: " << (vendor ? header.vendor_blas : why_no_vendor) << "\n"
              << "timing: each kernel verified first, then " << settings.warmup
              << " warm-up runs and the median of up to " << settings.iterations
              << " timed runs\n\n";
    std::cout << "step  variant                m     n     k   median ms      min ms runs     "
                 "GFLOPS  % vendor\n";

    std::vector<bench::Kernel> kernels;
    for (const bench::Kernel& kernel : bench::step_kernels()) {
        const std::string name = kernel.step + " " + kernel.variant;
        const bool wanted =
            settings.filters.empty() ||
            std::any_of(settings.filters.begin(), settings.filters.end(),
                        [&](const std::string& f) { return name.find(f) != std::string::npos; });
        if (wanted)
            kernels.push_back(kernel);
    }
    if (vendor) {
        tutorial::VendorBlas* blas = vendor.get();
        kernels.insert(
            kernels.begin(),
            bench::Kernel{"blas", "vendor",
                          [blas](const float* a, const float* b, float* c, int m, int n, int k,
                                 hipStream_t s) { blas->sgemm(a, b, c, m, n, k, s); },
                          nullptr});
    }

    std::vector<Result> results;
    std::vector<Skip> skipped;
    // The last verified measurement of each kernel: its time, scaled by the operations, predicts
    // the next shape's.
    std::map<std::string, Result> last;
    bool all_verified = true;
    const tutorial::Stream stream;
    for (const Shape& shape : shapes) {
        tutorial::Matrix<float> a(shape.m, shape.k), b(shape.k, shape.n);
        const std::uint64_t shape_seed = settings.seed + 1000003ULL * shape.m + 1009ULL * shape.n +
                                         static_cast<std::uint64_t>(shape.k);
        tutorial::fill_random(a, shape_seed);
        tutorial::fill_random(b, shape_seed + 1);
        tutorial::DeviceBuffer<float> device_a(a.size()), device_b(b.size());
        tutorial::DeviceBuffer<float> device_c(static_cast<std::size_t>(shape.m) *
                                               static_cast<std::size_t>(shape.n));
        device_a.upload(a);
        device_b.upload(b);
        double vendor_ms = std::numeric_limits<double>::quiet_NaN();
        // The double reference, computed once for all the kernels of the shape, on first use.
        std::optional<tutorial::GemmReference<float>> reference;
        for (const bench::Kernel& kernel : kernels) {
            const std::string key = kernel.step + " " + kernel.variant;
            const auto previous = last.find(key);
            if (previous != last.end()) {
                const Result& p = previous->second;
                const double predicted_ms =
                    p.timing.median_ms * operations(shape) / operations(p.shape);
                if (predicted_ms > settings.max_seconds_per_run * 1000.0) {
                    skipped.push_back({kernel, shape, predicted_ms});
                    print_skip(skipped.back());
                    continue;
                }
            }
            if (!reference)
                reference.emplace(a, b);
            Result result = kernel.on_cpu() ? measure_on_cpu(kernel, settings, a, b, *reference)
                                            : measure_on_gpu(kernel, settings, a, b, *reference,
                                                             device_a, device_b, device_c, stream);
            if (kernel.step == "blas" && result.verified)
                vendor_ms = result.timing.median_ms;
            result.vendor_ms = vendor_ms;
            all_verified = all_verified && result.verified;
            if (result.verified)
                last.insert_or_assign(key, result);
            print_row(result);
            results.push_back(result);
        }
    }
    if (!settings.json_path.empty()) {
        write_json(settings, header, results, skipped);
        std::cout << "\nwrote " << settings.json_path << "\n";
    }
    return all_verified ? tutorial::kExitVerified : tutorial::kExitVerificationFailed;
}

std::string quoted_command(int argc, char** argv) {
    std::string command = "gemm_benchmark";
    for (int i = 1; i < argc; ++i) {
        const std::string argument = argv[i];
        const bool plain =
            !argument.empty() && argument.find_first_of(" \"'\\$") == std::string::npos;
        command += " " + (plain ? argument : "'" + argument + "'");
    }
    return command;
}

}  // namespace

int main(int argc, char** argv) {
    Settings settings;
    settings.command = quoted_command(argc, argv);
    CLI::App app{
        "Times every step's kernel and the vendor BLAS on the same inputs.\n"
        "Default sweep: sizes 256 to 8192 and three shapes that are not tile multiples.\n"
        "The every-shape suite: gemm_benchmark --suite every-shape --filter '08 rule'",
        "gemm_benchmark"};
    app.add_option("--sizes", settings.sizes, "square sizes m = n = k")
        ->delimiter(',')
        ->check(CLI::Range(1, 46340));
    app.add_option("--shapes", settings.shapes,
                   "shapes MxNxK (C is m x n), e.g. 1000x3000x500,4097x1023x2049")
        ->delimiter(',');
    app.add_option(
        "--suite", settings.suite,
        "a named suite of shapes, run after --sizes and --shapes: " + bench::suite_names());
    app.add_option("-i,--iterations", settings.iterations, "the most timed runs per kernel")
        ->check(CLI::Range(3, 1000));
    app.add_option("--warmup", settings.warmup, "untimed runs first")->check(CLI::Range(0, 100));
    app.add_option("--seconds-per-kernel", settings.seconds_per_kernel,
                   "fewer runs (at least 3) for kernels slower than this budget");
    app.add_option("--max-seconds-per-run", settings.max_seconds_per_run,
                   "skip a kernel where its last time predicts a longer run");
    app.add_option(
           "--filter", settings.filters,
           "only kernels whose 'step variant' contains one of these texts, e.g. '05 reg8x8_db,06 '")
        ->delimiter(',');
    app.add_option("--json", settings.json_path, "also write the results to this JSON file");
    app.add_option("--commit", settings.commit, "the commit measured, recorded in the JSON");
    app.add_option("-d,--device", settings.device, "the device id")->check(CLI::NonNegativeNumber);
    app.add_option("--seed", settings.seed, "seed of the random inputs");
    try {
        app.parse(argc, argv);
        // Sizes, shapes or a suite given replace the whole default sweep.
        if (app.count("--sizes") + app.count("--shapes") + app.count("--suite") > 0) {
            if (app.count("--sizes") == 0)
                settings.sizes.clear();
            if (app.count("--shapes") == 0)
                settings.shapes.clear();
        }
        for (const std::string& text : settings.shapes)
            bench::parse_shape(text);
        if (app.count("--suite") > 0 && bench::find_suite(settings.suite) == nullptr) {
            throw tutorial::UsageError("--suite: '" + settings.suite +
                                       "' is not a suite; the suites are " + bench::suite_names());
        }
    } catch (const CLI::ParseError& error) {
        return app.exit(error) == 0 ? 0 : tutorial::kExitBadUsage;
    } catch (const tutorial::UsageError& error) {
        std::cerr << "gemm_benchmark: " << error.what() << "\n";
        return tutorial::kExitBadUsage;
    }
    return tutorial::exit_code_of("gemm_benchmark", [&] { return run(settings); });
}
