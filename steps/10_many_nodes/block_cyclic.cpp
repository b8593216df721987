#include "block_cyclic.hpp"

#include <stdexcept>
#include <string>

namespace step10 {

void BlockCyclic::check() const {
    if (extent < 0 || block < 1 || processes < 1 || source < 0 || source >= processes) {
        throw std::invalid_argument(
            "block-cyclic layout: need extent >= 0, block >= 1, processes >= 1 and 0 <= source < "
            "processes; got extent " +
            std::to_string(extent) + ", block " + std::to_string(block) + ", processes " +
            std::to_string(processes) + ", source " + std::to_string(source));
    }
}

int BlockCyclic::owner(int global) const {
    return (global / block + source) % processes;
}

// [numroc]
int BlockCyclic::local_count(int process) const {
    // Blocks are dealt round by round: every process gets `whole_rounds` blocks, the first
    // `extra_blocks` processes (counted from `source`) one more, and the process after them the
    // partial last block, if any.
    const int distance = (process - source + processes) % processes;
    const int full_blocks = extent / block;
    const int whole_rounds = full_blocks / processes;
    const int extra_blocks = full_blocks % processes;
    int count = whole_rounds * block;
    if (distance < extra_blocks)
        count += block;
    else if (distance == extra_blocks)
        count += extent % block;
    return count;
}
// [numroc]

int BlockCyclic::to_local(int global) const {
    const int global_block = global / block;
    return (global_block / processes) * block + global % block;
}

int BlockCyclic::to_global(int local, int process) const {
    const int distance = (process - source + processes) % processes;
    const int local_block = local / block;
    return (local_block * processes + distance) * block + local % block;
}

int BlockCyclic::block_count() const {
    return (extent + block - 1) / block;
}

int BlockCyclic::block_extent(int index) const {
    const int start = index * block;
    return extent - start < block ? extent - start : block;
}

}  // namespace step10
