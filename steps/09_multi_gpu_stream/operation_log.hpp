/// \file
/// \brief The copies and kernels one worker queued, each between two events, turned into its
/// statistics once its streams are done: its counts, its timeline, and its busy and hidden times.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/hip_handles.hpp"
#include "multi_gpu_gemm.hpp"
#include "timeline.hpp"

namespace step09 {

/// A worker's operations in the order it queued them. The events must outlive the log.
class OperationLog {
  public:
    /// One copy or kernel of chunk `chunk` (an index into Plan::chunks) and panel `panel` (-1 for
    /// a copy of A), recorded between `start` and `stop` on its stream.
    void add(Operation::Kind kind, std::size_t chunk, int panel, const tutorial::Event& start,
             const tutorial::Event& stop) {
        logged_.push_back({kind, chunk, panel, &start, &stop});
    }

    /// What the operations of `plan` add up to: the chunks, rows, tiles, panel copies and bytes,
    /// the timeline in milliseconds from `begin`, the span and the busy and hidden times. Every
    /// event must have completed. What the log does not know (the entry, its device, the panels
    /// by kernel, the bytes allocated and the host's times) is left to the caller.
    EntryStatistics statistics(const Plan& plan, const tutorial::Event& begin) const {
        EntryStatistics statistics;
        std::vector<Interval> kernels, copies;
        for (const Logged& logged : logged_) {
            const Interval interval{logged.start->milliseconds_since(begin),
                                    logged.stop->milliseconds_since(begin)};
            (logged.kind == Operation::Kind::kernel ? kernels : copies).push_back(interval);
            statistics.operations.push_back({logged.kind, static_cast<int>(logged.chunk),
                                             logged.panel, interval.begin, interval.end});
            statistics.span_ms = std::max(statistics.span_ms, interval.end);
            count(plan, logged, statistics);
        }
        statistics.compute_ms = covered_ms(kernels);
        statistics.copy_ms = covered_ms(copies);
        statistics.hidden_copy_ms = covered_by_both_ms(copies, kernels);
        return statistics;
    }

  private:
    struct Logged {
        Operation::Kind kind;
        std::size_t chunk;
        int panel;
        const tutorial::Event* start;
        const tutorial::Event* stop;
    };

    // Adds one operation to the counts and the bytes of `statistics`.
    static void count(const Plan& plan, const Logged& logged, EntryStatistics& statistics) {
        const Chunk& chunk = plan.chunks[logged.chunk];
        const std::uint64_t rows = static_cast<std::uint64_t>(chunk.rows);
        const std::uint64_t k = static_cast<std::uint64_t>(plan.k);
        const auto cols = [&] {
            const Panel& panel = plan.panels[static_cast<std::size_t>(logged.panel)];
            return static_cast<std::uint64_t>(panel.cols);
        };
        switch (logged.kind) {
            case Operation::Kind::copy_a:
                ++statistics.chunks;
                statistics.rows += chunk.rows;
                statistics.bytes_to_device += rows * k * sizeof(float);
                break;
            case Operation::Kind::copy_b:
                ++statistics.panel_copies;
                statistics.bytes_to_device += k * cols() * sizeof(float);
                break;
            case Operation::Kind::kernel:
                ++statistics.tiles;
                break;
            case Operation::Kind::copy_c:
                statistics.bytes_to_host += rows * cols() * sizeof(float);
                break;
        }
    }

    std::vector<Logged> logged_;
};

}  // namespace step09
