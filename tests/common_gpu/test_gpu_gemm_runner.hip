#include <gtest/gtest.h>

#include "common/command_line.hpp"
#include "common/errors.hpp"
#include "common/gpu_gemm_runner.hpp"
#include "common/verify.hpp"
#include "tests/support/gpu_test.hpp"

namespace {

// A plain one-thread-per-element multiply, only to drive the runner in these tests.
template <typename T>
__global__ void simple_gemm(const T* a, const T* b, T* c, int m, int n, int k) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= m || col >= n)
        return;
    T sum = 0;
    for (int p = 0; p < k; ++p)
        sum += a[row * k + p] * b[p * n + col];
    c[row * n + col] = sum;
}

template <typename T>
void launch_simple(const T* a, const T* b, T* c, int m, int n, int k, hipStream_t stream) {
    const dim3 block(16, 16);
    const dim3 grid((n + 15) / 16, (m + 15) / 16);
    hipLaunchKernelGGL(simple_gemm<T>, grid, block, 0, stream, a, b, c, m, n, k);
    HIP_CHECK_LAUNCH();
}

tutorial::Options options_for(int m, int n, int k) {
    tutorial::Options options;
    options.m = m;
    options.n = n;
    options.k = k;
    options.iterations = 3;
    options.warmup = 1;
    options.quiet = true;
    options.devices = {0};
    options.seed = 5;
    return options;
}

}  // namespace

TEST(MultiplyOnDevice, IntegerProductIsExact) {
    TUTORIAL_REQUIRE_GPU();
    tutorial::select_device(0);
    tutorial::Matrix<int> a(13, 7), b(7, 9);
    tutorial::fill_random(a, 1, -50, 50);
    tutorial::fill_random(b, 2, -50, 50);
    const tutorial::Matrix<int> c = tutorial::multiply_on_device<int>(a, b, launch_simple<int>);
    EXPECT_TRUE(tutorial::verify_gemm(a, b, c).passed);
}

TEST(RunGpuGemm, CorrectKernelIsVerified) {
    TUTORIAL_REQUIRE_GPU();
    testing::internal::CaptureStdout();
    const int code =
        tutorial::run_gpu_gemm(options_for(37, 29, 41), {"xx", "simple"}, launch_simple<float>);
    const std::string output = testing::internal::GetCapturedStdout();
    EXPECT_EQ(code, tutorial::kExitVerified) << output;
    EXPECT_NE(output.find("\"verification\": \"passed\""), std::string::npos) << output;
    EXPECT_NE(output.find("\"kernel_median_ms\""), std::string::npos) << output;
    EXPECT_NE(output.find("\"end_to_end_ms\""), std::string::npos) << output;
}

TEST(RunGpuGemm, KernelThatWritesNothingFails) {
    TUTORIAL_REQUIRE_GPU();
    auto do_nothing = [](const float*, const float*, float*, int, int, int, hipStream_t) {};
    testing::internal::CaptureStdout();
    tutorial::Options options = options_for(8, 8, 8);
    options.timing = false;
    const int code = tutorial::run_gpu_gemm(options, {"xx", "nothing"}, do_nothing);
    const std::string output = testing::internal::GetCapturedStdout();
    EXPECT_EQ(code, tutorial::kExitVerificationFailed) << output;
    EXPECT_NE(output.find("\"verification\": \"FAILED\""), std::string::npos) << output;
}
