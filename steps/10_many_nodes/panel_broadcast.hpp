/// \file
/// \brief The seam between SUMMA and the wire: a panel broadcast along a process row or column,
/// started now and finished later, and its one implementation in this part, host-staged MPI
/// (device to host, MPI_Ibcast, host to device). A GPU-to-GPU transport (NCCL / RCCL) would be a
/// second implementation of PanelTransport; SUMMA would not change.
#pragma once

#include <hip/hip_runtime.h>

#include <memory>

#include "process_grid.hpp"

namespace step10 {

/// Which ranks a panel goes to: A's panels travel along the process row (every rank of the row
/// multiplies with them), B's along the process column.
enum class Direction { along_row, along_col };

/// A panel in device memory: `width` columns of `height` floats, column c starting at
/// `data + c * pitch` (column-major, `pitch` >= `height`).
struct DevicePanel {
    const float* data = nullptr;
    int height = 0;
    int width = 0;
    int pitch = 0;

    long long count() const { return static_cast<long long>(height) * width; }
};

/// One broadcast under way.
class PendingBroadcast {
  public:
    virtual ~PendingBroadcast() = default;
    /// Lets the broadcast advance without waiting (MPI moves messages on only inside its calls)
    /// and says whether it has reached this rank.
    virtual bool test() = 0;
    /// Waits until the panel is in the destination given to PanelTransport::start(), in device
    /// memory, ready for a kernel.
    virtual void finish() = 0;
};

/// Moves panels between the ranks of the grid.
class PanelTransport {
  public:
    virtual ~PanelTransport() = default;
    /// Starts the broadcast of `source`, read on the rank at place `root` of the row or column
    /// (its process column for along_row, its process row for along_col), into `destination`
    /// on every rank of that row or column, the root included: height * width floats,
    /// column-major without gaps (pitch = height). Collective over the row or column; every rank
    /// of it passes the same `root`, `height` and `width`. The transport reads and writes on a
    /// stream of its own: no work may still be pending on `source` or `destination` elsewhere.
    virtual std::unique_ptr<PendingBroadcast> start(Direction direction, int root,
                                                    DevicePanel source, float* destination) = 0;
};

/// The transport of this part: the root copies the panel to host memory, MPI_Ibcast sends it
/// along the row or column communicator of `grid`, and each rank copies it to its device, on
/// `copy_stream`. Works wherever MPI does, GPU-aware or not.
std::unique_ptr<PanelTransport> host_staged_transport(const ProcessGrid& grid,
                                                      hipStream_t copy_stream);

}  // namespace step10
