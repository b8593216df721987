/// \file
/// \brief Finding and choosing a GPU, with messages a learner understands.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace tutorial {

/// The platform this build targets, e.g. "NVIDIA GPUs through CUDA 13.0 (nvcc)".
const char* gpu_platform();

/// Number of HIP devices; 0 when there are none or the runtime cannot find a driver.
int device_count();

/// Why no GPU can be used, or nothing when at least one device is present.
std::optional<std::string> gpu_unavailable_reason();

/// The device a program runs on.
struct DeviceInfo {
    int id = 0;
    std::string name;
    int multiprocessors = 0;
    std::size_t global_memory_bytes = 0;
};

/// Makes device `id` current and describes it. Throws RuntimeFailure when there is no device at all
/// and UsageError when `id` is not one of the devices present.
DeviceInfo select_device(int id);

/// Device memory of `bytes` on the current device; on failure a RuntimeFailure that names the
/// bytes, the device and its free memory.
void* allocate_device_bytes(std::size_t bytes);

/// Page-locked host memory of `bytes` (fast, asynchronous copies); a RuntimeFailure on failure.
void* allocate_pinned_bytes(std::size_t bytes);

}  // namespace tutorial
