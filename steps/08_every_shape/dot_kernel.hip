#include "dot_kernel.hpp"

#include <hip/hip_runtime.h>

#include <cstddef>

#include "common/float4_access.hpp"
#include "common/hip_check.hpp"
#include "common/rounding.hpp"
#include "every_shape_tiles.hpp"

namespace step08 {
namespace {

// A group's shuffles stay inside a warp: a power of two of lanes, at most 32 (NVIDIA's warp).
constexpr bool fits_a_warp(int lanes) {
    return lanes <= 32 && (lanes & (lanes - 1)) == 0;
}
static_assert(fits_a_warp(kDotLanes) && fits_a_warp(kDotShortLanes));

// The threads of one block of the 8 x 4 tile: kDotRows groups of `lanes`.
constexpr int dot_threads(int lanes) {
    return kDotRows * lanes;
}

// [dot]
// The 8 x 4 tile, for a C of one to four columns. There each float of A takes part in at most four
// multiply-adds, so reading A once is the whole cost and a tile of shared memory has nothing to
// share: the kLanes threads of a group split the dot products of one row along K instead. Group g
// of the block computes row blockIdx.y kDotRows + g of C, columns blockIdx.x 4 to 4 more, over
// split blockIdx.z's range of K, as the other tiles do. Lane l reads A's row at columns 4 l,
// 4 l + 4 kLanes, ... as float4 (kVectorA: k a multiple of 4, A aligned), otherwise at columns l,
// l + kLanes, ... one float at a time: neighbouring lanes read neighbouring floats either way. It
// reads the same rows of B: kCols = 4 columns of them (kVectorB: as float4, n a multiple of 4 and
// B aligned), or, when C has one column (kCols = 1), the same floats of B's column, which is in
// memory one row of k floats (kVectorB: read as float4 with A's, B aligned).
template <int kLanes, int kCols, bool kVectorA, bool kVectorB>
__global__ void __launch_bounds__(dot_threads(kLanes))
    dot_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ out,
               int m, int n, int k, int depth) {
    constexpr int kWidth = kVectorA ? 4 : 1;  // floats of A's row per lane and step
    const int lane = threadIdx.x % kLanes;
    const int row = blockIdx.y * kDotRows + threadIdx.x / kLanes;
    const int col = blockIdx.x * 4;
    const int k_begin = blockIdx.z * depth;
    const int k_end = k_begin + depth < k ? k_begin + depth : k;
    float sum[kCols] = {};
#pragma unroll 4
    for (int kk = k_begin + kWidth * lane; kk < k_end; kk += kWidth * kLanes) {
        float x[kWidth];
        if constexpr (kVectorA) {
            const float4 four = tutorial::load4<true>(a, m, k, row, kk);
            x[0] = four.x, x[1] = four.y, x[2] = four.z, x[3] = four.w;
        } else {
            x[0] = row < m ? a[static_cast<std::size_t>(row) * k + kk] : 0.0f;
        }
        if constexpr (kCols == 1 && kVectorA) {
            const float4 y = tutorial::load4<kVectorB>(b, 1, k, 0, kk);
            sum[0] += x[0] * y.x + x[1] * y.y + x[2] * y.z + x[3] * y.w;
        } else if constexpr (kCols == 1) {
            sum[0] += x[0] * b[kk];
        } else {
#pragma unroll
            for (int r = 0; r < kWidth; ++r) {
                const float4 y = tutorial::load4<kVectorB>(b, k, n, kk + r, col);
                sum[0] += x[r] * y.x;
                sum[1] += x[r] * y.y;
                sum[2] += x[r] * y.z;
                sum[3] += x[r] * y.w;
            }
        }
    }
    // The group adds its lanes' sums in registers, with shuffles: lane l adds lane l ^ 16's sum
    // (kLanes = 32), then lane l ^ 8's, down to l ^ 1's. The two lanes of a pair add the same two
    // numbers, so every lane ends with the group's total, added in the same order on every run.
    // All threads of the warp take part: none has returned, as CUDA's full-warp shuffle requires.
#pragma unroll
    for (int offset = kLanes / 2; offset > 0; offset /= 2) {
#pragma unroll
        for (int j = 0; j < kCols; ++j)
            sum[j] += __shfl_xor(sum[j], offset, kLanes);
    }
    if (lane == 0 && row < m) {
        float* const c = out + static_cast<std::size_t>(blockIdx.z) * m * n +
                         static_cast<std::size_t>(row) * n + col;
#pragma unroll
        for (int j = 0; j < kCols; ++j) {
            if (col + j < n)
                c[j] = sum[j];
        }
    }
}
// [dot]

// The instance for kLanes threads per row: one column or up to four, A's and B's rows read as
// float4 or not.
using DotKernel = void (*)(const float*, const float*, float*, int, int, int, int);

template <int kLanes>
DotKernel dot_instance(int n, bool vector_a, bool vector_b) {
    if (n == 1 && vector_a)
        return vector_b ? dot_kernel<kLanes, 1, true, true> : dot_kernel<kLanes, 1, true, false>;
    if (n == 1)
        return dot_kernel<kLanes, 1, false, false>;
    if (vector_a)
        return vector_b ? dot_kernel<kLanes, 4, true, true> : dot_kernel<kLanes, 4, true, false>;
    return vector_b ? dot_kernel<kLanes, 4, false, true> : dot_kernel<kLanes, 4, false, false>;
}

}  // namespace

// [dot launch]
void launch_dot(const float* a, const float* b, float* out, int m, int n, int k,
                const step07::SplitPlan& split, hipStream_t stream) {
    // float4 where rows and ranges of K start on 16 bytes; B's one column is a row of k floats.
    const bool vector_a = k % 4 == 0 && split.depth % 4 == 0 && tutorial::aligned_16(a);
    const bool vector_b = tutorial::aligned_16(b) && (n == 1 ? vector_a : n % 4 == 0);
    const int lanes = dot_lanes(split.depth);  // kDotShortLanes for ranges under 512 columns
    auto kernel = lanes == kDotLanes ? dot_instance<kDotLanes>(n, vector_a, vector_b)
                                     : dot_instance<kDotShortLanes>(n, vector_a, vector_b);
    const dim3 blocks(tutorial::ceil_div(n, 4), tutorial::ceil_div(m, kDotRows), split.count);
    hipLaunchKernelGGL(kernel, blocks, dim3(dot_threads(lanes)), 0, stream, a, b, out, m, n, k,
                       split.depth);
    HIP_CHECK_LAUNCH();
}
// [dot launch]

int dot_resident_blocks() {
    int blocks = 0;
    HIP_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(
        &blocks, dot_kernel<kDotLanes, 1, true, true>, dot_threads(kDotLanes), 0));
    return blocks;
}

}  // namespace step08
