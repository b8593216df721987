#include "workspace.hpp"

#include <hip/hip_runtime.h>

#include <string>

#include "common/byte_size.hpp"
#include "common/errors.hpp"

namespace step07 {
namespace {

// hipMalloc, or tutorial::RuntimeFailure saying what could not be allocated (the pointer stays
// null).
void allocate(void** pointer, std::size_t bytes) {
    const hipError_t status = hipMalloc(pointer, bytes);
    if (status != hipSuccess) {
        (void)hipGetLastError();  // reported here instead
        *pointer = nullptr;
        throw tutorial::RuntimeFailure(
            "cannot allocate the workspace of " + tutorial::format_bytes_exactly(bytes) + " [" +
            hipGetErrorName(status) +
            "] for split-K, stream-K or packing; choose fewer splits, no stream-K, no packing, or "
            "free device memory");
    }
}

}  // namespace

Workspaces::~Workspaces() {
    // At exit the runtime may already be gone: errors are of no use here.
    for (auto& [device, entry] : by_device_) {
        (void)hipSetDevice(device);
        (void)hipFree(entry.data);
        (void)hipFree(entry.arrivals);
        (void)hipEventDestroy(entry.ready);
    }
}

Workspaces::Entry& Workspaces::prepare(std::size_t floats, hipStream_t stream) {
    int device = 0;
    HIP_CHECK(hipGetDevice(&device));
    Entry& entry = by_device_[device];
    if (entry.ready == nullptr)
        HIP_CHECK(hipEventCreateWithFlags(&entry.ready, hipEventDisableTiming));
    if (entry.arrivals == nullptr) {
        constexpr std::size_t kBytes = sizeof(int) * kArrivalCounts;
        allocate(reinterpret_cast<void**>(&entry.arrivals), kBytes);
        // Zero once: every stream-K multiply leaves the counts it used at zero.
        HIP_CHECK(hipMemset(entry.arrivals, 0, kBytes));
    }
    if (entry.floats < floats) {
        // The old buffer may still be in use: wait for its last user, then replace it.
        if (entry.recorded)
            HIP_CHECK(hipEventSynchronize(entry.ready));
        HIP_CHECK(hipFree(entry.data));
        entry.data = nullptr;
        entry.floats = 0;
        allocate(reinterpret_cast<void**>(&entry.data), floats * sizeof(float));
        entry.floats = floats;
    }
    if (entry.recorded)
        HIP_CHECK(hipStreamWaitEvent(stream, entry.ready, 0));
    return entry;
}

Workspaces& workspaces() {
    static Workspaces all;
    return all;
}

}  // namespace step07
