#include "split_k_kernels.hpp"

STEP07_TILING_KERNELS(template, step06::Tiles128x128);
