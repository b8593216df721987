/// \file
/// \brief `mpirun -np P step10_broadcast_probe`: how long one panel broadcast takes from rank 0
/// to all P ranks, by size, through each transport this build and these GPUs allow. The times
/// give the latency (alpha) and the time per byte (beta) of step 10's cost model.
#include <hip/hip_runtime.h>
#include <mpi.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "common/device.hpp"
#include "common/device_buffer.hpp"
#include "common/hip_check.hpp"
#include "common/hip_handles.hpp"
#include "nccl_transport.hpp"
#include "panel_broadcast.hpp"
#include "process_grid.hpp"

namespace {

struct Row {
    std::string transport;
    long long bytes;
    double median_us;
};

// The slowest rank's time for each repetition, then the median of those: a broadcast is done when
// the last rank has its panel.
double median_broadcast_us(step10::PanelTransport& transport, const step10::ProcessGrid& grid,
                           long long floats, int warmup, int iterations) {
    tutorial::DeviceBuffer<float> source(static_cast<std::size_t>(floats));
    tutorial::DeviceBuffer<float> destination(static_cast<std::size_t>(floats));
    const int height = static_cast<int>(floats);
    const step10::DevicePanel panel{grid.col() == 0 ? source.get() : nullptr, height, 1, height};
    std::vector<double> times;
    for (int i = 0; i < warmup + iterations; ++i) {
        MPI_Barrier(grid.world());
        const double start = MPI_Wtime();
        transport.start(step10::Direction::along_row, 0, panel, destination.get())->finish();
        double mine = (MPI_Wtime() - start) * 1e6, slowest = 0;
        MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, grid.world());
        if (i >= warmup)
            times.push_back(slowest);
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

int run(int argc, char** argv, int rank, int processes) {
    CLI::App app{
        "Times one panel broadcast from rank 0 to every rank (a 1 x P grid), by size, "
        "through NCCL (where this build and the ranks' GPUs allow) and through host "
        "memory and MPI; fits latency + bytes / bandwidth to the times."};
    long long max_bytes = 256ll << 20;
    int iterations = 20, warmup = 3;
    std::string json;
    app.add_option("--max-bytes", max_bytes, "the largest panel, in bytes (from 4, times 4)")
        ->check(CLI::Range(4ll, 1ll << 31));
    app.add_option("-i,--iterations", iterations, "timed repetitions of each size")
        ->check(CLI::Range(1, 1000));
    app.add_option("--warmup", warmup, "untimed repetitions first")->check(CLI::Range(0, 100));
    app.add_option("--json", json, "also write the times to this file (rank 0)");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        // --help exits 0; any bad input 2, on every rank alike.
        if (rank == 0)
            app.exit(error);
        return error.get_exit_code() == 0 ? 0 : 2;
    }
    const step10::ProcessGrid grid(MPI_COMM_WORLD, {1, processes});
    if (const auto reason = tutorial::gpu_unavailable_reason())
        throw std::runtime_error(*reason);
    const tutorial::DeviceInfo device =
        tutorial::select_device(grid.node_rank() % tutorial::device_count());
    const tutorial::Stream stream;
    std::vector<std::unique_ptr<step10::PanelTransport>> transports;
    std::vector<std::string> names;
    const auto no_nccl = step10::nccl_unavailable_reason(grid);
    if (!no_nccl) {
        transports.push_back(step10::nccl_transport(grid, stream.get()));
        names.push_back("nccl");
    } else if (rank == 0) {
        std::cout << "NCCL left out: " << *no_nccl << "\n";
    }
    transports.push_back(step10::host_staged_transport(grid, stream.get()));
    names.push_back("host");
    std::vector<Row> rows;
    for (std::size_t t = 0; t < transports.size(); ++t)
        for (long long bytes = 4; bytes <= max_bytes; bytes *= 4)
            rows.push_back(
                {names[t], bytes,
                 median_broadcast_us(*transports[t], grid, bytes / 4, warmup, iterations)});
    if (rank != 0)
        return 0;
    std::cout << "One broadcast from rank 0 to " << processes << " ranks on " << device.name
              << ", slowest rank, median of " << iterations
              << ":\n\n| transport | bytes | median (us) | GB/s |\n|---|---:|---:|---:|\n";
    for (const Row& row : rows) {
        char line[160];
        std::snprintf(line, sizeof line, "| %s | %lld | %.1f | %.2f |\n", row.transport.c_str(),
                      row.bytes, row.median_us, row.bytes / row.median_us / 1e3);
        std::cout << line;
    }
    // alpha: the smallest message's time; beta: from the two largest, where latency is small.
    std::cout << "\n";
    for (const std::string& name : names) {
        std::vector<Row> mine;
        for (const Row& row : rows)
            if (row.transport == name)
                mine.push_back(row);
        const Row& small = mine.front();
        const Row& big = mine.back();
        const Row& before = mine[mine.size() >= 2 ? mine.size() - 2 : 0];
        const double per_byte_us =
            mine.size() >= 2 ? (big.median_us - before.median_us) / double(big.bytes - before.bytes)
                             : big.median_us / double(big.bytes);
        std::printf(
            "%s: alpha %.1f us (a %lld-byte broadcast), bandwidth %.2f GB/s (from the "
            "two largest)\n",
            name.c_str(), small.median_us, small.bytes, 1e-3 / per_byte_us);
    }
    if (!json.empty()) {
        std::ofstream out(json);
        out << "{\n  \"ranks\": " << processes << ",\n  \"device\": \"" << device.name
            << "\",\n  \"iterations\": " << iterations << ",\n  \"broadcasts\": [\n";
        for (std::size_t i = 0; i < rows.size(); ++i)
            out << "    {\"transport\": \"" << rows[i].transport
                << "\", \"bytes\": " << rows[i].bytes << ", \"median_us\": " << rows[i].median_us
                << "}" << (i + 1 < rows.size() ? "," : "") << "\n";
        out << "  ]\n}\n";
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, processes = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &processes);
    int code = 0;
    try {
        code = run(argc, argv, rank, processes);
    } catch (const std::exception& error) {
        step10::abort_all_ranks("step10_broadcast_probe", error.what(), 3);
    }
    MPI_Finalize();
    return code;
}
