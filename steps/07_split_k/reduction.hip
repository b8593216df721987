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
// Thread (x, g) adds ranges g, g + groups, ... of its element of C; group 0 then adds the groups'
// sums, 0 first. The groups depend on the shape only, never on which block runs first.
__global__ void reduce_kernel(const float* __restrict__ partial, int pitch, int splits,
                              float* __restrict__ c, int m, int n) {
    __shared__ float group_sums[kReduceThreads];
    const int groups = blockDim.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const std::size_t split_stride = static_cast<std::size_t>(m) * pitch;
    for (int row = blockIdx.y; row < m; row += gridDim.y) {  // the same rows for the whole block
        float total = 0.0f;
        if (col < n) {
            const float* sums = partial + static_cast<std::size_t>(row) * pitch + col;
            total = sums[threadIdx.y * split_stride];
            for (int split = threadIdx.y + groups; split < splits; split += groups)
                total += sums[split * split_stride];
        }
        group_sums[threadIdx.y * blockDim.x + threadIdx.x] = total;
        __syncthreads();
        if (threadIdx.y == 0 && col < n) {
            for (int g = 1; g < groups; ++g)
                total += group_sums[g * blockDim.x + threadIdx.x];
            c[static_cast<std::size_t>(row) * n + col] = total;
        }
        __syncthreads();  // before the next row overwrites group_sums
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
    const int groups = reduction_groups(m, n, splits);
    const int cols = kReduceThreads / groups;
    const dim3 blocks(tutorial::ceil_div(n, cols),
                      static_cast<int>(std::min<long long>(m, tutorial::kMaxGridY)));
    hipLaunchKernelGGL(reduce_kernel, blocks, dim3(cols, groups), 0, stream, partial, pitch, splits,
                       c, m, n);
    HIP_CHECK_LAUNCH();
}

}  // namespace step07
