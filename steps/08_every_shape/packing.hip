#include "packing.hpp"

#include <hip/hip_runtime.h>

#include <cstddef>

#include "reduction.hpp"

namespace step08 {
namespace {

// [pad]
// Every row of `padded` starts on a 16-byte boundary when padded_cols is a multiple of 4.
__global__ void pad_matrix(const float* __restrict__ matrix, int rows, int cols,
                           float* __restrict__ padded, int padded_rows, int padded_cols) {
    step07::for_each_row(padded_rows, padded_cols, [&](int row, int col) {
        padded[static_cast<std::size_t>(row) * padded_cols + col] =
            row < rows && col < cols ? matrix[static_cast<std::size_t>(row) * cols + col] : 0.0f;
    });
}
// [pad]

}  // namespace

void pack(const float* matrix, int rows, int cols, float* padded, int padded_rows, int padded_cols,
          hipStream_t stream) {
    step07::launch_rows(pad_matrix, padded_rows, padded_cols, stream, matrix, rows, cols, padded,
                        padded_rows, padded_cols);
}

}  // namespace step08
