/// \file
/// \brief Step 04's program: the 4x4 worked example on the GPU, then a tiled multiply of any size
/// with 8 x 8, 16 x 16 or 32 x 32 tiles.
#include <hip/hip_runtime.h>

#include <iostream>
#include <string>

#include "common/device.hpp"
#include "common/errors.hpp"
#include "common/gpu_gemm_runner.hpp"
#include "common/matrix.hpp"
#include "common/program.hpp"
#include "tiled_gemm.hpp"

namespace {

const tutorial::StepDescription kStep{
    /*program=*/"step04_tiled_16x16",
    /*summary=*/
    "Step 04: tiled matrix multiplication on the GPU, with kTile x kTile tiles in shared memory.",
    /*worked_example=*/
    "the 4x4 product of step 03, A = B = {{1,2,3,4},{5,6,7,8},{1,2,3,4},{5,6,7,8}}, on one tile",
    /*default_size=*/1024,
    /*default_iterations=*/10,
    /*block_sizes=*/{16, 8, 32},
    /*block_help=*/"tile edge: each block computes a b x b tile of C with b x b threads",
};

// The worked example of step 03, now smaller than one tile: most threads of the only block fall
// outside C, load zeros and write nothing, and the result is still exact.
int run_worked_example(const tutorial::Options& options) {
    const int tile = options.block;
    // [worked example]
    const tutorial::Matrix<int> a{{1, 2, 3, 4}, {5, 6, 7, 8}, {1, 2, 3, 4}, {5, 6, 7, 8}};
    const tutorial::Matrix<int> b{{1, 2, 3, 4}, {5, 6, 7, 8}, {1, 2, 3, 4}, {5, 6, 7, 8}};
    const tutorial::Matrix<int> c = tutorial::multiply_on_device<int>(
        a, b,
        [tile](const int* device_a, const int* device_b, int* device_c, int m, int n, int k,
               hipStream_t stream) {
            step04::gemm(device_a, device_b, device_c, m, n, k, stream, tile);
        });
    // [worked example]
    const std::string tile_text = std::to_string(tile) + " x " + std::to_string(tile);
    return tutorial::report_worked_example(
        options, "Worked example on the GPU, " + tile_text + " tiles: A (4 x 4) times B (4 x 4)", a,
        b, c);
}

}  // namespace

int main(int argc, char** argv) {
    const auto general = [](const tutorial::Options& options) {
        const int tile = options.block;
        return tutorial::run_gpu_gemm(
            options, {"04", "tiled" + std::to_string(tile)},
            [tile](const float* a, const float* b, float* c, int m, int n, int k,
                   hipStream_t stream) { step04::gemm(a, b, c, m, n, k, stream, tile); });
    };
    return tutorial::run_gpu_step_flow(argc, argv, kStep, {{}, run_worked_example, general});
}
