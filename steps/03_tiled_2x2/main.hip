/// \file
/// \brief Step 03's program: the walkthrough's 4x4 example in 2 x 2 tiles, then a tiled multiply of
/// any size.
#include <hip/hip_runtime.h>

#include <iostream>

#include "common/device.hpp"
#include "common/errors.hpp"
#include "common/gpu_gemm_runner.hpp"
#include "common/matrix.hpp"
#include "common/program.hpp"
#include "tiled_gemm.hpp"

namespace {

const tutorial::StepDescription kStep{
    /*program=*/"step03_tiled_2x2",
    /*summary=*/
    "Step 03: tiled matrix multiplication, 2 x 2 tiles of A and B in shared memory, two barriers "
    "per tile.",
    /*worked_example=*/
    "A = B = {{1,2,3,4},{5,6,7,8},{1,2,3,4},{5,6,7,8}} (4 x 4), multiplied in 2 x 2 tiles",
    /*default_size=*/512,
    /*default_iterations=*/10,
};

// The walkthrough's example: 4 x 4 is the smallest size with two tiles along every dimension, so
// every block runs the tile loop twice.
int run_worked_example(const tutorial::Options& options) {
    // [worked example]
    const tutorial::Matrix<int> a{{1, 2, 3, 4}, {5, 6, 7, 8}, {1, 2, 3, 4}, {5, 6, 7, 8}};
    const tutorial::Matrix<int> b = a;
    const tutorial::Matrix<int> c = tutorial::multiply_on_device<int>(a, b, step03::gemm<int>);
    // [worked example]
    return tutorial::report_worked_example(
        options, "Worked example: A (4 x 4) times B (4 x 4) in 2 x 2 tiles", a, b, c);
}

}  // namespace

int main(int argc, char** argv) {
    const auto general = [](const tutorial::Options& options) {
        return tutorial::run_gpu_gemm(options, {"03", "tiled2"}, step03::gemm<float>);
    };
    return tutorial::run_gpu_step_flow(argc, argv, kStep, {{}, run_worked_example, general});
}
