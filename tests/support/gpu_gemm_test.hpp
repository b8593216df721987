/// \file
/// \brief For GPU step tests: run a step's entry point on a C that already holds other values.
#pragma once

#include <hip/hip_runtime.h>

#include <cstdint>

#include "common/device_buffer.hpp"
#include "common/gpu_gemm_runner.hpp"
#include "common/hip_check.hpp"
#include "common/matrix.hpp"

namespace tutorial_test {

/// Random values in [-1000000, 1000000] for C before a multiply, far from any product the tests
/// form.
template <typename T>
tutorial::Matrix<T> garbage(int rows, int cols, std::uint64_t seed) {
    tutorial::Matrix<T> c(rows, cols);
    tutorial::fill_random(c, seed, T(-1000000), T(1000000));
    return c;
}

/// Copies A, B and `c_before` to the device, runs `launch`, and returns C. Because C starts out
/// holding `c_before`, a kernel that skips an element or adds into C instead of overwriting it
/// fails verification.
template <typename T>
tutorial::Matrix<T> multiply_over(const tutorial::Matrix<T>& a, const tutorial::Matrix<T>& b,
                                  tutorial::Matrix<T> c_before,
                                  const tutorial::GemmLauncher<T>& launch) {
    tutorial::DeviceBuffer<T> device_a(a.size()), device_b(b.size()), device_c(c_before.size());
    device_a.upload(a);
    device_b.upload(b);
    device_c.upload(c_before);
    launch(device_a.get(), device_b.get(), device_c.get(), a.rows(), b.cols(), a.cols(), nullptr);
    HIP_CHECK(hipDeviceSynchronize());
    device_c.download(c_before);
    return c_before;
}

}  // namespace tutorial_test
