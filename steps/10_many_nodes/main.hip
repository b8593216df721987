/// \file
/// \brief Step 10's program, started as `mpirun -np P step10_many_nodes ...`: the 4x4 worked
/// example in 2 x 2 blocks over the process grid, then a multiply of any size by SUMMA, each rank
/// on its own GPU.
#include <hip/hip_runtime.h>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "common/command_line.hpp"
#include "common/device.hpp"
#include "common/device_buffer.hpp"
#include "common/device_ids.hpp"
#include "common/errors.hpp"
#include "common/hip_check.hpp"
#include "common/hip_handles.hpp"
#include "common/matrix.hpp"
#include "common/program.hpp"
#include "common/report.hpp"
#include "distributed_matrix.hpp"
#include "grid_shape.hpp"
#include "nccl_transport.hpp"
#include "process_grid.hpp"
#include "summa.hpp"
#include "test_hooks.hpp"

namespace {

const tutorial::StepDescription kStep{
    /*program=*/"step10_many_nodes",
    /*summary=*/
    "Step 10: C = A·B over the MPI ranks of a process grid by SUMMA: A, B and C dealt out in "
    "blocks as ScaLAPACK deals them, panels of A broadcast along process rows and panels of B "
    "along process columns, each rank multiplying with step 08's GEMM on its own GPU.",
    /*worked_example=*/
    "A = B = {{1,2,3,4},{5,6,7,8},{1,2,3,4},{5,6,7,8}} in float, in 2 x 2 blocks over the grid",
    /*default_size=*/4096,
    /*default_iterations=*/5,
    /*block_sizes=*/{},
    /*block_help=*/"",
    /*multi_device=*/true,
    /*extra_options=*/
    {{"--grid", "the process grid PRxPC, PR * PC = the number of ranks; auto = the squarest",
      "auto"},
     {"--block",
      "rows and columns of each block of the block-cyclic layout, also the width of each SUMMA "
      "panel",
      "64", "-b"},
     {"--transport",
      "how panels travel: nccl (GPU to GPU through NCCL, RCCL on AMD), host (through host memory "
      "and MPI) or auto (nccl where this build and the ranks' GPUs allow it, else host)",
      "auto"}},
    /*max_size=*/tutorial::kMaxDimension,
    /*int_indexing=*/true,
};

constexpr int kExampleBlock = 2;

/// What the command line asks of this step, checked alike on every rank before any work.
struct StepOptions {
    tutorial::Options common;
    step10::GridShape grid;
    int block = 0;
    std::string transport;
};

StepOptions parse_step_options(int argc, char** argv, int processes) {
    StepOptions options;
    options.common =
        tutorial::parse_command_line(kStep, std::vector<std::string>(argv + 1, argv + argc));
    options.grid = tutorial::parse_option(
        "--grid", [&] { return step10::parse_grid(options.common.extra.at("--grid"), processes); });
    options.block = static_cast<int>(tutorial::parse_whole_number(
        "--block", options.common.extra.at("--block"), 1, tutorial::kMaxDimension));
    options.transport = options.common.extra.at("--transport");
    if (options.transport != "auto" && options.transport != "nccl" && options.transport != "host") {
        throw tutorial::UsageError("--transport: '" + options.transport +
                                   "' is not a transport; expected auto, nccl or host");
    }
    return options;
}

// The inputs of the general multiply: element (row, col) of matrix `which` is a function of the
// seed and the place alone, so each rank makes its own part and rank 0 the whole for the check.
float input_value(std::uint64_t seed, int which, int row, int col) {
    std::uint64_t x = seed * 0x9E3779B97F4A7C15ull + (static_cast<std::uint64_t>(which) << 62) +
                      (static_cast<std::uint64_t>(row) << 31) + static_cast<std::uint64_t>(col);
    // splitmix64's finalizer: neighbouring places give unrelated values.
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    x ^= x >> 31;
    return static_cast<float>(x >> 40) / static_cast<float>(1 << 23) - 1.0f;  // in [-1, 1)
}

tutorial::Matrix<float> whole_matrix(int rows, int cols, std::uint64_t seed, int which) {
    tutorial::Matrix<float> matrix(rows, cols);
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j)
            matrix(i, j) = input_value(seed, which, i, j);
    return matrix;
}

// This rank's parts of A, B and C in device memory, for as many multiplies as the caller asks.
class DeviceParts {
  public:
    DeviceParts(const std::vector<float>& a, const std::vector<float>& b, std::size_t c_count)
        : a_(std::max<std::size_t>(a.size(), 1)),
          b_(std::max<std::size_t>(b.size(), 1)),
          c_(std::max<std::size_t>(c_count, 1)),
          c_count_(c_count) {
        HIP_CHECK(hipMemcpy(a_.get(), a.data(), sizeof(float) * a.size(), hipMemcpyHostToDevice));
        HIP_CHECK(hipMemcpy(b_.get(), b.data(), sizeof(float) * b.size(), hipMemcpyHostToDevice));
    }

    const float* a() const { return a_.get(); }
    const float* b() const { return b_.get(); }
    float* c() { return c_.get(); }

    std::vector<float> c_on_host() const {
        std::vector<float> c(c_count_);
        HIP_CHECK(hipMemcpy(c.data(), c_.get(), sizeof(float) * c_count_, hipMemcpyDeviceToHost));
        return c;
    }

  private:
    tutorial::DeviceBuffer<float> a_, b_, c_;
    std::size_t c_count_;
};

// Rank 0's result, on every rank, so that all return the same exit code.
int shared_exit_code(int code) {
    MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return code;
}

// Which rows (or columns) process `process` holds, e.g. "0-1" or "0 2".
std::string held(const step10::BlockCyclic& layout, int process) {
    std::string text;
    for (int local = 0; local < layout.local_count(process); ++local)
        text += (local ? " " : "") + std::to_string(layout.to_global(local, process));
    return text.empty() ? "none" : text;
}

// [worked example]
int run_worked_example(const StepOptions& options, const step10::ProcessGrid& grid) {
    const tutorial::Matrix<float> a{{1, 2, 3, 4}, {5, 6, 7, 8}, {1, 2, 3, 4}, {5, 6, 7, 8}};
    const tutorial::Matrix<float> b = a;
    const auto layout = step10::DistributedLayout::on(grid, 4, 4, kExampleBlock);
    const std::vector<float> a_local =
        step10::local_part(layout, [&](int i, int j) { return a(i, j); });
    const std::vector<float> b_local =
        step10::local_part(layout, [&](int i, int j) { return b(i, j); });
    DeviceParts parts(a_local, b_local, layout.local_size());
    const tutorial::Stream stream;
    step10::gemm(parts.a(), parts.b(), parts.c(), 4, 4, 4, kExampleBlock, grid, stream.get());
    const tutorial::Matrix<float> c = step10::gather_on_root(layout, parts.c_on_host(), grid);
    // [worked example]
    if (grid.rank() != 0)
        return shared_exit_code(0);
    if (!options.common.quiet) {
        std::cout << "Process grid " << step10::to_string(grid.shape()) << ", blocks of "
                  << kExampleBlock << " x " << kExampleBlock << "; C's rows and columns by rank:\n";
        for (int rank = 0; rank < grid.shape().size(); ++rank) {
            const int row = rank / grid.shape().cols, col = rank % grid.shape().cols;
            std::cout << "  rank " << rank << " at (" << row << ", " << col << "): rows "
                      << held(layout.row_layout(), row) << ", columns "
                      << held(layout.col_layout(), col) << "\n";
        }
    }
    return shared_exit_code(tutorial::report_worked_example(
        options.common, "Worked example: A (4 x 4) times B (4 x 4) in float, by SUMMA", a, b, c));
}

int run_general(const StepOptions& options, const step10::ProcessGrid& grid,
                const tutorial::DeviceInfo& device, const std::optional<std::string>& no_nccl) {
    const tutorial::Options& common = options.common;
    const int m = common.m, n = common.n, k = common.k, block = options.block;
    const bool root = grid.rank() == 0;
    if (root && !common.quiet) {
        std::cout << "\nGeneral multiply on " << grid.shape().size()
                  << (grid.shape().size() == 1 ? " rank" : " ranks") << ", grid "
                  << step10::to_string(grid.shape()) << ", blocks of " << block << " x " << block
                  << ": C (" << m << " x " << n << ") = A (" << m << " x " << k << ") B (" << k
                  << " x " << n << "), random values in [-1, 1), seed " << common.seed << "\n";
    }
    const tutorial::Stream stream;
    const tutorial::Stream copy_stream;
    // [choose transport]
    // Every rank reached the same answer (the reason is collective), so all take one transport.
    const bool nccl = options.transport != "host" && !no_nccl;
    const auto transport = nccl ? step10::nccl_transport(grid, copy_stream.get())
                                : step10::host_staged_transport(grid, copy_stream.get());
    // [choose transport]
    if (root && !common.quiet) {
        std::cout << (nccl ? "Panels travel GPU to GPU through NCCL"
                           : "Panels travel through host memory and MPI")
                  << (options.transport == "auto" && no_nccl ? " (" + *no_nccl + ")" : "") << "\n";
    }
    const auto a_layout = step10::DistributedLayout::on(grid, m, k, block);
    const auto b_layout = step10::DistributedLayout::on(grid, k, n, block);
    const auto c_layout = step10::DistributedLayout::on(grid, m, n, block);
    const std::uint64_t seed = common.seed;
    DeviceParts parts(
        step10::local_part(a_layout, [&](int i, int j) { return input_value(seed, 0, i, j); }),
        step10::local_part(b_layout, [&](int i, int j) { return input_value(seed, 1, i, j); }),
        c_layout.local_size());
    auto multiply = [&] {
        MPI_Barrier(grid.world());
        step10::gemm(parts.a(), parts.b(), parts.c(), m, n, k, block, grid, *transport,
                     stream.get());
    };
    tutorial::RunReport report;
    report.step = "10";
    report.variant = nccl ? "summa_nccl" : "summa_host_staged";
    report.device = device.name + " x " + std::to_string(grid.shape().size()) +
                    (grid.shape().size() == 1 ? " rank" : " ranks");
    report.m = m;
    report.n = n;
    report.k = k;
    std::optional<tutorial::TimingSummary> timing;
    if (common.timing) {
        // The slowest rank's times: the multiply is done when the last rank is.
        tutorial::TimingSummary mine =
            tutorial::time_on_host(common.warmup, common.iterations, multiply);
        timing = mine;
        MPI_Reduce(&mine.median_ms, &timing->median_ms, 1, MPI_DOUBLE, MPI_MAX, 0, grid.world());
        MPI_Reduce(&mine.min_ms, &timing->min_ms, 1, MPI_DOUBLE, MPI_MAX, 0, grid.world());
        report.end_to_end_ms = timing->median_ms;
    } else {
        multiply();
    }
    tutorial::Matrix<float> a, b, c;
    if (common.verify) {
        c = step10::gather_on_root(c_layout, parts.c_on_host(), grid);
        if (root) {
            a = whole_matrix(m, k, seed, 0);
            b = whole_matrix(k, n, seed, 1);
        }
    }
    if (!root)
        return shared_exit_code(0);
    return shared_exit_code(
        tutorial::report_general_multiply(common, report, a, b, c, [&](std::ostream& out) {
            if (timing) {
                out << "SUMMA, parts in device memory, slowest rank: median " << timing->median_ms
                    << " ms, min " << timing->min_ms << " ms over " << timing->repetitions
                    << " runs"
                    << (tutorial::hip_runs_on_cpu() ? " (HIP on the CPU: for checking, not speed)"
                                                    : "")
                    << "\n";
            }
        }));
}

// [node device]
// Every rank takes a GPU of its node by its place there: rank i of a node takes the node's
// device i (of --devices, or of all), in turn when the node has more ranks than devices.
tutorial::DeviceInfo select_node_device(const StepOptions& options,
                                        const step10::ProcessGrid& grid) {
    if (const auto reason = tutorial::gpu_unavailable_reason())
        throw tutorial::RuntimeFailure(*reason);
    std::vector<int> devices = options.common.devices;
    for (const int id : devices) {
        if (const auto reason = tutorial::missing_device_reason(id, tutorial::device_count()))
            throw tutorial::UsageError("--devices: " + *reason);
    }
    if (devices.empty()) {
        for (int id = 0; id < tutorial::device_count(); ++id)
            devices.push_back(id);
    }
    const int device = devices[static_cast<std::size_t>(grid.node_rank()) % devices.size()];
    const tutorial::DeviceInfo info = tutorial::select_device(device);
    // [node device]
    std::vector<int> taken(static_cast<std::size_t>(grid.shape().size()));
    MPI_Gather(&info.id, 1, MPI_INT, taken.data(), 1, MPI_INT, 0, grid.world());
    if (grid.rank() == 0 && !options.common.quiet) {
        std::cout << grid.shape().size() << (grid.shape().size() == 1 ? " rank" : " ranks")
                  << " on a " << step10::to_string(grid.shape()) << " grid; rank 0, the first of "
                  << grid.node_size() << " on its node, runs on device " << info.id << " ("
                  << info.name << "); devices by rank:";
        for (const int id : taken)
            std::cout << " " << id;
        std::cout << (grid.node_size() > static_cast<int>(devices.size())
                          ? " (the node has more ranks than devices, so some share one)"
                          : "")
                  << "\n\n";
    }
    return info;
}

int run(int argc, char** argv, int rank, int processes) {
    StepOptions options;
    // Every rank reads the same command line, so every rank refuses bad input alike, before any
    // allocation or communication; rank 0 alone says why.
    try {
        options = parse_step_options(argc, argv, processes);
    } catch (const tutorial::HelpRequested& help) {
        if (rank == 0)
            std::cout << help.what();
        return tutorial::kExitVerified;
    } catch (const tutorial::UsageError& error) {
        if (rank == 0)
            std::cerr << kStep.program << ": " << error.what() << "\nRun '" << kStep.program
                      << " --help' for the options.\n";
        return tutorial::kExitBadUsage;
    }
    if (const char* failing = std::getenv("STEP10_TEST_FAIL_RANK"))
        step10::test_hooks::fail_on_rank(std::atoi(failing));
    try {
        if (rank == 0 && !options.common.quiet)
            std::cout << kStep.summary << "\n\n";
        const step10::ProcessGrid grid(MPI_COMM_WORLD, options.grid);
        const tutorial::DeviceInfo device = select_node_device(options, grid);
        // Whether NCCL can carry the panels: collective, so every rank refuses --transport nccl
        // alike, before any work.
        const std::optional<std::string> no_nccl = step10::nccl_unavailable_reason(grid);
        if (options.transport == "nccl" && no_nccl) {
            if (rank == 0) {
                std::cerr << kStep.program << ": --transport nccl: " << *no_nccl << "\nRun '"
                          << kStep.program << " --help' for the options.\n";
            }
            return tutorial::kExitBadUsage;
        }
        const int example = run_worked_example(options, grid);
        if (example != tutorial::kExitVerified || options.common.example_only)
            return example;
        return run_general(options, grid, device, no_nccl);
    } catch (const tutorial::UsageError& error) {
        step10::abort_all_ranks(kStep.program, error.what(), tutorial::kExitBadUsage);
    } catch (const std::bad_alloc&) {
        step10::abort_all_ranks(kStep.program, "out of host memory; try smaller sizes",
                                tutorial::kExitRuntimeFailure);
    } catch (const std::exception& error) {
        step10::abort_all_ranks(kStep.program, error.what(), tutorial::kExitRuntimeFailure);
    }
}

}  // namespace

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, processes = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &processes);
    const int code = run(argc, argv, rank, processes);
    MPI_Finalize();
    return code;
}
