/// \file
/// \brief Step 06's epilogue: a block's thread tiles written into C, with float4 where C's rows
/// allow it and otherwise staged through shared memory so that a warp still writes whole sectors.
/// Device code, for .hip files; steps 07 and 08 build on it.
#pragma once

#include <hip/hip_runtime.h>

#include <cstddef>
#include <cstdint>

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

// [scalar store]
// The same where float4 cannot write C's rows as the thread tiles lie. Written as they are, a
// warp's scalar stores would put 4-byte values 16 bytes apart, a quarter of each 32-byte sector per
// store, four times over. Instead the block passes its tile through shared memory (`staging`: the
// K-slice buffers, free once the loop is done), kPass rows of each thread tile at a time: for each,
// kRows = kBlockRows / kThreadRows rows of the block tile, one per row of lanes of each warp. Each
// staged row starts `shift` floats into its line of shared memory, as far as its first column lies
// past a 16-byte boundary of C, so that shared memory and C line up in float4: consecutive threads
// then copy consecutive float4 into C, and only the few floats at each end of a row go one by one.
template <class Tiling>
__device__ inline void store_block_scalar(
    float* __restrict__ c, int m, int n, int block_row, int block_col,
    const ThreadPlace<Tiling>& place, const float (&sum)[Tiling::kThreadRows][Tiling::kThreadCols],
    float* staging) {
    constexpr int kRows = Tiling::kBlockRows / Tiling::kThreadRows;
    constexpr int kLine = Tiling::kBlockCols + 4;   // a staged row and room for its shift
    constexpr int kFours = Tiling::kBlockCols / 4;  // float4 of C a staged row covers, but its tail
    // Rows of the thread tile staged at once: as many as the K-slice buffers hold (1, 2, 4 or 8,
    // at most the thread tile's rows), so that fewer barriers part them.
    constexpr int kFit =
        static_cast<int>(2 * sizeof(SliceTiles<Tiling>) / (kRows * kLine * sizeof(float)));
    constexpr int kPass = kFit >= Tiling::kThreadRows ? Tiling::kThreadRows
                          : kFit >= 4                 ? 4
                          : kFit >= 2                 ? 2
                                                      : 1;
    constexpr int kSlots = kPass * kRows * kFours;
    constexpr int kSteps = (kSlots + Tiling::kThreads - 1) / Tiling::kThreads;  // of the copy loop
    constexpr int kUnroll = Tiling::kStoreByFours ? 4 : kSteps;
    static_assert(kPass * kRows * kLine * sizeof(float) <= 2 * sizeof(SliceTiles<Tiling>),
                  "the staged rows must fit in the K-slice buffers");
    // Row `staged` of pass `first`, in the block tile: its warp's place down the block, its row of
    // lanes, the thread-tile row.
    const auto tile_row = [](int staged, int first) {
        const int i = first + staged / kRows;
        const int lanes = staged % kRows;
        return lanes / Tiling::kLaneRows * Tiling::kWarpRows + 4 * (lanes % Tiling::kLaneRows) +
               i / 4 * Tiling::kRowStride + i % 4;
    };
    // How many floats row `row` of C starts, at column block_col, past a 16-byte boundary.
    const auto shift_of = [&](int row) {
        return static_cast<int>(((reinterpret_cast<std::uintptr_t>(c) >> 2) +
                                 static_cast<std::size_t>(row) * n + block_col) &
                                3);
    };
    const int cols = n - block_col;  // of C from block_col on; more than the tile has, at times
    // This thread's staged row: its warp's place down the block, then its row of lanes.
    const int mine =
        place.row / Tiling::kWarpRows * Tiling::kLaneRows + place.row % Tiling::kWarpRows / 4;
#pragma unroll
    for (int first = 0; first < Tiling::kThreadRows; first += kPass) {
        __syncthreads();  // nobody still reads the buffers (the last K-slice, the last rows)
#pragma unroll
        for (int p = 0; p < kPass; ++p) {
            const int i = first + p;
            const int row = block_row + place.row + i / 4 * Tiling::kRowStride + i % 4;
            float* line = staging + (p * kRows + mine) * kLine + shift_of(row) + place.col;
#pragma unroll
            for (int j = 0; j < Tiling::kThreadCols; ++j)
                line[j / 4 * Tiling::kColStride + j % 4] = sum[i][j];
        }
        __syncthreads();
#pragma unroll kUnroll
        for (int e0 = 0; e0 < kSlots; e0 += Tiling::kThreads) {
            const int e = e0 + threadIdx.x;
            const int staged = e / kFours;
            const int row = block_row + tile_row(staged, first);
            if ((kSlots % Tiling::kThreads == 0 || e < kSlots) && row < m) {
                // C's float4 at [at, at + 4): columns at - shift.. of the block.
                const int shift = shift_of(row);
                const int at = 4 * (e % kFours);
                const float* from = staging + staged * kLine + at;
                float* to = c + static_cast<std::size_t>(row) * n + block_col - shift + at;
                if (at >= shift && at + 4 - shift <= cols) {
                    *reinterpret_cast<float4*>(to) = *reinterpret_cast<const float4*>(from);
                } else {
#pragma unroll
                    for (int q = 0; q < 4; ++q) {
                        if (at + q >= shift && at + q - shift < cols)
                            to[q] = from[q];
                    }
                }
            }
        }
        // Each staged row's tail: the `shift` floats past its last whole float4.
        for (int staged = threadIdx.x; staged < kPass * kRows; staged += Tiling::kThreads) {
            const int row = block_row + tile_row(staged, first);
            const int shift = shift_of(row);
            const int at = Tiling::kBlockCols;
            for (int q = 0; q < shift && at + q - shift < cols && row < m; ++q)
                c[static_cast<std::size_t>(row) * n + block_col - shift + at + q] =
                    staging[staged * kLine + at + q];
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
