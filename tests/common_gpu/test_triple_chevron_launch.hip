// The `<<< >>>` launch, on the GPU routes only: it is not C++, so the HIP CPU Runtime cannot
// compile it (tests/common_gpu/CMakeLists.txt leaves this file out there), and the tutorial's
// sources launch with hipLaunchKernelGGL, which every route compiles.
#include <gtest/gtest.h>

#include <hip/hip_runtime.h>

#include "common/hip_check.hpp"
#include "tests/common_gpu/index_kernel_check.hpp"
#include "tests/support/gpu_test.hpp"

namespace {
__global__ void add_twice_index(float* values, int count) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        values[i] += 2.0f * static_cast<float>(i);
}
}  // namespace

TEST(HipRuntimeMapping, LaunchWithTripleChevrons) {
    TUTORIAL_REQUIRE_GPU();
    const int count = 300;
    float* const device = tutorial_test::zeroed_device_floats(count);
    add_twice_index<<<dim3((count + 63) / 64), dim3(64)>>>(device, count);
    HIP_CHECK_LAUNCH();
    HIP_CHECK(hipDeviceSynchronize());
    tutorial_test::expect_twice_the_index(device, count);
    HIP_CHECK(hipFree(device));
}
