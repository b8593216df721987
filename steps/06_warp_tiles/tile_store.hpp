/// \file
/// \brief Step 06's epilogue: a block's thread tiles written into C, with float4 where C's rows
/// allow it and otherwise staged through shared memory so that a warp still writes whole sectors.
/// Device code, for .hip files; steps 07 and 08 build on it.
#pragma once

#include <hip/hip_runtime.h>

#include <cstddef>

#include "common/float4_access.hpp"
#include "main_loop.hpp"
#include "tiling.hpp"

namespace step06 {

// Writes the thread tile into the m x n matrix `c` with float4: row r of piece row pr is row
// place.row + pr kRowStride + r of the block tile, and so on across.
template <class Tiling>
__device__ inline void store_block(float* __restrict__ c, int m, int n, int block_row,
                                   int block_col, const ThreadPlace<Tiling>& place,
                                   const float (&sum)[Tiling::kThreadRows][Tiling::kThreadCols]) {
#pragma unroll
    for (int piece_row = 0; piece_row < Tiling::kPieceRows; ++piece_row) {
#pragma unroll
        for (int r = 0; r < 4; ++r) {
            const int i = 4 * piece_row + r;
            const int row = block_row + place.row + piece_row * Tiling::kRowStride + r;
#pragma unroll
            for (int piece_col = 0; piece_col < Tiling::kPieceCols; ++piece_col) {
                const int j = 4 * piece_col;
                const int col = block_col + place.col + piece_col * Tiling::kColStride;
                tutorial::store4<true>(
                    c, m, n, row, col,
                    make_float4(sum[i][j], sum[i][j + 1], sum[i][j + 2], sum[i][j + 3]));
            }
        }
    }
}

// [staged rows sync]
// Orders one warp's accesses to the staged rows it alone writes and reads. On NVIDIA GPUs the
// warp's own barrier does that, and the block's other warps go on meanwhile; other routes keep the
// block's barrier (an AMD wavefront of 64 lanes holds two of these 32-lane warps, and the CPU runs
// a block's threads one after another between barriers).
__device__ inline void sync_staged_rows() {
#if defined(__CUDA_ARCH__)
    __syncwarp();
#else
    __syncthreads();
#endif
}
// [staged rows sync]

// [scalar store]
// The same where float4 cannot write C's rows. Written as they are, a warp's scalar stores would
// put 4-byte values 16 bytes apart, a quarter of each 32-byte sector per store, four times over.
// Instead each warp passes its tile through shared memory (`staging`: the K-slice buffers, free
// once the loop is done), one row of each thread tile at a time: kLaneRows rows of its warp tile,
// one per row of lanes. Then its consecutive lanes write consecutive columns of those rows. A warp
// reads back only what it wrote, so after the block's first barrier the warps need not wait for
// one another: sync_staged_rows() orders one warp's writes and reads.
template <class Tiling>
__device__ inline void store_block_scalar(
    float* __restrict__ c, int m, int n, int block_row, int block_col,
    const ThreadPlace<Tiling>& place, const float (&sum)[Tiling::kThreadRows][Tiling::kThreadCols],
    float* staging) {
    constexpr int kFloats = Tiling::kLaneRows * Tiling::kWarpCols;  // one warp's staged rows
    constexpr int kSteps = kFloats / 32;                            // of its copy loop
    constexpr int kUnroll = Tiling::kStoreByFours ? 4 : kSteps;
    static_assert(kSteps * 32 == kFloats, "a warp's staged rows must be whole lanes' worth");
    static_assert(Tiling::kWarpsDown * Tiling::kLaneRows * Tiling::kBlockCols * sizeof(float) <=
                      2 * sizeof(SliceTiles<Tiling>),
                  "the staged rows must fit in the K-slice buffers");
    const int warp = threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    // This warp's staged rows start at its place down the block; its columns at its place across.
    const int warp_down = warp / Tiling::kWarpsAcross;
    const int warp_row = warp_down * Tiling::kWarpRows;
    const int warp_col = warp % Tiling::kWarpsAcross * Tiling::kWarpCols;
    float* const rows = staging + warp_down * Tiling::kLaneRows * Tiling::kBlockCols;
    // This thread's staged row: its row of lanes.
    const int mine = place.row % Tiling::kWarpRows / 4;
    __syncthreads();  // nobody still reads the buffers (the last K-slice)
#pragma unroll
    for (int piece_row = 0; piece_row < Tiling::kPieceRows; ++piece_row) {
#pragma unroll
        for (int r = 0; r < 4; ++r) {
            const int i = 4 * piece_row + r;
#pragma unroll
            for (int piece_col = 0; piece_col < Tiling::kPieceCols; ++piece_col) {
                const int j = 4 * piece_col;
                *reinterpret_cast<float4*>(rows + mine * Tiling::kBlockCols + place.col +
                                           piece_col * Tiling::kColStride) =
                    make_float4(sum[i][j], sum[i][j + 1], sum[i][j + 2], sum[i][j + 3]);
            }
            sync_staged_rows();
#pragma unroll kUnroll
            for (int step = 0; step < kSteps; ++step) {
                const int e = step * 32 + lane;
                const int staged = e / Tiling::kWarpCols;
                const int col_in_warp = e % Tiling::kWarpCols;
                const int row =
                    block_row + warp_row + 4 * staged + piece_row * Tiling::kRowStride + r;
                const int col = block_col + warp_col + col_in_warp;
                if (row < m && col < n)
                    c[static_cast<std::size_t>(row) * n + col] =
                        rows[staged * Tiling::kBlockCols + warp_col + col_in_warp];
            }
            sync_staged_rows();  // read before the next row overwrites them
        }
    }
    __syncthreads();  // the buffers are free again for whatever comes next
}
// [scalar store]

// C's block tile, with float4 or through shared memory.
template <class Tiling, Float4 kFloat4>
__device__ inline void write_tile(float* __restrict__ c, int m, int n, int block_row, int block_col,
                                  const ThreadPlace<Tiling>& place,
                                  const float (&sum)[Tiling::kThreadRows][Tiling::kThreadCols],
                                  float* staging) {
    if constexpr (kFloat4 != Float4::none)
        store_block<Tiling>(c, m, n, block_row, block_col, place, sum);
    else
        store_block_scalar<Tiling>(c, m, n, block_row, block_col, place, sum, staging);
}

// [block tile]
// One block tile of C from start to finish: the main loop over columns [k_begin, k_end) of A,
// then the store into the m x n matrix `c`. kFloat4: which of A, B and C are read and written with
// float4; the others with scalar loads, and C with scalar stores through shared memory.
template <class Tiling, Float4 kFloat4>
__device__ inline void multiply_block_tile(const float* __restrict__ a, const float* __restrict__ b,
                                           float* __restrict__ c, int m, int n, int k,
                                           int block_row, int block_col, int k_begin, int k_end,
                                           SliceTiles<Tiling>* tiles) {
    const ThreadPlace<Tiling> place;
    float sum[Tiling::kThreadRows][Tiling::kThreadCols] = {};
    accumulate<Tiling, kFloat4>(a, b, m, n, k, block_row, block_col, k_begin, k_end, tiles, place,
                                sum);
    write_tile<Tiling, kFloat4>(c, m, n, block_row, block_col, place, sum,
                                reinterpret_cast<float*>(tiles));
}
// [block tile]

}  // namespace step06
