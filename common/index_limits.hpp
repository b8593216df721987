/// \file
/// \brief The size limit of kernels that index with 32-bit ints (steps 02-05): each of A, B and C
/// has at most kMaxMatrixElements elements. Plain C++, so host code and tests check it without a
/// GPU and without allocating anything.
#pragma once

#include <string>

namespace tutorial {

/// The most elements one matrix may have where the kernels index with 32-bit ints: INT_MAX.
constexpr long long kMaxMatrixElements = 2147483647LL;

/// Empty when a rows x cols matrix called `name` fits 32-bit indexing; otherwise the sentence that
/// says why not: "A (m x k) would be 70000 x 32768 = 2293760000 elements; the kernels index with
/// 32-bit ints, so at most 2147483647 elements per matrix".
std::string too_many_elements(const std::string& name, long long rows, long long cols);

/// Throws std::invalid_argument, starting with `who`, for the first of A (m x k), B (k x n) and
/// C (m x n) of an m x n x k multiply that does not fit 32-bit indexing.
void check_32bit_indexing(const std::string& who, int m, int n, int k);

/// The most blocks a grid may have along y, on NVIDIA and AMD GPUs alike.
constexpr long long kMaxGridY = 65535;

/// Throws std::invalid_argument, starting with `who`, when `extent` (say "m = 3000000", laid along
/// the grid's y) in blocks of `per_block` needs more than kMaxGridY blocks.
void check_grid_y(const std::string& who, const std::string& what, long long extent, int per_block);

}  // namespace tutorial
