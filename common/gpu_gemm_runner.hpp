/// \file
/// \brief The host side every GPU step shares: move the matrices to the device, launch the step's
/// kernel, bring C back, time it, verify it and report.
#pragma once

#include <hip/hip_runtime.h>

#include <functional>
#include <string>
#include <type_traits>

#include "common/command_line.hpp"
#include "common/device_buffer.hpp"
#include "common/hip_check.hpp"
#include "common/matrix.hpp"
#include "common/program.hpp"

namespace tutorial {

/// A step's entry point: enqueues C = A·B on `stream` for row-major device matrices
/// (A is m x k, B is k x n, C is m x n), for example `step02::gemm`.
template <typename T>
using GemmLauncher =
    std::function<void(const T* a, const T* b, T* c, int m, int n, int k, hipStream_t stream)>;

/// The host-side flow of a GPU multiply, once: allocate device memory, copy A and B in, launch,
/// wait, copy C out. Device memory is freed when the buffers go out of scope, even on an error.
template <typename T>
Matrix<T> multiply_on_device(const Matrix<T>& a, const Matrix<T>& b,
                             const GemmLauncher<T>& launch) {
    // [host flow]
    const int m = a.rows(), k = a.cols(), n = b.cols();
    DeviceBuffer<T> device_a(a.size());
    DeviceBuffer<T> device_b(b.size());
    DeviceBuffer<T> device_c(static_cast<std::size_t>(m) * static_cast<std::size_t>(n));
    device_a.upload(a);
    device_b.upload(b);
    launch(device_a.get(), device_b.get(), device_c.get(), m, n, k, nullptr);
    HIP_CHECK(hipDeviceSynchronize());
    Matrix<T> c(m, n);
    device_c.download(c);
    // [host flow]
    return c;
}

/// A worked example on the device: C = A·B with `launch` (multiply_on_device()), printed and
/// checked by report_worked_example() under `title`. Returns its exit code.
template <typename T>
int worked_example_on_device(const Options& options, const std::string& title, const Matrix<T>& a,
                             const Matrix<T>& b, const GemmLauncher<T>& launch) {
    return report_worked_example(options, title, a, b, multiply_on_device(a, b, launch));
}

/// Which step and kernel a run reports.
struct GpuRunInfo {
    std::string step;     ///< "02", "03", ...
    std::string variant;  ///< the kernel's name in reports, e.g. "naive"
};

/// The general multiply of a GPU step: random A (m x k) and B (k x n) from the seed, on the device
/// chosen by --device; times the kernel alone and the multiply with its copies (pinned host
/// memory), each with events, warm-up first, median of --iterations; verifies C; prints the report
/// and the RESULT line. Returns kExitVerified or kExitVerificationFailed.
int run_gpu_gemm(const Options& options, const GpuRunInfo& info, const GemmLauncher<float>& launch);

/// run_step_flow() for a GPU step: after `flow.prepare` (the step's own options, if any) it
/// selects the device of --device, so that bad usage and a missing GPU (exit code 3, a plain
/// message) stop the program before any work.
int run_gpu_step_flow(int argc, char** argv, const StepDescription& step, const StepFlow& flow);

/// run_gpu_step_flow() for a step that reads its own options into a request first: `parse(options)`
/// returns it, before the device is selected; the general multiply is `general(request, options)`.
template <class Parse, class General>
int run_gpu_step_flow(int argc, char** argv, const StepDescription& step, Parse parse,
                      const std::function<int(const Options&)>& example, General general) {
    std::invoke_result_t<Parse, const Options&> request{};
    return run_gpu_step_flow(argc, argv, step,
                             {[&](const Options& options) { request = parse(options); }, example,
                              [&](const Options& options) { return general(request, options); }});
}

}  // namespace tutorial
