/// \file
/// \brief Step 07's launch of a tiling's blocks: whole tiles over ranges of K (split-K), then the
/// last wave's tiles shared out by stream-K, their partial tiles in a workspace and the reduction
/// into C. Templates over the tiling, so that step 08 launches its own tiles the same way.
#pragma once

#include <hip/hip_runtime.h>

#include <climits>
#include <cstddef>
#include <stdexcept>
#include <string>

#include "common/hip_check.hpp"
#include "common/rounding.hpp"
#include "k_split.hpp"
#include "main_loop.hpp"
#include "reduction.hpp"
#include "split_k_kernel.hpp"
#include "stream_k_kernel.hpp"

namespace step07 {

/// What one launch of the kernels needs: the operands as the kernels read them, and the plans.
/// `out` is C (n = C's width), or split-K's partial tiles, rows `pitch` floats apart.
struct Launch {
    const float* a;
    const float* b;
    float* out;
    int m;
    int n;
    int k;
    SplitPlan split;
    StreamKPlan plan;
    float* stream_k_partials;  ///< stream-K's partial tiles, two per worker
    int* arrivals;             ///< stream-K's counts: zeros, one per shared tile
    Float4 float4;             ///< which of A, B and `out` are read or written with float4
    int pitch;                 ///< partial tiles' row pitch: n, or n rounded up to 4 (float4 rows)
};

/// The number of whole tiles, as the kernels take it: an int, which every tile of C must fit.
inline int whole_tiles(const Launch& l) {
    if (l.plan.tiles > INT_MAX) {
        throw std::invalid_argument("step07: C (" + std::to_string(l.m) + " x " +
                                    std::to_string(l.n) + ") has " + std::to_string(l.plan.tiles) +
                                    " tiles, more than a 32-bit int counts");
    }
    return static_cast<int>(l.plan.first_tile);
}

// [launch tiles]
/// One block per tile (per tile and range of K with split-K), except the tiles stream-K shares
/// out: the workers go first, then the whole tiles.
template <class Tiling, Float4 kFloat4>
void launch_tiles(const Launch& l, hipStream_t stream) {
    const int tiles_across = tutorial::ceil_div(l.n, Tiling::kBlockCols);
    const StreamKPlan& plan = l.plan;
    const int first_tile = whole_tiles(l);
    if (plan.workers > 0) {
        step06::allow_shared_memory<Tiling>(stream_k_kernel<Tiling, kFloat4>);
        hipLaunchKernelGGL((stream_k_kernel<Tiling, kFloat4>), dim3(plan.workers),
                           dim3(Tiling::kThreads), step06::shared_bytes<Tiling>(), stream, l.a, l.b,
                           l.out, l.stream_k_partials, l.arrivals, l.m, l.n, l.k, plan.workers,
                           first_tile, plan.slices, plan.total, tiles_across);
        HIP_CHECK_LAUNCH();
    }
    if (first_tile == 0)
        return;
    // Whole tiles only: the rows of tiles that hold tiles [0, first_tile).
    step06::allow_shared_memory<Tiling>(split_k_kernel<Tiling, kFloat4>);
    const dim3 blocks(tiles_across, tutorial::ceil_div(first_tile, tiles_across), l.split.count);
    hipLaunchKernelGGL((split_k_kernel<Tiling, kFloat4>), blocks, dim3(Tiling::kThreads),
                       step06::shared_bytes<Tiling>(), stream, l.a, l.b, l.out, l.m, l.n, l.k,
                       l.split.depth, first_tile, l.pitch);
    HIP_CHECK_LAUNCH();
}
// [launch tiles]

template <class Tiling>
void launch_tiles(const Launch& l, hipStream_t stream) {
    step06::with_float4(
        l.float4, [&](auto float4) { launch_tiles<Tiling, decltype(float4)::value>(l, stream); });
}

/// Floats of workspace that launch_with_partials() needs for `job` on tiles of `rows` x `cols`:
/// the kernel's split.count partial tiles of m x job.pitch (none when it writes C itself), then
/// stream-K's two partial tiles per worker.
inline std::size_t partial_floats(const Launch& job, bool writes_c, int rows, int cols) {
    const std::size_t split_tiles =
        writes_c ? 0 : static_cast<std::size_t>(job.m) * job.pitch * job.split.count;
    return split_tiles + 2 * static_cast<std::size_t>(job.plan.workers) * rows * cols;
}

// [with partials]
/// Launches `job`'s tiles through `launch_tiles(job)` with their partial tiles in `workspace`
/// (partial_floats() of them) and, unless the tiles write C themselves, queues the reduction of
/// those partial tiles into C (m x n) after them.
template <class LaunchTiles>
void launch_with_partials(Launch job, bool writes_c, float* c, int n, float* workspace,
                          int* arrivals, hipStream_t stream, const LaunchTiles& launch_tiles) {
    const std::size_t split_tiles = partial_floats(job, writes_c, 0, 0);
    if (!writes_c)
        job.out = workspace;
    job.stream_k_partials = workspace + split_tiles;
    job.arrivals = arrivals;
    launch_tiles(job);
    if (!writes_c)
        reduce_splits(job.out, job.pitch, job.split.count, c, job.m, n, stream);
}
// [with partials]

/// Resident blocks of Tiling's kernels per multiprocessor (the occupancy calculator's).
template <class Tiling>
int resident_blocks() {
    int blocks = 0;
    step06::allow_shared_memory<Tiling>(split_k_kernel<Tiling, Float4::all>);
    HIP_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(
        &blocks, split_k_kernel<Tiling, Float4::all>, Tiling::kThreads,
        step06::shared_bytes<Tiling>()));
    return blocks;
}

}  // namespace step07
