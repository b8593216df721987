/// \file
/// \brief The copies and kernels one worker queued, each between two events, turned into its
/// timeline and its busy and hidden times once its streams are done.
#pragma once

#include <algorithm>
#include <cstddef>
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

    /// Fills the operations, the span and the busy and hidden times of `statistics`, in
    /// milliseconds from `begin`. Every event must have completed.
    void fill(EntryStatistics& statistics, const tutorial::Event& begin) const {
        std::vector<Interval> kernels, copies;
        for (const Logged& logged : logged_) {
            const Interval interval{logged.start->milliseconds_since(begin),
                                    logged.stop->milliseconds_since(begin)};
            (logged.kind == Operation::Kind::kernel ? kernels : copies).push_back(interval);
            statistics.operations.push_back({logged.kind, static_cast<int>(logged.chunk),
                                             logged.panel, interval.begin, interval.end});
            statistics.span_ms = std::max(statistics.span_ms, interval.end);
        }
        statistics.compute_ms = covered_ms(kernels);
        statistics.copy_ms = covered_ms(copies);
        statistics.hidden_copy_ms = covered_by_both_ms(copies, kernels);
    }

  private:
    struct Logged {
        Operation::Kind kind;
        std::size_t chunk;
        int panel;
        const tutorial::Event* start;
        const tutorial::Event* stop;
    };
    std::vector<Logged> logged_;
};

}  // namespace step09
