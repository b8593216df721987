/// \file
/// \brief How step 07 shares K out: split-K's ranges of K and stream-K's shares of the last wave's
/// K-slices. Plain host code, no HIP, so the plans are tested on every build.
#pragma once

#include "tile_shape.hpp"

namespace step07 {

/// The most ranges of K one multiply is split into.
constexpr int kMaxSplits = 256;

/// Each range of K that the choice makes has at least this many columns of A: shorter ranges make
/// the reduction cost more than the parallelism gains.
constexpr int kMinSplitDepth = 64;

/// The most stream-K workers one multiply may use.
constexpr int kMaxWorkers = 1024;

/// How K is actually cut for `splits` ranges: each range `depth` columns deep (a multiple of
/// the K-slice), `count` ranges in all (fewer than asked when K is short).
struct SplitPlan {
    int depth;
    int count;
};

/// The split of K into at most `splits` ranges whose starts are multiples of the K-slice, so that
/// only the last range can end inside a slice. K = 0 gives one empty range.
SplitPlan plan_splits(int k, int splits);

/// How stream-K shares out an m x n x k multiply of `tile`-sized tiles among `workers` blocks. The
/// tiles are numbered row by row; the first `first_tile` of them make whole waves and are computed
/// one block per tile, as without stream-K. The last `tiles - first_tile` (tiles % workers, or all
/// of them when there are fewer tiles than workers) make `total` = their count times `slices`
/// K-slices, and worker w computes slices [begin(w), begin(w + 1)) of that sequence: a few tiles'
/// worth, as even as whole slices allow, cut wherever its share ends.
struct StreamKPlan {
    int workers = 0;           ///< blocks sharing the last tiles (0: no stream-K tiles at all)
    long long tiles = 0;       ///< all tiles of C
    long long first_tile = 0;  ///< tiles [0, first_tile) are computed whole, one block each
    int slices = 0;            ///< K-slices of one tile: ceil(k / kSlice), at least 1
    long long total = 0;       ///< K-slices shared out: (tiles - first_tile) slices

    /// Where worker w's share starts (w = workers gives `total`).
    long long begin(int w) const { return static_cast<long long>(w) * total / workers; }
    /// The worker whose share holds slice x of the shared sequence.
    int owner(long long x) const {
        return static_cast<int>(((x + 1) * workers + total - 1) / total - 1);
    }
};

/// The stream-K plan for `workers` blocks (none when `workers` is 0 or the tiles fill whole
/// waves).
StreamKPlan plan_stream_k(int m, int n, int k, step06::TileSize tile, int workers);

}  // namespace step07
