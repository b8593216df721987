/// \file
/// \brief The JSON file of `multi_gpu_benchmark`: the machine and the run, every measured row
/// with the plan and statistics of the streamed ones, and the ratios (read by
/// docs/update_pages.py).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/multi_gpu_report.hpp"
#include "bench/multi_gpu_runs.hpp"

namespace bench::multi_gpu {

/// What the run was: the machine, the libraries and the settings, for the JSON file.
struct RunFacts {
    std::vector<std::string> gpus;
    int driver = 0;
    int runtime = 0;
    std::string vendor_blas;
    std::string host_blas;
    std::string tiledmm;  // bench::tiledmm_name(): its version, or why it was not built
    std::vector<int> devices;
    std::uint64_t budget = 0;                 // per entry, for the "option" rows
    std::string budget_option;                // --device-memory as given: all, auto or a size
    std::uint64_t device_memory_total = 0;    // the first device's memory
    std::uint64_t host_memory_available = 0;  // before the inputs were made; 0: unknown
};

/// Writes settings.json_path; `complete` is false while rows are still to come.
void write_json(const Settings& settings, const RunFacts& facts,
                const std::vector<Measurement>& rows, const std::vector<Ratio>& ratios,
                bool complete);

}  // namespace bench::multi_gpu
