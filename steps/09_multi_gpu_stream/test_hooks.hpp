/// \file
/// \brief Faults that step 09's tests inject into step09::gemm, kept out of its public options:
/// a program never includes this header.
#pragma once

#include <cstddef>

namespace step09::test_hooks {

/// While an object of this class lives, device entry `entry` of every step09::gemm call fails to
/// allocate its device memory: it asks for more than any device has, so the real allocation path
/// fails with its real message, and it never reuses a Workspace's buffers. Tests use it to check
/// that the other workers stop, nothing hangs, the error reaches the caller and all device memory
/// is released. One at a time.
class FailAllocationOnEntry {
  public:
    explicit FailAllocationOnEntry(int entry);
    ~FailAllocationOnEntry();
    FailAllocationOnEntry(const FailAllocationOnEntry&) = delete;
    FailAllocationOnEntry& operator=(const FailAllocationOnEntry&) = delete;
};

/// Whether device entry `entry` is to fail its allocations now.
bool allocation_fails_on(std::size_t entry);

}  // namespace step09::test_hooks
