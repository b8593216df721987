/// \file
/// \brief ScaLAPACK's block-cyclic layout along one dimension: which process owns a global row (or
/// column), how many a process holds (NUMROC), and the maps between global and local indices.
#pragma once

namespace step10 {

/// One dimension of a matrix dealt out block-cyclically: `extent` rows (or columns) cut into blocks
/// of `block`, block b going to process `(b + source) % processes`, as ScaLAPACK deals them
/// (its descriptor's M or N, MB or NB, and RSRC or CSRC). A process keeps its blocks in order,
/// one after the other, so its local rows are a short list of whole blocks and maybe one partial
/// last block.
struct BlockCyclic {
    int extent = 0;     ///< global rows (or columns), at least 0
    int block = 1;      ///< rows per block, at least 1
    int processes = 1;  ///< processes along this dimension, at least 1
    int source = 0;     ///< the process that holds block 0

    /// Throws std::invalid_argument unless extent >= 0, block >= 1, processes >= 1 and
    /// 0 <= source < processes.
    void check() const;

    /// The process that holds global index `global` (0 <= global < extent).
    int owner(int global) const;

    /// How many of the `extent` indices process `process` holds: ScaLAPACK's NUMROC.
    int local_count(int process) const;

    /// Where global index `global` sits in its owner's local storage.
    int to_local(int global) const;

    /// The global index of local index `local` of process `process`.
    int to_global(int local, int process) const;

    /// How many blocks the dimension has: the last one may be partial.
    int block_count() const;

    /// How many indices global block `index` has: `block`, or fewer for the last one.
    int block_extent(int index) const;
};

}  // namespace step10
