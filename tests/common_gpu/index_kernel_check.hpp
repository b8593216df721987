/// \file
/// \brief For the launch tests of the HIP runtime mapping: a zeroed device array for kernels that
/// add each element's index to it, and the check of the result.
#pragma once

#include <gtest/gtest.h>
#include <hip/hip_runtime.h>

#include <vector>

#include "common/hip_check.hpp"

namespace tutorial_test {

/// `count` floats of device 0's memory, set to zero with hipMemset; the caller frees them with
/// hipFree.
inline float* zeroed_device_floats(int count) {
    HIP_CHECK(hipSetDevice(0));
    float* device = nullptr;
    HIP_CHECK(hipMalloc(&device, count * sizeof(float)));
    HIP_CHECK(hipMemset(device, 0, count * sizeof(float)));
    return device;
}

/// Copies `count` floats back from `device` and checks that every `stride`-th one holds twice its
/// index.
inline void expect_twice_the_index(const float* device, int count, int stride = 1) {
    std::vector<float> host(count);
    HIP_CHECK(hipMemcpy(host.data(), device, count * sizeof(float), hipMemcpyDeviceToHost));
    for (int i = 0; i < count; i += stride)
        ASSERT_EQ(host[i], 2.0f * i) << "index " << i;
}

}  // namespace tutorial_test
