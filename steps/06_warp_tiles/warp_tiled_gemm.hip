#include "warp_tiled_gemm.hpp"

#include <hip/hip_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "common/hip_check.hpp"
#include "common/index_limits.hpp"
#include "common/per_device.hpp"
#include "common/rounding.hpp"
#include "main_loop.hpp"
#include "tile_store.hpp"
#include "tiling.hpp"

namespace step06 {
namespace {

// [kernel]
// One block per tile of C, over the whole of K: the main loop, then the store. The two K-slice
// buffers live in the block's dynamic shared memory: a padded 128 x 256 tile needs more than the
// 48 KiB a kernel may declare statically on NVIDIA GPUs (see allow_shared_memory()).
template <class Tiling, Float4 kFloat4>
__global__ void __launch_bounds__(Tiling::kThreads, Tiling::kMinBlocks)
    warp_tiled_kernel(const float* __restrict__ a, const float* __restrict__ b,
                      float* __restrict__ c, int m, int n, int k) {
    HIP_DYNAMIC_SHARED(float4, shared_memory)
    auto* tiles = reinterpret_cast<SliceTiles<Tiling>*>(shared_memory);
    multiply_block_tile<Tiling, kFloat4>(a, b, c, m, n, k, blockIdx.y * Tiling::kBlockRows,
                                         blockIdx.x * Tiling::kBlockCols, 0, k, tiles);
}
// [kernel]

// [launch]
template <class Tiling, Float4 kFloat4>
void launch(const float* a, const float* b, float* c, int m, int n, int k, hipStream_t stream) {
    allow_shared_memory<Tiling>(warp_tiled_kernel<Tiling, kFloat4>);
    const dim3 blocks(tutorial::ceil_div(n, Tiling::kBlockCols),
                      tutorial::ceil_div(m, Tiling::kBlockRows));
    hipLaunchKernelGGL((warp_tiled_kernel<Tiling, kFloat4>), blocks, dim3(Tiling::kThreads),
                       shared_bytes<Tiling>(), stream, a, b, c, m, n, k);
    HIP_CHECK_LAUNCH();
}
// [launch]

}  // namespace

void check_sizes(const char* step, int m, int n, int k) {
    const std::string sizes =
        "m = " + std::to_string(m) + ", n = " + std::to_string(n) + ", k = " + std::to_string(k);
    if (m < 0 || n < 0 || k < 0)
        throw std::invalid_argument(std::string(step) + ": sizes must not be negative, got " +
                                    sizes);
    if (m > kMaxSize || n > kMaxSize || k > kMaxSize) {
        throw std::invalid_argument(
            std::string(step) + ": m, n and k may be at most " + std::to_string(kMaxSize) +
            " (2^31 - 2^16, for the int counts of tiles and slices), got " + sizes);
    }
}

void check_rows_fit_grid(const char* step, int m, int tile_rows) {
    tutorial::check_grid_y(step, "m", m, tile_rows);
}

void check_rows_fit_grid(const char* step, int m, std::optional<TileShape> forced) {
    int rows = 0;
    for (const TileShapeRow& row : kTileShapes)
        rows = std::max(rows, row.rows);
    check_rows_fit_grid(step, m, forced ? tile_size(*forced).rows : rows);
}

bool nothing_to_compute(const char* step, int m, int n, int k) {
    check_sizes(step, m, n, k);
    return m == 0 || n == 0;
}

Float4 float4_path(const float* a, const float* b, const float* c, int n, int k) {
    if (!tutorial::aligned_16(b) || !tutorial::aligned_16(c))
        return Float4::none;
    const Float4 path = float4_path(n, k);
    return path == Float4::all && !tutorial::aligned_16(a) ? Float4::b_and_c : path;
}

Occupancy occupancy() {
    return tutorial::once_per_device([] {
        Occupancy result;
        result.multiprocessors = tutorial::multiprocessor_count();
        for (const TileShapeRow& row : kTileShapes) {
            with_tiling(row.value, [&](auto tiling) {
                using Tiling = decltype(tiling);
                allow_shared_memory<Tiling>(warp_tiled_kernel<Tiling, Float4::all>);
                HIP_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(
                    &result.blocks[static_cast<int>(row.value)],
                    warp_tiled_kernel<Tiling, Float4::all>, Tiling::kThreads,
                    shared_bytes<Tiling>()));
            });
        }
        return result;
    });
}

// [gemm]
void gemm(const float* a, const float* b, float* c, int m, int n, int k, hipStream_t stream,
          TileShape tile) {
    if (nothing_to_compute("step06::gemm", m, n, k))
        return;
    check_rows_fit_grid("step06::gemm", m, tile_size(tile).rows);
    const Float4 path = float4_path(a, b, c, n, k);
    with_tiling(tile, [&](auto tiling) {
        with_float4(path, [&](auto float4) {
            launch<decltype(tiling), decltype(float4)::value>(a, b, c, m, n, k, stream);
        });
    });
}

void gemm(const float* a, const float* b, float* c, int m, int n, int k, hipStream_t stream) {
    check_sizes("step06::gemm", m, n, k);
    gemm(a, b, c, m, n, k, stream, choose_tile(m, n, occupancy()));
}
// [gemm]

}  // namespace step06
