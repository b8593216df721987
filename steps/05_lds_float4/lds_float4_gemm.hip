#include "lds_float4_gemm.hpp"

#include <hip/hip_runtime.h>

#include <stdexcept>

#include "common/float4_access.hpp"
#include "common/hip_check.hpp"
#include "common/index_limits.hpp"
#include "common/rounding.hpp"

namespace step05 {
namespace {

// ---- float4 access with a scalar fallback ----------------------------------------------------

// Four neighbouring floats of a row, with float4 where the launcher allows it (common/).
using tutorial::load4;
using tutorial::store4;

// sum += a · b for a scalar a and a row of four: four multiply-adds.
__device__ inline void multiply_add(float4& sum, float a, float4 b) {
    sum.x += a * b.x;
    sum.y += a * b.y;
    sum.z += a * b.z;
    sum.w += a * b.w;
}

// A 4 x 4 block of C gets a 4 x 4 block of A times a 4 x 4 block of B, all held in registers:
// row r of C gets a(r, q) times row q of B, for q = 0..3. 64 multiply-adds on 8 loaded float4.
__device__ inline void multiply_add_4x4(float4 (&sum)[4], const float4 (&a_rows)[4],
                                        const float4 (&b_rows)[4]) {
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        multiply_add(sum[r], a_rows[r].x, b_rows[0]);
        multiply_add(sum[r], a_rows[r].y, b_rows[1]);
        multiply_add(sum[r], a_rows[r].z, b_rows[2]);
        multiply_add(sum[r], a_rows[r].w, b_rows[3]);
    }
}

// ---- 1. seed: the AMD sample's design ---------------------------------------------------------

constexpr int square(int value) {
    return value * value;
}

// [seed kernel]
// A block of kBlock x kBlock threads computes a kTile x kTile tile of C (kTile = 4 kBlock); thread
// (tx, ty) owns the 4 x 4 block at rows 4 ty.., columns 4 tx.. of the tile, in registers. Per
// K-slice of kTile, the block copies its kTile x kTile tile of A into shared memory (each thread
// four float4); B is read straight from global memory, one float4 per row of B.
template <int kBlock, bool kVectorized>
__global__ void __launch_bounds__(square(kBlock))
    seed_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                int m, int n, int k) {
    constexpr int kTile = 4 * kBlock;
    __shared__ float4 a_tile[kTile][kBlock];  // kTile rows of kTile floats, as float4

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row0 = blockIdx.y * kTile + 4 * ty;  // this thread's first row of C
    const int col0 = blockIdx.x * kTile + 4 * tx;  // and first column
    float4 sum[4] = {};

    for (int slice = 0; slice < k; slice += kTile) {
#pragma unroll
        for (int r = 0; r < 4; ++r) {
            a_tile[4 * ty + r][tx] = load4<kVectorized>(a, m, k, row0 + r, slice + 4 * tx);
        }
        __syncthreads();

        for (int kk = 0; kk < kTile; kk += 4) {
            float4 a_rows[4], b_rows[4];
#pragma unroll
            for (int q = 0; q < 4; ++q) {
                a_rows[q] = a_tile[4 * ty + q][kk / 4];
                b_rows[q] = load4<kVectorized>(b, k, n, slice + kk + q, col0);
            }
            multiply_add_4x4(sum, a_rows, b_rows);
        }
        __syncthreads();  // the tile is overwritten next: everyone must be done reading it
    }
#pragma unroll
    for (int r = 0; r < 4; ++r)
        store4<kVectorized>(c, m, n, row0 + r, col0, sum[r]);
}
// [seed kernel]

// ---- 2. lds_ab: B through shared memory too ---------------------------------------------------

// The seed kernel with B's kTile x kTile tile also copied into shared memory (each thread four
// float4), so the inner loop reads nothing from global memory.
// [lds_ab kernel]
template <int kBlock, bool kVectorized>
__global__ void __launch_bounds__(square(kBlock))
    lds_ab_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                  int m, int n, int k) {
    constexpr int kTile = 4 * kBlock;
    __shared__ float4 a_tile[kTile][kBlock];  // kTile rows of kTile floats, as float4
    __shared__ float4 b_tile[kTile][kBlock];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row0 = blockIdx.y * kTile + 4 * ty;  // this thread's first row of C
    const int col0 = blockIdx.x * kTile + 4 * tx;  // and first column
    float4 sum[4] = {};

    for (int slice = 0; slice < k; slice += kTile) {
        // [lds_ab slice]
#pragma unroll
        for (int r = 0; r < 4; ++r) {
            a_tile[4 * ty + r][tx] = load4<kVectorized>(a, m, k, row0 + r, slice + 4 * tx);
            b_tile[4 * ty + r][tx] = load4<kVectorized>(b, k, n, slice + 4 * ty + r, col0);
        }
        __syncthreads();

        for (int kk = 0; kk < kTile; kk += 4) {
            float4 a_rows[4], b_rows[4];
#pragma unroll
            for (int q = 0; q < 4; ++q) {
                a_rows[q] = a_tile[4 * ty + q][kk / 4];
                b_rows[q] = b_tile[kk + q][tx];
            }
            multiply_add_4x4(sum, a_rows, b_rows);
        }
        // [lds_ab slice]
        __syncthreads();  // the tiles are overwritten next: everyone must be done reading them
    }
#pragma unroll
    for (int r = 0; r < 4; ++r)
        store4<kVectorized>(c, m, n, row0 + r, col0, sum[r]);
}
// [lds_ab kernel]

// ---- 3. and 4. reg8x8: 128 x 128 block tiles, 8 x 8 outputs per thread -------------------------

// [reg8x8 constants]
constexpr int kBlockTile = 128;        // rows and columns of C per block
constexpr int kSlice = 8;              // K-slice: columns of A, rows of B per step
constexpr int kThreads = 256;          // 16 x 16 threads, 8 x 8 outputs each
constexpr int kHalf = kBlockTile / 2;  // the second 4 x 4 quadrant starts here
constexpr int kPad = 4;                // breaks the bank conflicts of A's transposed store
constexpr int kATileStride = kBlockTile + kPad;  // floats per row of the transposed A tile
// [reg8x8 constants]

// One K-slice of the block's operands in shared memory. A is stored transposed (a[kk][row]) so that
// the eight A values one thread needs for a given kk lie side by side, like B's, and both can be
// read as float4.
struct SliceTiles {
    alignas(16) float a[kSlice][kATileStride];
    alignas(16) float b[kSlice][kBlockTile];
};

// [slice copy]
// Each of the 256 threads fetches one float4 of A's 128 x 8 slice (row t / 2, columns 4 (t % 2)..)
// and one float4 of B's 8 x 128 slice (row t / 32, columns 4 (t % 32)..): 1024 floats of each.
struct SliceFragment {
    float4 a;
    float4 b;
};

template <bool kVectorized>
__device__ inline SliceFragment load_slice(const float* __restrict__ a, const float* __restrict__ b,
                                           int m, int n, int k, int block_row, int block_col,
                                           int slice) {
    const int t = threadIdx.x;
    return {load4<kVectorized>(a, m, k, block_row + t / 2, slice + 4 * (t % 2)),
            load4<kVectorized>(b, k, n, slice + t / 32, block_col + 4 * (t % 32))};
}

// Writes a thread's fragment into shared memory: A's four values go down one column of the
// transposed tile, B's float4 goes in as it is. With the 4-float padding, the 32 threads of a warp
// write A into 32 different banks: thread t writes bank (4 (4 (t % 2) + i) + t / 2) mod 32.
__device__ inline void store_slice(SliceTiles& tiles, const SliceFragment& fragment) {
    const int t = threadIdx.x;
    const int row = t / 2;
    const int kk = 4 * (t % 2);
    tiles.a[kk + 0][row] = fragment.a.x;
    tiles.a[kk + 1][row] = fragment.a.y;
    tiles.a[kk + 2][row] = fragment.a.z;
    tiles.a[kk + 3][row] = fragment.a.w;
    *reinterpret_cast<float4*>(&tiles.b[t / 32][4 * (t % 32)]) = fragment.b;
}
// [slice copy]

// [outer products]
// Eight values of one row of a tile, in two float4 reads: the thread's quadrant in the first half
// (4 index..) and in the second half (64 + 4 index..). Two quadrants 64 apart rather than eight
// neighbours keep the 8 threads served together reading 8 consecutive float4 (no bank conflict).
__device__ inline void load_fragment(const float* line, int index, float (&values)[8]) {
    const float4 low = *reinterpret_cast<const float4*>(line + 4 * index);
    const float4 high = *reinterpret_cast<const float4*>(line + kHalf + 4 * index);
    values[0] = low.x;
    values[1] = low.y;
    values[2] = low.z;
    values[3] = low.w;
    values[4] = high.x;
    values[5] = high.y;
    values[6] = high.z;
    values[7] = high.w;
}

// The thread's 8 x 8 block of C gets the slice's contribution: for each kk, the outer product of
// eight values of A's column kk and eight values of B's row kk. Every value read from shared memory
// is used 8 times; 64 multiply-adds per 4 float4 reads.
__device__ inline void multiply_slice(const SliceTiles& tiles, float (&sum)[8][8]) {
    const int tx = threadIdx.x % 16;
    const int ty = threadIdx.x / 16;
#pragma unroll
    for (int kk = 0; kk < kSlice; ++kk) {
        float a_values[8], b_values[8];
        load_fragment(tiles.a[kk], ty, a_values);
        load_fragment(tiles.b[kk], tx, b_values);
#pragma unroll
        for (int i = 0; i < 8; ++i) {
#pragma unroll
            for (int j = 0; j < 8; ++j)
                sum[i][j] += a_values[i] * b_values[j];
        }
    }
}
// [outer products]

// Writes the thread's 8 x 8 block: row i of `sum` is row 4 ty + i (i < 4) or 64 + 4 ty + i - 4 of
// the block tile, its columns 0..3 and 4..7 are columns 4 tx.. and 64 + 4 tx.., one float4 each.
template <bool kVectorized>
__device__ inline void store_block(float* __restrict__ c, int m, int n, int block_row,
                                   int block_col, const float (&sum)[8][8]) {
    const int tx = threadIdx.x % 16;
    const int ty = threadIdx.x / 16;
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const int row = block_row + (i / 4) * kHalf + 4 * ty + i % 4;
        const int col = block_col + 4 * tx;
        store4<kVectorized>(c, m, n, row, col,
                            make_float4(sum[i][0], sum[i][1], sum[i][2], sum[i][3]));
        store4<kVectorized>(c, m, n, row, col + kHalf,
                            make_float4(sum[i][4], sum[i][5], sum[i][6], sum[i][7]));
    }
}

// [reg8x8 kernel]
// Copy a slice, wait, multiply it, wait, next slice: two barriers per K-slice, and the global loads
// of a slice are not hidden behind any arithmetic of this block.
template <bool kVectorized>
__global__ void __launch_bounds__(kThreads)
    reg8x8_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                  int m, int n, int k) {
    __shared__ SliceTiles tiles;
    const int block_row = blockIdx.y * kBlockTile;
    const int block_col = blockIdx.x * kBlockTile;
    float sum[8][8] = {};

    for (int slice = 0; slice < k; slice += kSlice) {
        store_slice(tiles, load_slice<kVectorized>(a, b, m, n, k, block_row, block_col, slice));
        __syncthreads();
        multiply_slice(tiles, sum);
        __syncthreads();
    }
    store_block<kVectorized>(c, m, n, block_row, block_col, sum);
}
// [reg8x8 kernel]

// [reg8x8_db kernel]
// Double buffering: two SliceTiles. While the block multiplies slice s from one buffer, each thread
// already has slice s + 1's loads from global memory in flight into registers, and stores them into
// the other buffer afterwards. One barrier per slice is enough: the buffer written in iteration s
// was last read in iteration s - 1, which every thread finished before the previous barrier.
template <bool kVectorized>
__global__ void __launch_bounds__(kThreads)
    reg8x8_db_kernel(const float* __restrict__ a, const float* __restrict__ b,
                     float* __restrict__ c, int m, int n, int k) {
    __shared__ SliceTiles tiles[2];
    const int block_row = blockIdx.y * kBlockTile;
    const int block_col = blockIdx.x * kBlockTile;
    float sum[8][8] = {};

    store_slice(tiles[0], load_slice<kVectorized>(a, b, m, n, k, block_row, block_col, 0));
    __syncthreads();
    int current = 0;
    for (int slice = 0; slice < k; slice += kSlice) {
        const bool has_next = slice + kSlice < k;
        SliceFragment next{};
        if (has_next)
            next = load_slice<kVectorized>(a, b, m, n, k, block_row, block_col, slice + kSlice);
        multiply_slice(tiles[current], sum);  // runs while the loads above are on their way
        if (has_next)
            store_slice(tiles[1 - current], next);
        __syncthreads();
        current = 1 - current;
    }
    store_block<kVectorized>(c, m, n, block_row, block_col, sum);
}
// [reg8x8_db kernel]

// ---- launchers --------------------------------------------------------------------------------

using tutorial::aligned_16;
using tutorial::ceil_div;

template <int kBlock, bool kVectorized>
void launch_small_tiles(Variant variant, const float* a, const float* b, float* c, int m, int n,
                        int k, hipStream_t stream) {
    constexpr int kTile = 4 * kBlock;
    const dim3 threads(kBlock, kBlock);
    const dim3 blocks(ceil_div(n, kTile), ceil_div(m, kTile));
    const auto kernel = variant == Variant::seed ? seed_kernel<kBlock, kVectorized>
                                                 : lds_ab_kernel<kBlock, kVectorized>;
    hipLaunchKernelGGL(kernel, blocks, threads, 0, stream, a, b, c, m, n, k);
}

template <bool kVectorized>
void launch(Variant variant, int block, const float* a, const float* b, float* c, int m, int n,
            int k, hipStream_t stream) {
    if (variant == Variant::seed || variant == Variant::lds_ab) {
        if (block == 8) {
            launch_small_tiles<8, kVectorized>(variant, a, b, c, m, n, k, stream);
        } else {
            launch_small_tiles<16, kVectorized>(variant, a, b, c, m, n, k, stream);
        }
        return;
    }
    const dim3 blocks(ceil_div(n, kBlockTile), ceil_div(m, kBlockTile));
    const auto kernel =
        variant == Variant::reg8x8 ? reg8x8_kernel<kVectorized> : reg8x8_db_kernel<kVectorized>;
    hipLaunchKernelGGL(kernel, blocks, dim3(kThreads), 0, stream, a, b, c, m, n, k);
}

}  // namespace

const char* variant_name(Variant variant) {
    switch (variant) {
        case Variant::seed:
            return "seed";
        case Variant::lds_ab:
            return "lds_ab";
        case Variant::reg8x8:
            return "reg8x8";
        case Variant::reg8x8_db:
            return "reg8x8_db";
    }
    throw std::invalid_argument("step05::variant_name: not a Variant");
}

Variant parse_variant(const std::string& text) {
    for (const Variant variant : kAllVariants) {
        if (text == variant_name(variant))
            return variant;
    }
    throw std::invalid_argument(
        "'" + text + "' is not a variant of step 05; choose seed, lds_ab, reg8x8 or reg8x8_db");
}

// [launcher]
void gemm(const float* a, const float* b, float* c, int m, int n, int k, hipStream_t stream,
          Variant variant, int block) {
    if (block != 8 && block != 16) {
        throw std::invalid_argument("step05::gemm: block must be 8 or 16, got " +
                                    std::to_string(block));
    }
    if (m < 0 || n < 0 || k < 0) {
        throw std::invalid_argument("step05::gemm: negative size");
    }
    tutorial::check_32bit_indexing("step05::gemm", m, n, k);
    const bool small_tiles = variant == Variant::seed || variant == Variant::lds_ab;
    tutorial::check_grid_y("step05::gemm", "m", m, small_tiles ? 4 * block : kBlockTile);
    if (m == 0 || n == 0)
        return;  // C is empty: nothing to launch
    // float4 needs rows that start on 16-byte boundaries: n and k multiples of 4, aligned pointers.
    const bool vectorized =
        n % 4 == 0 && k % 4 == 0 && aligned_16(a) && aligned_16(b) && aligned_16(c);
    if (vectorized) {
        launch<true>(variant, block, a, b, c, m, n, k, stream);
    } else {
        launch<false>(variant, block, a, b, c, m, n, k, stream);
    }
    HIP_CHECK_LAUNCH();
}
// [launcher]

}  // namespace step05
