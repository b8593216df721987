#include "tiling_kernels.hpp"

STEP08_TILING_KERNELS(template, step06::Tiles128x256);
STEP08_TILING_KERNELS(template, step08::Tiles256x128);
