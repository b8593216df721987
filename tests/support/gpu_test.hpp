/// \file
/// \brief For GPU tests: skip, with the reason, when no GPU is present; what the runtime says of
/// the current device.
#pragma once

#include <gtest/gtest.h>
#include <hip/hip_runtime.h>

#include "common/device.hpp"
#include "common/hip_check.hpp"

/// Skips the current test when no HIP device can be used; CTest then reports it as skipped and the
/// output says why. Passing without a GPU would hide that nothing was checked.
#define TUTORIAL_REQUIRE_GPU()                                                    \
    do {                                                                          \
        if (const auto tutorial_no_gpu_ = ::tutorial::gpu_unavailable_reason()) { \
            GTEST_SKIP() << *tutorial_no_gpu_;                                    \
        }                                                                         \
    } while (false)

namespace tutorial_test {

/// The current device's properties, straight from the HIP runtime: what a step's own account of
/// the device (its occupancy, say) must agree with.
inline hipDeviceProp_t current_device_properties() {
    int device = 0;
    HIP_CHECK(hipGetDevice(&device));
    hipDeviceProp_t properties;
    HIP_CHECK(hipGetDeviceProperties(&properties, device));
    return properties;
}

}  // namespace tutorial_test
