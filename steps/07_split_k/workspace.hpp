/// \file
/// \brief Step 07's workspace: device memory for partial tiles (and, in step 08, packed copies),
/// kept per device from one multiply to the next as a BLAS handle keeps its own.
#pragma once

#include <hip/hip_runtime.h>

#include <cstddef>
#include <map>
#include <mutex>

#include "common/hip_check.hpp"
#include "k_split.hpp"

namespace step07 {

/// The counts of stream-K's shared tiles that a workspace holds: one per shared tile, and a
/// multiply shares fewer tiles than it has workers.
constexpr std::size_t kArrivalCounts = kMaxWorkers;

// [workspace]
/// The workspace of every device, kept from call to call: allocating hundreds of MiB on every call
/// would cost more than the split or the packing gains. Each device's `ready` event is recorded on
/// the stream of the last multiply that used its buffer; the next multiply, on whatever stream,
/// waits for it before writing, so two streams never use the buffer at once.
class Workspaces {
  public:
    Workspaces() = default;
    Workspaces(const Workspaces&) = delete;
    Workspaces& operator=(const Workspaces&) = delete;
    ~Workspaces();

    /// Queues `use(buffer, arrivals)` on `stream` with a buffer of at least `floats` floats and
    /// stream-K's counts (zeros) on the current device, after every earlier use of them, and
    /// marks them busy until that work is done. Throws tutorial::RuntimeFailure when the buffer
    /// cannot be allocated.
    template <class Use>
    void run(std::size_t floats, hipStream_t stream, const Use& use) {
        const std::lock_guard<std::mutex> lock(mutex_);
        Entry& entry = prepare(floats, stream);
        use(entry.data, entry.arrivals);
        HIP_CHECK(hipEventRecord(entry.ready, stream));
        entry.recorded = true;
    }

  private:
    struct Entry {
        float* data = nullptr;
        std::size_t floats = 0;
        int* arrivals = nullptr;  // zero between multiplies
        hipEvent_t ready = nullptr;
        bool recorded = false;  // `ready` marks a use (waiting on a fresh event is undefined)
    };

    // The current device's entry with room for `floats`, `stream` waiting for its last use.
    Entry& prepare(std::size_t floats, hipStream_t stream);

    std::mutex mutex_;
    std::map<int, Entry> by_device_;
};
// [workspace]

/// The process's workspaces, shared by steps 07 and 08.
Workspaces& workspaces();

}  // namespace step07
