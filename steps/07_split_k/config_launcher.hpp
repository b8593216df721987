/// \file
/// \brief The launcher and the general multiply of a configuration, for the programs of steps 07
/// and 08.
#pragma once

#include <hip/hip_runtime.h>

#include <string>

#include "common/gpu_gemm_runner.hpp"
#include "split_k_gemm.hpp"

namespace step07 {

/// A launcher that runs `config` through the gemm() of its own step: step07::gemm for a
/// step07::Config, step08::gemm for a step08::Config (found in the namespace of `Config`).
template <class Config>
tutorial::GemmLauncher<float> launcher_for(const Config& config) {
    return [config](const float* a, const float* b, float* c, int m, int n, int k,
                    hipStream_t stream) { gemm(a, b, c, m, n, k, stream, config); };
}

/// The general multiply of a program that runs a configuration (steps 07 and 08): `config` through
/// run_gpu_gemm() as step `step`, named in reports by its own step's config_name().
template <class Config>
int run_config(const tutorial::Options& options, const std::string& step, const Config& config) {
    return tutorial::run_gpu_gemm(options, {step, config_name(config)}, launcher_for(config));
}

}  // namespace step07
