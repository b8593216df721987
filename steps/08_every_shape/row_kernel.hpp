/// \file
/// \brief Step 08's row tiles: the 4 x 128 tile for a C of one to four rows and the 8 x 128 tile
/// for a few more. Each thread streams float4 of B's rows and the block's threads share K kRowSteps
/// (8) ways.
#pragma once

#include <hip/hip_runtime.h>

#include "k_split.hpp"

namespace step08 {

/// Queues the 4 x 128 tile's blocks on `stream`: kRowCols columns across, kRowRows rows down, one
/// layer per range of `split`. `out` is C (one range) or the ranges' partial tiles, m x n each.
/// Reads B, and writes `out`, with float4 where they allow it.
void launch_row(const float* a, const float* b, float* out, int m, int n, int k,
                const step07::SplitPlan& split, hipStream_t stream);

/// Resident blocks of the 4 x 128 tile per multiprocessor (the occupancy calculator's).
int row_resident_blocks();

/// Queues the 8 x 128 tile's blocks on `stream`, as launch_row() does the 4 x 128 tile's, with
/// kStagedRows rows of C per block.
void launch_staged_rows(const float* a, const float* b, float* out, int m, int n, int k,
                        const step07::SplitPlan& split, hipStream_t stream);

/// Resident blocks of the 8 x 128 tile per multiprocessor.
int staged_rows_resident_blocks();

}  // namespace step08
