/// \file
/// \brief Step 08's entry point: C = A·B for every shape, with the tile, split, stream-K and
/// packing that the rule in choose_config.hpp picks for it.
#pragma once

#include <hip/hip_runtime.h>

#include "choose_config.hpp"

namespace step08 {

/// The current device's multiprocessors, how many blocks of each tile shape fit on one
/// (hipOccupancyMaxActiveBlocksPerMultiprocessor) and its L2 cache's size, asked once per device
/// and remembered.
Occupancy occupancy();

/// The configuration choose_config() picks for an m x n x k multiply on the current device. The
/// rule takes microseconds of host time, as long as a small multiply runs on the GPU, so it runs
/// once per shape and device and later calls get the remembered choice.
Config chosen_config(int m, int n, int k);

/// Computes C = A·B on `stream` for row-major float matrices in device memory (A is m x k, B is
/// k x n, C is m x n), with the configuration chosen_config() gives this shape on the current
/// device. C is overwritten, not accumulated into.
///
/// Every size works (1 x 1 x 1, primes, k = 1, sizes that are not multiples of 4 or of the tile,
/// a C whose rows need more than the grid's 65535 blocks along y: multiplied in bands of rows).
/// The kernels read and write with float4 when n and k are multiples of 4 and the three pointers
/// are 16-byte aligned. Otherwise, when worth_packing() says the multiply repays it, B is first
/// copied into rows padded with zeros to a multiple of 4 floats (*packed*), the kernel multiplies A
/// (element by element when k is odd) and the copy with float4 into a padded C', and a last kernel
/// copies C' into C; smaller multiplies fall back to guarded scalar accesses. Partial tiles and the
/// packed copy go to step 07's workspace, kept per device for the next call. Throws
/// std::invalid_argument for negative sizes and tutorial::RuntimeFailure when the workspace cannot
/// be allocated.
void gemm(const float* a, const float* b, float* c, int m, int n, int k, hipStream_t stream);

/// The same with a configuration chosen by the caller (tests, the benchmark, the program's
/// --tile, --splits, --stream-k and --pack). Throws std::invalid_argument when check_config()
/// refuses it.
void gemm(const float* a, const float* b, float* c, int m, int n, int k, hipStream_t stream,
          const Config& config);

}  // namespace step08
