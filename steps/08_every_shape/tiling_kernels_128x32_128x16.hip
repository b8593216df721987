#include "tiling_kernels.hpp"

STEP08_TILING_KERNELS(template, step08::Tiles128x32);
STEP08_TILING_KERNELS(template, step08::Tiles128x16);
