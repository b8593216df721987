#include "test_hooks.hpp"

#include <atomic>

namespace step09::test_hooks {
namespace {

// The entry whose allocations fail, -1 for none. Atomic: the workers read it on their threads.
std::atomic<int> failing_entry{-1};

}  // namespace

FailAllocationOnEntry::FailAllocationOnEntry(int entry) {
    failing_entry = entry;
}

FailAllocationOnEntry::~FailAllocationOnEntry() {
    failing_entry = -1;
}

bool allocation_fails_on(std::size_t entry) {
    const int failing = failing_entry.load();
    return failing >= 0 && static_cast<std::size_t>(failing) == entry;
}

}  // namespace step09::test_hooks
