/// \file
/// \brief Step 06's main loop: K-slices of A and B staged through two shared-memory buffers
/// (double buffering) while each thread multiplies its warp tile's share from registers. Device
/// code, for .hip files; steps 07 and 08 build on it.
#pragma once

#include <hip/hip_runtime.h>

#include <cstddef>

#include "common/float4_access.hpp"
#include "common/hip_check.hpp"
#include "tiling.hpp"

namespace step06 {

// One K-slice of the block's operands in shared memory; A transposed (a[kk][row]) so that the
// values a thread needs for one kk lie side by side and read as float4, like B's.
template <class Tiling>
struct SliceTiles {
    alignas(16) float a[Tiling::kSlice][Tiling::kBlockRows + Tiling::kPad];
    alignas(16) float b[Tiling::kSlice][Tiling::kBlockCols];
};

// What one thread carries from global memory to shared memory for one K-slice.
template <class Tiling>
struct SliceFragment {
    float4 a[Tiling::kALoads];
    float4 b[Tiling::kBLoads];
};

// Thread t's i-th float4 of A's slice is row f / (kSlice / 4), columns 4 (f % (kSlice / 4)).. with
// f = t + i kThreads; of B's slice, row f / (kBlockCols / 4), columns 4 (f % (kBlockCols / 4))...
// Consecutive threads read consecutive float4 of a row: coalesced. kFloat4 says whether A's four
// and B's four are one float4 load or four guarded scalar ones.
template <class Tiling, Float4 kFloat4>
__device__ inline SliceFragment<Tiling> load_slice(const float* __restrict__ a,
                                                   const float* __restrict__ b, int m, int n, int k,
                                                   int block_row, int block_col, int slice) {
    SliceFragment<Tiling> fragment;
#pragma unroll
    for (int i = 0; i < Tiling::kALoads; ++i) {
        const int f = threadIdx.x + i * Tiling::kThreads;
        fragment.a[i] = tutorial::load4<kFloat4 == Float4::all>(
            a, m, k, block_row + f / (Tiling::kSlice / 4), slice + 4 * (f % (Tiling::kSlice / 4)));
    }
#pragma unroll
    for (int i = 0; i < Tiling::kBLoads; ++i) {
        const int f = threadIdx.x + i * Tiling::kThreads;
        fragment.b[i] = tutorial::load4<kFloat4 != Float4::none>(
            b, k, n, slice + f / (Tiling::kBlockCols / 4),
            block_col + 4 * (f % (Tiling::kBlockCols / 4)));
    }
    return fragment;
}

template <class Tiling>
__device__ inline void store_slice(SliceTiles<Tiling>& tiles,
                                   const SliceFragment<Tiling>& fragment) {
#pragma unroll
    for (int i = 0; i < Tiling::kALoads; ++i) {
        const int f = threadIdx.x + i * Tiling::kThreads;
        const int row = f / (Tiling::kSlice / 4);
        const int kk = 4 * (f % (Tiling::kSlice / 4));
        tiles.a[kk + 0][row] = fragment.a[i].x;
        tiles.a[kk + 1][row] = fragment.a[i].y;
        tiles.a[kk + 2][row] = fragment.a[i].z;
        tiles.a[kk + 3][row] = fragment.a[i].w;
    }
#pragma unroll
    for (int i = 0; i < Tiling::kBLoads; ++i) {
        const int f = threadIdx.x + i * Tiling::kThreads;
        const int row = f / (Tiling::kBlockCols / 4);
        const int col = 4 * (f % (Tiling::kBlockCols / 4));
        *reinterpret_cast<float4*>(&tiles.b[row][col]) = fragment.b[i];
    }
}

// kCount values of one row of a tile, one float4 per piece, pieces kStride apart.
template <int kCount, int kStride>
__device__ inline void load_fragment(const float* line, int index, float (&values)[kCount]) {
#pragma unroll
    for (int piece = 0; piece < kCount / 4; ++piece) {
        const float4 four = *reinterpret_cast<const float4*>(line + index + piece * kStride);
        values[4 * piece + 0] = four.x;
        values[4 * piece + 1] = four.y;
        values[4 * piece + 2] = four.z;
        values[4 * piece + 3] = four.w;
    }
}

// [warp tile]
// Column kk's contribution to the thread tile: the outer product of kThreadRows values of A's
// column kk and kThreadCols values of B's row kk.
template <class Tiling>
__device__ inline void multiply_column(const SliceTiles<Tiling>& tiles,
                                       const ThreadPlace<Tiling>& place, int kk,
                                       float (&sum)[Tiling::kThreadRows][Tiling::kThreadCols]) {
    float a_values[Tiling::kThreadRows], b_values[Tiling::kThreadCols];
    load_fragment<Tiling::kThreadRows, Tiling::kRowStride>(tiles.a[kk], place.row, a_values);
    load_fragment<Tiling::kThreadCols, Tiling::kColStride>(tiles.b[kk], place.col, b_values);
#pragma unroll
    for (int i = 0; i < Tiling::kThreadRows; ++i) {
#pragma unroll
        for (int j = 0; j < Tiling::kThreadCols; ++j)
            sum[i][j] += a_values[i] * b_values[j];
    }
}

// The slice's contribution: multiply_column() for each of its kSlice columns, unrolled.
template <class Tiling>
__device__ inline void multiply_slice(const SliceTiles<Tiling>& tiles,
                                      const ThreadPlace<Tiling>& place,
                                      float (&sum)[Tiling::kThreadRows][Tiling::kThreadCols]) {
#pragma unroll
    for (int kk = 0; kk < Tiling::kSlice; ++kk)
        multiply_column(tiles, place, kk, sum);
}
// [warp tile]

// A slice that K ends inside: only its first `columns` (past K it holds the padding's zeros).
// The tiles that peel the last slice (kPeelLastSlice) stop a loop at `columns`; in the smaller ones
// that loop made the split-K kernels spill registers, so they test each column of the unrolled
// slice instead (both measured: the notes page).
template <class Tiling>
__device__ inline void multiply_last_slice(const SliceTiles<Tiling>& tiles,
                                           const ThreadPlace<Tiling>& place, int columns,
                                           float (&sum)[Tiling::kThreadRows][Tiling::kThreadCols]) {
    if constexpr (Tiling::kPeelLastSlice) {
        if (columns >= Tiling::kSlice) {
            multiply_slice(tiles, place, sum);
            return;
        }
#pragma unroll 1
        for (int kk = 0; kk < columns; ++kk)
            multiply_column(tiles, place, kk, sum);
    } else {
#pragma unroll
        for (int kk = 0; kk < Tiling::kSlice; ++kk) {
            if (kk < columns)
                multiply_column(tiles, place, kk, sum);
        }
    }
}

// A thread's loads of a slice wholly inside K, without bounds checks: rows of A past m are read
// from row m - 1 and columns of B past n from the last float4 inside; they reach only rows and
// columns of C that are never stored. Pointers move one slice along K per load. Element by element
// a group of four columns may straddle n, so there only blocks whose columns all lie inside B take
// whole slices, and only in tilings that ask for it (kScalarWholeSlices): for step 06's tiles
// load_slice() measured faster on that path (the notes page).
template <class Tiling, Float4 kFloat4>
struct WholeSlices {
    static constexpr int kAFours = Tiling::kSlice / 4;      // float4 in a row of A's slice
    static constexpr int kBFours = Tiling::kBlockCols / 4;  // and of B's
    static_assert(Tiling::kThreads % kAFours == 0 && Tiling::kThreads % kBFours == 0,
                  "each of a thread's loads must read the same columns of its row");
    const float* a[Tiling::kALoads];
    const float* b;
    std::size_t b_step;   // from one of the thread's rows of B's slice to the next
    std::size_t b_slice;  // from a slice of B to the next
    // Whether covers() can be true at all, and whether this block's columns of B are clamped
    // (float4) or all inside B.
    static constexpr bool kUsed = kFloat4 != Float4::none || Tiling::kScalarWholeSlices;
    bool inside;

    // [clamped pointers]
    __device__ WholeSlices(const float* __restrict__ a_matrix, const float* __restrict__ b_matrix,
                           int m, int n, int k, int block_row, int block_col, int k_begin) {
        const int t = threadIdx.x;
#pragma unroll
        for (int i = 0; i < Tiling::kALoads; ++i) {
            const int row = block_row + (t + i * Tiling::kThreads) / kAFours;
            a[i] = a_matrix + static_cast<std::size_t>(row < m ? row : m - 1) * k + k_begin +
                   4 * (t % kAFours);
        }
        int col = block_col + 4 * (t % kBFours);
        if constexpr (kFloat4 != Float4::none)
            col = col < n ? col : n - 4;  // n is a multiple of 4 on the float4 paths
        inside = kFloat4 != Float4::none || block_col + Tiling::kBlockCols <= n;
        b = b_matrix + static_cast<std::size_t>(k_begin + t / kBFours) * n + col;
        b_step = static_cast<std::size_t>(Tiling::kThreads / kBFours) * n;
        b_slice = static_cast<std::size_t>(Tiling::kSlice) * n;
    }
    // [clamped pointers]

    // Whether next() may load the slice that starts at column `slice` of A.
    __device__ bool covers(int slice, int k) const {
        return kUsed && inside && slice + Tiling::kSlice <= k;
    }

    // The next slice's float4, in load_slice()'s order.
    __device__ SliceFragment<Tiling> next() {
        SliceFragment<Tiling> fragment;
#pragma unroll
        for (int i = 0; i < Tiling::kALoads; ++i) {
            fragment.a[i] = tutorial::read4<kFloat4 == Float4::all>(a[i]);
            a[i] += Tiling::kSlice;
        }
#pragma unroll
        for (int i = 0; i < Tiling::kBLoads; ++i)
            fragment.b[i] = tutorial::read4<kFloat4 != Float4::none>(b + i * b_step);
        b += b_slice;
        return fragment;
    }
};

// The slice loop of the tilings that keep their last slice inside it (kPeelLastSlice false: step
// 08's small tiles, whose blocks run few slices). The first slice is in tiles[0]; each turn tests
// whether a next slice is to load and whether K ends inside this one.
template <class Tiling, class Load>
__device__ inline void unpeeled_loop(const Load& load, SliceTiles<Tiling>* tiles,
                                     const ThreadPlace<Tiling>& place, int k_begin, int k_end,
                                     float (&sum)[Tiling::kThreadRows][Tiling::kThreadCols]) {
    int current = 0;
    for (int slice = k_begin; slice < k_end; slice += Tiling::kSlice) {
        const bool has_next = slice + Tiling::kSlice < k_end;
        SliceFragment<Tiling> next;
        if (has_next)
            next = load(slice + Tiling::kSlice);
        if (slice + Tiling::kSlice <= k_end)
            multiply_slice(tiles[current], place, sum);
        else
            multiply_last_slice(tiles[current], place, k_end - slice, sum);
        if (has_next)
            store_slice(tiles[1 - current], next);
        __syncthreads();
        current = 1 - current;
    }
}

// [main loop]
// Step 05's double-buffered loop over K-slices, over columns [k_begin, k_end) of A (k_begin a
// multiple of kSlice): adds that range's contribution to the block tile at (block_row, block_col)
// to this thread's sums. `tiles` is the block's two slice buffers in shared memory. Whole slices
// load without bounds checks; the last slice of K, when it is partial, with load_slice(). The
// last slice is peeled out of the loop, so that the loop tests nothing, but in step 08's small
// tiles (unpeeled_loop() above; both ways measured on the notes page).
template <class Tiling, Float4 kFloat4>
__device__ inline void accumulate(const float* __restrict__ a, const float* __restrict__ b, int m,
                                  int n, int k, int block_row, int block_col, int k_begin,
                                  int k_end, SliceTiles<Tiling>* tiles,
                                  const ThreadPlace<Tiling>& place,
                                  float (&sum)[Tiling::kThreadRows][Tiling::kThreadCols]) {
    WholeSlices<Tiling, kFloat4> whole(a, b, m, n, k, block_row, block_col, k_begin);
    const auto load = [&](int slice) {
        return whole.covers(slice, k)
                   ? whole.next()
                   : load_slice<Tiling, kFloat4>(a, b, m, n, k, block_row, block_col, slice);
    };
    store_slice(tiles[0], load(k_begin));
    __syncthreads();
    if constexpr (!Tiling::kPeelLastSlice) {
        unpeeled_loop(load, tiles, place, k_begin, k_end, sum);
        return;
    }
    int current = 0;
    int slice = k_begin;
    for (; slice + Tiling::kSlice < k_end; slice += Tiling::kSlice) {
        const SliceFragment<Tiling> next = load(slice + Tiling::kSlice);
        multiply_slice(tiles[current], place, sum);
        store_slice(tiles[1 - current], next);
        __syncthreads();
        current = 1 - current;
    }
    multiply_last_slice(tiles[current], place, k_end - slice, sum);
    __syncthreads();
}
// [main loop]

// [shared memory]
// The main loop's shared memory: two K-slice buffers.
template <class Tiling>
constexpr std::size_t shared_bytes() {
    return 2 * sizeof(SliceTiles<Tiling>);
}

// A kernel may use more than 48 KiB of shared memory per block only once it has asked for it
// (NVIDIA GPUs; the attribute is accepted everywhere). The request is the same each time, so
// every launch can make it.
template <class Tiling, class Kernel>
void allow_shared_memory(Kernel kernel) {
    constexpr std::size_t kDefaultLimit = 48 * 1024;
    if (shared_bytes<Tiling>() > kDefaultLimit) {
        HIP_CHECK(hipFuncSetAttribute(reinterpret_cast<const void*>(kernel),
                                      hipFuncAttributeMaxDynamicSharedMemorySize,
                                      static_cast<int>(shared_bytes<Tiling>())));
    }
}
// [shared memory]

}  // namespace step06
