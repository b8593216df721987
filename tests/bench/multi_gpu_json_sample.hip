/// \file
/// \brief Writes two JSON files of `multi_gpu_benchmark` with made-up figures into the folder given
/// as its argument, through the benchmark's own write_json() and ratios_of(), so that a test can
/// check without a GPU that docs/update_pages.py reads what the benchmark writes:
/// tiledmm-built.json with Tiled-MM swept (the fastest configuration not the first) beside the step
/// and cuBLASXt, and tiledmm-not-built.json with the one row of a build without Tiled-MM.
#include <iostream>
#include <string>
#include <vector>

#include "bench/multi_gpu_json.hpp"
#include "bench/multi_gpu_report.hpp"

namespace {

using bench::multi_gpu::Measurement;

Measurement row(const std::string& what, const std::string& inner, double median_ms,
                std::uint64_t memory_used) {
    Measurement m;
    m.what = what;
    m.inner = inner;
    m.n = 16384;
    m.devices = {0};
    m.timing = {median_ms, median_ms - 1.5, 5};
    m.verified = true;
    m.memory_used = memory_used;
    return m;
}

Measurement tiledmm(int tile, int streams, double median_ms, std::uint64_t memory_used) {
    Measurement m = row("tiledmm", "Tiled-MM", median_ms, memory_used);
    m.tile = tile;
    m.streams = streams;
    return m;
}

void write(const std::string& path, const std::string& tiledmm_name,
           const std::vector<Measurement>& rows) {
    bench::multi_gpu::Settings settings;
    settings.json_path = path;
    settings.commit = "0000000";
    bench::multi_gpu::RunFacts facts;
    facts.gpus = {"0: NVIDIA H100 80GB HBM3"};
    facts.driver = facts.runtime = 13000;
    facts.vendor_blas = "cuBLAS 13.1 SGEMM";
    facts.host_blas = "cuBLASXt 13.1 SGEMM on devices 0";
    facts.tiledmm = tiledmm_name;
    facts.devices = {0};
    facts.budget = std::uint64_t{1} << 30;
    facts.budget_option = "1GiB";
    facts.device_memory_total = std::uint64_t{80} << 30;
    const std::vector<step09::InnerKernel> inners{step09::InnerKernel::step08};
    bench::multi_gpu::write_json(settings, facts, rows,
                                 bench::multi_gpu::ratios_of(rows, inners, {0}, {0}), true);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: multi_gpu_json_sample <folder>\n";
        return 2;
    }
    const std::string folder = argv[1];
    Measurement stream = row("stream", "step08", 200.0, std::uint64_t{1} << 30);
    stream.budget_from = "option";
    Measurement cublasxt = row("cublasxt", "cuBLASXt", 210.0, std::uint64_t{3} << 30);
    cublasxt.block_dim = 8192;
    Measurement failed = tiledmm(4096, 3, 100.0, std::uint64_t{900} << 20);
    failed.verified = false;  // a wrong result is no one's best, however fast
    write(folder + "/tiledmm-built.json", "Tiled-MM 2.3.1 (cuBLAS back end)",
          {stream, cublasxt, tiledmm(5000, 2, 240.0, std::uint64_t{1} << 30),
           tiledmm(8192, 2, 220.0, std::uint64_t{1536} << 20), failed});

    Measurement not_built = row("tiledmm", "Tiled-MM", 0.0, 0);
    not_built.status = "not built";
    not_built.why_not = "its cuBLAS back end is built on the CUDA route only";
    not_built.verified = false;
    write(folder + "/tiledmm-not-built.json",
          "Tiled-MM not built: its cuBLAS back end is built on the CUDA route only",
          {stream, cublasxt, not_built});
    return 0;
}
