#include "split_k_gemm.hpp"

#include <hip/hip_runtime.h>

#include "common/rounding.hpp"
#include "split_k_kernels.hpp"
#include "tiling.hpp"
#include "warp_tiled_gemm.hpp"
#include "workspace.hpp"

namespace step07 {

// [gemm]
void gemm(const float* a, const float* b, float* c, int m, int n, int k, hipStream_t stream,
          const Config& config) {
    check_config(config);
    if (step06::nothing_to_compute("step07::gemm", m, n, k))
        return;
    const step06::TileSize size = step06::tile_size(config.tile);
    step06::check_rows_fit_grid("step07::gemm", m, size.rows);
    const Launch job{a,
                     b,
                     c,
                     m,
                     n,
                     k,
                     plan_splits(k, config.splits),
                     plan_stream_k(m, n, k, size, config.workers),
                     nullptr,
                     nullptr,
                     step06::float4_path(a, b, c, n, k),
                     tutorial::round_up(n, 4)};
    // With K whole the blocks write C; split, each range a partial tile, rows padded to 4 floats.
    const bool writes_c = job.split.count == 1;
    step06::with_tiling(config.tile, [&](auto tiling) {
        using Tiling = decltype(tiling);
        if (writes_c && job.plan.workers == 0) {
            launch_tiles<Tiling>(job, stream);  // no partial tiles: no workspace
            return;
        }
        workspaces().run(partial_floats(job, writes_c, size.rows, size.cols), stream,
                         [&](float* workspace, int* arrivals) {
                             launch_with_partials(
                                 job, writes_c, c, n, workspace, arrivals, stream,
                                 [&](const Launch& l) { launch_tiles<Tiling>(l, stream); });
                         });
    });
}

void gemm(const float* a, const float* b, float* c, int m, int n, int k, hipStream_t stream) {
    step06::check_sizes("step07::gemm", m, n, k);
    gemm(a, b, c, m, n, k, stream, choose_config(m, n, k, step06::occupancy()));
}
// [gemm]

}  // namespace step07
