/// \file
/// \brief `rule_sweep`: every configuration step 08's rule weighs for a shape, each verified and
/// timed beside the vendor BLAS and the rule's own estimate.
///
/// The rule (steps/08_every_shape/choose_config.cpp) picks the configuration with the smallest
/// estimate. Whether the estimate ranks the configurations as the GPU does is a measurement: this
/// program makes it for any shape, so that a shape where the rule falls short shows at once whether
/// another configuration would have done better (the rule's constants are off) or none does (a
/// kernel is missing). Step 08's lab notes keep its outputs; exercise 1 of the lesson runs it on
/// the reader's GPU. Each configuration is first run into a C filled with NaNs and verified against
/// the double-precision reference; only a verified one is timed (warm-up runs, then the median of
/// event-timed runs).
#include <hip/hip_runtime.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iostream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "bench/shapes.hpp"
#include "common/device.hpp"
#include "common/device_buffer.hpp"
#include "common/errors.hpp"
#include "common/gpu_timer.hpp"
#include "common/hip_check.hpp"
#include "common/hip_handles.hpp"
#include "common/matrix.hpp"
#include "common/program.hpp"
#include "common/report.hpp"
#include "common/vendor_blas.hpp"
#include "common/verify.hpp"
#include "steps/08_every_shape/choose_config.hpp"
#include "steps/08_every_shape/every_shape_gemm.hpp"

namespace {

using bench::Shape;
using bench::shape_text;

struct Settings {
    std::vector<std::string> shapes;
    std::string suite;
    double below = 0.0;  // sweep only where the rule's share of the vendor BLAS is under this
    int top = 0;         // print the fastest `top` configurations of each shape (0: all)
    int iterations = 9;
    int warmup = 3;
    int device = 0;
    std::uint64_t seed = 42;
};

// One configuration's run: verified first, then timed.
struct Timed {
    step08::Estimate estimate;
    bool verified = false;
    std::string failure;  // the verification's summary where it failed
    tutorial::TimingSummary timing;
};

// Runs `work` once into a C of NaNs, verifies it against the shape's reference (computed once for
// all the configurations of a shape), and only then times it.
Timed verify_then_time(const Settings& settings, const Shape& shape,
                       const tutorial::GemmReference<float>& reference,
                       tutorial::DeviceBuffer<float>& device_c, const tutorial::Stream& stream,
                       const std::function<void()>& work) {
    Timed result;
    HIP_CHECK(hipMemsetAsync(device_c.get(), 0xFF, device_c.bytes(), stream.get()));
    work();
    HIP_CHECK(hipStreamSynchronize(stream.get()));
    tutorial::Matrix<float> c(shape.m, shape.n);
    device_c.download(c);
    const tutorial::VerifyReport report = reference.check(c);
    result.verified = report.passed;
    if (!report.passed) {
        result.failure = report.summary();
        return result;
    }
    result.timing =
        tutorial::time_with_events(stream.get(), settings.warmup, settings.iterations, work);
    return result;
}

// "0.476" where the vendor BLAS was timed, "-" where there is none.
std::string share_text(double vendor_ms, double ms) {
    if (!(vendor_ms > 0.0) || !(ms > 0.0))
        return "-";
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", vendor_ms / ms);
    return text;
}

void print_config_row(const Timed& t, double vendor_ms, bool chosen) {
    char line[256];
    if (!t.verified) {
        std::snprintf(line, sizeof line, "  %c %-30s FAILED: %s\n", chosen ? '*' : ' ',
                      step08::config_name(t.estimate.config).c_str(), t.failure.c_str());
    } else {
        std::snprintf(line, sizeof line, "  %c %-30s %10.4f %9s %11.3g %8lld %7.2f\n",
                      chosen ? '*' : ' ', step08::config_name(t.estimate.config).c_str(),
                      t.timing.median_ms, share_text(vendor_ms, t.timing.median_ms).c_str(),
                      t.estimate.total(), t.estimate.blocks, t.estimate.waves);
    }
    std::cout << line;
}

bool same_config(const step08::Config& x, const step08::Config& y) {
    return x.tile == y.tile && x.splits == y.splits && x.workers == y.workers &&
           x.packing == y.packing;
}

// One shape: the vendor BLAS and the rule's pick, then, unless the rule is at `below` of the
// vendor BLAS or more, every candidate, fastest first. Returns false when a configuration failed.
bool sweep_shape(const Settings& settings, const Shape& shape, tutorial::VendorBlas* vendor,
                 const tutorial::Stream& stream) {
    tutorial::Matrix<float> a(shape.m, shape.k), b(shape.k, shape.n);
    tutorial::fill_random(a, settings.seed);
    tutorial::fill_random(b, settings.seed + 1);
    tutorial::DeviceBuffer<float> device_a(a.size()), device_b(b.size());
    tutorial::DeviceBuffer<float> device_c(static_cast<std::size_t>(shape.m) *
                                           static_cast<std::size_t>(shape.n));
    device_a.upload(a);
    device_b.upload(b);
    const tutorial::GemmReference<float> reference(a, b);
    const auto run_config = [&](const step08::Config& config) {
        return [&, config] {
            step08::gemm(device_a.get(), device_b.get(), device_c.get(), shape.m, shape.n, shape.k,
                         stream.get(), config);
        };
    };
    double vendor_ms = std::numeric_limits<double>::quiet_NaN();
    std::string vendor_text = "no vendor BLAS";
    if (vendor != nullptr) {
        const Timed timed = verify_then_time(settings, shape, reference, device_c, stream, [&] {
            vendor->sgemm(device_a.get(), device_b.get(), device_c.get(), shape.m, shape.n, shape.k,
                          stream.get());
        });
        if (timed.verified) {
            vendor_ms = timed.timing.median_ms;
            char text[64];
            std::snprintf(text, sizeof text, "vendor BLAS %.4f ms", vendor_ms);
            vendor_text = text;
        } else {
            vendor_text = "vendor BLAS FAILED: " + timed.failure;
        }
    }
    const step08::Occupancy occupancy = step08::occupancy();
    const step08::Config chosen = step08::choose_config(shape.m, shape.n, shape.k, occupancy);
    Timed rule = verify_then_time(settings, shape, reference, device_c, stream, run_config(chosen));
    rule.estimate = step08::estimate(shape.m, shape.n, shape.k, chosen, occupancy);
    std::cout << "== " << shape_text(shape) << ": " << vendor_text << "; the rule's pick "
              << step08::config_name(chosen);
    if (rule.verified) {
        char text[64];
        std::snprintf(text, sizeof text, " %.4f ms", rule.timing.median_ms);
        std::cout << text << ", share " << share_text(vendor_ms, rule.timing.median_ms) << "\n";
    } else {
        std::cout << " FAILED: " << rule.failure << "\n";
        return false;
    }
    const double share = vendor_ms / rule.timing.median_ms;
    if (settings.below > 0.0 && std::isfinite(share) && share >= settings.below) {
        std::cout << "  at " << share_text(vendor_ms, rule.timing.median_ms)
                  << " of the vendor BLAS,"
                  << " not below " << settings.below << ": not swept\n";
        return true;
    }
    std::vector<Timed> all;
    bool all_verified = true;
    for (const step08::Estimate& estimate :
         step08::candidates(shape.m, shape.n, shape.k, occupancy)) {
        Timed timed = same_config(estimate.config, chosen)
                          ? rule
                          : verify_then_time(settings, shape, reference, device_c, stream,
                                             run_config(estimate.config));
        timed.estimate = estimate;
        all_verified = all_verified && timed.verified;
        all.push_back(timed);
    }
    // Fastest first; a configuration that failed goes last.
    std::stable_sort(all.begin(), all.end(), [](const Timed& x, const Timed& y) {
        if (x.verified != y.verified)
            return x.verified;
        return x.timing.median_ms < y.timing.median_ms;
    });
    const auto pick = std::find_if(all.begin(), all.end(), [&](const Timed& t) {
        return same_config(t.estimate.config, chosen);
    });
    std::cout << "  the rule's pick is " << (pick - all.begin()) + 1 << " of " << all.size()
              << " by time; the fastest: " << step08::config_name(all.front().estimate.config)
              << ", share " << share_text(vendor_ms, all.front().timing.median_ms) << "\n";
    std::cout << "    configuration                  median ms  of vendor    estimate   blocks"
                 "   waves\n";
    const std::size_t shown =
        settings.top > 0 ? std::min<std::size_t>(all.size(), settings.top) : all.size();
    for (std::size_t i = 0; i < shown; ++i)
        print_config_row(all[i], vendor_ms, same_config(all[i].estimate.config, chosen));
    return all_verified;
}

std::vector<Shape> shapes_to_run(const Settings& settings) {
    std::vector<Shape> shapes;
    for (const std::string& text : settings.shapes)
        shapes.push_back(bench::parse_shape(text));
    if (const bench::ShapeSuite* suite = bench::find_suite(settings.suite)) {
        for (std::size_t i = 0; i < suite->count; ++i)
            shapes.push_back(bench::parse_shape(suite->shapes[i].shape, "--suite"));
    }
    return shapes;
}

int run(const Settings& settings) {
    const std::vector<Shape> shapes = shapes_to_run(settings);
    const tutorial::DeviceInfo device = tutorial::select_device(settings.device);
    std::string why_no_vendor;
    const std::unique_ptr<tutorial::VendorBlas> vendor = tutorial::make_vendor_blas(why_no_vendor);
    std::cout << "GPU: " << device.name << ", " << device.multiprocessors << " multiprocessors, "
              << step08::occupancy().cache_bytes / (1 << 20) << " MiB of L2 cache\n"
              << "vendor BLAS: " << (vendor ? vendor->name() : why_no_vendor) << "\n"
              << "each configuration verified first, then " << settings.warmup
              << " warm-up runs and the median of " << settings.iterations
              << " timed runs; * marks the rule's pick; the estimate is in multiply-adds of one "
                 "multiprocessor at the 128 x 256 tile's speed\n\n";
    const tutorial::Stream stream;
    bool all_verified = true;
    for (const Shape& shape : shapes) {
        all_verified = sweep_shape(settings, shape, vendor.get(), stream) && all_verified;
        std::cout << std::flush;  // a long sweep shows each shape as soon as it is done
    }
    return all_verified ? tutorial::kExitVerified : tutorial::kExitVerificationFailed;
}

}  // namespace

int main(int argc, char** argv) {
    Settings settings;
    CLI::App app{
        "Every configuration step 08's rule weighs for each shape, verified and timed "
        "beside the vendor BLAS and the rule's estimate, fastest first.\n"
        "Where the rule falls short: rule_sweep --suite every-shape --below 0.9",
        "rule_sweep"};
    app.add_option("--shapes", settings.shapes, "shapes MxNxK (C is m x n), e.g. 64x64x65536")
        ->delimiter(',');
    app.add_option("--suite", settings.suite,
                   "a named suite of shapes, after --shapes: " + bench::suite_names());
    app.add_option("--below", settings.below,
                   "sweep only the shapes where the rule's pick runs at less than this share of "
                   "the vendor BLAS (default 0: every shape)")
        ->check(CLI::Range(0.0, 100.0));
    app.add_option("--top", settings.top,
                   "print only the fastest configurations of each shape (default 0: all)")
        ->check(CLI::NonNegativeNumber);
    app.add_option("-i,--iterations", settings.iterations, "timed runs per configuration")
        ->check(CLI::Range(1, 1000));
    app.add_option("--warmup", settings.warmup, "untimed runs first")->check(CLI::Range(0, 100));
    app.add_option("-d,--device", settings.device, "the device id")->check(CLI::NonNegativeNumber);
    app.add_option("--seed", settings.seed, "seed of the random inputs");
    try {
        app.parse(argc, argv);
        for (const std::string& text : settings.shapes)
            bench::parse_shape(text);
        if (app.count("--suite") > 0 && bench::find_suite(settings.suite) == nullptr) {
            throw tutorial::UsageError("--suite: '" + settings.suite +
                                       "' is not a suite; the suites are " + bench::suite_names());
        }
        if (settings.shapes.empty() && settings.suite.empty())
            throw tutorial::UsageError("give --shapes, --suite or both");
    } catch (const CLI::ParseError& error) {
        return app.exit(error) == 0 ? 0 : tutorial::kExitBadUsage;
    } catch (const tutorial::UsageError& error) {
        std::cerr << "rule_sweep: " << error.what() << "\n";
        return tutorial::kExitBadUsage;
    }
    return tutorial::exit_code_of("rule_sweep", [&] { return run(settings); });
}
