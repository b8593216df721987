#include "common/gpu_gemm_runner.hpp"

#include <cstring>
#include <iostream>

#include "common/device.hpp"
#include "common/errors.hpp"
#include "common/gpu_timer.hpp"
#include "common/hip_handles.hpp"
#include "common/host_memory.hpp"
#include "common/program.hpp"
#include "common/report.hpp"

namespace tutorial {

int run_gpu_gemm(const Options& options, const GpuRunInfo& info,
                 const GemmLauncher<float>& launch) {
    const int m = options.m, n = options.n, k = options.k;
    // A, B and C, their pinned copies and, where HIP runs on the CPU, the device's buffers, all in
    // host memory: sizes too large for it end with a message (exit 3) before any is allocated or
    // a device is looked for.
    require_host_memory(m, n, k, hip_runs_on_cpu() ? 3 : 2);
    const DeviceInfo device = select_device(options.devices.front());
    Matrix<float> a(m, k), b(k, n), c(m, n);
    fill_random(a, options.seed);
    fill_random(b, options.seed + 1);
    if (!options.quiet) {
        std::cout << "\nGeneral multiply on device " << device.id << " (" << device.name << "): C ("
                  << m << " x " << n << ") = A (" << m << " x " << k << ") B (" << k << " x " << n
                  << "), random values in [-1, 1], seed " << options.seed << "\n";
    }

    RunReport report;
    report.step = info.step;
    report.variant = info.variant;
    report.device = device.name;
    report.m = m;
    report.n = n;
    report.k = k;

    // Pinned host copies, so the end-to-end time measures the copies at full speed.
    PinnedBuffer<float> host_a(a.size()), host_b(b.size()), host_c(c.size());
    std::memcpy(host_a.get(), a.data(), a.bytes());
    std::memcpy(host_b.get(), b.data(), b.bytes());
    DeviceBuffer<float> device_a(a.size()), device_b(b.size()), device_c(c.size());
    const Stream stream;
    auto copy_in = [&] {
        HIP_CHECK(hipMemcpyAsync(device_a.get(), host_a.get(), a.bytes(), hipMemcpyHostToDevice,
                                 stream.get()));
        HIP_CHECK(hipMemcpyAsync(device_b.get(), host_b.get(), b.bytes(), hipMemcpyHostToDevice,
                                 stream.get()));
    };
    auto multiply = [&] {
        launch(device_a.get(), device_b.get(), device_c.get(), m, n, k, stream.get());
    };
    auto copy_out = [&] {
        HIP_CHECK(hipMemcpyAsync(host_c.get(), device_c.get(), c.bytes(), hipMemcpyDeviceToHost,
                                 stream.get()));
    };

    // Poison C first, so a kernel that skips elements cannot pass on an earlier run's values.
    HIP_CHECK(hipMemsetAsync(device_c.get(), 0xFF, c.bytes(), stream.get()));
    if (options.timing) {
        report.end_to_end_ms =
            time_with_events(stream.get(), options.warmup, options.iterations, [&] {
                copy_in();
                multiply();
                copy_out();
            }).median_ms;
        report.kernel =
            time_with_events(stream.get(), options.warmup, options.iterations, multiply);
    } else {
        copy_in();
        multiply();
        copy_out();
    }
    stream.synchronize();
    std::memcpy(c.data(), host_c.get(), c.bytes());

    return report_general_multiply(options, report, a, b, c);
}

int run_gpu_step_flow(int argc, char** argv, const StepDescription& step, const StepFlow& flow) {
    StepFlow gpu_flow = flow;
    gpu_flow.prepare = [&flow](const Options& options) {
        if (flow.prepare)
            flow.prepare(options);
        select_device(options.devices.front());
    };
    return run_step_flow(argc, argv, step, gpu_flow);
}

}  // namespace tutorial
