/// \file
/// \brief Where the kernels of step 06's two tilings are compiled, for this step and step 08:
/// launch_tiles and resident_blocks of each tiling, with its split-K and stream-K kernels, are
/// instantiated in split_k_kernels_*.hip and only declared here, so that split_k_gemm.hip and step
/// 08 do not compile them again. Device code, for .hip files.
#pragma once

#include <hip/hip_runtime.h>

#include "tile_launch.hpp"
#include "tiling.hpp"

/// `template` instantiates launch_tiles and resident_blocks for `Tiling`, and with them its split-K
/// and stream-K kernels for each step06::Float4 path; `extern template` declares that another file
/// does.
#define STEP07_TILING_KERNELS(instantiation, Tiling)                                     \
    instantiation void step07::launch_tiles<Tiling>(const step07::Launch&, hipStream_t); \
    instantiation int step07::resident_blocks<Tiling>()

// The 12 kernels take most of the time a build of the step takes: one file per tiling
// (split_k_kernels_*.hip), so that the cores of a build compile them side by side.
STEP07_TILING_KERNELS(extern template, step06::Tiles128x256);
STEP07_TILING_KERNELS(extern template, step06::Tiles128x128);
