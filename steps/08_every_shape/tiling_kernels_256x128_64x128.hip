#include "tiling_kernels.hpp"

STEP07_TILING_KERNELS(template, step08::Tiles256x128);
STEP07_TILING_KERNELS(template, step08::Tiles64x128);
