/// \file
/// \brief Step 07's split-K kernel: step 06's block tile over one range of K per layer of blocks,
/// each range's partial tile written apart. Device code, for .hip files; step 08 builds on it.
#pragma once

#include <hip/hip_runtime.h>

#include <cstddef>

#include "main_loop.hpp"
#include "tile_store.hpp"

namespace step07 {

using step06::Float4;

// [split kernel]
// One block per tile of C and range of K: blockIdx.z picks the range, which covers columns
// [z depth, (z + 1) depth) of A. With one range the block writes C; with more, its partial tile
// goes to out + z m pitch, rows `pitch` floats apart, and reduce_splits() adds them up. `pitch` is
// n or, in the workspace, n rounded up to 4: then float4 writes the partial tiles even where it
// cannot read B or write C. Tiles are numbered row by row; blocks of tiles from `tile_count` on do
// nothing (stream-K computes those).
template <class Tiling, Float4 kFloat4>
__global__ void __launch_bounds__(Tiling::kThreads, Tiling::kMinBlocks)
    split_k_kernel(const float* __restrict__ a, const float* __restrict__ b,
                   float* __restrict__ out, int m, int n, int k, int depth, int tile_count,
                   int pitch) {
    if (static_cast<int>(blockIdx.y * gridDim.x + blockIdx.x) >= tile_count)
        return;
    HIP_DYNAMIC_SHARED(float4, shared_memory)
    auto* tiles = reinterpret_cast<step06::SliceTiles<Tiling>*>(shared_memory);
    const int k_begin = blockIdx.z * depth;
    const int k_end = k_begin + depth < k ? k_begin + depth : k;
    const int row = blockIdx.y * Tiling::kBlockRows;
    const int col = blockIdx.x * Tiling::kBlockCols;
    const step06::ThreadPlace<Tiling> place;
    float sum[Tiling::kThreadRows][Tiling::kThreadCols] = {};
    step06::accumulate<Tiling, kFloat4>(a, b, m, n, k, row, col, k_begin, k_end, tiles, place, sum);
    float* partial = out + static_cast<std::size_t>(blockIdx.z) * m * pitch;
    if (kFloat4 == Float4::none && gridDim.z > 1 && pitch % 4 == 0)  // whole float4 rows
        step06::store_block<Tiling>(partial, m, pitch, row, col, place, sum);
    else
        step06::write_tile<Tiling, kFloat4>(partial, m, n, row, col, place, sum,
                                            reinterpret_cast<float*>(tiles));
}
// [split kernel]

}  // namespace step07
