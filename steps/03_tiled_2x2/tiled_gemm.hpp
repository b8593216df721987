/// \file
/// \brief Step 03's entry point: C = A·B on the GPU, with 2 x 2 tiles of A and B staged in shared
/// memory.
#pragma once

#include <hip/hip_runtime.h>

namespace step03 {

/// The edge of a tile. Each block of kTile x kTile threads computes a kTile x kTile tile of C, and
/// each step along K stages one kTile x kTile tile of A and one of B in shared memory. Step 03 is
/// about the walkthrough's 2 x 2 tiles; step 04 makes the tile larger.
constexpr int kTile = 2;

/// Enqueues C = A·B on `stream`, tile by tile through shared memory.
///
/// All pointers are device pointers to row-major matrices: A is m x k, B is k x n, C is m x n.
/// One thread computes one element of C. For every step along K, the threads of a block each load
/// one element of a tile of A and one of a tile of B into shared memory (zero where the tile
/// reaches past the matrix), wait at a barrier, add their products, and wait again before the
/// tiles are overwritten. Any sizes from 1 up work; C is overwritten, not accumulated into.
/// Launch errors throw tutorial::RuntimeFailure.
template <typename T>
void gemm(const T* a, const T* b, T* c, int m, int n, int k, hipStream_t stream);

extern template void gemm<int>(const int*, const int*, int*, int, int, int, hipStream_t);
extern template void gemm<float>(const float*, const float*, float*, int, int, int, hipStream_t);

}  // namespace step03
