/// \file
/// \brief The list of step kernels the benchmark times.
#pragma once

#include <string>
#include <vector>

#include "common/gpu_gemm_runner.hpp"

namespace bench {

/// One kernel to time: the step it belongs to, its name in reports and its launcher.
struct Kernel {
    std::string step;
    std::string variant;
    tutorial::GemmLauncher<float> launch;
};

/// Every step kernel, in tutorial order.
std::vector<Kernel> step_kernels();

}  // namespace bench
