#include "common/report.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace tutorial {

TimingSummary summarize_times(std::vector<double> milliseconds) {
    if (milliseconds.empty())
        throw std::invalid_argument("summarize_times: no repetitions");
    std::sort(milliseconds.begin(), milliseconds.end());
    const std::size_t count = milliseconds.size();
    TimingSummary summary;
    summary.repetitions = static_cast<int>(count);
    summary.min_ms = milliseconds.front();
    summary.median_ms = count % 2 == 1
                            ? milliseconds[count / 2]
                            : 0.5 * (milliseconds[count / 2 - 1] + milliseconds[count / 2]);
    return summary;
}

TimingSummary time_on_host(int warmup, int repetitions, const std::function<void()>& work) {
    for (int i = 0; i < warmup; ++i)
        work();
    std::vector<double> milliseconds;
    for (int i = 0; i < repetitions; ++i) {
        const auto start = std::chrono::steady_clock::now();
        work();
        const auto stop = std::chrono::steady_clock::now();
        milliseconds.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
    }
    return summarize_times(std::move(milliseconds));
}

double gflops(int m, int n, int k, double milliseconds) {
    const double operations =
        2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
    return operations / (milliseconds * 1.0e-3) / 1.0e9;
}

namespace {
std::string format(const char* pattern, double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, pattern, value);
    return buffer;
}

std::string json_string(const std::string& text) {
    std::string quoted = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\')
            quoted += '\\';
        quoted += c;
    }
    return quoted + "\"";
}
}  // namespace

void print_report(std::ostream& out, const RunReport& report) {
    if (report.kernel) {
        const TimingSummary& t = *report.kernel;
        out << "multiply: median " << format("%.4f", t.median_ms) << " ms, min "
            << format("%.4f", t.min_ms) << " ms over " << t.repetitions
            << " runs = " << format("%.1f", gflops(report.m, report.n, report.k, t.median_ms))
            << " GFLOPS (median)\n";
    }
    if (report.end_to_end_ms) {
        out << "with transfers: " << format("%.4f", *report.end_to_end_ms) << " ms = "
            << format("%.1f", gflops(report.m, report.n, report.k, *report.end_to_end_ms))
            << " GFLOPS\n";
    }
}

std::string result_line(const RunReport& report) {
    std::ostringstream out;
    out << "RESULT {\"step\": " << json_string(report.step)
        << ", \"variant\": " << json_string(report.variant)
        << ", \"device\": " << json_string(report.device) << ", \"m\": " << report.m
        << ", \"n\": " << report.n << ", \"k\": " << report.k;
    if (report.kernel) {
        const TimingSummary& t = *report.kernel;
        out << ", \"kernel_median_ms\": " << format("%.6g", t.median_ms)
            << ", \"kernel_min_ms\": " << format("%.6g", t.min_ms)
            << ", \"repetitions\": " << t.repetitions << ", \"kernel_gflops\": "
            << format("%.6g", gflops(report.m, report.n, report.k, t.median_ms));
    }
    if (report.end_to_end_ms) {
        out << ", \"end_to_end_ms\": " << format("%.6g", *report.end_to_end_ms)
            << ", \"end_to_end_gflops\": "
            << format("%.6g", gflops(report.m, report.n, report.k, *report.end_to_end_ms));
    }
    out << ", \"verification\": " << json_string(report.verification) << "}";
    return out.str();
}

}  // namespace tutorial
