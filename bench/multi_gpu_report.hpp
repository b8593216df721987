/// \file
/// \brief What `multi_gpu_benchmark` reports on the terminal and in its trace: a table row per
/// run, the ratios taken within the run, and every copy and kernel of the streamed runs.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "bench/multi_gpu_runs.hpp"

namespace bench::multi_gpu {

/// A throughput ratio of two rows of the run (> 1: the first is faster).
struct Ratio {
    std::string name;
    double value;
};

/// Kernel busy time and hidden copy time over all entries of the last run, as percentages.
std::pair<double, double> overlap(const step09::GemmStatistics& statistics);

/// The table's header and one row of it.
void print_header();
void print_row(const Measurement& m);

/// The ratios of `rows`, for each of `inners`: streamed against resident, against the best
/// cuBLASXt on the first device and on all of `devices`, against the best Tiled-MM (on the first
/// device), and all devices against the first.
std::vector<Ratio> ratios_of(const std::vector<Measurement>& rows,
                             const std::vector<step09::InnerKernel>& inners,
                             const std::vector<int>& first, const std::vector<int>& devices);

/// Every operation of the last run of each streamed row, one per line, for plotting.
void write_trace(const std::string& path, const std::vector<Measurement>& rows);

}  // namespace bench::multi_gpu
