#include "tests/bench/results_json.hpp"

#include <cmath>
#include <cstdio>
#include <iomanip>
#include <sstream>

#include "common/report.hpp"

namespace bench {
namespace {

std::string text(const std::string& value) {
    std::string quoted = "\"";
    for (const char c : value) {
        if (c == '"' || c == '\\') {
            quoted += '\\';
            quoted += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
            quoted += escaped;
        } else {
            quoted += c;
        }
    }
    return quoted + "\"";
}

// JSON has no NaN or infinity: those become null.
std::string number(double value) {
    if (!std::isfinite(value))
        return "null";
    std::ostringstream out;
    out << std::setprecision(6) << value;
    return out.str();
}

}  // namespace

void write_results_json(std::ostream& out, const RunHeader& header,
                        const std::vector<Measurement>& results,
                        const std::vector<SkippedRun>& skipped) {
    out << "{\n  \"gpu\": " << text(header.gpu) << ",\n"
        << "  \"multiprocessors\": " << header.multiprocessors << ",\n"
        << "  \"clock_mhz\": " << number(header.clock_mhz) << ",\n"
        << "  \"driver\": " << text(header.driver) << ",\n"
        << "  \"driver_version\": " << header.driver_version << ",\n"
        << "  \"runtime_version\": " << header.runtime_version << ",\n"
        << "  \"platform\": " << text(header.platform) << ",\n"
        << "  \"vendor_blas\": " << text(header.vendor_blas) << ",\n"
        << "  \"host_cpu\": " << text(header.host_cpu) << ",\n"
        << "  \"date\": " << text(header.date) << ",\n"
        << "  \"commit\": " << text(header.commit) << ",\n"
        << "  \"command\": " << text(header.command) << ",\n"
        << "  \"timing\": {\"warmup\": " << header.warmup
        << ", \"iterations\": " << header.iterations
        << ", \"seconds_per_kernel\": " << number(header.seconds_per_kernel)
        << ", \"max_seconds_per_run\": " << number(header.max_seconds_per_run)
        << ", \"seed\": " << header.seed << "},\n"
        << "  \"results\": [\n";
    for (std::size_t i = 0; i < results.size(); ++i) {
        const Measurement& r = results[i];
        out << "    {\"step\": " << text(r.step) << ", \"variant\": " << text(r.variant)
            << ", \"device\": " << text(r.on_cpu ? "CPU" : "GPU") << ", \"m\": " << r.m
            << ", \"n\": " << r.n << ", \"k\": " << r.k
            << ", \"median_ms\": " << number(r.median_ms) << ", \"min_ms\": " << number(r.min_ms)
            << ", \"repetitions\": " << r.repetitions
            << ", \"gflops\": " << number(tutorial::gflops(r.m, r.n, r.k, r.median_ms))
            << ", \"verified\": " << (r.verified ? "true" : "false") << "}"
            << (i + 1 < results.size() ? "," : "") << "\n";
    }
    out << "  ],\n  \"skipped\": [\n";
    for (std::size_t i = 0; i < skipped.size(); ++i) {
        const SkippedRun& s = skipped[i];
        out << "    {\"step\": " << text(s.step) << ", \"variant\": " << text(s.variant)
            << ", \"m\": " << s.m << ", \"n\": " << s.n << ", \"k\": " << s.k
            << ", \"predicted_ms\": " << number(s.predicted_ms) << "}"
            << (i + 1 < skipped.size() ? "," : "") << "\n";
    }
    out << "  ]\n}\n";
}

}  // namespace bench
