#include "bench/multi_gpu_runs.hpp"

#include "common/command_line.hpp"
#include "common/device.hpp"
#include "common/gpu_timer.hpp"
#include "common/hip_handles.hpp"

namespace bench::multi_gpu {

Measurement measure_resident(step09::InnerKernel inner, int device, Inputs& inputs,
                             int iterations) {
    tutorial::select_device(device);
    const int n = inputs.n;
    const step09::InnerMultiply multiply(inner, /*lanes=*/1);
    tutorial::DeviceBuffer<float> a(inputs.a.size()), b(inputs.b.size()), c(inputs.a.size());
    a.upload(inputs.a);
    b.upload(inputs.b);
    const tutorial::Stream stream;
    HIP_CHECK(hipMemsetAsync(c.get(), 0xFF, c.bytes(), stream.get()));
    Measurement result;
    result.what = "resident";
    result.inner = step09::inner_kernel_name(inner);
    result.devices = {device};
    result.timing = tutorial::time_with_events(stream.get(), 1, iterations, [&] {
        multiply(0, a.get(), b.get(), c.get(), n, n, n, stream.get());
    });
    stream.synchronize();
    HIP_CHECK(hipMemcpy(inputs.host_c.get(), c.get(), c.bytes(), hipMemcpyDeviceToHost));
    result.verified = inputs.verify_c("resident " + result.inner);
    return result;
}

void time_from_host(Measurement& result, Inputs& inputs, int iterations, FreeMemoryWatch& watch,
                    const std::function<void()>& multiply) {
    inputs.poison_c();
    result.timing = tutorial::time_on_host(1, iterations, multiply);
    result.memory_used = watch.used();
    result.verified = inputs.verify_c(result.what + " " + result.inner + " on " +
                                      tutorial::join(result.devices, ","));
}

std::vector<int> distinct(std::vector<int> devices) {
    std::sort(devices.begin(), devices.end());
    devices.erase(std::unique(devices.begin(), devices.end()), devices.end());
    return devices;
}

step09::MultiGpuOptions stream_options(step09::InnerKernel inner, const std::vector<int>& devices,
                                       const Settings& settings,
                                       std::optional<std::uint64_t> budget) {
    step09::MultiGpuOptions options;
    options.devices = devices;
    options.device_memory_bytes = budget;
    options.inner = inner;
    options.chunk_rows = settings.chunk_rows;
    options.panel_cols = settings.panel_cols;
    options.host_memory = step09::HostMemory::pinned;
    options.panel_copy = step09::parse_panel_copy(settings.panel_copy);
    return options;
}

Measurement measure_stream(const step09::Plan& plan, const step09::MultiGpuOptions& options,
                           const std::string& budget_from, const Settings& settings,
                           Inputs& inputs) {
    const std::vector<int>& devices = options.devices;
    Measurement result;
    result.what = "stream";
    result.inner = step09::inner_kernel_name(options.inner);
    result.devices = devices;
    result.budget_from = budget_from;
    for (const int device : devices) {
        const auto entries = std::count(devices.begin(), devices.end(), device);
        result.plan_bytes = std::max<std::uint64_t>(
            result.plan_bytes, static_cast<std::uint64_t>(entries) * plan.buffers.total_bytes());
    }
    // The step keeps its buffers from one call to the next (step09::Workspace), as a program that
    // multiplies again and again would; cuBLASXt, likewise, is timed with one handle over all its
    // calls. The warm-up allocates the buffers inside the watch, which therefore sees them all,
    // and the timed calls reuse them. They are freed before the next row.
    FreeMemoryWatch watch(distinct(devices));
    step09::Workspace workspace;
    time_from_host(result, inputs, settings.iterations, watch, [&] {
        result.statistics = step09::gemm(inputs.host_a.get(), inputs.host_b.get(),
                                         inputs.host_c.get(), plan, options, workspace);
    });
    return result;
}

const Measurement* find(const std::vector<Measurement>& rows, const std::string& what,
                        const std::string& inner, const std::vector<int>& devices,
                        const std::string& budget_from) {
    for (const Measurement& m : rows) {
        if (m.what == what && m.inner == inner && m.devices == devices &&
            m.budget_from == budget_from)
            return &m;
    }
    return nullptr;
}

}  // namespace bench::multi_gpu
