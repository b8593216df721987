#include "dot_kernel.hpp"

#include <hip/hip_runtime.h>

#include <cstddef>

#include "common/float4_access.hpp"
#include "common/hip_check.hpp"
#include "common/rounding.hpp"
#include "every_shape_tiles.hpp"

namespace step08 {
namespace {

// The threads of one block of the 8 x 4 tile.
constexpr int kDotThreads = kDotRows * kDotLanes;

// [dot]
// The 8 x 4 tile, for a C of one to four columns. There each float of A takes part in at most four
// multiply-adds, so reading A once is the whole cost and a tile of shared memory has nothing to
// share: the threads of a row split its dot products along K instead. Group g of the block (its
// kDotLanes threads) computes row blockIdx.y kDotRows + g of C, columns blockIdx.x 4 to 4 more,
// over split blockIdx.z's range of K, as the other tiles do. Lane l reads columns 4 l,
// 4 l + 4 kDotLanes, ... of the range (neighbouring lanes, neighbouring float4 of A's row) and the
// same rows of B; then the group adds its lanes' sums in shared memory, halving their number at
// each step, in the same order on every run. kVectorA: A's rows read as float4 (k a multiple of 4,
// A aligned); kVectorB: B's rows too (n a multiple of 4, B aligned); kColumn: B is one column,
// whose 4 rows are 4 neighbouring floats, read as one float4 (with kVectorA, n = 1, B aligned).
template <bool kVectorA, bool kVectorB, bool kColumn = false>
__global__ void __launch_bounds__(kDotThreads)
    dot_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ out,
               int m, int n, int k, int depth) {
    constexpr int kCols = 4;
    __shared__ float sums[kCols][kDotThreads];
    const int lane = threadIdx.x % kDotLanes;
    const int row = blockIdx.y * kDotRows + threadIdx.x / kDotLanes;
    const int col = blockIdx.x * kCols;
    const int k_begin = blockIdx.z * depth;
    const int k_end = k_begin + depth < k ? k_begin + depth : k;
    float sum[kCols] = {};
#pragma unroll 4
    for (int kk = k_begin + 4 * lane; kk < k_end; kk += 4 * kDotLanes) {
        const float4 four = tutorial::load4<kVectorA>(a, m, k, row, kk);
        if constexpr (kColumn) {
            const float4 y = *reinterpret_cast<const float4*>(b + kk);
            sum[0] += four.x * y.x + four.y * y.y + four.z * y.z + four.w * y.w;
        } else {
            const float x[4] = {four.x, four.y, four.z, four.w};
#pragma unroll
            for (int r = 0; r < 4; ++r) {
                const float4 y = tutorial::load4<kVectorB>(b, k, n, kk + r, col);
                sum[0] += x[r] * y.x;
                sum[1] += x[r] * y.y;
                sum[2] += x[r] * y.z;
                sum[3] += x[r] * y.w;
            }
        }
    }
#pragma unroll
    for (int j = 0; j < kCols; ++j)
        sums[j][threadIdx.x] = sum[j];
    __syncthreads();
    for (int half = kDotLanes / 2; half > 0; half /= 2) {
        if (lane < half) {
#pragma unroll
            for (int j = 0; j < kCols; ++j)
                sums[j][threadIdx.x] += sums[j][threadIdx.x + half];
        }
        __syncthreads();
    }
    // Lane j of the group writes column col + j: its sum sits with the group's first thread.
    if (lane < kCols && row < m && col + lane < n) {
        out[static_cast<std::size_t>(blockIdx.z) * m * n + static_cast<std::size_t>(row) * n + col +
            lane] = sums[lane][threadIdx.x - lane];
    }
}
// [dot]

}  // namespace

// [dot launch]
void launch_dot(const float* a, const float* b, float* out, int m, int n, int k,
                const step07::SplitPlan& split, hipStream_t stream) {
    const bool vector_a = k % 4 == 0 && tutorial::aligned_16(a);
    const bool vector_b = n % 4 == 0 && tutorial::aligned_16(b);
    const bool column = vector_a && n == 1 && tutorial::aligned_16(b);
    auto kernel = column     ? dot_kernel<true, false, true>
                  : vector_a ? (vector_b ? dot_kernel<true, true> : dot_kernel<true, false>)
                             : (vector_b ? dot_kernel<false, true> : dot_kernel<false, false>);
    const dim3 blocks(tutorial::ceil_div(n, 4), tutorial::ceil_div(m, kDotRows), split.count);
    hipLaunchKernelGGL(kernel, blocks, dim3(kDotThreads), 0, stream, a, b, out, m, n, k,
                       split.depth);
    HIP_CHECK_LAUNCH();
}
// [dot launch]

int dot_resident_blocks() {
    int blocks = 0;
    HIP_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, dot_kernel<true, true>,
                                                           kDotThreads, 0));
    return blocks;
}

}  // namespace step08
