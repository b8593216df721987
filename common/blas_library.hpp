/// \file
/// \brief What every BLAS library the tutorial measures itself against has: a name for reports.
/// Plain C++, no HIP, so host-only code can use it too.
#pragma once

#include <string>

namespace tutorial {

/// A library that reports and tables name next to the tutorial's kernels; the derived class says
/// how it multiplies.
class BlasLibrary {
  public:
    virtual ~BlasLibrary() = default;
    /// The library, its version and what it runs with, e.g. "cuBLAS 13.0 SGEMM (FP32, TF32 off)"
    /// or "cuBLASXt 13.1 SGEMM on devices 0, 1".
    virtual std::string name() const = 0;
};

}  // namespace tutorial
