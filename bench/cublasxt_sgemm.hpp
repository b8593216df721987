/// \file
/// \brief A multi-GPU BLAS that works from host memory, for step 09's comparison: cuBLASXt on
/// NVIDIA, "not available" elsewhere.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/blas_library.hpp"

namespace bench {

/// Row-major single-precision C = A·B for matrices in host memory, spread by the library over the
/// devices it was made for. The call blocks until C is back in host memory.
class HostBlas : public tutorial::BlasLibrary {
  public:
    /// The edge of the square blocks the library cuts the matrices into, each a unit of work on a
    /// device; cuBLASXt's default is 1024. Larger blocks buy more flops per byte copied and take
    /// more device memory.
    virtual void set_block_dim(int block_dim) = 0;
    virtual void sgemm(const float* a, const float* b, float* c, int m, int n, int k) = 0;
};

/// cuBLASXt on `devices` (distinct ids), or nullptr with the reason in `why_not` on a build
/// without it.
std::unique_ptr<HostBlas> make_cublasxt(const std::vector<int>& devices, std::string& why_not);

}  // namespace bench
