#include "tiling_kernels.hpp"

STEP07_TILING_KERNELS(template, step08::Tiles128x32);
STEP07_TILING_KERNELS(template, step08::Tiles128x16);
