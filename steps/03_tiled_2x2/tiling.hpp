/// \file
/// \brief What step 03's kernel and its race demonstration share: one step of the tile loop and
/// the launch over C. Sharing them means the two kernels can differ only in the barrier the
/// demonstration leaves out.
#pragma once

#include <hip/hip_runtime.h>

#include "common/hip_check.hpp"

namespace step03 {

/// One step of the tile loop, run by every thread of a TileSize x TileSize block.
///
/// The thread at (`row`, `col`) of C loads one element of the tile of A that starts at column
/// `tile_start` and one element of the tile of B that starts at row `tile_start` into the shared
/// tiles, writing zero where the tile reaches past the matrix. After the barrier it adds its
/// TileSize products to `sum`. Threads outside C must call it too: they load the zeros of a
/// partial tile, and the barrier waits for every thread of the block.
///
/// The caller still owes the second barrier, before the next step overwrites the tiles.
template <int TileSize, typename T>
__device__ void accumulate_tile_step(const T* a, const T* b, int m, int n, int k, int row, int col,
                                     int tile_start, T (&tile_a)[TileSize][TileSize],
                                     T (&tile_b)[TileSize][TileSize], T& sum) {
    // [tile step]
    const int ty = threadIdx.y;
    const int tx = threadIdx.x;
    const int a_col = tile_start + tx;
    const int b_row = tile_start + ty;
    tile_a[ty][tx] = (row < m && a_col < k) ? a[row * k + a_col] : T(0);
    tile_b[ty][tx] = (b_row < k && col < n) ? b[b_row * n + col] : T(0);
    // First barrier: the products below read elements that other threads loaded.
    __syncthreads();
    for (int i = 0; i < TileSize; ++i)
        sum += tile_a[ty][i] * tile_b[i][tx];
    // [tile step]
}

/// A tiled kernel: one thread per element of C, one TileSize x TileSize block per tile of C.
template <typename T>
using TiledKernel = void (*)(const T* a, const T* b, T* c, int m, int n, int k);

/// Launches `kernel` on `stream` with one TileSize x TileSize block per tile of C, the grid
/// rounded up so partial tiles at the edges get a block too, and checks the launch.
template <int TileSize, typename T>
void launch_over_tiles(TiledKernel<T> kernel, const T* a, const T* b, T* c, int m, int n, int k,
                       hipStream_t stream) {
    // [launch]
    const dim3 block(TileSize, TileSize);
    const dim3 grid((n + TileSize - 1) / TileSize, (m + TileSize - 1) / TileSize);
    hipLaunchKernelGGL(kernel, grid, block, 0, stream, a, b, c, m, n, k);
    HIP_CHECK_LAUNCH();
    // [launch]
}

}  // namespace step03
