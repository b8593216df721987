// Step 06 on the GPU: each block tile and the step's choice through the shared kernel harness,
// bad sizes, and the occupancy the choice reads.
#include <gtest/gtest.h>
#include <hip/hip_runtime.h>

#include <stdexcept>
#include <vector>

#include "tests/support/gpu_test.hpp"
#include "tests/support/kernel_suite.hpp"
#include "warp_tiled_gemm.hpp"

namespace {

std::vector<KernelUnderTest> step06_kernels() {
    std::vector<KernelUnderTest> kernels;
    for (const step06::TileShapeRow& row : step06::kTileShapes) {
        kernels.push_back({std::string("t") + row.name,
                           [tile = row.value](const float* a, const float* b, float* c, int m,
                                              int n, int k, hipStream_t stream) {
                               step06::gemm(a, b, c, m, n, k, stream, tile);
                           }});
    }
    kernels.push_back(
        {"choice", [](const float* a, const float* b, float* c, int m, int n, int k,
                      hipStream_t stream) { step06::gemm(a, b, c, m, n, k, stream); }});
    return kernels;
}

}  // namespace

TUTORIAL_KERNEL_SUITES(Step06, step06_kernels);

TEST(Step06Gemm, NegativeSizesAreRejected) {
    EXPECT_THROW(step06::gemm(nullptr, nullptr, nullptr, -1, 4, 4, nullptr), std::invalid_argument);
    EXPECT_THROW(
        step06::gemm(nullptr, nullptr, nullptr, 4, 4, -2, nullptr, step06::TileShape::t128x128),
        std::invalid_argument);
}

TEST(Step06Float4, EachPointerCountsForItsMatrices) {
    // No memory is touched: only the addresses are looked at.
    alignas(16) static float buffer[8];
    float* aligned = buffer;
    float* off = buffer + 1;
    using step06::Float4;
    EXPECT_EQ(step06::float4_path(aligned, aligned, aligned, 8, 8), Float4::all);
    EXPECT_EQ(step06::float4_path(off, aligned, aligned, 8, 8), Float4::b_and_c);
    EXPECT_EQ(step06::float4_path(aligned, off, aligned, 8, 8), Float4::none);
    EXPECT_EQ(step06::float4_path(aligned, aligned, off, 8, 8), Float4::none);
    EXPECT_EQ(step06::float4_path(aligned, aligned, aligned, 8, 7), Float4::b_and_c);
    EXPECT_EQ(step06::float4_path(aligned, aligned, aligned, 7, 8), Float4::none);
}

TEST(Step06Occupancy, MatchesTheDevice) {
    TUTORIAL_REQUIRE_GPU();
    const step06::Occupancy occupancy = step06::occupancy();
    EXPECT_EQ(occupancy.multiprocessors,
              tutorial_test::current_device_properties().multiProcessorCount);
    const int big = occupancy.blocks[static_cast<int>(step06::TileShape::t128x256)];
    const int small = occupancy.blocks[static_cast<int>(step06::TileShape::t128x128)];
    EXPECT_GE(big, 1);
    // A 128 x 128 block has half the threads of a 128 x 256 one: at least as many fit.
    EXPECT_GE(small, big);
}
