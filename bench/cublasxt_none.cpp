// Builds without cuBLASXt (the AMD route) still run the multi-GPU benchmark, without that row.
#include "bench/cublasxt_sgemm.hpp"

namespace bench {

std::unique_ptr<HostBlas> make_cublasxt(const std::vector<int>&, std::string& why_not) {
    why_not =
        "cuBLASXt is not available: it is part of NVIDIA's cuBLAS, and this build targets "
        "AMD GPUs";
    return nullptr;
}

}  // namespace bench
