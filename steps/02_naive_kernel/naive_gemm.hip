/// \file
/// \brief Step 02's kernels: one GPU thread per element of C, with two ways of mapping threads
/// onto rows and columns.
#include "naive_gemm.hpp"

#include <hip/hip_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "common/hip_check.hpp"
#include "common/index_limits.hpp"

namespace step02 {
namespace {

// [one element]
// The work of one thread: the dot product of row `row` of A with column `col` of B.
template <typename T>
__device__ void multiply_one_element(const T* a, const T* b, T* c, int m, int n, int k, int row,
                                     int col) {
    // The grid is rounded up to whole blocks, so the threads that fall past the edge of C must
    // do nothing rather than read and write out of bounds.
    if (row < m && col < n) {
        T sum = 0;
        for (int inner = 0; inner < k; ++inner) {
            sum += a[row * k + inner] * b[inner * n + col];
        }
        c[row * n + col] = sum;
    }
}
// [one element]

// [naive kernel]
// x picks the column and y the row: a warp's threads are numbered with x running fastest, so they
// take neighbouring columns and together read a contiguous piece of a row of B and write one of C.
template <typename T>
__global__ void naive_gemm_kernel(const T* a, const T* b, T* c, int m, int n, int k) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    multiply_one_element(a, b, c, m, n, k, row, col);
}
// [naive kernel]

// [swapped kernel]
// x picks the row and y the column: the threads of a warp take neighbouring rows, so the elements
// of A they read are k apart and the elements of C they write are n apart, scattered accesses that
// cost up to one memory transaction per thread.
template <typename T>
__global__ void swapped_mapping_kernel(const T* a, const T* b, T* c, int m, int n, int k) {
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    const int col = blockIdx.y * blockDim.y + threadIdx.y;
    multiply_one_element(a, b, c, m, n, k, row, col);
}
// [swapped kernel]

template <typename T>
using Kernel = void (*)(const T*, const T*, T*, int, int, int);

void check_arguments(int m, int n, int k, int block_edge) {
    if (m < 0 || n < 0 || k < 0) {
        throw std::invalid_argument("step02: the sizes m, n and k must not be negative");
    }
    // 32 x 32 = 1024 threads is the most a block may have on both NVIDIA and AMD GPUs.
    if (block_edge < 1 || block_edge > 32) {
        throw std::invalid_argument("step02: block_edge must be between 1 and 32, not " +
                                    std::to_string(block_edge));
    }
    tutorial::check_32bit_indexing("step02", m, n, k);
}

// [launch]
// Covers x_extent x y_extent threads with block_edge x block_edge blocks, rounding the grid up
// so that every element of C has a thread; the kernel's bounds check idles the extra ones.
template <typename T>
void launch_over(Kernel<T> kernel, int x_extent, int y_extent, int block_edge, hipStream_t stream,
                 const T* a, const T* b, T* c, int m, int n, int k) {
    const dim3 block(block_edge, block_edge);
    const dim3 grid((x_extent + block_edge - 1) / block_edge,
                    (y_extent + block_edge - 1) / block_edge);
    hipLaunchKernelGGL(kernel, grid, block, 0, stream, a, b, c, m, n, k);
    HIP_CHECK_LAUNCH();
}
// [launch]

}  // namespace

template <typename T>
void gemm(const T* a, const T* b, T* c, int m, int n, int k, hipStream_t stream, int block_edge) {
    check_arguments(m, n, k, block_edge);
    // An empty C has nothing to compute, and a grid of zero blocks is not a valid launch.
    if (m == 0 || n == 0)
        return;
    tutorial::check_grid_y("step02::gemm", "m", m, block_edge);
    launch_over<T>(naive_gemm_kernel<T>, /*x_extent=*/n, /*y_extent=*/m, block_edge, stream, a, b,
                   c, m, n, k);
}

template <typename T>
void gemm_swapped_mapping(const T* a, const T* b, T* c, int m, int n, int k, hipStream_t stream,
                          int block_edge) {
    check_arguments(m, n, k, block_edge);
    if (m == 0 || n == 0)
        return;
    tutorial::check_grid_y("step02::gemm_swapped_mapping", "n", n, block_edge);
    launch_over<T>(swapped_mapping_kernel<T>, /*x_extent=*/m, /*y_extent=*/n, block_edge, stream, a,
                   b, c, m, n, k);
}

template void gemm<int>(const int*, const int*, int*, int, int, int, hipStream_t, int);
template void gemm<float>(const float*, const float*, float*, int, int, int, hipStream_t, int);
template void gemm_swapped_mapping<int>(const int*, const int*, int*, int, int, int, hipStream_t,
                                        int);
template void gemm_swapped_mapping<float>(const float*, const float*, float*, int, int, int,
                                          hipStream_t, int);

}  // namespace step02
