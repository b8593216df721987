// Builds without a supported vendor BLAS (the AMD route: Debian 12 packages neither hipBLAS nor
// rocBLAS) still run the benchmark, with the steps alone and no ratio column.
#include "common/vendor_blas.hpp"

namespace tutorial {

std::unique_ptr<VendorBlas> make_vendor_blas(std::string& why_not) {
    why_not =
        "no vendor BLAS in this build (cuBLAS is used on NVIDIA; hipBLAS/rocBLAS support is not "
        "written yet)";
    return nullptr;
}

}  // namespace tutorial
