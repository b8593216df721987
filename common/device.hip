#include "common/device.hpp"

#include <hip/hip_runtime.h>

#include <string>

#include "common/byte_size.hpp"
#include "common/device_ids.hpp"
#include "common/errors.hpp"
#include "common/hip_check.hpp"

namespace tutorial {

void throw_hip_error(hipError_t status, const char* expression, const char* file, int line) {
    throw RuntimeFailure(std::string("HIP call '") + expression + "' failed with " +
                         hipGetErrorName(status) + " (" + hipGetErrorString(status) + ") at " +
                         file + ":" + std::to_string(line));
}

namespace {

// The device's name in every message, report and RESULT line. The HIP CPU Runtime names the
// processor; the name then says that these are the CPU running HIP, never a GPU.
std::string device_name(const hipDeviceProp_t& properties) {
#if defined(__HIP_CPU_RT__)
    return std::string("CPU running HIP (") + properties.name + ")";
#else
    return properties.name;
#endif
}

}  // namespace

const char* gpu_platform() {
    return TUTORIAL_GPU_PLATFORM;
}

int device_count() {
    int count = 0;
    if (hipGetDeviceCount(&count) != hipSuccess) {
        (void)hipGetLastError();  // clear the sticky error so later calls start clean
        return 0;
    }
    return count;
}

std::optional<std::string> gpu_unavailable_reason() {
    int count = 0;
    const hipError_t status = hipGetDeviceCount(&count);
    if (status != hipSuccess) {
        (void)hipGetLastError();
        return std::string("no HIP device was found: looked for ") + gpu_platform() +
               ", and hipGetDeviceCount returned " + hipGetErrorName(status) + " (" +
               hipGetErrorString(status) + ")";
    }
    if (count == 0)
        return std::string("no HIP device was found: looked for ") + gpu_platform();
    return std::nullopt;
}

DeviceInfo select_device(int id) {
    if (const auto reason = gpu_unavailable_reason())
        throw RuntimeFailure(*reason);
    if (const auto reason = missing_device_reason(id, device_count()))
        throw UsageError("--device: " + *reason);
    HIP_CHECK(hipSetDevice(id));
    hipDeviceProp_t properties;
    HIP_CHECK(hipGetDeviceProperties(&properties, id));
    DeviceInfo info;
    info.id = id;
    info.name = device_name(properties);
    info.multiprocessors = properties.multiProcessorCount;
    info.global_memory_bytes = properties.totalGlobalMem;
    return info;
}

void* allocate_device_bytes(std::size_t bytes) {
    void* pointer = nullptr;
    const hipError_t status = hipMalloc(&pointer, bytes);
    if (status == hipSuccess)
        return pointer;
    (void)hipGetLastError();
    int device = -1;
    std::size_t free_bytes = 0;
    std::size_t total_bytes = 0;
    std::string where = "the current device";
    if (hipGetDevice(&device) == hipSuccess) {
        hipDeviceProp_t properties;
        where = "device " + std::to_string(device);
        if (hipGetDeviceProperties(&properties, device) == hipSuccess)
            where += " (" + device_name(properties) + ")";
        if (hipMemGetInfo(&free_bytes, &total_bytes) == hipSuccess) {
            where +=
                ", which has " + format_bytes(free_bytes) + " free of " + format_bytes(total_bytes);
        }
    }
    throw RuntimeFailure("out of device memory: could not allocate " + format_bytes_exactly(bytes) +
                         " on " + where + " [" + hipGetErrorName(status) + "]");
}

void* allocate_pinned_bytes(std::size_t bytes) {
    void* pointer = nullptr;
    const hipError_t status = hipHostMalloc(&pointer, bytes, hipHostMallocDefault);
    if (status == hipSuccess)
        return pointer;
    (void)hipGetLastError();
    throw RuntimeFailure("out of pinned host memory: could not allocate " +
                         format_bytes_exactly(bytes) + " [" + hipGetErrorName(status) + "]");
}

}  // namespace tutorial
