#include "reduction.hpp"

#include <hip/hip_runtime.h>

#include <algorithm>
#include <cstddef>

#include "common/hip_check.hpp"
#include "common/index_limits.hpp"
#include "common/rounding.hpp"

namespace step07 {
namespace {

// [reduce]
// Thread (x, g, r) adds ranges g, g + groups, ... of its element of C, column x and row r of the
// block's; group 0 then adds the groups' sums, 0 first. The groups depend on the shape only, never
// on which block runs first.
__global__ void reduce_kernel(const float* __restrict__ partial, int pitch, int splits,
                              float* __restrict__ c, int m, int n) {
    __shared__ float group_sums[kReduceThreads];
    const int groups = blockDim.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int slot = (threadIdx.z * groups + threadIdx.y) * blockDim.x + threadIdx.x;
    const std::size_t split_stride = static_cast<std::size_t>(m) * pitch;
    // The same number of turns for the whole block: blockDim.z rows a turn.
    for (int first = blockIdx.y * blockDim.z; first < m; first += gridDim.y * blockDim.z) {
        const int row = first + threadIdx.z;
        const bool inside = row < m && col < n;
        float total = 0.0f;
        if (inside) {
            const float* sums = partial + static_cast<std::size_t>(row) * pitch + col;
            total = sums[threadIdx.y * split_stride];
            for (int split = threadIdx.y + groups; split < splits; split += groups)
                total += sums[split * split_stride];
        }
        group_sums[slot] = total;
        __syncthreads();
        if (threadIdx.y == 0 && inside) {
            for (int g = 1; g < groups; ++g)
                total += group_sums[slot + g * blockDim.x];
            c[static_cast<std::size_t>(row) * n + col] = total;
        }
        __syncthreads();  // before the next turn overwrites group_sums
    }
}
// [reduce]

}  // namespace

// [groups]
int reduction_groups(int m, int n, int splits) {
    int groups = 1;
    while (2 * groups <= splits && 2 * groups <= kMostReduceGroups &&
           static_cast<long long>(m) * n * groups < kReduceEnoughThreads)
        groups *= 2;
    return groups;
}
// [groups]

ReduceBlock reduce_block(int m, int n, int splits) {
    ReduceBlock block{1, reduction_groups(m, n, splits), 1};
    while (block.cols < n && block.cols * block.groups < kReduceThreads)
        block.cols *= 2;
    block.rows = std::min(kReduceThreads / (block.cols * block.groups), kMostReduceRows);
    return block;
}

void reduce_splits(const float* partial, int pitch, int splits, float* c, int m, int n,
                   hipStream_t stream) {
    if (m == 0 || n == 0)
        return;
    const ReduceBlock block = reduce_block(m, n, splits);
    const dim3 blocks(tutorial::ceil_div(n, block.cols),
                      static_cast<int>(std::min<long long>(tutorial::ceil_div(m, block.rows),
                                                           tutorial::kMaxGridY)));
    hipLaunchKernelGGL(reduce_kernel, blocks, dim3(block.cols, block.groups, block.rows), 0, stream,
                       partial, pitch, splits, c, m, n);
    HIP_CHECK_LAUNCH();
}

}  // namespace step07
