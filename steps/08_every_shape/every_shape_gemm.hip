#include "every_shape_gemm.hpp"

#include <hip/hip_runtime.h>

#include <algorithm>
#include <array>

#include "common/hip_check.hpp"
#include "common/per_device.hpp"
#include "common/rounding.hpp"
#include "dot_kernel.hpp"
#include "every_shape_tilings.hpp"
#include "packing.hpp"
#include "row_kernel.hpp"
#include "tile_launch.hpp"
#include "tiling_kernels.hpp"
#include "warp_tiled_gemm.hpp"
#include "workspace.hpp"

namespace step08 {

Occupancy occupancy() {
    return tutorial::once_per_device([] {
        const hipDeviceProp_t properties = tutorial::current_device_properties();
        Occupancy result;
        result.multiprocessors = properties.multiProcessorCount;
        result.cache_bytes = properties.l2CacheSize;
        for (const TileShapeRow& row : kTileShapes) {
            int& blocks = result.blocks[static_cast<int>(row.value)];
            if (row.value == TileShape::t8x4)
                blocks = dot_resident_blocks();
            else if (row.value == TileShape::t4x128)
                blocks = row_resident_blocks();
            else if (row.value == TileShape::t8x128)
                blocks = staged_rows_resident_blocks();
            else
                with_tiling(row.value, [&](auto tiling) {
                    blocks = step07::resident_blocks<decltype(tiling)>();
                });
        }
        return result;
    });
}

Config chosen_config(int m, int n, int k) {
    return tutorial::once_per_device_and_key(std::array<int, 3>{m, n, k},
                                             [&] { return choose_config(m, n, k, occupancy()); });
}

namespace {

// What float4 reads once B is packed: B' and C' (or the partial tiles) always, A too when its rows
// are whole float4 and it starts on a 16-byte boundary.
step06::Float4 packed_path(const float* a, int k) {
    return k % 4 == 0 && tutorial::aligned_16(a) ? step06::Float4::all : step06::Float4::b_and_c;
}

}  // namespace

// [gemm]
void gemm(const float* a, const float* b, float* c, int m, int n, int k, hipStream_t stream,
          const Config& config) {
    check_config(config);
    if (step06::nothing_to_compute("step08::gemm", m, n, k))
        return;
    // [bands]
    // A grid has at most 65535 blocks along y, where the tiles' rows of C go. A taller C is
    // multiplied in bands of that many tiles' rows, one after another on the stream: each band is
    // a multiply of its own, of its rows of A and C with all of B. The tiles' rows are multiples
    // of 4, so every band starts on a 16-byte boundary where A and C do.
    const long long band = rows_per_band(config.tile);
    if (m > band) {
        for (long long first = 0; first < m; first += band) {
            const int rows = static_cast<int>(std::min<long long>(band, m - first));
            gemm(a + first * k, b, c + first * n, rows, n, k, stream, config);
        }
        return;
    }
    // [bands]
    const bool writes4 = n % 4 == 0 && tutorial::aligned_16(c);
    const step06::Float4 path = step06::float4_path(a, b, c, n, k);
    const bool pack = packs(config, m, n, k, path);
    // The kernel reads A and B' (k x n'): B itself or, packed, a copy padded to n', n rounded up to
    // 4. A stays where it is: read element by element when k is odd, it costs little (the notes).
    // Split-K's partial tiles take rows of n rounded up to 4, which float4 writes; the tiles that
    // stream an operand write theirs n' apart.
    const int n_read = pack ? tutorial::round_up(n, 4) : n;
    const step06::TileSize size = tile_size(config.tile);
    const step07::Launch job{a,
                             b,
                             c,
                             m,
                             n_read,
                             k,
                             step07::plan_splits(k, config.splits),
                             step07::plan_stream_k(m, n_read, k, size, config.workers),
                             nullptr,
                             nullptr,
                             pack ? packed_path(a, k) : path,
                             streams_operand(config.tile) ? n_read : tutorial::round_up(n, 4)};
    // With K whole the kernel writes C itself, except when it reads packed copies and float4
    // cannot write C: then it writes an m x n' C' with float4 and the reduction copies C' into C,
    // which the H100 does faster than the kernel's scalar stores.
    const bool writes_c = job.split.count == 1 && (writes4 || !pack);
    const auto launch_tiles = [&](const step07::Launch& l) {
        if (config.tile == TileShape::t8x4) {
            launch_dot(l.a, l.b, l.out, l.m, l.n, l.k, l.split, stream);
            return;
        }
        if (config.tile == TileShape::t4x128) {
            launch_row(l.a, l.b, l.out, l.m, l.n, l.k, l.split, stream);
            return;
        }
        if (config.tile == TileShape::t8x128) {
            launch_staged_rows(l.a, l.b, l.out, l.m, l.n, l.k, l.split, stream);
            return;
        }
        with_tiling(config.tile,
                    [&](auto tiling) { step07::launch_tiles<decltype(tiling)>(l, stream); });
    };
    if (!pack && writes_c && job.plan.workers == 0) {
        launch_tiles(job);  // no copies, no partial tiles: no workspace
        return;
    }
    // The workspace holds, in this order: the packed copy of B, then the partial tiles.
    const std::size_t packed_b = pack ? static_cast<std::size_t>(k) * n_read : 0;
    const std::size_t partials = step07::partial_floats(job, writes_c, size.rows, size.cols);
    step07::workspaces().run(packed_b + partials, stream, [&](float* workspace, int* arrivals) {
        step07::Launch l = job;
        if (pack) {
            step08::pack(b, k, n, workspace, k, n_read, stream);
            l.b = workspace;
        }
        step07::launch_with_partials(l, writes_c, c, n, workspace + packed_b, arrivals, stream,
                                     launch_tiles);
    });
}

void gemm(const float* a, const float* b, float* c, int m, int n, int k, hipStream_t stream) {
    step06::check_sizes("step08::gemm", m, n, k);
    gemm(a, b, c, m, n, k, stream, chosen_config(m, n, k));
}
// [gemm]

}  // namespace step08
