/// \file
/// \brief Step 02's program: the worked 3x2 · 2x3 example on the GPU, then a GPU multiply of any
/// size with the naive kernel.
#include <hip/hip_runtime.h>

#include <iostream>

#include "common/device.hpp"
#include "common/errors.hpp"
#include "common/gpu_gemm_runner.hpp"
#include "common/matrix.hpp"
#include "common/program.hpp"
#include "naive_gemm.hpp"

namespace {

const tutorial::StepDescription kStep{
    /*program=*/"step02_naive_kernel",
    /*summary=*/
    "Step 02: matrix multiplication on the GPU with the naive kernel, one thread per element of C.",
    /*worked_example=*/
    "A (3x2) = {{1,4},{2,5},{3,6}} times B (2x3) = {{7,8,9},{10,11,12}}, on the GPU",
    /*default_size=*/1024,
    /*default_iterations=*/10,
    /*block_sizes=*/{16, 8, 32},
    /*block_help=*/"threads per block edge: each block is b x b threads",
};

// The worked example of step 01, now computed by nine GPU threads, with integers so the check is
// exact.
int run_worked_example(const tutorial::Options& options) {
    // [worked example]
    const tutorial::Matrix<int> a{{1, 4}, {2, 5}, {3, 6}};
    const tutorial::Matrix<int> b{{7, 8, 9}, {10, 11, 12}};
    const tutorial::Matrix<int> c = tutorial::multiply_on_device<int>(
        a, b, [&](const int* da, const int* db, int* dc, int m, int n, int k, hipStream_t stream) {
            step02::gemm(da, db, dc, m, n, k, stream, options.block);
        });
    // [worked example]
    return tutorial::report_worked_example(
        options, "Worked example on the GPU: A (3 x 2) times B (2 x 3)", a, b, c);
}

}  // namespace

int main(int argc, char** argv) {
    const auto general = [](const tutorial::Options& options) {
        // [general multiply]
        return tutorial::run_gpu_gemm(
            options, {"02", "naive"},
            [&](const float* a, const float* b, float* c, int m, int n, int k, hipStream_t stream) {
                step02::gemm(a, b, c, m, n, k, stream, options.block);
            });
        // [general multiply]
    };
    return tutorial::run_gpu_step_flow(argc, argv, kStep, {{}, run_worked_example, general});
}
