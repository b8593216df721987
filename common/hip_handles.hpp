/// \file
/// \brief RAII owners of HIP streams and events.
#pragma once

#include <hip/hip_runtime.h>

#include <utility>

#include "common/hip_check.hpp"

namespace tutorial {

/// The ownership that Stream and Event share: one HIP handle, released with `kDestroy` when its
/// owner goes; movable, not copyable. The derived class creates the handle.
template <class Handle, hipError_t (*kDestroy)(Handle)>
class UniqueHandle {
  public:
    UniqueHandle() = default;
    ~UniqueHandle() {
        if (handle_ != nullptr)
            (void)kDestroy(handle_);
    }
    UniqueHandle(const UniqueHandle&) = delete;
    UniqueHandle& operator=(const UniqueHandle&) = delete;
    UniqueHandle(UniqueHandle&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
    UniqueHandle& operator=(UniqueHandle&&) = delete;

    /// The handle, for HIP calls.
    Handle get() const { return handle_; }

  protected:
    Handle handle_ = nullptr;  ///< null once moved from, or when creating it failed
};

/// A stream on the current device, destroyed with its owner.
class Stream : public UniqueHandle<hipStream_t, hipStreamDestroy> {
  public:
    Stream() { HIP_CHECK(hipStreamCreateWithFlags(&handle_, hipStreamNonBlocking)); }

    void synchronize() const { HIP_CHECK(hipStreamSynchronize(handle_)); }
};

/// An event on the current device, destroyed with its owner.
class Event : public UniqueHandle<hipEvent_t, hipEventDestroy> {
  public:
    explicit Event(unsigned int flags = hipEventDefault) {
        HIP_CHECK(hipEventCreateWithFlags(&handle_, flags));
    }

    void record(hipStream_t stream) const { HIP_CHECK(hipEventRecord(handle_, stream)); }
    void synchronize() const { HIP_CHECK(hipEventSynchronize(handle_)); }

    /// Milliseconds from `start` to this event; both must have completed.
    float milliseconds_since(const Event& start) const {
        float ms = 0.0f;
        HIP_CHECK(hipEventElapsedTime(&ms, start.get(), handle_));
        return ms;
    }
};

}  // namespace tutorial
