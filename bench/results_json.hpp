/// \file
/// \brief The benchmark's JSON file, written without the GPU so that a test can check that
/// docs/results/make_results.py reads it.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "bench/shapes.hpp"

namespace bench {

/// The machine and the run, recorded at the top of the file.
struct RunHeader {
    std::string gpu;
    int multiprocessors = 0;
    double clock_mhz = 0.0;
    std::string driver;       ///< as the vendor names it, e.g. "580.159.04"
    int driver_version = 0;   ///< hipDriverGetVersion
    int runtime_version = 0;  ///< hipRuntimeGetVersion
    std::string platform;
    std::string vendor_blas;
    std::string host_cpu;
    std::string date;
    std::string commit;
    std::string command;
    int warmup = 0;
    int iterations = 0;
    double seconds_per_kernel = 0.0;
    double max_seconds_per_run = 0.0;
    unsigned long long seed = 0;
    const ShapeSuite* suite = nullptr;  ///< the suite of shapes run (--suite), or none
};

/// One kernel at one shape: timed when verified, not timed (repetitions 0) when it failed.
struct Measurement {
    std::string step;
    std::string variant;
    bool on_cpu = false;
    int m = 0, n = 0, k = 0;
    double median_ms = 0.0;
    double min_ms = 0.0;
    int repetitions = 0;
    bool verified = false;
};

/// A kernel left out at a shape because its predicted time per run was too long.
struct SkippedRun {
    std::string step;
    std::string variant;
    int m = 0, n = 0, k = 0;
    double predicted_ms = 0.0;
};

/// `value` as a JSON string, quoted and escaped.
std::string json_text(const std::string& value);

/// `value` as a JSON number with six significant digits; null when it is not finite (JSON has no
/// NaN or infinity).
std::string json_number(double value);

/// Today's date in UTC, as the results files record it: "2026-11-22".
std::string utc_date();

/// Writes the file: the header's fields, "timing", the suite (only when one was run: its name,
/// purpose and [shape, kind] pairs, on one line), one line per measurement under "results" and one
/// per skip under "skipped". Numbers that are not finite are written as null.
void write_results_json(std::ostream& out, const RunHeader& header,
                        const std::vector<Measurement>& results,
                        const std::vector<SkippedRun>& skipped);

}  // namespace bench
