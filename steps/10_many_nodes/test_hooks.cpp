#include "test_hooks.hpp"

#include <atomic>

namespace step10::test_hooks {

namespace {
std::atomic<int> failing_rank{-1};
}

void fail_on_rank(int rank) {
    failing_rank = rank;
}

bool fails_on(int rank) {
    return rank == failing_rank;
}

}  // namespace step10::test_hooks
