/// \file
/// \brief What a step asks of a device again and again (its multiprocessors, how many blocks of
/// each kernel fit on one, the configuration for a shape), asked once per device and remembered.
#pragma once

#include <hip/hip_runtime.h>

#include <cstddef>
#include <map>
#include <mutex>
#include <utility>

#include "common/hip_check.hpp"

namespace tutorial {

/// `make()` for the current device and `key`: computed on the first call for that pair, the
/// remembered value on later calls. At most `limit` pairs are kept; past that the memory starts
/// afresh, so a program that asks for endless keys does not grow without bound. Safe to call from
/// several threads; each call site (each type of `make`) has its own memory.
template <class Key, class Make>
auto once_per_device_and_key(const Key& key, const Make& make, std::size_t limit = 4096)
    -> decltype(make()) {
    using Value = decltype(make());
    static std::mutex mutex;
    static std::map<std::pair<int, Key>, Value> known;
    int device = 0;
    HIP_CHECK(hipGetDevice(&device));
    const std::lock_guard<std::mutex> lock(mutex);
    const auto found = known.find({device, key});
    if (found != known.end())
        return found->second;
    if (known.size() >= limit)
        known.clear();
    return known.emplace(std::make_pair(device, key), make()).first->second;
}

/// `make()` for the current device: computed on the first call for that device, the remembered
/// value on later calls. Safe to call from several threads.
template <class Make>
auto once_per_device(const Make& make) -> decltype(make()) {
    return once_per_device_and_key(0, make);
}

/// The current device's properties (its multiprocessors, its L2 cache's bytes: on the CPU route,
/// the CPU's).
inline hipDeviceProp_t current_device_properties() {
    int device = 0;
    HIP_CHECK(hipGetDevice(&device));
    hipDeviceProp_t properties;
    HIP_CHECK(hipGetDeviceProperties(&properties, device));
    return properties;
}

/// The current device's multiprocessors (NVIDIA's SMs, AMD's compute units).
inline int multiprocessor_count() {
    return current_device_properties().multiProcessorCount;
}

}  // namespace tutorial
