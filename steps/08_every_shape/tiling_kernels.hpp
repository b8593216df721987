/// \file
/// \brief Where the kernels of step 08's warp tilings are compiled: each tiling's launch and
/// occupancy, with its split-K and stream-K kernels, are instantiated in one of the files
/// tiling_kernels_*.hip and only declared here, so that every_shape_gemm.hip, which launches them
/// through with_tiling, does not compile them too. Device code, for .hip files.
#pragma once

#include <hip/hip_runtime.h>

#include "every_shape_tilings.hpp"
#include "tile_launch.hpp"

/// `template` instantiates step 07's launch_tiles and resident_blocks for `Tiling`, and with them
/// its split-K and stream-K kernels with and without float4; `extern template` declares that
/// another file does.
#define STEP08_TILING_KERNELS(instantiation, Tiling)                                     \
    instantiation void step07::launch_tiles<Tiling>(const step07::Launch&, hipStream_t); \
    instantiation int step07::resident_blocks<Tiling>()

// The 32 kernels take most of the time a build of the step takes. Each file
// tiling_kernels_*.hip compiles two tilings' (its name says which), so that the cores of a build
// compile them side by side. A tiling of with_tiling that is not listed here still works:
// every_shape_gemm.hip then compiles its kernels itself.
STEP08_TILING_KERNELS(extern template, step06::Tiles128x256);
STEP08_TILING_KERNELS(extern template, step08::Tiles256x128);
STEP08_TILING_KERNELS(extern template, step06::Tiles128x128);
STEP08_TILING_KERNELS(extern template, step08::Tiles64x128);
STEP08_TILING_KERNELS(extern template, step08::Tiles64x64);
STEP08_TILING_KERNELS(extern template, step08::Tiles16x128);
STEP08_TILING_KERNELS(extern template, step08::Tiles128x32);
STEP08_TILING_KERNELS(extern template, step08::Tiles128x16);
