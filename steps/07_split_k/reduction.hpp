/// \file
/// \brief Step 07's reduction: the partial tiles of split-K's ranges added into C, always in the
/// same order, and the row-walking launch it shares with step 08's packing.
#pragma once

#include <hip/hip_runtime.h>

#include <algorithm>

#include "common/hip_check.hpp"
#include "common/rounding.hpp"

namespace step07 {

/// Launches a kernel that walks a rows x cols matrix: one thread per column, blocks over the rows
/// (each block then steps through every gridDim.y-th row). Launches nothing for an empty matrix.
template <class... Parameters, class... Arguments>
void launch_rows(void (*kernel)(Parameters...), int rows, int cols, hipStream_t stream,
                 Arguments... arguments) {
    if (rows == 0 || cols == 0)
        return;
    constexpr int kThreads = 256;
    constexpr int kMostRowBlocks = 65535;  // the limit of gridDim.y
    const dim3 blocks(tutorial::ceil_div(cols, kThreads), std::min(rows, kMostRowBlocks));
    hipLaunchKernelGGL(kernel, blocks, dim3(kThreads), 0, stream, arguments...);
    HIP_CHECK_LAUNCH();
}

/// The walk of a kernel that launch_rows() launches: calls `visit(row, col)` for this thread's
/// column (none past `cols`) and every gridDim.y-th row from its block's, so that the grid covers
/// every element of a rows x cols matrix once.
template <class Visit>
__device__ inline void for_each_row(int rows, int cols, Visit visit) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols)
        return;
    for (int row = blockIdx.y; row < rows; row += gridDim.y)
        visit(row, col);
}

/// Queues on `stream`: C (m x n) = the sum of `splits` partial tiles, added in the order 0, 1, ...,
/// splits - 1, so the same inputs give the same bits on every run. Split z's tile starts at
/// partial + z m pitch and its rows are `pitch` floats apart (pitch >= n). With one split this
/// copies a C' of wider rows into C.
void reduce_splits(const float* partial, int pitch, int splits, float* c, int m, int n,
                   hipStream_t stream);

}  // namespace step07
