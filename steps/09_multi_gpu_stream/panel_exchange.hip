#include "panel_exchange.hpp"

#include <algorithm>
#include <chrono>
#include <utility>

#include "common/hip_check.hpp"

namespace step09 {

RowShare row_share(int k, int entry, int entries) {
    const auto boundary = [&](int e) {
        return static_cast<int>(static_cast<long long>(k) * e / entries);
    };
    return {boundary(entry), boundary(entry + 1) - boundary(entry)};
}

std::optional<std::string> panel_sharing_unavailable(const std::vector<int>& devices) {
    if (devices.size() < 2)
        return "one device entry";
    for (std::size_t i = 0; i < devices.size(); ++i) {
        if (std::count(devices.begin(), devices.end(), devices[i]) > 1)
            return "device " + std::to_string(devices[i]) + " is listed twice";
    }
    for (const int device : devices) {
        for (const int peer : devices) {
            if (peer == device)
                continue;
            int can = 0;
            HIP_CHECK(hipDeviceCanAccessPeer(&can, device, peer));
            if (can == 0) {
                return "device " + std::to_string(device) + " cannot read device " +
                       std::to_string(peer) + "'s memory";
            }
        }
    }
    return std::nullopt;
}

std::optional<std::string> enable_panel_sharing(const std::vector<int>& devices) {
    if (std::optional<std::string> why_not = panel_sharing_unavailable(devices))
        return why_not;
    int current = 0;
    HIP_CHECK(hipGetDevice(&current));
    for (const int device : devices) {
        HIP_CHECK(hipSetDevice(device));
        for (const int peer : devices) {
            if (peer == device)
                continue;
            const hipError_t status = hipDeviceEnablePeerAccess(peer, 0);
            (void)hipGetLastError();  // already enabled by an earlier call is what we want
            if (status != hipSuccess && status != hipErrorPeerAccessAlreadyEnabled) {
                HIP_CHECK(hipSetDevice(current));
                return "enabling peer access from device " + std::to_string(device) +
                       " to device " + std::to_string(peer) + " failed with " +
                       hipGetErrorName(status);
            }
        }
    }
    HIP_CHECK(hipSetDevice(current));
    return std::nullopt;
}

PanelExchange::PanelExchange(std::size_t entries, const std::atomic<bool>& stop)
    : by_entry_(entries), stop_(stop) {}

PanelExchange::Published& PanelExchange::record(std::size_t entry, std::size_t copy) {
    std::deque<Published>& records = by_entry_.at(entry);
    while (records.size() <= copy)
        records.emplace_back();
    return records[copy];
}

template <class Ready>
void PanelExchange::wait(std::unique_lock<std::mutex>& lock, Ready ready) {
    // A worker that fails sets the stop flag without notifying: look at it every millisecond.
    while (!ready()) {
        if (stop_.load())
            throw WorkerStopped{};
        published_.wait_for(lock, std::chrono::milliseconds(1));
    }
}

void PanelExchange::publish_share(std::size_t entry, std::size_t copy, const float* buffer,
                                  tutorial::Event arrived) {
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        Published& published = record(entry, copy);
        published.buffer = buffer;
        published.arrived.emplace(std::move(arrived));
    }
    published_.notify_all();
}

const float* PanelExchange::wait_for_share(std::size_t from, std::size_t copy, hipStream_t stream) {
    std::unique_lock<std::mutex> lock(mutex_);
    Published& published = record(from, copy);
    wait(lock, [&] { return published.arrived.has_value(); });
    HIP_CHECK(hipStreamWaitEvent(stream, published.arrived->get(), 0));
    return published.buffer;
}

void PanelExchange::publish_pulled(std::size_t entry, std::size_t copy, tutorial::Event pulled) {
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        record(entry, copy).pulled.emplace(std::move(pulled));
    }
    published_.notify_all();
}

void PanelExchange::wait_until_pulled(std::size_t by, std::size_t copy, hipStream_t stream) {
    std::unique_lock<std::mutex> lock(mutex_);
    Published& published = record(by, copy);
    wait(lock, [&] { return published.pulled.has_value(); });
    HIP_CHECK(hipStreamWaitEvent(stream, published.pulled->get(), 0));
}

}  // namespace step09
