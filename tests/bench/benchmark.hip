/// \file
/// \brief `gemm_benchmark`: times every step's kernel and the vendor BLAS on the same inputs.
///
/// For each size, A and B are filled once from the seed; each kernel gets warm-up runs, then
/// event-timed repetitions (the median counts), and its result is verified against the double
/// reference before it is reported. The vendor BLAS runs on the same device buffers, so every
/// ratio compares like with like. Results go to stdout as a table and, with --json, to a file.
#include <hip/hip_runtime.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "common/device.hpp"
#include "common/device_buffer.hpp"
#include "common/errors.hpp"
#include "common/gpu_gemm_runner.hpp"
#include "common/gpu_timer.hpp"
#include "common/hip_handles.hpp"
#include "common/report.hpp"
#include "common/verify.hpp"
#include "tests/bench/kernels.hpp"
#include "common/vendor_blas.hpp"

namespace {

struct Settings {
    std::vector<int> sizes{256, 512, 1024, 2048, 4096};
    int iterations = 10;
    int warmup = 3;
    double seconds_per_kernel = 10.0;
    std::string filter;
    std::string json_path;
    std::string commit = "unknown";
    int device = 0;
    std::uint64_t seed = 42;
};

struct Result {
    bench::Kernel kernel;
    int m, n, k;
    tutorial::TimingSummary timing;
    bool verified;
    double vendor_ms;  // NaN without a vendor BLAS
};

std::string json_escape(const std::string& text) {
    std::string out;
    for (const char c : text) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out;
}

std::string today() {
    const std::time_t now = std::time(nullptr);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d", std::gmtime(&now));
    return text;
}

// Times one kernel on the prepared buffers and verifies its result. Slow kernels get fewer
// repetitions (at least 3) so a sweep stays within --seconds-per-kernel each.
Result measure(const bench::Kernel& kernel, const Settings& settings,
               const tutorial::Matrix<float>& a, const tutorial::Matrix<float>& b,
               const tutorial::DeviceBuffer<float>& device_a,
               const tutorial::DeviceBuffer<float>& device_b,
               tutorial::DeviceBuffer<float>& device_c, const tutorial::Stream& stream) {
    const int m = a.rows(), k = a.cols(), n = b.cols();
    auto run = [&] {
        kernel.launch(device_a.get(), device_b.get(), device_c.get(), m, n, k, stream.get());
    };

    const tutorial::TimingSummary probe = tutorial::time_with_events(stream.get(), 1, 1, run);
    const int affordable =
        static_cast<int>(settings.seconds_per_kernel * 1000.0 / std::max(probe.median_ms, 1e-3));
    const int repetitions = std::clamp(affordable, 3, settings.iterations);
    // A kernel that takes over a second has been warmed up by the probe already.
    const int warmup = probe.median_ms > 1000.0 ? 0 : settings.warmup;
    Result result{kernel,
                  m,
                  n,
                  k,
                  tutorial::time_with_events(stream.get(), warmup, repetitions, run),
                  false,
                  std::numeric_limits<double>::quiet_NaN()};

    // Verify a fresh result: poison C (all bits set is a NaN), run once, compare with the
    // reference.
    HIP_CHECK(hipMemsetAsync(device_c.get(), 0xFF, device_c.bytes(), stream.get()));
    run();
    stream.synchronize();
    tutorial::Matrix<float> c(m, n);
    device_c.download(c);
    const tutorial::VerifyReport report = tutorial::verify_gemm(a, b, c);
    result.verified = report.passed;
    if (!report.passed)
        std::cerr << kernel.step << " " << kernel.variant << ": " << report.summary() << "\n";
    return result;
}

void print_row(const Result& r) {
    const double gflops = tutorial::gflops(r.m, r.n, r.k, r.timing.median_ms);
    std::cout << std::left << std::setw(6) << r.kernel.step << std::setw(18) << r.kernel.variant
              << std::right << std::setw(6) << r.m << std::setw(6) << r.n << std::setw(6) << r.k
              << std::fixed << std::setprecision(4) << std::setw(12) << r.timing.median_ms
              << std::setw(12) << r.timing.min_ms << std::setw(5) << r.timing.repetitions
              << std::setprecision(1) << std::setw(11) << gflops;
    if (std::isnan(r.vendor_ms)) {
        std::cout << std::setw(10) << "-";
    } else {
        std::cout << std::setw(9) << 100.0 * r.vendor_ms / r.timing.median_ms << "%";
    }
    std::cout << "  " << (r.verified ? "verified" : "FAILED") << std::endl;
}

void write_json(const Settings& settings, const std::string& gpu, int driver, int runtime,
                const std::string& vendor, const std::vector<Result>& results) {
    std::ofstream out(settings.json_path);
    if (!out)
        throw tutorial::RuntimeFailure("cannot write " + settings.json_path);
    out << "{\n  \"gpu\": \"" << json_escape(gpu) << "\",\n  \"driver_version\": " << driver
        << ",\n  \"runtime_version\": " << runtime << ",\n  \"platform\": \""
        << json_escape(tutorial::gpu_platform()) << "\",\n  \"vendor_blas\": \""
        << json_escape(vendor) << "\",\n  \"date\": \"" << today() << "\",\n  \"commit\": \""
        << json_escape(settings.commit) << "\",\n  \"results\": [\n";
    for (std::size_t i = 0; i < results.size(); ++i) {
        const Result& r = results[i];
        out << "    {\"step\": \"" << r.kernel.step << "\", \"variant\": \"" << r.kernel.variant
            << "\", \"m\": " << r.m << ", \"n\": " << r.n << ", \"k\": " << r.k
            << ", \"median_ms\": " << std::setprecision(6) << r.timing.median_ms
            << ", \"min_ms\": " << r.timing.min_ms << ", \"repetitions\": " << r.timing.repetitions
            << ", \"gflops\": " << tutorial::gflops(r.m, r.n, r.k, r.timing.median_ms)
            << ", \"verified\": " << (r.verified ? "true" : "false") << "}"
            << (i + 1 < results.size() ? "," : "") << "\n";
    }
    out << "  ]\n}\n";
}

int run(const Settings& settings) {
    const tutorial::DeviceInfo device = tutorial::select_device(settings.device);
    int driver = 0, runtime = 0;
    HIP_CHECK(hipDriverGetVersion(&driver));
    HIP_CHECK(hipRuntimeGetVersion(&runtime));
    std::string why_no_vendor;
    auto vendor = tutorial::make_vendor_blas(why_no_vendor);
    const std::string vendor_name = vendor ? vendor->name() : "none";
    std::cout << "GPU: " << device.name << " (driver " << driver << ", runtime " << runtime << ")\n"
              << "vendor BLAS: " << (vendor ? vendor_name : why_no_vendor) << "\n"
              << "timing: " << settings.warmup << " warm-up runs, then the median of up to "
              << settings.iterations << " event-timed runs\n\n";
    std::cout << "step  variant                m     n     k   median ms      min ms runs     "
                 "GFLOPS  % vendor\n";

    std::vector<bench::Kernel> kernels;
    for (const bench::Kernel& kernel : bench::step_kernels()) {
        if ((kernel.step + " " + kernel.variant).find(settings.filter) != std::string::npos)
            kernels.push_back(kernel);
    }
    if (vendor) {
        tutorial::VendorBlas* blas = vendor.get();
        kernels.insert(
            kernels.begin(),
            bench::Kernel{"blas", "vendor",
                          [blas](const float* a, const float* b, float* c, int m, int n, int k,
                                 hipStream_t s) { blas->sgemm(a, b, c, m, n, k, s); }});
    }

    std::vector<Result> results;
    bool all_verified = true;
    const tutorial::Stream stream;
    for (const int size : settings.sizes) {
        tutorial::Matrix<float> a(size, size), b(size, size);
        tutorial::fill_random(a, settings.seed + static_cast<std::uint64_t>(size));
        tutorial::fill_random(b, settings.seed + static_cast<std::uint64_t>(size) + 1);
        tutorial::DeviceBuffer<float> device_a(a.size()), device_b(b.size()), device_c(a.size());
        device_a.upload(a);
        device_b.upload(b);
        double vendor_ms = std::numeric_limits<double>::quiet_NaN();
        for (const bench::Kernel& kernel : kernels) {
            Result result = measure(kernel, settings, a, b, device_a, device_b, device_c, stream);
            if (kernel.step == "blas")
                vendor_ms = result.timing.median_ms;
            result.vendor_ms = vendor_ms;
            all_verified = all_verified && result.verified;
            print_row(result);
            results.push_back(result);
        }
    }
    if (!settings.json_path.empty()) {
        write_json(settings, device.name, driver, runtime, vendor_name, results);
        std::cout << "\nwrote " << settings.json_path << "\n";
    }
    return all_verified ? tutorial::kExitVerified : tutorial::kExitVerificationFailed;
}

}  // namespace

int main(int argc, char** argv) {
    Settings settings;
    CLI::App app{"Times every step's kernel and the vendor BLAS on the same inputs.",
                 "gemm_benchmark"};
    app.add_option("--sizes", settings.sizes, "square sizes m = n = k")
        ->delimiter(',')
        ->check(CLI::Range(1, 46340));
    app.add_option("-i,--iterations", settings.iterations, "the most timed runs per kernel")
        ->check(CLI::Range(3, 1000));
    app.add_option("--warmup", settings.warmup, "untimed runs first")->check(CLI::Range(0, 100));
    app.add_option("--seconds-per-kernel", settings.seconds_per_kernel,
                   "fewer repetitions (at least 3) for kernels slower than this budget");
    app.add_option("--filter", settings.filter,
                   "only kernels whose 'step variant' contains this text");
    app.add_option("--json", settings.json_path, "also write the results to this JSON file");
    app.add_option("--commit", settings.commit, "the commit measured, recorded in the JSON");
    app.add_option("-d,--device", settings.device, "the device id")->check(CLI::NonNegativeNumber);
    app.add_option("--seed", settings.seed, "seed of the random inputs");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        return app.exit(error) == 0 ? 0 : tutorial::kExitBadUsage;
    }
    try {
        return run(settings);
    } catch (const tutorial::UsageError& error) {
        std::cerr << "gemm_benchmark: " << error.what() << "\n";
        return tutorial::kExitBadUsage;
    } catch (const tutorial::RuntimeFailure& error) {
        std::cerr << "gemm_benchmark: " << error.what() << "\n";
        return tutorial::kExitRuntimeFailure;
    }
}
