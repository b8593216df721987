/// \file
/// \brief Timing statistics, GFLOPS and the one machine-readable line each run prints.
#pragma once

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace tutorial {

/// Median and minimum of timed repetitions, in milliseconds.
struct TimingSummary {
    double median_ms = 0.0;
    double min_ms = 0.0;
    int repetitions = 0;
};

/// Median (the mean of the two middle values for an even count) and minimum of `milliseconds`.
TimingSummary summarize_times(std::vector<double> milliseconds);

/// Runs `work` `warmup` times untimed, then `repetitions` times under a steady clock: the host-side
/// twin of time_with_events() for the CPU step.
TimingSummary time_on_host(int warmup, int repetitions, const std::function<void()>& work);

/// 2·m·n·k floating-point operations (one multiply and one add per term) over `milliseconds`.
double gflops(int m, int n, int k, double milliseconds);

/// Everything one run reports.
struct RunReport {
    std::string step;     ///< "01", "02", ...
    std::string variant;  ///< the kernel, e.g. "naive" or "tiled16"
    std::string device;   ///< where it ran, e.g. the GPU's name or "CPU"
    int m = 0, n = 0, k = 0;
    std::optional<TimingSummary> kernel;   ///< the multiply alone
    std::optional<double> end_to_end_ms;   ///< copies to and from the device included
    std::string verification = "skipped";  ///< "passed", "FAILED" or "skipped"
};

/// The human-readable lines: kernel time and GFLOPS, end-to-end time and GFLOPS.
void print_report(std::ostream& out, const RunReport& report);

/// `RESULT {...}`: one line of JSON with every field of the report, for the benchmark scripts.
std::string result_line(const RunReport& report);

}  // namespace tutorial
