/// \file
/// \brief Step 08's packing: a matrix copied into rows padded with zeros to a multiple of 4
/// floats, so that the float4 path can read it.
#pragma once

#include <hip/hip_runtime.h>

namespace step08 {

/// Queues on `stream`: padded (padded_rows x padded_cols) = matrix (rows x cols) in its top-left
/// corner and zeros around it (padded_rows >= rows, padded_cols >= cols).
void pack(const float* matrix, int rows, int cols, float* padded, int padded_rows, int padded_cols,
          hipStream_t stream);

}  // namespace step08
