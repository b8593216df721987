// Step 09's entry points: the plan made once, the host matrices page-locked for the call, one
// worker thread per device entry (chunk_stream.hip), and every error brought back to the caller
// once all the workers have stopped.
#include "multi_gpu_gemm.hpp"

#include <hip/hip_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <exception>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "chunk_stream.hpp"
#include "chunk_workspace.hpp"
#include "common/errors.hpp"
#include "common/hip_check.hpp"
#include "host_registration.hpp"
#include "panel_exchange.hpp"

namespace step09 {
namespace {

std::size_t elements(int rows, int cols) {
    return static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
}

double milliseconds(std::chrono::steady_clock::duration duration) {
    return std::chrono::duration<double, std::milli>(duration).count();
}

// One worker's whole life on its thread: its device, its chunks, its statistics.
void work(Job& job, int entry, Workspace::Entry& buffers, EntryStatistics& statistics) {
    HIP_CHECK(hipSetDevice(job.options.devices[static_cast<std::size_t>(entry)]));
    HostPhases phases;
    statistics = stream_chunks(job, entry, buffers, phases);
    statistics.setup_ms = milliseconds(phases.ready - phases.start);
    statistics.teardown_ms = milliseconds(HostPhases::Clock::now() - phases.finished);
}

}  // namespace

GemmStatistics gemm(const float* a, const float* b, float* c, int m, int n, int k,
                    const MultiGpuOptions& options) {
    if (m < 0 || n < 0 || k < 0)
        throw std::invalid_argument("step09::gemm: negative size");
    if (m == 0 || n == 0)
        return {};  // C is empty
    if (a == nullptr || b == nullptr || c == nullptr)
        throw std::invalid_argument("step09::gemm: a null matrix pointer");
    if (k == 0) {
        std::fill(c, c + elements(m, n), 0.0f);  // empty sums
        return {};
    }
    return gemm(a, b, c, plan_for(m, n, k, options), options);
}

GemmStatistics gemm(const float* a, const float* b, float* c, const Plan& plan,
                    const MultiGpuOptions& options) {
    Workspace workspace;  // freed when the call returns
    return gemm(a, b, c, plan, options, workspace);
}

GemmStatistics gemm(const float* a, const float* b, float* c, const Plan& plan,
                    const MultiGpuOptions& options, Workspace& workspace) {
    if (a == nullptr || b == nullptr || c == nullptr)
        throw std::invalid_argument("step09::gemm: a null matrix pointer");
    if (plan.entries != static_cast<int>(options.devices.size()) || plan.chunks.empty() ||
        plan.panels.empty()) {
        throw std::invalid_argument(
            "step09::gemm: the plan was made for " + std::to_string(plan.entries) +
            " device entries, the options list " + std::to_string(options.devices.size()));
    }
    const int m = plan.m, n = plan.n, k = plan.k;
    const auto start = std::chrono::steady_clock::now();
    GemmStatistics result;
    result.plan = plan;
    const HostRegistration registration(options.host_memory == HostMemory::pageable,
                                        {{a, elements(m, k) * sizeof(float)},
                                         {b, elements(k, n) * sizeof(float)},
                                         {c, elements(m, n) * sizeof(float)}});
    result.host_memory = registration.note();

    // One worker thread per entry; each one's error is kept and the first rethrown here once all
    // have stopped and the workspace is released, so no thread outlives the call and a failed
    // call leaves no device memory allocated.
    const std::size_t entries = options.devices.size();
    Job job{a, b, c, result.plan, options};
    result.entries.resize(entries);
    std::vector<Workspace::Entry*> buffers;  // taken here: the workspace grows on this thread only
    for (std::size_t entry = 0; entry < entries; ++entry)
        buffers.push_back(&workspace.entry(entry));
    // Shared panels: the workers then run in step, each waiting for the others' shares.
    std::unique_ptr<PanelExchange> exchange;
    if (options.share_panels) {
        const std::optional<std::string> why_not =
            plan.chunks.size() < entries ? std::optional<std::string>("fewer chunks than entries")
                                         : enable_panel_sharing(options.devices);
        if (!why_not) {
            exchange = std::make_unique<PanelExchange>(entries, job.stop);
            job.exchange = exchange.get();
        }
        result.panel_sharing =
            why_not ? "each device brings whole panels (not shared: " + *why_not + ")"
                    : "shared: each device brings its share of a panel's rows from the host, the "
                      "rest from the other devices";
    } else {
        result.panel_sharing = "each device brings whole panels (sharing off)";
    }
    result.panels_shared = exchange != nullptr;
    std::vector<std::exception_ptr> errors(entries);
    std::vector<std::thread> threads;
    auto join_all = [&] {
        for (std::thread& thread : threads)
            thread.join();
    };
    try {
        for (std::size_t entry = 0; entry < entries; ++entry) {
            threads.emplace_back([&, entry] {
                try {
                    work(job, static_cast<int>(entry), *buffers[entry], result.entries[entry]);
                } catch (const WorkerStopped&) {
                    // Stopped by another worker's failure, which is the error to report.
                } catch (...) {
                    errors[entry] = std::current_exception();
                    job.stop = true;
                }
            });
        }
    } catch (const std::system_error& error) {
        job.stop = true;
        join_all();
        workspace.release();
        throw tutorial::RuntimeFailure(std::string("could not start a worker thread: ") +
                                       error.what());
    }
    join_all();
    for (const std::exception_ptr& error : errors) {
        if (error) {
            workspace.release();  // a failed call keeps no device memory
            std::rethrow_exception(error);
        }
    }
    result.wall_ms = milliseconds(std::chrono::steady_clock::now() - start);
    return result;
}

}  // namespace step09
