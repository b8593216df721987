#include "every_shape_gemm.hpp"

#include <hip/hip_runtime.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

#include "common/errors.hpp"
#include "common/hip_check.hpp"

namespace step06 {
namespace {

// ---- float4 access with a scalar fallback (as in step 05) -------------------------------------

// Four consecutive elements of row `row` of a rows x cols row-major matrix, from column `col` on;
// elements outside the matrix read as zero. kVectorized: cols is a multiple of 4, the pointer is
// 16-byte aligned and col is a multiple of 4, so one 16-byte load fetches all four or none.
template <bool kVectorized>
__device__ inline float4 load4(const float* __restrict__ matrix, int rows, int cols, int row,
                               int col) {
    float4 value = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (row >= rows)
        return value;
    const float* line = matrix + static_cast<std::size_t>(row) * cols;
    if constexpr (kVectorized) {
        if (col < cols)
            value = *reinterpret_cast<const float4*>(line + col);
    } else {
        if (col + 0 < cols)
            value.x = line[col + 0];
        if (col + 1 < cols)
            value.y = line[col + 1];
        if (col + 2 < cols)
            value.z = line[col + 2];
        if (col + 3 < cols)
            value.w = line[col + 3];
    }
    return value;
}

// The same for writing, with float4 only: elements outside the matrix are not written.
__device__ inline void store4(float* __restrict__ matrix, int rows, int cols, int row, int col,
                              float4 value) {
    if (row >= rows || col >= cols)
        return;
    *reinterpret_cast<float4*>(matrix + static_cast<std::size_t>(row) * cols + col) = value;
}

// ---- the three levels of tiling ---------------------------------------------------------------

// [tiling]
// Block tile kBlockRows x kBlockCols of C, cut into warp tiles of kWarpRows x kWarpCols, cut into
// thread tiles of kThreadRows x kThreadCols. A warp's 32 lanes form a kLaneRows x kLaneCols grid;
// each lane's thread tile is made of 4 x 4 pieces spread over the warp tile, a piece stride apart,
// so that neighbouring lanes read neighbouring float4 from shared memory.
template <int kBlockRows_, int kBlockCols_, int kSlice_, int kWarpRows_, int kWarpCols_,
          int kThreadRows_, int kThreadCols_, int kMinBlocks_ = 2, int kPad_ = 4>
struct Tiling {
    static constexpr int kBlockRows = kBlockRows_;
    static constexpr int kBlockCols = kBlockCols_;
    static constexpr int kSlice = kSlice_;  // K-slice: columns of A, rows of B per step
    static constexpr int kWarpRows = kWarpRows_;
    static constexpr int kWarpCols = kWarpCols_;
    static constexpr int kThreadRows = kThreadRows_;
    static constexpr int kThreadCols = kThreadCols_;
    static constexpr int kMinBlocks = kMinBlocks_;  // blocks one multiprocessor must hold at once
    static constexpr int kLaneRows = kWarpRows / kThreadRows;
    static constexpr int kLaneCols = kWarpCols / kThreadCols;
    static constexpr int kPieceRows = kThreadRows / 4;  // 4 x 4 pieces per thread tile, down
    static constexpr int kPieceCols = kThreadCols / 4;  // and across
    static constexpr int kRowStride = 4 * kLaneRows;    // from one piece to the next, down
    static constexpr int kColStride = 4 * kLaneCols;    // and across
    static constexpr int kWarpsDown = kBlockRows / kWarpRows;
    static constexpr int kWarpsAcross = kBlockCols / kWarpCols;
    static constexpr int kThreads = 32 * kWarpsDown * kWarpsAcross;
    // float4 loads of each thread per K-slice, for A's kBlockRows x kSlice and B's kSlice x
    // kBlockCols
    static constexpr int kALoads = kBlockRows * kSlice / 4 / kThreads;
    static constexpr int kBLoads = kSlice * kBlockCols / 4 / kThreads;
    static constexpr int kPad = kPad_;  // breaks the bank conflicts of A's transposed store

    static_assert(kLaneRows * kLaneCols == 32, "a warp is 32 lanes");
    static_assert(kLaneRows * kThreadRows == kWarpRows && kLaneCols * kThreadCols == kWarpCols,
                  "thread tiles must cover the warp tile");
    static_assert(kWarpsDown * kWarpRows == kBlockRows && kWarpsAcross * kWarpCols == kBlockCols,
                  "warp tiles must cover the block tile");
    static_assert(kALoads * kThreads * 4 == kBlockRows * kSlice && kALoads >= 1,
                  "A's slice must split evenly into float4 loads");
    static_assert(kBLoads * kThreads * 4 == kSlice * kBlockCols && kBLoads >= 1,
                  "B's slice must split evenly into float4 loads");
};
// [tiling]

// One K-slice of the block's operands in shared memory; A transposed (a[kk][row]) so that the
// values a thread needs for one kk lie side by side and read as float4, like B's.
template <class T>
struct SliceTiles {
    alignas(16) float a[T::kSlice][T::kBlockRows + T::kPad];
    alignas(16) float b[T::kSlice][T::kBlockCols];
};

// What one thread carries from global memory to shared memory for one K-slice.
template <class T>
struct SliceFragment {
    float4 a[T::kALoads];
    float4 b[T::kBLoads];
};

// Thread t's i-th float4 of A's slice is row f / (kSlice / 4), columns 4 (f % (kSlice / 4)).. with
// f = t + i kThreads; of B's slice, row f / (kBlockCols / 4), columns 4 (f % (kBlockCols / 4))...
// Consecutive threads read consecutive float4 of a row: coalesced.
template <class T, bool kVectorized>
__device__ inline SliceFragment<T> load_slice(const float* __restrict__ a,
                                              const float* __restrict__ b, int m, int n, int k,
                                              int block_row, int block_col, int slice) {
    SliceFragment<T> fragment;
#pragma unroll
    for (int i = 0; i < T::kALoads; ++i) {
        const int f = threadIdx.x + i * T::kThreads;
        fragment.a[i] = load4<kVectorized>(a, m, k, block_row + f / (T::kSlice / 4),
                                           slice + 4 * (f % (T::kSlice / 4)));
    }
#pragma unroll
    for (int i = 0; i < T::kBLoads; ++i) {
        const int f = threadIdx.x + i * T::kThreads;
        fragment.b[i] = load4<kVectorized>(b, k, n, slice + f / (T::kBlockCols / 4),
                                           block_col + 4 * (f % (T::kBlockCols / 4)));
    }
    return fragment;
}

template <class T>
__device__ inline void store_slice(SliceTiles<T>& tiles, const SliceFragment<T>& fragment) {
#pragma unroll
    for (int i = 0; i < T::kALoads; ++i) {
        const int f = threadIdx.x + i * T::kThreads;
        const int row = f / (T::kSlice / 4);
        const int kk = 4 * (f % (T::kSlice / 4));
        tiles.a[kk + 0][row] = fragment.a[i].x;
        tiles.a[kk + 1][row] = fragment.a[i].y;
        tiles.a[kk + 2][row] = fragment.a[i].z;
        tiles.a[kk + 3][row] = fragment.a[i].w;
    }
#pragma unroll
    for (int i = 0; i < T::kBLoads; ++i) {
        const int f = threadIdx.x + i * T::kThreads;
        const int row = f / (T::kBlockCols / 4);
        const int col = 4 * (f % (T::kBlockCols / 4));
        *reinterpret_cast<float4*>(&tiles.b[row][col]) = fragment.b[i];
    }
}

// [warp tile]
// Where this thread's first 4 x 4 piece lies in the block tile: its warp's tile, then its lane's
// place in the warp's lane grid.
template <class T>
struct ThreadPlace {
    int row;
    int col;

    __device__ ThreadPlace() {
        const int warp = threadIdx.x / 32;
        const int lane = threadIdx.x % 32;
        row = (warp / T::kWarpsAcross) * T::kWarpRows + 4 * (lane / T::kLaneCols);
        col = (warp % T::kWarpsAcross) * T::kWarpCols + 4 * (lane % T::kLaneCols);
    }
};

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

// The slice's contribution to the thread tile: for each kk, the outer product of kThreadRows
// values of A's column kk and kThreadCols values of B's row kk.
template <class T>
__device__ inline void multiply_slice(const SliceTiles<T>& tiles, const ThreadPlace<T>& place,
                                      float (&sum)[T::kThreadRows][T::kThreadCols]) {
#pragma unroll
    for (int kk = 0; kk < T::kSlice; ++kk) {
        float a_values[T::kThreadRows], b_values[T::kThreadCols];
        load_fragment<T::kThreadRows, T::kRowStride>(tiles.a[kk], place.row, a_values);
        load_fragment<T::kThreadCols, T::kColStride>(tiles.b[kk], place.col, b_values);
#pragma unroll
        for (int i = 0; i < T::kThreadRows; ++i) {
#pragma unroll
            for (int j = 0; j < T::kThreadCols; ++j)
                sum[i][j] += a_values[i] * b_values[j];
        }
    }
}
// [warp tile]

// Writes the thread tile into the m x n matrix `c` (C itself, or one split's partial tile) with
// float4: row r of piece row pr is row place.row + pr kRowStride + r of the block tile, and so on
// across.
template <class T>
__device__ inline void store_block(float* __restrict__ c, int m, int n, int block_row,
                                   int block_col, const ThreadPlace<T>& place,
                                   const float (&sum)[T::kThreadRows][T::kThreadCols]) {
#pragma unroll
    for (int piece_row = 0; piece_row < T::kPieceRows; ++piece_row) {
#pragma unroll
        for (int r = 0; r < 4; ++r) {
            const int i = 4 * piece_row + r;
            const int row = block_row + place.row + piece_row * T::kRowStride + r;
#pragma unroll
            for (int piece_col = 0; piece_col < T::kPieceCols; ++piece_col) {
                const int j = 4 * piece_col;
                const int col = block_col + place.col + piece_col * T::kColStride;
                store4(c, m, n, row, col,
                       make_float4(sum[i][j], sum[i][j + 1], sum[i][j + 2], sum[i][j + 3]));
            }
        }
    }
}

// [scalar store]
// The same where float4 cannot write C's rows. Written as they are, a warp's scalar stores would
// put 4-byte values 16 bytes apart, a quarter of each 32-byte sector per store, four times over.
// Instead the block passes its tile through shared memory (`staging`: the K-slice buffers, free
// once the loop is done), one row of each thread tile at a time: kRows = kBlockRows / kThreadRows
// rows of the block tile, one per row of lanes of each warp. Then consecutive threads write
// consecutive columns of those rows.
template <class T>
__device__ inline void store_block_scalar(float* __restrict__ c, int m, int n, int block_row,
                                          int block_col, const ThreadPlace<T>& place,
                                          const float (&sum)[T::kThreadRows][T::kThreadCols],
                                          float* staging) {
    constexpr int kRows = T::kBlockRows / T::kThreadRows;
    constexpr int kFloats = kRows * T::kBlockCols;
    static_assert(kFloats * sizeof(float) <= 2 * sizeof(SliceTiles<T>),
                  "the staged rows must fit in the K-slice buffers");
    // This thread's staged row: its warp's place down the block, then its row of lanes.
    const int mine = place.row / T::kWarpRows * T::kLaneRows + place.row % T::kWarpRows / 4;
#pragma unroll
    for (int piece_row = 0; piece_row < T::kPieceRows; ++piece_row) {
#pragma unroll
        for (int r = 0; r < 4; ++r) {
            const int i = 4 * piece_row + r;
            __syncthreads();  // nobody still reads the buffers (the last K-slice, the last rows)
#pragma unroll
            for (int piece_col = 0; piece_col < T::kPieceCols; ++piece_col) {
                const int j = 4 * piece_col;
                *reinterpret_cast<float4*>(staging + mine * T::kBlockCols + place.col +
                                           piece_col * T::kColStride) =
                    make_float4(sum[i][j], sum[i][j + 1], sum[i][j + 2], sum[i][j + 3]);
            }
            __syncthreads();
#pragma unroll
            for (int first = 0; first < kFloats; first += T::kThreads) {
                const int e = first + threadIdx.x;
                const int staged = e / T::kBlockCols;
                const int row = block_row + staged / T::kLaneRows * T::kWarpRows +
                                4 * (staged % T::kLaneRows) + piece_row * T::kRowStride + r;
                const int col = block_col + e % T::kBlockCols;
                if ((kFloats % T::kThreads == 0 || e < kFloats) && row < m && col < n)
                    c[static_cast<std::size_t>(row) * n + col] = staging[e];
            }
        }
    }
    __syncthreads();  // the buffers are free again for whatever comes next
}
// [scalar store]

// C's block tile, with float4 or through shared memory.
template <class T, bool kVectorized>
__device__ inline void write_tile(float* __restrict__ c, int m, int n, int block_row, int block_col,
                                  const ThreadPlace<T>& place,
                                  const float (&sum)[T::kThreadRows][T::kThreadCols],
                                  float* staging) {
    if constexpr (kVectorized)
        store_block<T>(c, m, n, block_row, block_col, place, sum);
    else
        store_block_scalar<T>(c, m, n, block_row, block_col, place, sum, staging);
}

// [kernel]
// Step 05's double-buffered loop over K-slices, over columns [k_begin, k_end) of A (k_begin a
// multiple of kSlice): adds that range's contribution to the block tile at (block_row, block_col)
// to this thread's sums. `tiles` is the block's two slice buffers in shared memory.
template <class T, bool kVectorized>
__device__ inline void accumulate(const float* __restrict__ a, const float* __restrict__ b, int m,
                                  int n, int k, int block_row, int block_col, int k_begin,
                                  int k_end, SliceTiles<T>* tiles, const ThreadPlace<T>& place,
                                  float (&sum)[T::kThreadRows][T::kThreadCols]) {
    store_slice(tiles[0], load_slice<T, kVectorized>(a, b, m, n, k, block_row, block_col, k_begin));
    __syncthreads();
    int current = 0;
    for (int slice = k_begin; slice < k_end; slice += T::kSlice) {
        const bool has_next = slice + T::kSlice < k_end;
        SliceFragment<T> next;
        if (has_next) {
            next =
                load_slice<T, kVectorized>(a, b, m, n, k, block_row, block_col, slice + T::kSlice);
        }
        multiply_slice(tiles[current], place, sum);
        if (has_next)
            store_slice(tiles[1 - current], next);
        __syncthreads();
        current = 1 - current;
    }
}

// One block per tile of C, over one range of K: blockIdx.z picks the split, which covers K-slices
// [z depth, (z + 1) depth). With one split the block writes C; with more, its partial tile goes to
// out + z m n and reduce_splits() adds them up. Tiles are numbered row by row; blocks of tiles
// from `tile_count` on do nothing (stream-K computes those). kVectorized: A, B and C are read
// and written with float4; otherwise with scalar loads, and scalar stores through shared memory.
template <class T, bool kVectorized>
__global__ void __launch_bounds__(T::kThreads, T::kMinBlocks)
    warp_tiled_kernel(const float* __restrict__ a, const float* __restrict__ b,
                      float* __restrict__ out, int m, int n, int k, int depth, int tile_count) {
    if (static_cast<int>(blockIdx.y * gridDim.x + blockIdx.x) >= tile_count)
        return;
    // The two buffers live in the block's dynamic shared memory: a padded 128 x 256 tile needs
    // more than the 48 KiB a kernel may declare statically on NVIDIA GPUs (see launch_tiles()).
    HIP_DYNAMIC_SHARED(float4, shared_memory)
    auto* tiles = reinterpret_cast<SliceTiles<T>*>(shared_memory);
    const int block_row = blockIdx.y * T::kBlockRows;
    const int block_col = blockIdx.x * T::kBlockCols;
    const int k_begin = blockIdx.z * depth;
    const int k_end = k_begin + depth < k ? k_begin + depth : k;
    const ThreadPlace<T> place;
    float sum[T::kThreadRows][T::kThreadCols] = {};
    accumulate<T, kVectorized>(a, b, m, n, k, block_row, block_col, k_begin, k_end, tiles, place,
                               sum);
    float* c = out + static_cast<std::size_t>(blockIdx.z) * m * n;
    write_tile<T, kVectorized>(c, m, n, block_row, block_col, place, sum,
                               reinterpret_cast<float*>(tiles));
}
// [kernel]

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
    // Where worker w's partial tile for shared tile `local` goes: its first tile in slot 2 w,
    // its last in slot 2 w + 1 (a share shorter than a tile touches at most two; the tiles in
    // between, if any, are whole and go straight to C).
    __device__ int slot(int w, int local) const {
        return 2 * w + (begin(w) / slices == local ? 0 : 1);
    }
};

// Adds the partial tile at `partial` (kBlockRows x kBlockCols, row-major) to this thread's sums,
// or copies it into them when `first`.
template <class T>
__device__ inline void add_partial(const float* __restrict__ partial, const ThreadPlace<T>& place,
                                   bool first, float (&sum)[T::kThreadRows][T::kThreadCols]) {
#pragma unroll
    for (int piece_row = 0; piece_row < T::kPieceRows; ++piece_row) {
#pragma unroll
        for (int r = 0; r < 4; ++r) {
            const int i = 4 * piece_row + r;
            const float* line =
                partial + (place.row + piece_row * T::kRowStride + r) * T::kBlockCols;
#pragma unroll
            for (int piece_col = 0; piece_col < T::kPieceCols; ++piece_col) {
                const int j = 4 * piece_col;
                const float4 four =
                    *reinterpret_cast<const float4*>(line + place.col + piece_col * T::kColStride);
                sum[i][j + 0] = first ? four.x : sum[i][j + 0] + four.x;
                sum[i][j + 1] = first ? four.y : sum[i][j + 1] + four.y;
                sum[i][j + 2] = first ? four.z : sum[i][j + 2] + four.z;
                sum[i][j + 3] = first ? four.w : sum[i][j + 3] + four.w;
            }
        }
    }
}

// Worker blockIdx.x computes K-slices [begin, end) of the shared tiles' sequence, tile by tile. A
// tile it computes whole goes to C. Otherwise it writes its partial tile to its slot and counts
// itself in `arrivals`; the worker that arrives last at a tile adds the tile's partial tiles in
// worker order (so the bits do not depend on who is last), writes C and sets the count back to
// zero for the next multiply. Nobody waits for anybody.
template <class T, bool kVectorized>
__global__ void __launch_bounds__(T::kThreads, T::kMinBlocks)
    stream_k_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                    float* __restrict__ partials, int* __restrict__ arrivals, int m, int n, int k,
                    int workers, int first_tile, int slices, long long total, int tiles_across) {
    const StreamKShare share{workers, first_tile, slices, total, tiles_across};
    HIP_DYNAMIC_SHARED(float4, shared_memory)
    auto* tiles = reinterpret_cast<SliceTiles<T>*>(shared_memory);
    __shared__ int last_to_arrive;
    constexpr int kTileFloats = T::kBlockRows * T::kBlockCols;
    const ThreadPlace<T> place;
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
        const int block_row = tile / tiles_across * T::kBlockRows;
        const int block_col = tile % tiles_across * T::kBlockCols;
        const int k_begin = (at - tile_begin) * T::kSlice;
        const int k_end = (stop - tile_begin) * T::kSlice < k ? (stop - tile_begin) * T::kSlice : k;
        float sum[T::kThreadRows][T::kThreadCols] = {};
        accumulate<T, kVectorized>(a, b, m, n, k, block_row, block_col, k_begin, k_end, tiles,
                                   place, sum);
        if (at == tile_begin && stop == tile_end) {
            write_tile<T, kVectorized>(c, m, n, block_row, block_col, place, sum,
                                       reinterpret_cast<float*>(tiles));
        } else {
            float* mine =
                partials + static_cast<std::size_t>(share.slot(worker, local)) * kTileFloats;
            store_block<T>(mine, T::kBlockRows, T::kBlockCols, 0, 0, place, sum);
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
                    add_partial<T>(
                        partials + static_cast<std::size_t>(share.slot(w, local)) * kTileFloats,
                        place, empty, sum);
                    empty = false;
                }
                write_tile<T, kVectorized>(c, m, n, block_row, block_col, place, sum,
                                           reinterpret_cast<float*>(tiles));
            }
        }
        __syncthreads();  // the next tile's first slice must not overwrite one still being read
        at = stop;
    }
}
// [stream-K]

// The threads of one block of the 8 x 4 tile.
constexpr int kDotThreads = kDotRows * kDotLanes;

// [dot]
// The 8 x 4 tile, for a C of one to four columns. There each float of A takes part in at most four
// multiply-adds, so reading A once is the whole cost and a tile of shared memory has nothing to
// share: the threads of a row split its dot products along K instead. Group g of the block (its
// kDotLanes threads) computes row blockIdx.y kDotRows + g of C, columns blockIdx.x 4 to 4 more,
// over split blockIdx.z's range of K, as step 06's other kernels do. Lane l reads columns 4 l,
// 4 l + 4 kDotLanes, ... of the range (neighbouring lanes, neighbouring float4 of A's row) and the
// same rows of B; then the group adds its lanes' sums in shared memory, halving their number at
// each step, in the same order on every run. kVectorA: A's rows read as float4 (k a multiple of 4,
// A aligned); kVectorB: B's rows too (n a multiple of 4, B aligned); kColumn: B is one column,
// whose 4 rows are 4 neighbouring floats, read as one float4 (with kVectorA, n = 1, B aligned).
template <bool kVectorA, bool kVectorB, bool kColumn = false>
__global__ void __launch_bounds__(kDotThreads)
    dot_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ out,
               int m, int n, int k, int depth) {
    constexpr int kCols = 4;
    __shared__ float sums[kCols][kDotThreads];
    const int lane = threadIdx.x % kDotLanes;
    const int row = blockIdx.y * kDotRows + threadIdx.x / kDotLanes;
    const int col = blockIdx.x * kCols;
    const int k_begin = blockIdx.z * depth;
    const int k_end = k_begin + depth < k ? k_begin + depth : k;
    float sum[kCols] = {};
#pragma unroll 4
    for (int kk = k_begin + 4 * lane; kk < k_end; kk += 4 * kDotLanes) {
        const float4 four = load4<kVectorA>(a, m, k, row, kk);
        if constexpr (kColumn) {
            const float4 y = *reinterpret_cast<const float4*>(b + kk);
            sum[0] += four.x * y.x + four.y * y.y + four.z * y.z + four.w * y.w;
        } else {
            const float x[4] = {four.x, four.y, four.z, four.w};
#pragma unroll
            for (int r = 0; r < 4; ++r) {
                const float4 y = load4<kVectorB>(b, k, n, kk + r, col);
                sum[0] += x[r] * y.x;
                sum[1] += x[r] * y.y;
                sum[2] += x[r] * y.z;
                sum[3] += x[r] * y.w;
            }
        }
    }
#pragma unroll
    for (int j = 0; j < kCols; ++j)
        sums[j][threadIdx.x] = sum[j];
    __syncthreads();
    for (int half = kDotLanes / 2; half > 0; half /= 2) {
        if (lane < half) {
#pragma unroll
            for (int j = 0; j < kCols; ++j)
                sums[j][threadIdx.x] += sums[j][threadIdx.x + half];
        }
        __syncthreads();
    }
    // Lane j of the group writes column col + j: its sum sits with the group's first thread.
    if (lane < kCols && row < m && col + lane < n) {
        out[static_cast<std::size_t>(blockIdx.z) * m * n + static_cast<std::size_t>(row) * n + col +
            lane] = sums[lane][threadIdx.x - lane];
    }
}
// [dot]

// [reduce]
// C (m x n) = the sum of the splits' partial tiles, always added in the order 0, 1, ..., splits -
// 1, so the same inputs give the same bits on every run. Split z's tile starts at partial + z m
// pitch and its rows are `pitch` floats apart (n, or n padded to 4 when the operands were packed).
// With one split this is the copy of a packed C into C.
__global__ void reduce_splits(const float* __restrict__ partial, int pitch, int splits,
                              float* __restrict__ c, int m, int n) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= n)
        return;
    const std::size_t split_stride = static_cast<std::size_t>(m) * pitch;
    for (int row = blockIdx.y; row < m; row += gridDim.y) {
        const float* sums = partial + static_cast<std::size_t>(row) * pitch + col;
        float total = sums[0];
        for (int split = 1; split < splits; ++split)
            total += sums[split * split_stride];
        c[static_cast<std::size_t>(row) * n + col] = total;
    }
}
// [reduce]

// [pad]
// Packing: padded (rows' x cols') = matrix (rows x cols) in its top-left corner and zeros around
// it, so every row of `padded` starts on a 16-byte boundary when cols' is a multiple of 4.
__global__ void pad_matrix(const float* __restrict__ matrix, int rows, int cols,
                           float* __restrict__ padded, int padded_rows, int padded_cols) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= padded_cols)
        return;
    for (int row = blockIdx.y; row < padded_rows; row += gridDim.y) {
        padded[static_cast<std::size_t>(row) * padded_cols + col] =
            row < rows && col < cols ? matrix[static_cast<std::size_t>(row) * cols + col] : 0.0f;
    }
}
// [pad]

// ---- launchers --------------------------------------------------------------------------------

// [tile shapes]
// The square block tiles. 128 x 256 and 128 x 128 use 32 x 128 warp tiles of 8 x 16 thread tiles
// (128 sums per thread, up to 255 registers: one 128 x 256 block or two 128 x 128 blocks per
// multiprocessor); 64 x 64 uses 32 x 64 warp tiles of 8 x 8 thread tiles, six blocks per
// multiprocessor. All stage K-slices of 16 and pad A's slice; the 128 x 256 tile's two buffers
// then take 48.5 KiB of shared memory, just over the default limit.
using Tiles128x256 = Tiling<128, 256, kSlice, 32, 128, 8, 16, 1>;
using Tiles128x128 = Tiling<128, 128, kSlice, 32, 128, 8, 16, 2>;
using Tiles64x64 = Tiling<64, 64, kSlice, 32, 64, 8, 8, 6>;
// The thin tiles, for a C of a few rows or a few columns: two warps side by side (16 x 128, 4 x 8
// per thread) or one above the other (128 x 16, 8 x 4 per thread). With K-slices of 16, A's slice
// of a 16-row tile is 64 float4, one per thread, and so is B's slice of a 16-column tile.
using Tiles16x128 = Tiling<16, 128, kSlice, 16, 64, 4, 8, 8>;
using Tiles128x16 = Tiling<128, 16, kSlice, 64, 16, 8, 4, 8>;
// [tile shapes]

int ceil_div(int value, int divisor) {
    return (value + divisor - 1) / divisor;
}

bool aligned_16(const void* pointer) {
    return reinterpret_cast<std::uintptr_t>(pointer) % 16 == 0;
}

int round_up_4(int value) {
    return (value + 3) / 4 * 4;
}

// Launches a kernel that walks a rows x cols matrix: one thread per column, blocks over the rows
// (each block then steps through every gridDim.y-th row). Launches nothing for an empty matrix.
template <class... Parameters, class... Arguments>
void launch_rows(void (*kernel)(Parameters...), int rows, int cols, hipStream_t stream,
                 Arguments... arguments) {
    if (rows == 0 || cols == 0)
        return;
    constexpr int kThreads = 256;
    constexpr int kMostRowBlocks = 65535;  // the limit of gridDim.y
    const dim3 blocks(ceil_div(cols, kThreads), std::min(rows, kMostRowBlocks));
    hipLaunchKernelGGL(kernel, blocks, dim3(kThreads), 0, stream, arguments...);
    HIP_CHECK_LAUNCH();
}

// [shared memory]
// The kernel's shared memory: two K-slice buffers.
template <class T>
constexpr std::size_t shared_bytes() {
    return 2 * sizeof(SliceTiles<T>);
}

// A kernel may use more than 48 KiB of shared memory per block only once it has asked for it
// (NVIDIA GPUs; the attribute is accepted everywhere). The request is the same each time, so
// every launch can make it.
template <class T, class Kernel>
void allow_shared_memory(Kernel kernel) {
    constexpr std::size_t kDefaultLimit = 48 * 1024;
    if (shared_bytes<T>() > kDefaultLimit) {
        HIP_CHECK(hipFuncSetAttribute(reinterpret_cast<const void*>(kernel),
                                      hipFuncAttributeMaxDynamicSharedMemorySize,
                                      static_cast<int>(shared_bytes<T>())));
    }
}
// [shared memory]

// What one launch of the kernels needs: the operands as the kernels read them, and the plan.
// `out` is C (n = C's width), or split-K's partial tiles (n = B's width, padded when packed).
struct Launch {
    const float* a;
    const float* b;
    float* out;
    int m;
    int n;
    int k;
    SplitPlan split;
    StreamKPlan plan;
    float* stream_k;  // stream-K's partial tiles, two per worker
    int* arrivals;    // stream-K's counts: zeros, one per shared tile
    bool vectorized;  // A and B are read, and `out` written, with float4
};

// One block per tile (per tile and split with split-K), except the tiles stream-K shares out:
// `plan` has them, `stream_k` holds their partial tiles and `arrivals` counts the workers done
// with each. The workers go first, then the whole tiles.
template <class T, bool kVectorized>
void launch_tiles(const Launch& l, hipStream_t stream) {
    const int tiles_across = ceil_div(l.n, T::kBlockCols);
    const StreamKPlan& plan = l.plan;
    allow_shared_memory<T>(warp_tiled_kernel<T, kVectorized>);
    if (plan.workers > 0) {
        allow_shared_memory<T>(stream_k_kernel<T, kVectorized>);
        hipLaunchKernelGGL((stream_k_kernel<T, kVectorized>), dim3(plan.workers), dim3(T::kThreads),
                           shared_bytes<T>(), stream, l.a, l.b, l.out, l.stream_k, l.arrivals, l.m,
                           l.n, l.k, plan.workers, plan.first_tile, plan.slices, plan.total,
                           tiles_across);
        HIP_CHECK_LAUNCH();
    }
    if (plan.first_tile == 0)
        return;
    // Whole tiles only: the rows of tiles that hold tiles [0, first_tile).
    const dim3 blocks(tiles_across, ceil_div(plan.first_tile, tiles_across), l.split.count);
    hipLaunchKernelGGL((warp_tiled_kernel<T, kVectorized>), blocks, dim3(T::kThreads),
                       shared_bytes<T>(), stream, l.a, l.b, l.out, l.m, l.n, l.k, l.split.depth,
                       plan.first_tile);
    HIP_CHECK_LAUNCH();
}

template <class T>
void launch_tiles(const Launch& l, hipStream_t stream) {
    if (l.vectorized)
        launch_tiles<T, true>(l, stream);
    else
        launch_tiles<T, false>(l, stream);
}

// [dot launch]
// The 8 x 4 tile's blocks: column groups of 4 across, groups of kDotRows rows down, one layer per
// range of K. `out` is C (one range) or the ranges' partial tiles, m x n each.
void launch_dot(const float* a, const float* b, float* out, int m, int n, int k,
                const SplitPlan& split, hipStream_t stream) {
    const bool vector_a = k % 4 == 0 && aligned_16(a);
    const bool vector_b = n % 4 == 0 && aligned_16(b);
    const bool column = vector_a && n == 1 && aligned_16(b);
    auto kernel = column     ? dot_kernel<true, false, true>
                  : vector_a ? (vector_b ? dot_kernel<true, true> : dot_kernel<true, false>)
                             : (vector_b ? dot_kernel<false, true> : dot_kernel<false, false>);
    const dim3 blocks(ceil_div(n, 4), ceil_div(m, kDotRows), split.count);
    hipLaunchKernelGGL(kernel, blocks, dim3(kDotThreads), 0, stream, a, b, out, m, n, k,
                       split.depth);
    HIP_CHECK_LAUNCH();
}
// [dot launch]

void launch(TileShape tile, const Launch& l, hipStream_t stream) {
    switch (tile) {
        case TileShape::t128x256:
            launch_tiles<Tiles128x256>(l, stream);
            return;
        case TileShape::t128x128:
            launch_tiles<Tiles128x128>(l, stream);
            return;
        case TileShape::t64x64:
            launch_tiles<Tiles64x64>(l, stream);
            return;
        case TileShape::t16x128:
            launch_tiles<Tiles16x128>(l, stream);
            return;
        case TileShape::t128x16:
            launch_tiles<Tiles128x16>(l, stream);
            return;
        case TileShape::t8x4:
            launch_dot(l.a, l.b, l.out, l.m, l.n, l.k, l.split, stream);
            return;
    }
}

template <class T>
int resident_blocks() {
    int blocks = 0;
    allow_shared_memory<T>(warp_tiled_kernel<T, true>);
    HIP_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, warp_tiled_kernel<T, true>,
                                                           T::kThreads, shared_bytes<T>()));
    return blocks;
}

// [workspace]
// The workspace of one device (split-K's partial tiles, packed copies of A and B), kept from call
// to call like a BLAS handle's: allocating hundreds of MiB on every call would cost more than the
// split or the packing gains. `ready` is recorded on the stream of the last multiply that used the
// buffer; the next multiply, on whatever stream, waits for it before writing, so two streams never
// use the buffer at once.
struct DeviceWorkspace {
    float* data = nullptr;
    std::size_t floats = 0;
    int* arrivals = nullptr;  // stream-K's counts, kMaxWorkers of them, zero between multiplies
    hipEvent_t ready = nullptr;
    bool recorded = false;  // `ready` marks a use (HIP leaves waiting on a fresh event undefined)
};

class Workspaces {
  public:
    ~Workspaces() {
        // At exit the runtime may already be gone: errors are of no use here.
        for (auto& [device, workspace] : by_device_) {
            (void)hipSetDevice(device);
            (void)hipFree(workspace.data);
            (void)hipFree(workspace.arrivals);
            (void)hipEventDestroy(workspace.ready);
        }
    }

    // Queues `use(buffer, arrivals)` on `stream` with a buffer of at least `floats` floats and
    // stream-K's counts on the current device, after every earlier use of them, and marks them
    // busy until that work is done.
    template <class Use>
    void run(std::size_t floats, hipStream_t stream, const Use& use) {
        int device = 0;
        HIP_CHECK(hipGetDevice(&device));
        const std::lock_guard<std::mutex> lock(mutex_);
        DeviceWorkspace& workspace = by_device_[device];
        if (workspace.ready == nullptr)
            HIP_CHECK(hipEventCreateWithFlags(&workspace.ready, hipEventDisableTiming));
        if (workspace.arrivals == nullptr) {
            constexpr std::size_t kBytes = sizeof(int) * kMaxWorkers;
            allocate(reinterpret_cast<void**>(&workspace.arrivals), kBytes);
            // Zero once: every stream-K multiply leaves the counts it used at zero.
            HIP_CHECK(hipMemset(workspace.arrivals, 0, kBytes));
        }
        if (workspace.floats < floats) {
            // The old buffer may still be in use: wait for its last user, then replace it.
            if (workspace.recorded)
                HIP_CHECK(hipEventSynchronize(workspace.ready));
            HIP_CHECK(hipFree(workspace.data));
            workspace.data = nullptr;
            workspace.floats = 0;
            allocate(reinterpret_cast<void**>(&workspace.data), floats * sizeof(float));
            workspace.floats = floats;
        }
        if (workspace.recorded)
            HIP_CHECK(hipStreamWaitEvent(stream, workspace.ready, 0));
        use(workspace.data, workspace.arrivals);
        HIP_CHECK(hipEventRecord(workspace.ready, stream));
        workspace.recorded = true;
    }

  private:
    // hipMalloc, or tutorial::RuntimeFailure saying what could not be allocated (the pointer
    // stays null).
    static void allocate(void** pointer, std::size_t bytes) {
        const hipError_t status = hipMalloc(pointer, bytes);
        if (status != hipSuccess) {
            (void)hipGetLastError();  // reported here instead
            *pointer = nullptr;
            throw tutorial::RuntimeFailure(
                "step 06: cannot allocate the workspace of " + std::to_string(bytes) + " bytes (" +
                hipGetErrorName(status) +
                ") for split-K, stream-K or packing; choose fewer splits, no stream-K, no "
                "packing, or free device memory");
        }
    }

    std::mutex mutex_;
    std::map<int, DeviceWorkspace> by_device_;
};

Workspaces& workspaces() {
    static Workspaces all;
    return all;
}
// [workspace]

void check_sizes(int m, int n, int k) {
    if (m < 0 || n < 0 || k < 0) {
        throw std::invalid_argument(
            "step06::gemm: sizes must not be negative, got m = " + std::to_string(m) +
            ", n = " + std::to_string(n) + ", k = " + std::to_string(k));
    }
}

}  // namespace

DeviceSlots device_slots() {
    static std::mutex mutex;
    static std::map<int, DeviceSlots> known;
    int device = 0;
    HIP_CHECK(hipGetDevice(&device));
    const std::lock_guard<std::mutex> lock(mutex);
    const auto found = known.find(device);
    if (found != known.end())
        return found->second;
    DeviceSlots slots;
    hipDeviceProp_t properties;
    HIP_CHECK(hipGetDeviceProperties(&properties, device));
    slots.multiprocessors = properties.multiProcessorCount;
    slots.blocks_128x256 = resident_blocks<Tiles128x256>();
    slots.blocks_128x128 = resident_blocks<Tiles128x128>();
    slots.blocks_64x64 = resident_blocks<Tiles64x64>();
    slots.blocks_16x128 = resident_blocks<Tiles16x128>();
    slots.blocks_128x16 = resident_blocks<Tiles128x16>();
    HIP_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&slots.blocks_8x4,
                                                           dot_kernel<true, true>, kDotThreads, 0));
    known.emplace(device, slots);
    return slots;
}

// [gemm]
void gemm(const float* a, const float* b, float* c, int m, int n, int k, hipStream_t stream,
          const Config& config) {
    check_config(config);
    check_sizes(m, n, k);
    if (m == 0 || n == 0)
        return;  // C is empty: nothing to launch
    // float4 needs rows that start on 16-byte boundaries: n and k multiples of 4, aligned pointers.
    const bool writes4 = n % 4 == 0 && aligned_16(c);
    const bool vectorized = writes4 && k % 4 == 0 && aligned_16(a) && aligned_16(b);
    const bool pack = packs(config, m, n, k, vectorized);
    // The kernel reads A' (m x k') and B' (k' x n'): A and B themselves, or, packed, copies padded
    // to k' and n', k and n rounded up to 4.
    const int k_read = pack ? round_up_4(k) : k;
    const int n_read = pack ? round_up_4(n) : n;
    const SplitPlan split = plan_splits(k_read, config.splits);
    const StreamKPlan plan = plan_stream_k(m, n_read, k_read, config.tile, config.workers);
    // Stream-K's partial tiles: two per worker.
    const TileSize size = tile_size(config.tile);
    const std::size_t shared_out =
        2 * static_cast<std::size_t>(plan.workers) * size.rows * size.cols;
    // With K whole the kernel writes C itself, except when it reads packed copies and float4
    // cannot write C: then it writes an m x n' C' with float4 and the reduction copies C' into C,
    // which the H100 does faster than the kernel's scalar stores. Split, each range writes an
    // m x n' partial tile and the reduction adds them into C.
    const bool direct = split.count == 1 && (writes4 || !pack);
    // n_read is n wherever the kernel writes C itself: unpacked, or packed with n a multiple of 4.
    Launch job{a, b, c, m, n_read, k_read, split, plan, nullptr, nullptr, vectorized || pack};
    if (!pack && direct && shared_out == 0) {
        launch(config.tile, job, stream);
        return;
    }
    // Otherwise the workspace holds, in this order: the packed copies; the kernel's split.count
    // partial tiles (none when the kernel writes C itself); stream-K's partial tiles.
    const std::size_t packed_a = pack ? static_cast<std::size_t>(m) * k_read : 0;
    const std::size_t packed_b = pack ? static_cast<std::size_t>(k_read) * n_read : 0;
    const std::size_t tiles = direct ? 0 : static_cast<std::size_t>(m) * n_read * split.count;
    workspaces().run(
        packed_a + packed_b + tiles + shared_out, stream, [&](float* workspace, int* arrivals) {
            Launch l = job;
            if (pack) {
                launch_rows(pad_matrix, m, k_read, stream, a, m, k, workspace, m, k_read);
                launch_rows(pad_matrix, k_read, n_read, stream, b, k, n, workspace + packed_a,
                            k_read, n_read);
                l.a = workspace;
                l.b = workspace + packed_a;
            }
            if (!direct)
                l.out = workspace + packed_a + packed_b;
            l.stream_k = workspace + packed_a + packed_b + tiles;
            l.arrivals = arrivals;
            launch(config.tile, l, stream);
            if (!direct)
                launch_rows(reduce_splits, m, n, stream, l.out, n_read, split.count, c, m, n);
        });
}

void gemm(const float* a, const float* b, float* c, int m, int n, int k, hipStream_t stream) {
    check_sizes(m, n, k);
    gemm(a, b, c, m, n, k, stream, choose_config(m, n, k, device_slots()));
}
// [gemm]

}  // namespace step06
