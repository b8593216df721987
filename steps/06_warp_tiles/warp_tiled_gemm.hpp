/// \file
/// \brief Step 06's entry point: C = A·B with block, warp and thread tiles, one block per tile of
/// C over the whole of K.
#pragma once

#include <hip/hip_runtime.h>

#include <optional>

#include "tile_shape.hpp"

namespace step06 {

/// The current device's multiprocessors and how many blocks of each tile one holds at once
/// (hipOccupancyMaxActiveBlocksPerMultiprocessor), asked once per device and remembered.
Occupancy occupancy();

/// Computes C = A·B on `stream` for row-major float matrices in device memory (A is m x k, B is
/// k x n, C is m x n) with the tile choose_tile() takes for this C on the current device. C is
/// overwritten, not accumulated into.
///
/// Every size works (1 x 1 x 1, primes, k = 1, sizes that are not multiples of 4 or of the tile).
/// The kernel reads and writes with float4 when n and k are multiples of 4 and the three pointers
/// are 16-byte aligned; otherwise with guarded scalar loads, and scalar stores staged through
/// shared memory. Throws std::invalid_argument for negative sizes.
void gemm(const float* a, const float* b, float* c, int m, int n, int k, hipStream_t stream);

/// The same with the tile chosen by the caller (tests, the benchmark, the program's --tile).
void gemm(const float* a, const float* b, float* c, int m, int n, int k, hipStream_t stream,
          TileShape tile);

/// The largest m, n or k of steps 06 to 08: 2^31 - 2^16. The kernels address A, B and C in 64
/// bits, so a matrix may hold any number of elements, but counts of tiles, slices and rows are ints
/// and are kept a block's worth below INT_MAX.
constexpr int kMaxSize = 2147483647 - 65535;

/// Throws std::invalid_argument, naming `step` ("step06::gemm") and the sizes, when m, n or k
/// is negative or above kMaxSize. Steps 07 and 08 check their sizes with it too.
void check_sizes(const char* step, int m, int n, int k);

/// check_sizes(), then whether C is empty (m or n is 0), when a gemm has nothing to launch: the
/// start of every entry point of steps 06 to 08.
bool nothing_to_compute(const char* step, int m, int n, int k);

/// Throws std::invalid_argument, naming `step`, when the m rows of C in blocks of `tile_rows` rows
/// need more blocks than a grid has along y (65535): the launches of steps 06 to 08 lay the rows of
/// C along y (step 08 then multiplies in bands of rows).
void check_rows_fit_grid(const char* step, int m, int tile_rows);

/// The same for the programs of steps 06 and 07, before any work: with the `forced` tile's rows,
/// or, where the choice picks the tile, the most rows of any tile it may pick.
void check_rows_fit_grid(const char* step, int m, std::optional<TileShape> forced);

/// Which matrices the kernels may read and write with float4: those whose rows all start on a
/// 16-byte boundary. B and C (rows of n floats) when n is a multiple of 4 and `b` and `c` are
/// 16-byte aligned; A too (rows of k floats) when k is a multiple of 4 and `a` is aligned. Where
/// only A could, the answer is Float4::none: B's loads are the more numerous in the big tiles, and
/// each path is another set of kernels to build. float4_path(n, k) for aligned matrices.
Float4 float4_path(const float* a, const float* b, const float* c, int n, int k);

}  // namespace step06
