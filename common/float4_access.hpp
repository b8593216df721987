/// \file
/// \brief Reading and writing four neighbouring floats of a row-major matrix, with float4 where
/// the launcher has checked that it may, and element by element otherwise. Device code: for .hip
/// files.
#pragma once

#include <hip/hip_runtime.h>

#include <cstddef>

namespace tutorial {

// [load4]
/// Four consecutive elements of row `row` of a rows x cols row-major matrix, from column `col` on;
/// elements outside the matrix read as zero, which is what a partial tile needs.
/// kVectorized: the launcher has checked that cols is a multiple of 4 and the pointer 16-byte
/// aligned, and callers pass a col that is a multiple of 4, so the four elements are all inside or
/// all outside the matrix and one 16-byte load fetches them.
template <bool kVectorized>
__device__ inline float4 load4(const float* __restrict__ matrix, int rows, int cols, int row,
                               int col) {
    float4 value = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (row >= rows)
        return value;
    const float* line = matrix + static_cast<std::size_t>(row) * cols;
    if constexpr (kVectorized) {
        if (col < cols)
            value = *reinterpret_cast<const float4*>(line + col);
    } else {
        if (col + 0 < cols)
            value.x = line[col + 0];
        if (col + 1 < cols)
            value.y = line[col + 1];
        if (col + 2 < cols)
            value.z = line[col + 2];
        if (col + 3 < cols)
            value.w = line[col + 3];
    }
    return value;
}
// [load4]

/// Four consecutive elements from `at` on, all inside the matrix: one float4 load when kVectorized
/// (the address is then 16-byte aligned), four scalar loads otherwise.
template <bool kVectorized>
__device__ inline float4 read4(const float* __restrict__ at) {
    if constexpr (kVectorized)
        return *reinterpret_cast<const float4*>(at);
    else
        return make_float4(at[0], at[1], at[2], at[3]);
}

/// The same for writing: elements outside the matrix are not written.
template <bool kVectorized>
__device__ inline void store4(float* __restrict__ matrix, int rows, int cols, int row, int col,
                              float4 value) {
    if (row >= rows)
        return;
    float* line = matrix + static_cast<std::size_t>(row) * cols;
    if constexpr (kVectorized) {
        if (col < cols)
            *reinterpret_cast<float4*>(line + col) = value;
    } else {
        if (col + 0 < cols)
            line[col + 0] = value.x;
        if (col + 1 < cols)
            line[col + 1] = value.y;
        if (col + 2 < cols)
            line[col + 2] = value.z;
        if (col + 3 < cols)
            line[col + 3] = value.w;
    }
}

}  // namespace tutorial
