/// \file
/// \brief Step 02's entry point: C = A·B on the GPU, one thread per element of C.
#pragma once

#include <hip/hip_runtime.h>

namespace step02 {

/// Enqueues C = A·B on `stream` with the naive kernel: one GPU thread computes one element of C.
///
/// All pointers are device memory and all matrices are row-major: A is m x k, B is k x n, C is
/// m x n. Threads are launched in blocks of `block_edge` x `block_edge`, on a grid rounded up to
/// whole blocks; a thread's x index picks the column of C and its y index the row, so the
/// neighbouring threads of a warp read neighbouring elements of B and write neighbouring elements
/// of C. C is overwritten, not accumulated into. Works for every size, including sizes that are not
/// a multiple of `block_edge`. The call returns once the work is enqueued; synchronize `stream`
/// before reading C.
///
/// The kernel indexes with `int`, so m·k, k·n and m·n must each be below 2^31 (the programs'
/// command line enforces this).
///
/// \param a A, m x k, in device memory
/// \param b B, k x n, in device memory
/// \param c C, m x n, in device memory; overwritten
/// \param m rows of A and C
/// \param n columns of B and C
/// \param k columns of A and rows of B: the length of each dot product
/// \param stream the stream to enqueue the kernel on (`nullptr`: the default stream)
/// \param block_edge threads along each edge of a block, 1 to 32 (the tutorial uses 8, 16 and 32)
/// \throws std::invalid_argument when `block_edge` is outside 1 to 32 or a size is negative
/// \throws tutorial::RuntimeFailure when the launch fails
template <typename T>
void gemm(const T* a, const T* b, T* c, int m, int n, int k, hipStream_t stream,
          int block_edge = 16);

/// The same multiply with the thread mapping swapped: x index -> row of C, y index -> column.
///
/// Neighbouring threads of a warp then work on elements of C that are a whole row (n elements)
/// apart, so their reads of A and writes of C are scattered instead of coalesced. The result is the
/// same; the variant exists only so the page and the benchmark can measure what the mapping costs.
/// Parameters, guarantees and exceptions are those of gemm().
template <typename T>
void gemm_swapped_mapping(const T* a, const T* b, T* c, int m, int n, int k, hipStream_t stream,
                          int block_edge = 16);

extern template void gemm<int>(const int*, const int*, int*, int, int, int, hipStream_t, int);
extern template void gemm<float>(const float*, const float*, float*, int, int, int, hipStream_t,
                                 int);
extern template void gemm_swapped_mapping<int>(const int*, const int*, int*, int, int, int,
                                               hipStream_t, int);
extern template void gemm_swapped_mapping<float>(const float*, const float*, float*, int, int, int,
                                                 hipStream_t, int);

}  // namespace step02
