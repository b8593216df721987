/// \file
/// \brief Step 07's entry point: C = A·B with step 06's tiles, K split into ranges when C has too
/// few tiles to fill the GPU, and the last wave shared out by stream-K when it would run half
/// empty.
#pragma once

#include <hip/hip_runtime.h>

#include "choose_split.hpp"

namespace step07 {

/// Computes C = A·B on `stream` for row-major float matrices in device memory (A is m x k, B is
/// k x n, C is m x n), with the configuration choose_config() picks for this shape on the current
/// device. C is overwritten, not accumulated into; every size works. Split-K's and stream-K's
/// partial tiles go to a workspace kept per device for the next call (workspaces()). The same
/// inputs give the same bits on every run. Throws std::invalid_argument for negative sizes and
/// tutorial::RuntimeFailure when the workspace cannot be allocated.
void gemm(const float* a, const float* b, float* c, int m, int n, int k, hipStream_t stream);

/// The same with a configuration chosen by the caller (tests, the benchmark, the program's
/// --tile, --splits and --stream-k). Throws std::invalid_argument when check_config() refuses it.
void gemm(const float* a, const float* b, float* c, int m, int n, int k, hipStream_t stream,
          const Config& config);

}  // namespace step07
