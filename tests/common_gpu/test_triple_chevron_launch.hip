// The `<<< >>>` launch, on the GPU routes only: it is not C++, so the HIP CPU Runtime cannot
// compile it (tests/common_gpu/CMakeLists.txt leaves this file out there), and the tutorial's
// sources launch with hipLaunchKernelGGL, which every route compiles.
#include <gtest/gtest.h>

#include <hip/hip_runtime.h>

#include <vector>

#include "common/hip_check.hpp"
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
    HIP_CHECK(hipSetDevice(0));
    const int count = 300;
    float* device = nullptr;
    HIP_CHECK(hipMalloc(&device, count * sizeof(float)));
    HIP_CHECK(hipMemset(device, 0, count * sizeof(float)));
    add_twice_index<<<dim3((count + 63) / 64), dim3(64)>>>(device, count);
    HIP_CHECK_LAUNCH();
    HIP_CHECK(hipDeviceSynchronize());
    std::vector<float> host(count);
    HIP_CHECK(hipMemcpy(host.data(), device, count * sizeof(float), hipMemcpyDeviceToHost));
    for (int i = 0; i < count; ++i)
        ASSERT_EQ(host[i], 2.0f * i) << "index " << i;
    HIP_CHECK(hipFree(device));
}
