/// \file
/// \brief Step 09's core, as step09::gemm calls it: one worker per device entry, streaming chunks
/// of A from a shared queue and panels of B through its device (chunk_stream.hip).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>

#include "chunk_workspace.hpp"
#include "multi_gpu_gemm.hpp"
#include "panel_exchange.hpp"

namespace step09 {

/// What the workers share: the matrices, the plan, the queue of chunks and the stop flag.
struct Job {
    const float* a;
    const float* b;
    float* c;
    const Plan& plan;
    const MultiGpuOptions& options;
    std::atomic<std::size_t> next_chunk{0};  ///< the queue: the next chunk nobody has taken
    std::atomic<bool> stop{false};           ///< set when a worker fails: the others stop taking
    /// Where the workers share panels of B (panel_exchange.hpp); null when each brings its own.
    /// With it the chunks are dealt in turns instead of taken from the queue.
    PanelExchange* exchange = nullptr;
};

/// Moments of a worker's life on the host clock, for its set-up and tear-down times.
struct HostPhases {
    using Clock = std::chrono::steady_clock;
    Clock::time_point start = Clock::now();  ///< before the worker is made
    Clock::time_point ready;                 ///< its streams and first buffers exist
    Clock::time_point finished;              ///< its streams are done
};

/// Runs the worker of device entry `entry` on the calling thread, with its device current and the
/// buffers of `buffers`: it takes chunks from `job`'s queue until the queue is empty or another
/// worker failed, and returns what it did once its streams are done. Sets phases.ready and
/// phases.finished; the host times of the statistics are the caller's to fill in.
EntryStatistics stream_chunks(Job& job, int entry, Workspace::Entry& buffers, HostPhases& phases);

}  // namespace step09
