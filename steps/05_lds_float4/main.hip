/// \file
/// \brief Step 05's program: the 4x4 worked example in float with the fastest variant, then the
/// general multiply with each of the four variants in turn.
#include <hip/hip_runtime.h>

#include <algorithm>
#include <iostream>

#include "common/device.hpp"
#include "common/errors.hpp"
#include "common/gpu_gemm_runner.hpp"
#include "common/matrix.hpp"
#include "common/program.hpp"
#include "common/verify.hpp"
#include "lds_float4_gemm.hpp"

namespace {

const tutorial::StepDescription kStep{
    /*program=*/"step05_lds_float4",
    /*summary=*/
    "Step 05: shared memory (LDS), float4 loads and register blocking. The general multiply runs "
    "the "
    "four variants seed, lds_ab, reg8x8 and reg8x8_db one after another, each with its own RESULT "
    "line, and exits with the worst of their results.",
    /*worked_example=*/
    "A = B = {{1,2,3,4},{5,6,7,8},{1,2,3,4},{5,6,7,8}} in float with the reg8x8_db variant",
    /*default_size=*/2048,
    /*default_iterations=*/10,
    /*block_sizes=*/{8, 16},
    /*block_help=*/
    "threads per side of a block in the seed and lds_ab variants, each computing 4 x 4 of C",
};

// The worked example of step 03, in float: small integers are exact in float, so any error in the
// kernel would show up as a value outside the gamma_K bound.
int run_worked_example(const tutorial::Options& options) {
    // [worked example]
    const tutorial::Matrix<float> a{{1, 2, 3, 4}, {5, 6, 7, 8}, {1, 2, 3, 4}, {5, 6, 7, 8}};
    const tutorial::Matrix<float> b = a;
    const tutorial::Matrix<float> c = tutorial::multiply_on_device<float>(
        a, b,
        [](const float* da, const float* db, float* dc, int m, int n, int k, hipStream_t stream) {
            step05::gemm(da, db, dc, m, n, k, stream, step05::Variant::reg8x8_db);
        });
    // [worked example]
    return tutorial::report_worked_example(
        options, "Worked example: A (4 x 4) times B (4 x 4) in float, variant reg8x8_db", a, b, c);
}

}  // namespace

int main(int argc, char** argv) {
    const auto general = [](const tutorial::Options& options) {
        // [all variants]
        int worst = tutorial::kExitVerified;
        for (const step05::Variant variant : step05::kAllVariants) {
            auto launch = [&](const float* a, const float* b, float* c, int m, int n, int k,
                              hipStream_t stream) {
                step05::gemm(a, b, c, m, n, k, stream, variant, options.block);
            };
            worst = std::max(worst, tutorial::run_gpu_gemm(
                                        options, {"05", step05::variant_name(variant)}, launch));
        }
        return worst;
        // [all variants]
    };
    return tutorial::run_gpu_step_flow(argc, argv, kStep, {{}, run_worked_example, general});
}
