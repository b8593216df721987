/// \file
/// \brief Writes a benchmark JSON file with made-up figures (first argument: the file), so that a
/// test can check, without a GPU, that docs/results/make_results.py reads what the benchmark
/// writes: the CPU step, a failed kernel, a skipped one, shapes that are not square, a quote in a
/// name, a time that is not a number and a suite of shapes.
#include <fstream>
#include <iostream>
#include <limits>

#include "bench/results_json.hpp"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: results_json_sample <file.json>\n";
        return 2;
    }
    bench::RunHeader header;
    header.gpu = "NVIDIA H100 80GB HBM3";
    header.multiprocessors = 132;
    header.clock_mhz = 1980;
    header.driver = "580.159.04";
    header.driver_version = 13000;
    header.runtime_version = 13000;
    header.platform = "NVIDIA GPUs through CUDA 13.0.88 (nvcc)";
    header.vendor_blas = "cuBLAS 13.1 SGEMM (FP32, TF32 off)";
    header.host_cpu = "a CPU with a \"quoted\" name";
    header.date = "2026-11-22";
    header.commit = "0000000";
    header.command = "gemm_benchmark --json 'sample file.json'";
    header.warmup = 3;
    header.iterations = 10;
    header.seconds_per_kernel = 10;
    header.max_seconds_per_run = 10;
    header.seed = 42;
    constexpr bench::SuiteShape kSampleShapes[] = {{"1000x3000x500", "odd sizes"},
                                                   {"1024x1024x1024", "a square"}};
    const bench::ShapeSuite sample{"sample", "two shapes, one with a failed kernel", kSampleShapes,
                                   2};
    header.suite = &sample;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const std::vector<bench::Measurement> results{
        {"blas", "vendor", false, 1024, 1024, 1024, 0.0595, 0.0589, 10, true},
        {"01", "serial", true, 1024, 1024, 1024, 2000.0, 1990.0, 5, true},
        {"02", "naive_b16", false, 1024, 1024, 1024, 0.424, 0.419, 10, true},
        {"05", "reg8x8_db", false, 1024, 1024, 1024, nan, nan, 0, false},
        {"blas", "vendor", false, 2048, 2048, 2048, 0.36, 0.35, 10, true},
        {"02", "naive_b16", false, 2048, 2048, 2048, 3.3, 3.2, 10, true},
        {"05", "reg8x8_db", false, 2048, 2048, 2048, 0.41, 0.40, 10, true},
        {"blas", "vendor", false, 1000, 3000, 500, 0.13, 0.12, 10, true},
        {"02", "naive_b16", false, 1000, 3000, 500, 0.6, 0.59, 10, true},
        {"05", "reg8x8_db", false, 1000, 3000, 500, 0.16, 0.15, 10, true},
    };
    const std::vector<bench::SkippedRun> skipped{{"01", "serial", 2048, 2048, 2048, 16000.0},
                                                 {"01", "serial", 1000, 3000, 500, 11000.0}};
    std::ofstream out(argv[1]);
    bench::write_results_json(out, header, results, skipped);
    return out ? 0 : 3;
}
