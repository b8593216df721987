// Step 07 on the GPU: split-K and stream-K configurations and the step's choice through the shared
// kernel harness, every way of sharing out the last tiles, and bad configurations.
#include <gtest/gtest.h>
#include <hip/hip_runtime.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "reduction.hpp"
#include "split_k_gemm.hpp"
#include "tests/support/gpu_test.hpp"
#include "tests/support/kernel_suite.hpp"

using step06::TileShape;
using step07::Config;

namespace {

KernelUnderTest with(const Config& config) {
    return {tutorial_test::split_k_name(step06::tile_name(config.tile), config),
            [config](const float* a, const float* b, float* c, int m, int n, int k,
                     hipStream_t stream) { step07::gemm(a, b, c, m, n, k, stream, config); }};
}

std::vector<KernelUnderTest> step07_kernels() {
    return {with({TileShape::t128x256, 3}),
            with({TileShape::t128x128, 2}),
            with({TileShape::t128x128, 16}),
            with({TileShape::t128x128, 64}),
            with({TileShape::t128x128, 256}),
            with({TileShape::t128x256, 1, 3}),
            with({TileShape::t128x128, 1, 7}),
            {"choice", [](const float* a, const float* b, float* c, int m, int n, int k,
                          hipStream_t stream) { step07::gemm(a, b, c, m, n, k, stream); }}};
}

}  // namespace

TUTORIAL_KERNEL_SUITES(Step07, step07_kernels);

// The reduction's block must launch on every GPU (NVIDIA's limit on blockDim.z is 64, which the CPU
// route does not enforce), hold at most kReduceThreads threads, and be no wider than C needs.
TEST(Step07Reduction, BlocksLaunchEverywhereAndSpanCOrFillUp) {
    for (int m : {1, 7, 64, 8192}) {
        for (int n : {1, 2, 3, 16, 100, 256, 1000, 5000}) {
            for (int splits : {1, 2, 3, 64, 256}) {
                const step07::ReduceBlock block = step07::reduce_block(m, n, splits);
                SCOPED_TRACE(std::to_string(m) + " x " + std::to_string(n) + ", " +
                             std::to_string(splits) + " ranges");
                EXPECT_EQ(block.groups, step07::reduction_groups(m, n, splits));
                EXPECT_LE(block.cols * block.groups * block.rows, step07::kReduceThreads);
                EXPECT_GE(block.rows, 1);
                EXPECT_LE(block.rows, 64);
                EXPECT_LT(block.cols, 2 * n);  // a power of two, below twice C's width
                // As wide as C, or as wide as the groups allow.
                EXPECT_TRUE(block.cols >= n || block.cols * block.groups == step07::kReduceThreads);
            }
        }
    }
}

TEST(Step07Gemm, BadConfigurationsAreRejectedBeforeLaunch) {
    for (const Config& config :
         {Config{TileShape::t128x128, 0}, Config{TileShape::t128x128, step07::kMaxSplits + 1},
          Config{TileShape::t128x128, 1, -1}, Config{TileShape::t128x128, 1, 1025},
          Config{TileShape::t128x128, 2, 8}}) {
        EXPECT_THROW(step07::gemm(nullptr, nullptr, nullptr, 4, 4, 4, nullptr, config),
                     std::invalid_argument)
            << step07::config_name(config);
    }
    EXPECT_THROW(step07::gemm(nullptr, nullptr, nullptr, 4, -4, 4, nullptr), std::invalid_argument);
}

// 300 x 520 x 333 in 128 x 128 tiles: 3 x 5 = 15 tiles of 21 K-slices. Each worker count shares
// out a different last wave: 1, 5 and 15 none (whole waves only), 2 one tile, 7 one tile among 7,
// 13 two tiles cut mid-tile, 16 and 40 all 15 tiles (fewer tiles than workers, some workers idle).
// Every result must be right and the same bits twice, whoever arrives last at a shared tile.
class Step07StreamK : public testing::TestWithParam<int> {};

TEST_P(Step07StreamK, EveryShareIsRightAndRepeatable) {
    TUTORIAL_REQUIRE_GPU();
    const int m = 300, n = 520, k = 333;
    const KernelUnderTest kernel = with({TileShape::t128x128, 1, GetParam()});
    tutorial::Matrix<float> a(m, k), b(k, n);
    tutorial::fill_random(a, 1101);
    tutorial::fill_random(b, 1102);
    const tutorial::Matrix<float> first = tutorial_test::multiply_guarded(kernel, a, b);
    const auto report = tutorial::verify_gemm(a, b, first);
    EXPECT_TRUE(report.passed) << report.summary();
    const tutorial::Matrix<float> again = tutorial_test::multiply_guarded(kernel, a, b);
    EXPECT_EQ(std::memcmp(first.data(), again.data(), first.bytes()), 0)
        << "a second run differs from the first";
}

INSTANTIATE_TEST_SUITE_P(Workers, Step07StreamK, testing::Values(1, 2, 5, 7, 13, 15, 16, 40),
                         [](const testing::TestParamInfo<int>& info) {
                             return "workers" + std::to_string(info.param);
                         });
