/// \file
/// \brief The vendor BLAS the tutorial measures itself against: cuBLAS on NVIDIA.
#pragma once

#include <hip/hip_runtime.h>

#include <memory>
#include <string>

#include "common/blas_library.hpp"

namespace tutorial {

/// Row-major single-precision C = A·B through the platform's BLAS library.
class VendorBlas : public BlasLibrary {
  public:
    virtual void sgemm(const float* a, const float* b, float* c, int m, int n, int k,
                       hipStream_t stream) = 0;
};

/// The vendor BLAS of this build, or nullptr when none is available (the reason in `why_not`).
std::unique_ptr<VendorBlas> make_vendor_blas(std::string& why_not);

}  // namespace tutorial
