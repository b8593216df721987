/// \file
/// \brief Step 04's entry point: C = A·B with kTile x kTile tiles of A and B in shared memory.
#pragma once

#include <hip/hip_runtime.h>

namespace step04 {

/// Enqueues C = A·B on `stream` with the tiled kernel: each block of `tile` x `tile` threads
/// computes a `tile` x `tile` tile of C, walking along K one tile of A and one tile of B at a time,
/// both staged in shared memory.
///
/// Every size works: tiles that stick out of a matrix are zero-filled in shared memory, and
/// nothing outside A, B or C is read or written. C is overwritten, not accumulated into.
///
/// \param a      A, m x k, row-major, in device memory
/// \param b      B, k x n, row-major, in device memory
/// \param c      C, m x n, row-major, in device memory
/// \param m      rows of A and C
/// \param n      columns of B and C
/// \param k      columns of A and rows of B
/// \param stream the stream the kernel is enqueued on (nullptr: the default stream)
/// \param tile   the tile edge: 8, 16 or 32 (a block has tile x tile threads); anything else throws
///               std::invalid_argument, as do negative sizes
template <typename T>
void gemm(const T* a, const T* b, T* c, int m, int n, int k, hipStream_t stream, int tile = 16);

extern template void gemm<int>(const int*, const int*, int*, int, int, int, hipStream_t, int);
extern template void gemm<float>(const float*, const float*, float*, int, int, int, hipStream_t,
                                 int);

}  // namespace step04
