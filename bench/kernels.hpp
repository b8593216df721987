/// \file
/// \brief The list of step kernels the benchmark times.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "common/gpu_gemm_runner.hpp"

namespace bench {

/// A multiply on host pointers (the CPU step), with the same argument order as a GemmLauncher.
using HostMultiply =
    std::function<void(const float* a, const float* b, float* c, int m, int n, int k)>;

/// One kernel to time: the step it belongs to, its name in reports and how to run it. GPU kernels
/// have `launch` (device pointers, a stream); the CPU step has `host` instead.
struct Kernel {
    std::string step;
    std::string variant;
    tutorial::GemmLauncher<float> launch;
    HostMultiply host;

    bool on_cpu() const { return static_cast<bool>(host); }
};

/// Every step kernel, in tutorial order, step 01's serial loop on the CPU first.
std::vector<Kernel> step_kernels();

}  // namespace bench
