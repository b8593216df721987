/// \file
/// \brief Tiled-MM at its best for `multi_gpu_benchmark`: its runs at every tile and number of
/// streams of a sweep, each with a context made once and reused, on the first device only (Tiled-MM
/// is a one-GPU library).
#pragma once

#include <vector>

#include "bench/multi_gpu_runs.hpp"

namespace bench::multi_gpu {

/// The tiles and numbers of streams of the sweep; no tiles: no Tiled-MM rows.
struct TiledMmSweep {
    std::vector<int> tiles;
    std::vector<int> streams;
};

/// The tiles Tiled-MM was measured at on an H100 (4096, 5000 and 8192; 8192 was the fastest at
/// n = 16384), none larger than n, since Tiled-MM never uses a tile larger than the matrix.
std::vector<int> default_tiledmm_tiles(int n);

/// --tiledmm-tiles (empty: default_tiledmm_tiles(n); none: no rows) and --tiledmm-streams of
/// `settings`. Throws tutorial::UsageError naming the option and the values it takes.
TiledMmSweep tiledmm_sweep(const Settings& settings);

/// Tiled-MM on `device` with one tile and number of streams, from a context of its own made
/// inside the watch, so that its buffers count, and reused over the warm-up and the timed runs.
Measurement measure_tiledmm(int device, int tile, int streams, const Settings& settings,
                            Inputs& inputs);

/// Tiled-MM on `device` at every tile and number of streams of `sweep`, each run to `record`;
/// where the build lacks Tiled-MM, or Tiled-MM cannot address n, one row that says so instead.
void sweep_tiledmm(int device, const TiledMmSweep& sweep, const Settings& settings, Inputs& inputs,
                   const Record& record);

}  // namespace bench::multi_gpu
