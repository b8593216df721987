/// \file
/// \brief The measured runs of `multi_gpu_benchmark`: its settings, its inputs, the watch over the
/// devices' free memory, and the runs of the inner kernel alone and of step 09 streamed, each timed
/// and verified.
#pragma once

#include <hip/hip_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "common/device_buffer.hpp"
#include "common/hip_check.hpp"
#include "common/report.hpp"
#include "inner_kernel.hpp"
#include "multi_gpu_gemm.hpp"

namespace bench::multi_gpu {

/// The command line.
struct Settings {
    int n = 16384;
    int resident_n = 0;                 // size of the resident rows; 0: n, where it fits
    std::string devices;                // comma-separated ids; empty: all devices
    std::string device_memory = "all";  // all: free memory; auto: (A + B + C) / 3
    std::string inner = std::string(step09::kInnerKernels[0].name) + ",vendor";  // default, BLAS
    std::string block_dims;     // comma-separated; empty: default_block_dims(n)
    std::string tiledmm_tiles;  // comma-separated; empty: default_tiledmm_tiles(n); none: no rows
    std::string tiledmm_streams = "2,3,4";
    int iterations = 5;
    int warmup = 1;  // untimed runs before the timed ones
    int chunk_rows = 0;
    int panel_cols = 0;
    std::string panel_copy = step09::panel_copy_name(step09::PanelCopy::first_by_kernel);
    std::string share_panels = "on";  // on: devices that can share panels of B do (off: never)
    std::string json_path;
    std::string trace_path;
    std::string commit = "unknown";
    std::uint64_t seed = 42;
};

/// One measured row.
struct Measurement {
    std::string what;   // "resident", "stream", "cublasxt" or "tiledmm"
    std::string inner;  // the inner kernel, or the library
    int n = 0;          // m = n = k of this row (the resident rows may have their own)
    std::vector<int> devices;
    int block_dim = 0;  // cuBLASXt's block dim; 0 for the others
    int tile = 0;       // Tiled-MM's tile edge (for m, n and k alike); 0 for the others
    int streams = 0;    // Tiled-MM's number of streams; 0 for the others
    // Empty for a measured row; "not built" or "not run" for a peer that could not be measured,
    // with the reason in why_not (and no timing).
    std::string status;
    std::string why_not;
    // For the stream rows: "option" (the budget of --device-memory) or "cublasxt" (the memory
    // the fastest cuBLASXt configuration used).
    std::string budget_from;
    tutorial::TimingSummary timing;
    bool verified = false;
    std::uint64_t memory_used = 0;  // the largest fall of free memory over the devices (sampled)
    std::uint64_t plan_bytes = 0;   // stream rows: the plan's buffers on the busiest device
    std::optional<step09::GemmStatistics> statistics;  // stream rows: the last run
};

/// Adds a measured row to the run's rows (and prints it).
using Record = std::function<void(Measurement)>;

/// Watches the free memory of some devices from a host thread while it lives. used() is how far
/// it fell below where it stood when the watch began, at most over the devices: the memory the
/// work in between took, whoever allocated it (a library's own buffers and workspaces included).
class FreeMemoryWatch {
  public:
    explicit FreeMemoryWatch(std::vector<int> devices)
        : devices_(std::move(devices)), start_(devices_.size()), lowest_(devices_.size()) {
        int current = 0;
        HIP_CHECK(hipGetDevice(&current));
        for (std::size_t i = 0; i < devices_.size(); ++i)
            start_[i] = lowest_[i] = free_bytes(devices_[i]).value_or(0);
        HIP_CHECK(hipSetDevice(current));
        thread_ = std::thread([this] {
            while (!stop_.load()) {
                sample();
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
        });
    }
    ~FreeMemoryWatch() { stop(); }
    FreeMemoryWatch(const FreeMemoryWatch&) = delete;
    FreeMemoryWatch& operator=(const FreeMemoryWatch&) = delete;

    // Stops watching and returns the largest fall of free memory over the devices.
    std::uint64_t used() {
        stop();
        std::uint64_t most = 0;
        for (std::size_t i = 0; i < devices_.size(); ++i)
            most =
                std::max<std::uint64_t>(most, start_[i] > lowest_[i] ? start_[i] - lowest_[i] : 0);
        return most;
    }

  private:
    // A failed reading is skipped: the watch must not disturb the work it watches.
    static std::optional<std::size_t> free_bytes(int device) {
        std::size_t free_memory = 0, total_memory = 0;
        if (hipSetDevice(device) != hipSuccess ||
            hipMemGetInfo(&free_memory, &total_memory) != hipSuccess) {
            (void)hipGetLastError();
            return std::nullopt;
        }
        return free_memory;
    }
    void sample() {
        for (std::size_t i = 0; i < devices_.size(); ++i) {
            if (const auto now = free_bytes(devices_[i]))
                lowest_[i] = std::min(lowest_[i], *now);
        }
    }
    void stop() {
        if (!thread_.joinable())
            return;
        stop_ = true;
        thread_.join();
    }

    std::vector<int> devices_;
    std::vector<std::size_t> start_, lowest_;
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

/// The inputs and the result, in pinned host memory only: the step and cuBLASXt copy from it, and
/// the check reads it where it is, so that the host holds three n x n matrices and no more (at
/// n = 90000, 97 GB). Filled on all cores, each piece from a generator of its own seeded by the
/// seed and the piece, so the same seed gives the same matrices on any machine.
struct Inputs {
    int n;
    tutorial::PinnedBuffer<float> host_a, host_b, host_c;

    Inputs(int size, std::uint64_t seed);

    // All bits set is a NaN: an element that no run writes fails the verification.
    void poison_c();

    /// Checks C (tutorial::check_product: element-wise for small n, Freivalds' check of all of C
    /// above) and says so on stdout; a failure also goes to stderr with `what`.
    bool verify_c(const std::string& what) const;
};

/// Host wall time of `multiply` (which leaves C in inputs.host_c): settings.warmup untimed runs,
/// then the median of settings.iterations; the memory used is what `watch` saw from its start to
/// the end of the last run.
void time_from_host(Measurement& result, Inputs& inputs, const Settings& settings,
                    FreeMemoryWatch& watch, const std::function<void()>& multiply);

/// `devices` sorted, each once.
std::vector<int> distinct(std::vector<int> devices);

/// The inner kernel alone, on matrices in the first device's memory (uploaded from `inputs`, at
/// inputs.n), event-timed.
Measurement measure_resident(step09::InnerKernel inner, int device, Inputs& inputs,
                             const Settings& settings);

/// The plans do not depend on the inner kernel: any one makes them.
constexpr step09::InnerKernel kPlanningKernel = step09::kInnerKernels[0].kernel;

/// The options of the step on `devices` with `budget` per entry (nothing: all).
step09::MultiGpuOptions stream_options(step09::InnerKernel inner, const std::vector<int>& devices,
                                       const Settings& settings,
                                       std::optional<std::uint64_t> budget);

/// The step following `plan`, the one printed for it, made by plan_for() for `options`.
Measurement measure_stream(const step09::Plan& plan, const step09::MultiGpuOptions& options,
                           const std::string& budget_from, const Settings& settings,
                           Inputs& inputs);

/// The row of `rows` with these fields, or nullptr.
const Measurement* find(const std::vector<Measurement>& rows, const std::string& what,
                        const std::string& inner, const std::vector<int>& devices,
                        const std::string& budget_from = "");

/// The fastest verified row of `rows` that measured `what` ("cublasxt", "tiledmm") on `devices`:
/// a peer at its best over its sweep. Nullptr when there is none.
const Measurement* fastest(const std::vector<Measurement>& rows, const std::string& what,
                           const std::vector<int>& devices);

}  // namespace bench::multi_gpu
