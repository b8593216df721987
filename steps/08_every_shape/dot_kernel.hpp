/// \file
/// \brief Step 08's 8 x 4 tile for a C of one to four columns: the threads of a row share its dot
/// products along K.
#pragma once

#include <hip/hip_runtime.h>

#include "k_split.hpp"

namespace step08 {

/// Queues the 8 x 4 tile's blocks on `stream`: column groups of 4 across, groups of kDotRows rows
/// down, one layer per range of `split`; dot_lanes(split.depth) threads per row. `out` is C (one
/// range) or the ranges' partial tiles, m x n each. Reads A and B with float4 where they allow it.
void launch_dot(const float* a, const float* b, float* out, int m, int n, int k,
                const step07::SplitPlan& split, hipStream_t stream);

/// Resident blocks of the 8 x 4 tile per multiprocessor (the occupancy calculator's), for its
/// blocks of kDotLanes threads per row (ranges of K of 16 kDotLanes columns or more).
int dot_resident_blocks();

}  // namespace step08
