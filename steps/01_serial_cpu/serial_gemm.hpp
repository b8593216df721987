/// \file
/// \brief Step 01's entry point: C = A·B with the serial triple loop.
#pragma once

namespace step01 {

/// Computes C = A·B on the CPU, one element of C at a time.
///
/// All matrices are row-major: A is m x k, B is k x n, C is m x n. Element (row, col) of C is the
/// dot product of row `row` of A with column `col` of B; the loop over `inner` walks along both.
/// C is overwritten, not accumulated into.
template <typename T>
void gemm(const T* a, const T* b, T* c, int m, int n, int k) {
    // [triple loop]
    for (int row = 0; row < m; ++row) {
        for (int col = 0; col < n; ++col) {
            T sum = 0;
            for (int inner = 0; inner < k; ++inner) {
                sum += a[row * k + inner] * b[inner * n + col];
            }
            c[row * n + col] = sum;
        }
    }
    // [triple loop]
}

extern template void gemm<int>(const int*, const int*, int*, int, int, int);
extern template void gemm<float>(const float*, const float*, float*, int, int, int);

}  // namespace step01
