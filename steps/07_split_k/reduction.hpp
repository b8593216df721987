/// \file
/// \brief Step 07's reduction: the partial tiles of split-K's ranges added into C, always in the
/// same order; and a launch that walks a matrix row by row, which step 08's packing uses.
#pragma once

#include <hip/hip_runtime.h>

#include <algorithm>

#include "common/hip_check.hpp"
#include "common/index_limits.hpp"
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
    const dim3 blocks(tutorial::ceil_div(cols, kThreads),
                      static_cast<int>(std::min<long long>(rows, tutorial::kMaxGridY)));
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

/// Threads of one block of the reduction.
constexpr int kReduceThreads = 256;

/// The most rows of C one block of the reduction covers: its threadIdx.z, which NVIDIA GPUs limit
/// to 64.
constexpr int kMostReduceRows = 64;

/// The most groups of ranges one element of C is shared among (see reduction_groups()).
constexpr int kMostReduceGroups = 32;

/// Threads enough to keep a GPU's memory busy: an H100 holds 132 x 2048 = 270,336 at once.
constexpr long long kReduceEnoughThreads = 1 << 18;

/// How many threads the reduction gives each element of an m x n C with `splits` partial tiles: 1
/// when C alone has threads enough, otherwise twice as many until the grid has
/// kReduceEnoughThreads threads, there are no more ranges to share out or kMostReduceGroups is
/// reached. A power of two, at most `splits`; it depends on the shape only.
int reduction_groups(int m, int n, int splits);

/// The reduction's block for an m x n C with `splits` partial tiles: reduction_groups() threads per
/// element (threadIdx.y), over as many columns as C has, a power of two up to kReduceThreads /
/// groups (threadIdx.x), and over rows with the rest of kReduceThreads, at most kMostReduceRows
/// (threadIdx.z).
struct ReduceBlock {
    int cols;
    int groups;
    int rows;
};
ReduceBlock reduce_block(int m, int n, int splits);

/// Queues on `stream`: C (m x n) = the sum of `splits` partial tiles. Split z's tile starts at
/// partial + z m pitch and its rows are `pitch` floats apart (pitch >= n). Each element's ranges
/// are shared among reduction_groups() threads: thread g adds ranges g, g + groups, ..., then the
/// first thread adds the threads' sums in the order 0, 1, ...: an order fixed by the shape, so the
/// same inputs give the same bits on every run. With one split this copies a C' of wider rows into
/// C.
void reduce_splits(const float* partial, int pitch, int splits, float* c, int m, int n,
                   hipStream_t stream);

}  // namespace step07
