#include "schedule.hpp"

#include <algorithm>

namespace step09 {

// join_step() pairs chunks (local / 2, local % 2): two at a time, sharing every panel, and one
// more buffer of A for the chunk that arrives while they compute.
static_assert(kChunksAtOnce == 2, "join_step() and take_step() schedule chunks in pairs");
static_assert(kChunkBuffers == kChunksAtOnce + 1,
              "a worker holds the chunks computing and one arriving");

// [join]
std::size_t join_step(std::size_t local, std::size_t panels) {
    if (panels == 1)
        return local;
    return local / kChunksAtOnce * panels + local % kChunksAtOnce;
}

std::size_t take_step(std::size_t local, std::size_t panels) {
    const std::size_t join = join_step(local, panels);
    if (panels == 1)
        return join - 1;
    if (local % kChunksAtOnce == 1)
        return join;
    return join - std::max<std::size_t>(1, panels / 2);
}

int first_chunk_top_rows(int rows) {
    if (rows < 2 * kGranule)
        return 0;
    return rows / 2 / kGranule * kGranule;
}
// [join]

}  // namespace step09
