#include "row_kernel.hpp"

#include <hip/hip_runtime.h>

#include <cstddef>

#include "common/hip_check.hpp"
#include "common/rounding.hpp"
#include "every_shape_tiles.hpp"

namespace step08 {
namespace {

// The threads of one block of the 4 x 128 tile: kRowLanes columns of float4 times kRowSteps
// threads along K.
static_assert(kRowSteps >= kRowRows, "the final sums give one row to each of the first steps");
constexpr int kRowThreads = kRowLanes * kRowSteps;

// Element (row, kk) of the m x k matrix A, zero for the rows past m of the last block.
__device__ inline float a_at(const float* __restrict__ a, int m, int k, int row, int kk) {
    return row < m ? a[static_cast<std::size_t>(row) * k + kk] : 0.0f;
}

// The four columns of C that thread `lane` of a block owns, from the block's first column
// `first` on: with float4, 4 lane to 4 lane + 3; element by element, lane, lane + 32, lane + 64
// and lane + 96, so that each scalar load of a warp still reads 32 neighbouring floats (128 bytes)
// of a row instead of a float out of every four. Columns past n read as zeros.
template <bool kVector>
__device__ inline float4 load_columns(const float* __restrict__ line, int n, int first, int lane) {
    float4 value = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if constexpr (kVector) {
        const int col = first + 4 * lane;
        if (col < n)
            value = *reinterpret_cast<const float4*>(line + col);
    } else {
        const int col = first + lane;
        if (col < n)
            value.x = line[col];
        if (col + kRowLanes < n)
            value.y = line[col + kRowLanes];
        if (col + 2 * kRowLanes < n)
            value.z = line[col + 2 * kRowLanes];
        if (col + 3 * kRowLanes < n)
            value.w = line[col + 3 * kRowLanes];
    }
    return value;
}

// The same four columns written; those past n are not.
template <bool kVector>
__device__ inline void store_columns(float* __restrict__ line, int n, int first, int lane,
                                     float4 value) {
    if constexpr (kVector) {
        const int col = first + 4 * lane;
        if (col < n)
            *reinterpret_cast<float4*>(line + col) = value;
    } else {
        const int col = first + lane;
        if (col < n)
            line[col] = value.x;
        if (col + kRowLanes < n)
            line[col + kRowLanes] = value.y;
        if (col + 2 * kRowLanes < n)
            line[col + 2 * kRowLanes] = value.z;
        if (col + 3 * kRowLanes < n)
            line[col + 3 * kRowLanes] = value.w;
    }
}

// sum[r] += x[r] y for each of the block's rows of C.
__device__ inline void multiply_add(float4 (&sum)[kRowRows], const float (&x)[kRowRows], float4 y) {
#pragma unroll
    for (int r = 0; r < kRowRows; ++r) {
        sum[r].x += x[r] * y.x;
        sum[r].y += x[r] * y.y;
        sum[r].z += x[r] * y.z;
        sum[r].w += x[r] * y.w;
    }
}

// The block's threads keep their sums of four rows in shared memory, by step: the kRowSteps sums of
// element (r, lane), added step 0 first.
using StepSums = float4[kRowSteps][kRowRows][kRowLanes];
__device__ inline float4 add_steps(const StepSums& sums, int r, int lane) {
    float4 total = sums[0][r][lane];
#pragma unroll
    for (int s = 1; s < kRowSteps; ++s) {
        const float4 more = sums[s][r][lane];
        total.x += more.x;
        total.y += more.y;
        total.z += more.z;
        total.w += more.w;
    }
    return total;
}

// [row]
// The 4 x 128 tile, for a C of one to four rows. There each float of B takes part in at most four
// multiply-adds, so reading B once is the whole cost: no tile of B is worth keeping in shared
// memory. Thread (lane, step) owns four of the block's 128 columns (load_columns) and four rows
// of C, and rows step, step + kRowSteps, ... of its range of K, kRowLoads of them loaded at a
// time: a warp reads 512 neighbouring bytes of one row of B and the float of A that all its
// threads multiply them by. Then the kRowSteps sums of each element are added in shared memory,
// step 0 first. kVector: B's rows read, and `out`'s written, as float4.
template <bool kVector>
__global__ void __launch_bounds__(kRowThreads)
    row_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ out,
               int m, int n, int k, int depth) {
    __shared__ StepSums sums;
    const int lane = threadIdx.x % kRowLanes;
    const int step = threadIdx.x / kRowLanes;
    const int row = blockIdx.y * kRowRows;
    const int first = blockIdx.x * kRowCols;
    const int k_begin = blockIdx.z * depth;
    const int k_end = k_begin + depth < k ? k_begin + depth : k;
    const auto row_of_b = [&](int kk) { return b + static_cast<std::size_t>(kk) * n; };
    float4 sum[kRowRows] = {};
    int kk = k_begin + step;
    // Whole batches of kRowLoads rows of B, all inside the range: every load of a batch is issued
    // before the first multiply-add waits for one, so each thread keeps kRowLoads loads in flight.
    for (; kk + (kRowLoads - 1) * kRowSteps < k_end; kk += kRowLoads * kRowSteps) {
        float4 y[kRowLoads];
        float x[kRowLoads][kRowRows];
#pragma unroll
        for (int u = 0; u < kRowLoads; ++u) {
            y[u] = load_columns<kVector>(row_of_b(kk + u * kRowSteps), n, first, lane);
#pragma unroll
            for (int r = 0; r < kRowRows; ++r)
                x[u][r] = a_at(a, m, k, row + r, kk + u * kRowSteps);
        }
#pragma unroll
        for (int u = 0; u < kRowLoads; ++u)
            multiply_add(sum, x[u], y[u]);
    }
    // The rest of the range, one row of B at a time.
    for (; kk < k_end; kk += kRowSteps) {
        float x[kRowRows];
#pragma unroll
        for (int r = 0; r < kRowRows; ++r)
            x[r] = a_at(a, m, k, row + r, kk);
        multiply_add(sum, x, load_columns<kVector>(row_of_b(kk), n, first, lane));
    }
#pragma unroll
    for (int r = 0; r < kRowRows; ++r)
        sums[step][r][lane] = sum[r];
    __syncthreads();
    // Thread (lane, r) for r < kRowRows now adds the steps' sums of row r, step 0 first.
    if (step >= kRowRows || row + step >= m)
        return;
    float* partial = out + static_cast<std::size_t>(blockIdx.z) * m * n;
    store_columns<kVector>(partial + static_cast<std::size_t>(row + step) * n, n, first, lane,
                           add_steps(sums, step, lane));
}
// [row]

// [staged rows]
// The 8 x 128 tile, for a C of 5 to kStagedRowsMaxRows rows. Its threads are laid out as the 4 x
// 128 tile's and read B the same way (load_columns), but each owns eight rows of C, so every float
// of B takes part in eight multiply-adds: twice the rows for each read of B. With eight rows A's
// floats would cost as many loads as B's, so the block stages A's next kStagedChunk columns in
// shared memory, one coalesced float per thread, transposed (staged[kk][row]) so that a thread
// reads the eight floats of its column kk as two float4 that every lane of the warp shares. The
// next chunk's B and A are loaded before this chunk's multiply-adds: kRowLoads rows of B per
// thread in flight while it multiplies, as in the 4 x 128 tile. One barrier per chunk: the two
// buffers alternate, and a buffer is written again only after every thread passed the barrier
// that follows its last read.
template <bool kVector>
__global__ void __launch_bounds__(kRowThreads)
    staged_rows_kernel(const float* __restrict__ a, const float* __restrict__ b,
                       float* __restrict__ out, int m, int n, int k, int depth) {
    static_assert(kStagedRows * kStagedChunk == kRowThreads, "one float of A per thread a chunk");
    static_assert(kStagedChunk == kRowSteps * kRowLoads, "a chunk is every thread's rows of B");
    static_assert(kRowRows == 4, "a float4 of A's staged column is one group of rows");
    constexpr int kPadded = kStagedRows + 4;  // rows of a column, float4-aligned, padded
    __shared__ float4 staged4[2][kStagedChunk][kPadded / 4];
    __shared__ StepSums sums;
    const int lane = threadIdx.x % kRowLanes;
    const int step = threadIdx.x / kRowLanes;
    const int row = blockIdx.y * kStagedRows;
    const int first = blockIdx.x * kRowCols;
    const int k_begin = blockIdx.z * depth;
    const int k_end = k_begin + depth < k ? k_begin + depth : k;
    // This thread's float of A in each chunk: row a_row of the block, column a_col of the chunk.
    const int a_row = threadIdx.x / kStagedChunk;
    const int a_col = threadIdx.x % kStagedChunk;
    float4 y[kRowLoads];
    float x = 0.0f;
    const auto load_chunk = [&](int chunk) {
#pragma unroll
        for (int u = 0; u < kRowLoads; ++u) {
            const int kk = chunk + step + u * kRowSteps;
            y[u] = kk < k_end
                       ? load_columns<kVector>(b + static_cast<std::size_t>(kk) * n, n, first, lane)
                       : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        }
        const int kk = chunk + a_col;
        x = kk < k_end ? a_at(a, m, k, row + a_row, kk) : 0.0f;
    };
    // The sums in groups of four rows, each as the 4 x 128 tile's: multiply_add() serves both.
    float4 sum[kStagedRows / kRowRows][kRowRows] = {};
    int buffer = 0;
    // [staged loop]
    load_chunk(k_begin);
    for (int chunk = k_begin; chunk < k_end; chunk += kStagedChunk) {
        reinterpret_cast<float*>(staged4[buffer][a_col])[a_row] = x;
        __syncthreads();
        float4 rows_of_b[kRowLoads];
#pragma unroll
        for (int u = 0; u < kRowLoads; ++u)
            rows_of_b[u] = y[u];
        if (chunk + kStagedChunk < k_end)
            load_chunk(chunk + kStagedChunk);
#pragma unroll
        for (int u = 0; u < kRowLoads; ++u) {
            const float4* column = staged4[buffer][step + u * kRowSteps];
#pragma unroll
            for (int group = 0; group < kStagedRows / kRowRows; ++group) {
                const float4 four = column[group];
                const float x_column[kRowRows] = {four.x, four.y, four.z, four.w};
                multiply_add(sum[group], x_column, rows_of_b[u]);
            }
        }
        buffer = 1 - buffer;
    }
    // [staged loop]
    // The steps' sums added in shared memory, four rows of C at a time, step 0 first.
    float* partial = out + static_cast<std::size_t>(blockIdx.z) * m * n;
#pragma unroll
    for (int group = 0; group < kStagedRows / kRowRows; ++group) {
        __syncthreads();
#pragma unroll
        for (int r = 0; r < kRowRows; ++r)
            sums[step][r][lane] = sum[group][r];
        __syncthreads();
        const int c_row = row + group * kRowRows + step;
        if (step < kRowRows && c_row < m)
            store_columns<kVector>(partial + static_cast<std::size_t>(c_row) * n, n, first, lane,
                                   add_steps(sums, step, lane));
    }
}
// [staged rows]

// A row tile's kernel: launch_rows() queues it, resident_blocks() counts it.
using RowKernel = void (*)(const float*, const float*, float*, int, int, int, int);

// Queues a row tile's blocks on `stream`: kRowCols columns across, `rows` rows of C each down, one
// layer per range of `split`, with float4 where B and `out` allow it.
void launch_rows(RowKernel vector_kernel, RowKernel scalar_kernel, int rows, const float* a,
                 const float* b, float* out, int m, int n, int k, const step07::SplitPlan& split,
                 hipStream_t stream) {
    const bool vector = n % 4 == 0 && tutorial::aligned_16(b) && tutorial::aligned_16(out);
    const dim3 blocks(tutorial::ceil_div(n, kRowCols), tutorial::ceil_div(m, rows), split.count);
    const RowKernel kernel = vector ? vector_kernel : scalar_kernel;
    hipLaunchKernelGGL(kernel, blocks, dim3(kRowThreads), 0, stream, a, b, out, m, n, k,
                       split.depth);
    HIP_CHECK_LAUNCH();
}

int resident_blocks(RowKernel kernel) {
    int blocks = 0;
    HIP_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, kRowThreads, 0));
    return blocks;
}

}  // namespace

void launch_row(const float* a, const float* b, float* out, int m, int n, int k,
                const step07::SplitPlan& split, hipStream_t stream) {
    launch_rows(row_kernel<true>, row_kernel<false>, kRowRows, a, b, out, m, n, k, split, stream);
}

void launch_staged_rows(const float* a, const float* b, float* out, int m, int n, int k,
                        const step07::SplitPlan& split, hipStream_t stream) {
    launch_rows(staged_rows_kernel<true>, staged_rows_kernel<false>, kStagedRows, a, b, out, m, n,
                k, split, stream);
}

int staged_rows_resident_blocks() {
    return resident_blocks(staged_rows_kernel<true>);
}

int row_resident_blocks() {
    return resident_blocks(row_kernel<true>);
}

}  // namespace step08
