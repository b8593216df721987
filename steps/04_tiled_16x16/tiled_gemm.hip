/// \file
/// \brief Step 04's kernel template, its launch and the dispatch over the tile sizes.
#include "tiled_gemm.hpp"

#include <stdexcept>
#include <string>

#include "common/hip_check.hpp"
#include "common/index_limits.hpp"

namespace step04 {
namespace {

// [tiled kernel]
template <typename T, int kTile>
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
#pragma unroll
        for (int inner = 0; inner < kTile; ++inner) {
            sum += tile_a[local_row][inner] * tile_b[inner][local_col];
        }
        // Nobody may overwrite the tiles with the next ones while others still read these.
        __syncthreads();
    }
    // Threads outside C took part in the loads and the barriers; only now may they drop out.
    if (row < m && col < n) {
        c[row * n + col] = sum;
    }
}
// [tiled kernel]

// [launch]
template <typename T, int kTile>
void launch_tiled(const T* a, const T* b, T* c, int m, int n, int k, hipStream_t stream) {
    if (m == 0 || n == 0) {
        return;  // an empty C: nothing to launch
    }
    tutorial::check_grid_y("step04::gemm", "m", m, kTile);
    const dim3 block(kTile, kTile);
    const dim3 grid((n + kTile - 1) / kTile, (m + kTile - 1) / kTile);
    hipLaunchKernelGGL((tiled_gemm_kernel<T, kTile>), grid, block, 0, stream, a, b, c, m, n, k);
    HIP_CHECK_LAUNCH();
}
// [launch]

}  // namespace

// [dispatch]
template <typename T>
void gemm(const T* a, const T* b, T* c, int m, int n, int k, hipStream_t stream, int tile) {
    if (m < 0 || n < 0 || k < 0) {
        throw std::invalid_argument("step04::gemm: negative size");
    }
    tutorial::check_32bit_indexing("step04::gemm", m, n, k);
    // kTile is a compile-time constant inside the kernel, so each supported size is its own kernel.
    switch (tile) {
        case 8:
            launch_tiled<T, 8>(a, b, c, m, n, k, stream);
            break;
        case 16:
            launch_tiled<T, 16>(a, b, c, m, n, k, stream);
            break;
        case 32:
            launch_tiled<T, 32>(a, b, c, m, n, k, stream);
            break;
        default:
            throw std::invalid_argument("step04::gemm: tile must be 8, 16 or 32, got " +
                                        std::to_string(tile));
    }
}
// [dispatch]

// The two element types the tutorial uses: int for the worked example, float for the rest.
template void gemm<int>(const int*, const int*, int*, int, int, int, hipStream_t, int);
template void gemm<float>(const float*, const float*, float*, int, int, int, hipStream_t, int);

}  // namespace step04
