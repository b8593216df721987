/// \file
/// \brief Step 05's entry point: C = A·B with shared memory (LDS), float4 accesses and register
/// blocking, in four variants that go from the AMD sample's design to a fast SGEMM.
#pragma once

#include <hip/hip_runtime.h>

#include <string>

namespace step05 {

/// The kernels of this step, in the order the page builds them up.
enum class Variant {
    seed,    ///< the AMD sample's design: A's tile in shared memory, B read from global memory with
             ///< float4
    lds_ab,  ///< A's and B's tiles both in shared memory, still 4 x 4 outputs per thread
    reg8x8,  ///< 128 x 128 block tile, 8 x 8 outputs per thread, both operands read with float4
             ///< from shared memory
    reg8x8_db,  ///< reg8x8 plus double buffering: one barrier per K-slice, the next slice's loads
                ///< in flight
};

/// Every variant, in the order above, for loops over all of them.
constexpr Variant kAllVariants[] = {Variant::seed, Variant::lds_ab, Variant::reg8x8,
                                    Variant::reg8x8_db};

/// The variant's name as reports and the command line spell it: "seed", "lds_ab", "reg8x8" or
/// "reg8x8_db".
const char* variant_name(Variant variant);

/// The variant called `text` (one of the names variant_name() returns). Throws
/// std::invalid_argument naming the accepted names when there is none.
Variant parse_variant(const std::string& text);

/// Computes C = A·B on `stream` with the chosen kernel, for row-major float matrices in device
/// memory: A is m x k, B is k x n, C is m x n. C is overwritten, not accumulated into.
///
/// Every size works (1 x 1 x 1, primes, sizes that are not multiples of 4 or of the tile). The
/// kernels read and write with float4 when n and k are multiples of 4 and the three pointers are
/// 16-byte aligned; otherwise they fall back to guarded scalar accesses. `block` is the number of
/// threads per side of a block for the seed and lds_ab variants (8 or 16; each thread computes a 4
/// x 4 block of C) and is ignored by the others. Throws std::invalid_argument for another block
/// size or a negative size; launch failures are reported through HIP_CHECK_LAUNCH().
void gemm(const float* a, const float* b, float* c, int m, int n, int k, hipStream_t stream,
          Variant variant = Variant::reg8x8_db, int block = 8);

}  // namespace step05
