/// \file
/// \brief Step 03's kernel: the tile loop with both barriers, and its entry point.
#include "tiled_gemm.hpp"

#include <stdexcept>

#include "tiling.hpp"

namespace step03 {
namespace {

// [tiled kernel]
template <typename T>
__global__ void tiled_gemm_kernel(const T* a, const T* b, T* c, int m, int n, int k) {
    __shared__ T tile_a[kTileSize][kTileSize];
    __shared__ T tile_b[kTileSize][kTileSize];
    const int row = blockIdx.y * kTileSize + threadIdx.y;
    const int col = blockIdx.x * kTileSize + threadIdx.x;
    T sum = 0;
    for (int tile_start = 0; tile_start < k; tile_start += kTileSize) {
        accumulate_tile_step<kTileSize>(a, b, m, n, k, row, col, tile_start, tile_a, tile_b, sum);
        // Second barrier: the next step overwrites the tiles, and a slower thread may still be
        // reading them.
        __syncthreads();
    }
    if (row < m && col < n)
        c[row * n + col] = sum;
}
// [tiled kernel]

}  // namespace

template <typename T>
void gemm(const T* a, const T* b, T* c, int m, int n, int k, hipStream_t stream) {
    if (m < 0 || n < 0 || k < 0) {
        throw std::invalid_argument("step03::gemm: negative size");
    }
    if (m == 0 || n == 0) {
        return;  // an empty C: nothing to launch, and a grid of zero blocks is not a valid launch
    }
    launch_over_tiles<kTileSize, T>(tiled_gemm_kernel<T>, a, b, c, m, n, k, stream);
}

// The two element types the tutorial uses: int for the worked example, float for the rest.
template void gemm<int>(const int*, const int*, int*, int, int, int, hipStream_t);
template void gemm<float>(const float*, const float*, float*, int, int, int, hipStream_t);

}  // namespace step03
