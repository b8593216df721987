/// \file
/// \brief Panels of B shared between devices: every worker needs every panel, so each brings only
/// its share of a panel's rows over its host link and copies the other shares from the other
/// devices' buffers over peer access (NVLink where the devices have it), once they are there.
#pragma once

#include <hip/hip_runtime.h>

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common/hip_handles.hpp"

namespace step09 {

/// Rows [first, first + count) of a panel of `k` rows.
struct RowShare {
    int first = 0;
    int count = 0;
};

/// The rows of a panel of `k` rows that entry `entry` of `entries` brings from the host: the k rows
/// cut into `entries` ranges as even as whole rows allow, in entry order.
RowShare row_share(int k, int entry, int entries);

/// Why the entries of `devices` cannot share panels, or nothing when they can: at least two
/// entries, no device listed twice (a device's entries would copy from themselves), and every
/// device able to read every other's memory.
std::optional<std::string> panel_sharing_unavailable(const std::vector<int>& devices);

/// panel_sharing_unavailable(), and where they can share, peer access enabled between every pair
/// (kept for the process, as the runtime keeps it). Leaves the current device as it was.
std::optional<std::string> enable_panel_sharing(const std::vector<int>& devices);

/// Thrown by a wait of PanelExchange when another worker failed, so that this one unwinds without
/// an error of its own: the failure that stopped it is the one the caller sees.
struct WorkerStopped {};

/// The shared copies of one call. The workers deal the chunks in turns (entry e takes chunks e,
/// e + entries, ...), so they run the same steps and copy the same panels in the same order: the
/// i-th shared copy of every worker is the same panel. For each one a worker publishes its share
/// (where it lands and an event that completes when it has), then copies the others' shares out of
/// their buffers, and publishes that it has. A worker refills a buffer of B only once every other
/// worker has copied its share out.
///
/// A stream can wait only for an event already recorded, so each wait first waits on the host until
/// the other worker has published; every worker publishes its share of a copy before it waits for
/// anyone else's, so no two wait for each other.
class PanelExchange {
  public:
    /// For `entries` workers; a wait gives up with WorkerStopped once `stop` is set.
    PanelExchange(std::size_t entries, const std::atomic<bool>& stop);

    /// Entry `entry` queued its share of its shared copy `copy` into `buffer` (the panel's buffer,
    /// row 0); `arrived`, recorded after it on the copy stream, completes once it is there.
    void publish_share(std::size_t entry, std::size_t copy, const float* buffer,
                       tutorial::Event arrived);
    /// Makes `stream` wait until entry `from`'s share of copy `copy` is in its buffer, which it
    /// returns.
    const float* wait_for_share(std::size_t from, std::size_t copy, hipStream_t stream);

    /// Entry `entry` queued the copies of the others' shares of copy `copy`; `pulled` completes
    /// once they are done.
    void publish_pulled(std::size_t entry, std::size_t copy, tutorial::Event pulled);
    /// Makes `stream` wait until entry `by` has copied the shares it needed out of copy `copy`.
    void wait_until_pulled(std::size_t by, std::size_t copy, hipStream_t stream);

  private:
    struct Published {
        const float* buffer = nullptr;
        std::optional<tutorial::Event> arrived, pulled;
    };
    // The record of entry `entry`'s copy `copy`, made on first use. With the mutex held.
    Published& record(std::size_t entry, std::size_t copy);
    // Waits on the host until `ready()` holds (with the mutex held), or throws WorkerStopped.
    template <class Ready>
    void wait(std::unique_lock<std::mutex>& lock, Ready ready);

    std::vector<std::deque<Published>> by_entry_;  // deques: records stay where they are
    std::mutex mutex_;
    std::condition_variable published_;
    const std::atomic<bool>& stop_;
};

}  // namespace step09
