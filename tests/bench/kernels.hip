#include "tests/bench/kernels.hpp"

#include "naive_gemm.hpp"
#include "tiled_gemm.hpp"

namespace bench {

std::vector<Kernel> step_kernels() {
    using Launch = tutorial::GemmLauncher<float>;
    std::vector<Kernel> kernels;
    for (const int edge : {8, 16, 32}) {
        kernels.push_back({"02", "naive_b" + std::to_string(edge),
                           Launch([edge](const float* a, const float* b, float* c, int m, int n, int k, hipStream_t s) {
                               step02::gemm(a, b, c, m, n, k, s, edge);
                           })});
        kernels.push_back({"02", "swapped_b" + std::to_string(edge),
                           Launch([edge](const float* a, const float* b, float* c, int m, int n, int k, hipStream_t s) {
                               step02::gemm_swapped_mapping(a, b, c, m, n, k, s, edge);
                           })});
    }
    kernels.push_back({"03", "tiled2", Launch(step03::gemm<float>)});
    return kernels;
}

}  // namespace bench
