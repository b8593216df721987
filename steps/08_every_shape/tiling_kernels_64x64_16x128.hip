#include "tiling_kernels.hpp"

STEP08_TILING_KERNELS(template, step08::Tiles64x64);
STEP08_TILING_KERNELS(template, step08::Tiles16x128);
