/// \file
/// \brief Step 08's 4 x 128 tile for a C of one to four rows: each thread streams float4 of B's
/// rows and the block's threads share K kRowSteps (8) ways.
#pragma once

#include <hip/hip_runtime.h>

#include "k_split.hpp"

namespace step08 {

/// C = A B with the 4 x 128 tile, queued on `stream`: kRowCols columns across, kRowRows rows down,
/// one layer of blocks per range of `split`. Split, the blocks write partial tiles into step 07's
/// workspace and the last block of each column of tiles to arrive adds them into C (step 07's
/// reduction does it where the columns of tiles outnumber the workspace's counts). Reads B, and
/// writes C, with float4 where they allow it.
void row_gemm(const float* a, const float* b, float* c, int m, int n, int k,
              const step07::SplitPlan& split, hipStream_t stream);

/// Resident blocks of the 4 x 128 tile per multiprocessor (the occupancy calculator's).
int row_resident_blocks();

}  // namespace step08
