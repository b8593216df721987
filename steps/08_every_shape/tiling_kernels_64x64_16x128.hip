#include "tiling_kernels.hpp"

STEP07_TILING_KERNELS(template, step08::Tiles64x64);
STEP07_TILING_KERNELS(template, step08::Tiles16x128);
