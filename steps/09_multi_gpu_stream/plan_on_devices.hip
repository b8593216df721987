// The plan for the devices of this machine: which devices, how much memory each entry may use
// (asked once, here), and the planner's cut of the multiply for that budget.
#include <hip/hip_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/device.hpp"
#include "common/device_ids.hpp"
#include "common/errors.hpp"
#include "common/hip_check.hpp"
#include "multi_gpu_gemm.hpp"
#include "panel_exchange.hpp"

namespace step09 {

std::vector<int> devices_or_all(const std::vector<int>& listed) {
    if (const auto reason = tutorial::gpu_unavailable_reason())
        throw tutorial::RuntimeFailure(*reason);
    const int count = tutorial::device_count();
    std::vector<int> devices = listed;
    if (devices.empty()) {
        for (int id = 0; id < count; ++id)
            devices.push_back(id);
    }
    for (const int device : devices) {
        if (const auto reason = tutorial::missing_device_reason(device, count))
            throw std::invalid_argument(*reason);
    }
    return devices;
}

std::uint64_t resolve_budget(const MultiGpuOptions& options) {
    int current = 0;
    HIP_CHECK(hipGetDevice(&current));
    std::vector<DeviceMemory> entries;
    for (const int device : options.devices) {
        std::size_t free_bytes = 0, total_bytes = 0;
        HIP_CHECK(hipSetDevice(device));
        HIP_CHECK(hipMemGetInfo(&free_bytes, &total_bytes));
        entries.push_back({device, free_bytes, total_bytes});
    }
    HIP_CHECK(hipSetDevice(current));
    return budget_per_entry(options.device_memory_bytes, entries);
}

Plan plan_for(int m, int n, int k, const MultiGpuOptions& options) {
    if (options.devices.empty()) {
        throw std::invalid_argument(
            "step09::gemm: the list of devices is empty; name at least one device");
    }
    devices_or_all(options.devices);  // each one exists
    PlanRequest request;
    request.m = m;
    request.n = n;
    request.k = k;
    request.element_bytes = sizeof(float);
    request.entries = static_cast<int>(options.devices.size());
    request.budget_bytes = resolve_budget(options);
    request.chunk_rows = options.chunk_rows;
    request.panel_cols = options.panel_cols;
    // Entries that will share panels are dealt the chunks in turns (as gemm() decides it too).
    request.in_turns = options.share_panels && !panel_sharing_unavailable(options.devices);
    for (const int device : options.devices) {
        int count = 0;
        HIP_CHECK(hipDeviceGetAttribute(&count, hipDeviceAttributeMultiprocessorCount, device));
        request.multiprocessors =
            request.multiprocessors == 0 ? count : std::min(request.multiprocessors, count);
    }
    return plan_multiply(request);
}

}  // namespace step09
