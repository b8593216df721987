/// \file
/// \brief What a step asks of a device again and again (its multiprocessors, how many blocks of
/// each kernel fit on one), asked once per device and remembered.
#pragma once

#include <hip/hip_runtime.h>

#include <map>
#include <mutex>

#include "common/hip_check.hpp"

namespace tutorial {

/// `make()` for the current device: computed on the first call for that device, the remembered
/// value on later calls. Safe to call from several threads.
template <class Make>
auto once_per_device(const Make& make) -> decltype(make()) {
    using Value = decltype(make());
    static std::mutex mutex;
    static std::map<int, Value> known;
    int device = 0;
    HIP_CHECK(hipGetDevice(&device));
    const std::lock_guard<std::mutex> lock(mutex);
    const auto found = known.find(device);
    if (found != known.end())
        return found->second;
    return known.emplace(device, make()).first->second;
}

/// The current device's multiprocessors (NVIDIA's SMs, AMD's compute units).
inline int multiprocessor_count() {
    int device = 0;
    HIP_CHECK(hipGetDevice(&device));
    hipDeviceProp_t properties;
    HIP_CHECK(hipGetDeviceProperties(&properties, device));
    return properties.multiProcessorCount;
}

}  // namespace tutorial
