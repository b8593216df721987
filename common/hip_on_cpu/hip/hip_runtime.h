/// \file
/// \brief The tutorial's small additions to ROCm's HIP CPU Runtime, for the CPU route.
///
/// On the CPU route (`GPU_RUNTIME=CPU`) the build puts this folder first on the include path. The
/// header includes the HIP CPU Runtime's own `hip/hip_runtime.h` and adds only what the tutorial
/// uses and that runtime spells differently from HIP on a GPU, one small inline function per
/// difference, each tested in tests/common_gpu. The step sources never know which header they got.
///
/// One thing cannot be added: kernels launched with `<<< >>>`, which is not C++. The HIP CPU
/// Runtime compiles `hipLaunchKernelGGL`, and every source of the tutorial launches that way.
#pragma once

#include_next <hip/hip_runtime.h>

#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <future>
#include <sstream>
#include <string>

/// HIP declares the flags as `unsigned int`; the HIP CPU Runtime takes its `hipEventFlags` enum,
/// to which an `unsigned int` does not convert implicitly.
inline hipError_t hipEventCreateWithFlags(hipEvent_t* event, unsigned int flags) {
    return hipEventCreateWithFlags(event, static_cast<hipEventFlags>(flags));
}

/// Whether the work before `event` in its stream has finished. The runtime lacks this query; its
/// event holds a future that is ready once the stream reaches the event. An event never recorded
/// counts as complete, as HIP documents.
inline hipError_t hipEventQuery(hipEvent_t event) {
    if (event == nullptr)
        return hipErrorInvalidHandle;
    const auto& done = is_done(*event);  // the runtime's own accessor, found through the Event type
    if (!done.valid())
        return hipSuccess;
    return done.wait_for(std::chrono::seconds(0)) == std::future_status::ready ? hipSuccess
                                                                               : hipErrorNotReady;
}

/// A copy between devices. The CPU route has one device, whose memory is host memory, so the only
/// peer copy there is (device 0 to device 0) is an ordinary copy in the stream's order.
inline hipError_t hipMemcpyPeerAsync(void* destination, int destination_device, const void* source,
                                     int source_device, std::size_t bytes,
                                     hipStream_t stream = nullptr) {
    if (destination_device != 0 || source_device != 0)
        return hipErrorInvalidDevice;
    return hipMemcpyAsync(destination, source, bytes, hipMemcpyDeviceToDevice, stream);
}

/// The device attributes the tutorial reads, taken from the device's properties (the runtime has
/// the properties but no attribute query).
enum hipDeviceAttribute_t {
    hipDeviceAttributeClockRate,            ///< kHz, hipDeviceProp_t::clockRate
    hipDeviceAttributeMultiprocessorCount,  ///< hipDeviceProp_t::multiProcessorCount
};

inline hipError_t hipDeviceGetAttribute(int* value, hipDeviceAttribute_t attribute, int device) {
    if (value == nullptr)
        return hipErrorInvalidValue;
    hipDeviceProp_t properties;
    const hipError_t status = hipGetDeviceProperties(&properties, device);
    if (status != hipSuccess)
        return status;
    switch (attribute) {
        case hipDeviceAttributeClockRate:
            *value = properties.clockRate;
            return hipSuccess;
        case hipDeviceAttributeMultiprocessorCount:
            *value = properties.multiProcessorCount;
            return hipSuccess;
    }
    return hipErrorInvalidValue;
}

/// Makes later work in `stream` wait for `event`. The runtime's own version queues a task that
/// blocks until the event completes; all streams are run by one processor thread, in turn, so when
/// the waiting stream's turn comes before the stream that completes the event, that thread waits
/// for itself forever (step 07's copy and compute streams did). Waiting here, on the calling
/// thread, gives the same order (nothing queued afterwards in `stream` starts before the event's
/// work has finished) without blocking the processor. As in HIP, an event that was never recorded
/// has nothing to wait for.
inline hipError_t tutorial_hip_cpu_stream_wait_event(hipStream_t stream, hipEvent_t event,
                                                     unsigned int flags) {
    (void)stream;
    (void)flags;
    if (event == nullptr)
        return hipErrorInvalidHandle;
    if (!is_done(*event).valid())
        return hipSuccess;
    return hipEventSynchronize(event);
}
#define hipStreamWaitEvent tutorial_hip_cpu_stream_wait_event

/// The number of devices, after HIP_VISIBLE_DEVICES. HIP on a GPU shows only the devices that this
/// comma-separated list names (the ids up to the first one that is not a device; "-1" hides them
/// all); the HIP CPU Runtime ignores the variable. Honouring it here lets a test hide the CPU's one
/// device, as it hides a GPU, and check what a program says when there is none.
inline hipError_t tutorial_hip_cpu_get_device_count(int* count) {
    const hipError_t status = hipGetDeviceCount(count);
    const char* visible = std::getenv("HIP_VISIBLE_DEVICES");
    if (status != hipSuccess || visible == nullptr)
        return status;
    std::istringstream list(visible);
    std::string id;
    int shown = 0;
    while (std::getline(list, id, ',')) {
        char* end = nullptr;
        const long value = std::strtol(id.c_str(), &end, 10);
        if (id.empty() || *end != '\0' || value < 0 || value >= *count)
            break;
        ++shown;
    }
    *count = shown;
    return shown == 0 ? hipErrorNoDevice : hipSuccess;
}
#define hipGetDeviceCount tutorial_hip_cpu_get_device_count
