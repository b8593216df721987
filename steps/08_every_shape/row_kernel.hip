#include "row_kernel.hpp"

#include <hip/hip_runtime.h>

#include <cstddef>

#include "common/float4_access.hpp"
#include "common/hip_check.hpp"
#include "common/rounding.hpp"
#include "every_shape_tiles.hpp"

namespace step08 {
namespace {

// The threads of one block of the 4 x 128 tile: kRowLanes columns of float4 times kRowSteps
// threads along K.
static_assert(kRowSteps >= kRowRows, "the final sums give one row to each of the first steps");
constexpr int kRowThreads = kRowLanes * kRowSteps;

// [row]
// The 4 x 128 tile, for a C of one to four rows. There each float of B takes part in at most four
// multiply-adds, so reading B once is the whole cost: no tile of B is worth keeping in shared
// memory. Thread (lane, step) owns columns 4 lane to 4 lane + 3 of the block's 128 and four rows
// of C, and rows step, step + kRowSteps, ... of its range of K: a warp reads 32 neighbouring
// float4 of one row of B (512 bytes) and the float of A that all its threads multiply them by.
// Then the kRowSteps sums of each element are added in shared memory, step 0 first.
// kVectorB: B's rows read as float4; kVectorOut: `out`'s rows written so.
template <bool kVectorB, bool kVectorOut>
__global__ void __launch_bounds__(kRowThreads)
    row_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ out,
               int m, int n, int k, int depth) {
    __shared__ float4 sums[kRowSteps][kRowRows][kRowLanes];
    const int lane = threadIdx.x % kRowLanes;
    const int step = threadIdx.x / kRowLanes;
    const int row = blockIdx.y * kRowRows;
    const int col = blockIdx.x * kRowCols + 4 * lane;
    const int k_begin = blockIdx.z * depth;
    const int k_end = k_begin + depth < k ? k_begin + depth : k;
    float4 sum[kRowRows] = {};
#pragma unroll 4
    for (int kk = k_begin + step; kk < k_end; kk += kRowSteps) {
        const float4 y = tutorial::load4<kVectorB>(b, k, n, kk, col);
#pragma unroll
        for (int r = 0; r < kRowRows; ++r) {
            const float x = row + r < m ? a[static_cast<std::size_t>(row + r) * k + kk] : 0.0f;
            sum[r].x += x * y.x;
            sum[r].y += x * y.y;
            sum[r].z += x * y.z;
            sum[r].w += x * y.w;
        }
    }
#pragma unroll
    for (int r = 0; r < kRowRows; ++r)
        sums[step][r][lane] = sum[r];
    __syncthreads();
    // Thread (lane, r) for r < kRowRows now adds the steps' sums of row r, step 0 first.
    if (step >= kRowRows)
        return;
    float4 total = sums[0][step][lane];
#pragma unroll
    for (int s = 1; s < kRowSteps; ++s) {
        const float4 more = sums[s][step][lane];
        total.x += more.x;
        total.y += more.y;
        total.z += more.z;
        total.w += more.w;
    }
    float* partial = out + static_cast<std::size_t>(blockIdx.z) * m * n;
    tutorial::store4<kVectorOut>(partial, m, n, row + step, col, total);
}
// [row]

}  // namespace

// [row launch]
void launch_row(const float* a, const float* b, float* out, int m, int n, int k,
                const step07::SplitPlan& split, hipStream_t stream) {
    const bool vector_b = n % 4 == 0 && tutorial::aligned_16(b);
    const bool vector_out = n % 4 == 0 && tutorial::aligned_16(out);
    auto kernel = vector_b ? (vector_out ? row_kernel<true, true> : row_kernel<true, false>)
                           : (vector_out ? row_kernel<false, true> : row_kernel<false, false>);
    const dim3 blocks(tutorial::ceil_div(n, kRowCols), tutorial::ceil_div(m, kRowRows),
                      split.count);
    hipLaunchKernelGGL(kernel, blocks, dim3(kRowThreads), 0, stream, a, b, out, m, n, k,
                       split.depth);
    HIP_CHECK_LAUNCH();
}
// [row launch]

int row_resident_blocks() {
    int blocks = 0;
    HIP_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, row_kernel<true, true>,
                                                           kRowThreads, 0));
    return blocks;
}

}  // namespace step08
