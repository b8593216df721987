#include "bench/results_json.hpp"

#include <cmath>
#include <cstdio>
#include <ctime>
#include <iomanip>
#include <sstream>

#include "common/report.hpp"

namespace bench {

std::string json_text(const std::string& value) {
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

std::string json_number(double value) {
    if (!std::isfinite(value))
        return "null";
    std::ostringstream out;
    out << std::setprecision(6) << value;
    return out.str();
}

std::string utc_date() {
    const std::time_t now = std::time(nullptr);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d", std::gmtime(&now));
    return text;
}

void write_results_json(std::ostream& out, const RunHeader& header,
                        const std::vector<Measurement>& results,
                        const std::vector<SkippedRun>& skipped) {
    out << "{\n  \"gpu\": " << json_text(header.gpu) << ",\n"
        << "  \"multiprocessors\": " << header.multiprocessors << ",\n"
        << "  \"clock_mhz\": " << json_number(header.clock_mhz) << ",\n"
        << "  \"driver\": " << json_text(header.driver) << ",\n"
        << "  \"driver_version\": " << header.driver_version << ",\n"
        << "  \"runtime_version\": " << header.runtime_version << ",\n"
        << "  \"platform\": " << json_text(header.platform) << ",\n"
        << "  \"vendor_blas\": " << json_text(header.vendor_blas) << ",\n"
        << "  \"host_cpu\": " << json_text(header.host_cpu) << ",\n"
        << "  \"date\": " << json_text(header.date) << ",\n"
        << "  \"commit\": " << json_text(header.commit) << ",\n"
        << "  \"command\": " << json_text(header.command) << ",\n"
        << "  \"timing\": {\"warmup\": " << header.warmup
        << ", \"iterations\": " << header.iterations
        << ", \"seconds_per_kernel\": " << json_number(header.seconds_per_kernel)
        << ", \"max_seconds_per_run\": " << json_number(header.max_seconds_per_run)
        << ", \"seed\": " << header.seed << "},\n";
    if (const ShapeSuite* suite = header.suite) {
        out << "  \"suite\": {\"name\": " << json_text(suite->name)
            << ", \"purpose\": " << json_text(suite->purpose) << ", \"shapes\": [";
        for (std::size_t i = 0; i < suite->count; ++i) {
            out << (i > 0 ? ", " : "") << "[" << json_text(suite->shapes[i].shape) << ", "
                << json_text(suite->shapes[i].kind) << "]";
        }
        out << "]},\n";
    }
    out << "  \"results\": [\n";
    for (std::size_t i = 0; i < results.size(); ++i) {
        const Measurement& r = results[i];
        out << "    {\"step\": " << json_text(r.step) << ", \"variant\": " << json_text(r.variant)
            << ", \"device\": " << json_text(r.on_cpu ? "CPU" : "GPU") << ", \"m\": " << r.m
            << ", \"n\": " << r.n << ", \"k\": " << r.k
            << ", \"median_ms\": " << json_number(r.median_ms)
            << ", \"min_ms\": " << json_number(r.min_ms) << ", \"repetitions\": " << r.repetitions
            << ", \"gflops\": " << json_number(tutorial::gflops(r.m, r.n, r.k, r.median_ms))
            << ", \"verified\": " << (r.verified ? "true" : "false") << "}"
            << (i + 1 < results.size() ? "," : "") << "\n";
    }
    out << "  ],\n  \"skipped\": [\n";
    for (std::size_t i = 0; i < skipped.size(); ++i) {
        const SkippedRun& s = skipped[i];
        out << "    {\"step\": " << json_text(s.step) << ", \"variant\": " << json_text(s.variant)
            << ", \"m\": " << s.m << ", \"n\": " << s.n << ", \"k\": " << s.k
            << ", \"predicted_ms\": " << json_number(s.predicted_ms) << "}"
            << (i + 1 < skipped.size() ? "," : "") << "\n";
    }
    out << "  ]\n}\n";
}

}  // namespace bench
