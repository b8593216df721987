/// \file
/// \brief Step 07's stream-K kernel: the last, partial wave of tiles shared out as even runs of
/// K-slices among one block per resident slot, partial tiles added in a fixed order by whichever
/// worker finishes a tile last. Device code, for .hip files; step 08 builds on it.
#pragma once

#include <hip/hip_runtime.h>

#include <cstddef>

#include "main_loop.hpp"
#include "tile_store.hpp"

namespace step07 {

using step06::Float4;

// [stream-K]
// What a stream-K kernel needs of the plan (StreamKPlan, whose begin() and owner() it repeats).
struct StreamKShare {
    int workers;
    int first_tile;
    int slices;
    long long total;
    int tiles_across;

    __device__ long long begin(int w) const { return static_cast<long long>(w) * total / workers; }
    __device__ int owner(long long x) const {
        return static_cast<int>(((x + 1) * workers + total - 1) / total - 1);
    }
    // Which of the partial tiles holds worker w's part of shared tile `local`: its first tile in
    // partial tile 2 w, its last in 2 w + 1 (a share shorter than a tile touches at most two; the
    // tiles in between, if any, are whole and go straight to C).
    __device__ int partial_tile(int w, int local) const {
        return 2 * w + (begin(w) / slices == local ? 0 : 1);
    }
};

// Adds the partial tile at `partial` (kBlockRows x kBlockCols, row-major) to this thread's sums,
// or copies it into them when `first`.
template <class Tiling>
__device__ inline void add_partial(const float* __restrict__ partial,
                                   const step06::ThreadPlace<Tiling>& place, bool first,
                                   float (&sum)[Tiling::kThreadRows][Tiling::kThreadCols]) {
#pragma unroll
    for (int piece_row = 0; piece_row < Tiling::kPieceRows; ++piece_row) {
#pragma unroll
        for (int r = 0; r < 4; ++r) {
            const int i = 4 * piece_row + r;
            const float* line =
                partial + (place.row + piece_row * Tiling::kRowStride + r) * Tiling::kBlockCols;
#pragma unroll
            for (int piece_col = 0; piece_col < Tiling::kPieceCols; ++piece_col) {
                const int j = 4 * piece_col;
                const float4 four = *reinterpret_cast<const float4*>(
                    line + place.col + piece_col * Tiling::kColStride);
                sum[i][j + 0] = first ? four.x : sum[i][j + 0] + four.x;
                sum[i][j + 1] = first ? four.y : sum[i][j + 1] + four.y;
                sum[i][j + 2] = first ? four.z : sum[i][j + 2] + four.z;
                sum[i][j + 3] = first ? four.w : sum[i][j + 3] + four.w;
            }
        }
    }
}

// Worker blockIdx.x computes K-slices [begin, end) of the shared tiles' sequence, tile by tile. A
// tile it computes whole goes to C. Otherwise it writes its partial tile and counts itself in
// `arrivals`; the worker that arrives last at a tile adds the tile's partial tiles in worker order
// (so the bits do not depend on who is last), writes C and sets the count back to zero for the
// next multiply. Nobody waits for anybody.
template <class Tiling, Float4 kFloat4>
__global__ void __launch_bounds__(Tiling::kThreads, Tiling::kMinBlocks)
    stream_k_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                    float* __restrict__ partials, int* __restrict__ arrivals, int m, int n, int k,
                    int workers, int first_tile, int slices, long long total, int tiles_across) {
    const StreamKShare share{workers, first_tile, slices, total, tiles_across};
    HIP_DYNAMIC_SHARED(float4, shared_memory)
    auto* tiles = reinterpret_cast<step06::SliceTiles<Tiling>*>(shared_memory);
    auto* staging = reinterpret_cast<float*>(tiles);
    __shared__ int last_to_arrive;
    constexpr int kTileFloats = Tiling::kBlockRows * Tiling::kBlockCols;
    const step06::ThreadPlace<Tiling> place;
    const int worker = blockIdx.x;
    // Positions in the shared slices fit in 32 bits (fewer than kMaxWorkers tiles of at most
    // 2^31 / kSlice slices); only begin() needs 64 for its product.
    const int begin = static_cast<int>(share.begin(worker));
    const int end = static_cast<int>(share.begin(worker + 1));
    for (int at = begin; at < end;) {
        const int local = at / slices;  // which shared tile
        const int tile_begin = local * slices;
        const int tile_end = tile_begin + slices;
        const int stop = end < tile_end ? end : tile_end;
        const int tile = first_tile + local;
        const int block_row = tile / tiles_across * Tiling::kBlockRows;
        const int block_col = tile % tiles_across * Tiling::kBlockCols;
        const int k_begin = (at - tile_begin) * Tiling::kSlice;
        const int k_end =
            (stop - tile_begin) * Tiling::kSlice < k ? (stop - tile_begin) * Tiling::kSlice : k;
        float sum[Tiling::kThreadRows][Tiling::kThreadCols] = {};
        step06::accumulate<Tiling, kFloat4>(a, b, m, n, k, block_row, block_col, k_begin, k_end,
                                            tiles, place, sum);
        if (at == tile_begin && stop == tile_end) {
            step06::write_tile<Tiling, kFloat4>(c, m, n, block_row, block_col, place, sum, staging);
        } else {
            float* mine = partials +
                          static_cast<std::size_t>(share.partial_tile(worker, local)) * kTileFloats;
            step06::store_block<Tiling>(mine, Tiling::kBlockRows, Tiling::kBlockCols, 0, 0, place,
                                        sum);
            const int first_worker = share.owner(tile_begin);
            const int last_worker = share.owner(tile_end - 1);
            int contributors = 0;
            for (int w = first_worker; w <= last_worker; ++w)
                contributors += share.begin(w) < share.begin(w + 1) ? 1 : 0;
            __threadfence();  // the partial tile is visible to every block before the count
            __syncthreads();
            if (threadIdx.x == 0) {
                last_to_arrive = atomicAdd(arrivals + local, 1) == contributors - 1;
                if (last_to_arrive)
                    arrivals[local] = 0;  // every worker of the tile has counted: ready for reuse
            }
            __syncthreads();
            if (last_to_arrive) {
                __threadfence();
                bool empty = true;
                for (int w = first_worker; w <= last_worker; ++w) {
                    if (share.begin(w) == share.begin(w + 1))
                        continue;  // a worker with no slices at all
                    add_partial<Tiling>(
                        partials +
                            static_cast<std::size_t>(share.partial_tile(w, local)) * kTileFloats,
                        place, empty, sum);
                    empty = false;
                }
                step06::write_tile<Tiling, kFloat4>(c, m, n, block_row, block_col, place, sum,
                                                    staging);
            }
        }
        __syncthreads();  // the next tile's first slice must not overwrite one still being read
        at = stop;
    }
}
// [stream-K]

}  // namespace step07
