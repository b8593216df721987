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

void reduce_splits(const float* partial, int pitch, int splits, float* c, int m, int n,
                   hipStream_t stream) {
    if (m == 0 || n == 0)
        return;
    // A block: `groups` threads per element, over as many columns as C has (a power of two, up to
    // kReduceThreads / groups), and rows enough to make up kReduceThreads threads.
    const int groups = reduction_groups(m, n, splits);
    int cols = 1;
    while (cols < n && cols * groups < kReduceThreads)
        cols *= 2;
    const int rows = kReduceThreads / (cols * groups);
    const dim3 blocks(
        tutorial::ceil_div(n, cols),
        static_cast<int>(std::min<long long>(tutorial::ceil_div(m, rows), tutorial::kMaxGridY)));
    hipLaunchKernelGGL(reduce_kernel, blocks, dim3(cols, groups, rows), 0, stream, partial, pitch,
                       splits, c, m, n);
    HIP_CHECK_LAUNCH();
}

}  // namespace step07
