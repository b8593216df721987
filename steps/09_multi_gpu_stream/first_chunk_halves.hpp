/// \file
/// \brief How a chunk's rows of A reach the device: in one copy, or, for a worker's first chunk,
/// in two halves, so that the first kernel starts on the top half while the rest is on its way.
#pragma once

#include <hip/hip_runtime.h>

#include <functional>

#include "common/hip_handles.hpp"

namespace step09 {

/// The arrival of one chunk's rows of A, and the multiply that waits for it.
class ChunkArrival {
  public:
    /// Does something to rows [first, first + rows) of the chunk: copies them in, or multiplies
    /// them.
    using RowAction = std::function<void(int first, int rows)>;

    /// Queues on `stream` the copy of the chunk's `rows` rows with `copy_rows`: all of them, or,
    /// for a worker's first chunk, the top rows of first_chunk_top_rows() (schedule.hpp).
    void copy(int rows, bool first_chunk, const RowAction& copy_rows, hipStream_t stream);
    /// Queues the copy of the rest of the rows, where the chunk comes in two pieces (nothing
    /// otherwise): the worker calls it once the first panel of B is queued.
    void copy_rest(const RowAction& copy_rows, hipStream_t stream);

    /// Makes `stream` wait until the rows that the first kernel of a tile needs are in: the top
    /// rows for the worker's first tile of a chunk in two pieces, all of them otherwise.
    void wait_for_rows(bool first_tile, hipStream_t stream) const;
    /// Queues the multiply of the chunk's rows with `multiply_rows` on `stream`, after
    /// wait_for_rows(): for the worker's first tile of a chunk in two pieces, one kernel on the
    /// top rows and, once the rest is in, one on the rest; one kernel otherwise.
    void multiply(bool first_tile, const RowAction& multiply_rows, hipStream_t stream) const;

    /// Recorded before the first piece and after the last, for the timeline.
    const tutorial::Event& started() const { return started_; }
    const tutorial::Event& arrived() const { return arrived_; }

  private:
    int rows_ = 0;
    int top_rows_ = 0;  // rows in the first piece; 0: copied in one piece
    tutorial::Event started_, top_arrived_, arrived_;
};

}  // namespace step09
