/// \file
/// \brief Where the kernels of step 08's warp tilings are compiled: each tiling's launch and
/// occupancy, with its split-K and stream-K kernels, are instantiated in one of the files
/// tiling_kernels_*.hip (with step 07's STEP07_TILING_KERNELS) and only declared here, so that
/// every_shape_gemm.hip, which launches them through with_tiling, does not compile them too.
/// Device code, for .hip files.
#pragma once

#include <hip/hip_runtime.h>

#include "every_shape_tilings.hpp"
#include "split_k_kernels.hpp"
#include "tile_launch.hpp"

// The 36 kernels of this step's six tilings take most of the time a build of the step takes. Each
// file tiling_kernels_*.hip compiles two tilings' (its name says which), so that the cores of a
// build compile them side by side; step 06's two tilings are step 07's (split_k_kernels.hpp). A
// tiling of with_tiling that is not listed here or there still works: every_shape_gemm.hip then
// compiles its kernels itself.
STEP07_TILING_KERNELS(extern template, step08::Tiles256x128);
STEP07_TILING_KERNELS(extern template, step08::Tiles64x128);
STEP07_TILING_KERNELS(extern template, step08::Tiles64x64);
STEP07_TILING_KERNELS(extern template, step08::Tiles16x128);
STEP07_TILING_KERNELS(extern template, step08::Tiles128x32);
STEP07_TILING_KERNELS(extern template, step08::Tiles128x16);
