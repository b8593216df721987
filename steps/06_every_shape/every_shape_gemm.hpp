/// \file
/// \brief Step 06's entry point: C = A·B with warp-tiled kernels, three block-tile shapes and
/// split-K, the configuration chosen per shape by the rule in choose_config.hpp.
#pragma once

#include <hip/hip_runtime.h>

#include "choose_config.hpp"

namespace step06 {

/// The current device's multiprocessors and how many blocks of each tile shape fit on one
/// (hipOccupancyMaxActiveBlocksPerMultiprocessor), asked once per device and remembered.
DeviceSlots device_slots();

/// Computes C = A·B on `stream` for row-major float matrices in device memory (A is m x k, B is
/// k x n, C is m x n), with the configuration choose_config() picks for this shape on the current
/// device. C is overwritten, not accumulated into.
///
/// Every size works (1 x 1 x 1, primes, k = 1, sizes that are not multiples of 4 or of the tile).
/// The kernels read and write with float4 when n and k are multiples of 4 and the three pointers
/// are 16-byte aligned. Otherwise, when worth_packing() says the multiply repays it, A and B are
/// first copied into rows padded with zeros to a multiple of 4 floats (*packed*), the kernel
/// multiplies the copies with float4 into a padded C, and a last kernel copies C out; smaller
/// multiplies fall back to guarded scalar accesses. Split-K's partial tiles and the packed copies
/// go to a workspace that the step keeps per device for the next call (it grows when a call needs
/// more; calls on different streams take turns with it).
/// Throws std::invalid_argument for negative sizes and tutorial::RuntimeFailure when the
/// workspace cannot be allocated.
void gemm(const float* a, const float* b, float* c, int m, int n, int k, hipStream_t stream);

/// The same with a configuration chosen by the caller (tests, the benchmark, the program's
/// --tile, --splits and --pack). Throws std::invalid_argument when config.splits is not 1 to
/// kMaxSplits.
void gemm(const float* a, const float* b, float* c, int m, int n, int k, hipStream_t stream,
          const Config& config);

}  // namespace step06
