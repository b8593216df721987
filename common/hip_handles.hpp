/// \file
/// \brief RAII owners of HIP streams and events.
#pragma once

#include <hip/hip_runtime.h>

#include <utility>

#include "common/hip_check.hpp"

namespace tutorial {

/// A stream on the current device, destroyed with its owner.
class Stream {
  public:
    Stream() { HIP_CHECK(hipStreamCreateWithFlags(&stream_, hipStreamNonBlocking)); }
    ~Stream() {
        if (stream_ != nullptr)
            (void)hipStreamDestroy(stream_);
    }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    Stream(Stream&& other) noexcept : stream_(std::exchange(other.stream_, nullptr)) {}
    Stream& operator=(Stream&&) = delete;

    hipStream_t get() const { return stream_; }
    void synchronize() const { HIP_CHECK(hipStreamSynchronize(stream_)); }

  private:
    hipStream_t stream_ = nullptr;
};

/// An event on the current device, destroyed with its owner.
class Event {
  public:
    explicit Event(unsigned int flags = hipEventDefault) {
        HIP_CHECK(hipEventCreateWithFlags(&event_, flags));
    }
    ~Event() {
        if (event_ != nullptr)
            (void)hipEventDestroy(event_);
    }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    Event(Event&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
    Event& operator=(Event&&) = delete;

    hipEvent_t get() const { return event_; }
    void record(hipStream_t stream) const { HIP_CHECK(hipEventRecord(event_, stream)); }
    void synchronize() const { HIP_CHECK(hipEventSynchronize(event_)); }

    /// Milliseconds from `start` to this event; both must have completed.
    float milliseconds_since(const Event& start) const {
        float ms = 0.0f;
        HIP_CHECK(hipEventElapsedTime(&ms, start.event_, event_));
        return ms;
    }

  private:
    hipEvent_t event_ = nullptr;
};

}  // namespace tutorial
