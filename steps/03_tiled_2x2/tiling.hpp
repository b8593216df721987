/// \file
/// \brief Step 03's kernel and its launch over C, shared by the step and its race demonstration:
/// the demonstration is the same kernel with its second barrier switched off, so the two cannot
/// differ in anything else.
#pragma once

#include <hip/hip_runtime.h>

#include "common/hip_check.hpp"

namespace step03 {

/// The tiled kernel: one thread per element of C, one kTile x kTile block per tile of C; each step
/// along K stages a kTile x kTile tile of A and one of B in shared memory. Threads outside C take
/// part in the loads (they load the zeros of a partial tile) and in the barriers.
/// kSecondBarrier = false leaves out the barrier that protects the tiles from being overwritten
/// while other threads still read them: only the race demonstration does that.
// [tiled kernel]
template <typename T, int kTile, bool kSecondBarrier = true>
__global__ void tiled_gemm_kernel(const T* a, const T* b, T* c, int m, int n, int k) {
    __shared__ T tile_a[kTile][kTile];
    __shared__ T tile_b[kTile][kTile];
    const int local_row = threadIdx.y;
    const int local_col = threadIdx.x;
    const int row = blockIdx.y * kTile + local_row;  // the row of C (and of A) this thread owns
    const int col = blockIdx.x * kTile + local_col;  // the column of C (and of B) this thread owns
    T sum = 0;
    for (int tile_start = 0; tile_start < k; tile_start += kTile) {
        // Each thread loads one element of each tile. For A the row is fixed and the column walks
        // along K; for B the column is fixed and the row walks along K. Outside a matrix the tile
        // gets a zero, which adds nothing to the sum.
        const int a_col = tile_start + local_col;
        const int b_row = tile_start + local_row;
        tile_a[local_row][local_col] = (row < m && a_col < k) ? a[row * k + a_col] : T(0);
        tile_b[local_row][local_col] = (b_row < k && col < n) ? b[b_row * n + col] : T(0);
        // Both tiles must be complete before any thread reads them.
        __syncthreads();
        for (int inner = 0; inner < kTile; ++inner) {
            sum += tile_a[local_row][inner] * tile_b[inner][local_col];
        }
        // Nobody may overwrite the tiles with the next ones while others still read these.
        if constexpr (kSecondBarrier) {
            __syncthreads();
        }
    }
    // Threads outside C took part in the loads and the barriers; only now may they drop out.
    if (row < m && col < n) {
        c[row * n + col] = sum;
    }
}
// [tiled kernel]

/// Launches tiled_gemm_kernel<T, kTile, kSecondBarrier> on `stream` with one kTile x kTile block
/// per tile of C, the grid rounded up so partial tiles at the edges get a block too, and checks
/// the launch. The caller makes sure C is not empty (a grid of zero blocks is not a valid launch).
template <typename T, int kTile, bool kSecondBarrier = true>
void launch_over_tiles(const T* a, const T* b, T* c, int m, int n, int k, hipStream_t stream) {
    // [launch]
    const dim3 block(kTile, kTile);
    const dim3 grid((n + kTile - 1) / kTile, (m + kTile - 1) / kTile);
    hipLaunchKernelGGL((tiled_gemm_kernel<T, kTile, kSecondBarrier>), grid, block, 0, stream, a, b,
                       c, m, n, k);
    HIP_CHECK_LAUNCH();
    // [launch]
}

}  // namespace step03
