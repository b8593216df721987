/// \file
/// \brief RAII buffers: device memory and page-locked host memory, freed when they go out of scope,
/// also when an exception unwinds the stack.
#pragma once

#include <hip/hip_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <utility>

#include "common/device.hpp"
#include "common/hip_check.hpp"
#include "common/matrix.hpp"

namespace tutorial {

/// Owns `count` elements of T obtained from `Allocate` and returns them with `Release`; movable,
/// not copyable. DeviceBuffer and PinnedBuffer are this with HIP's two allocators.
template <typename T, void* (*Allocate)(std::size_t), hipError_t (*Release)(void*)>
class OwnedBuffer {
  public:
    OwnedBuffer() = default;
    explicit OwnedBuffer(std::size_t count)
        : data_(static_cast<T*>(Allocate(count * sizeof(T)))), count_(count) {}
    ~OwnedBuffer() { release(); }

    OwnedBuffer(const OwnedBuffer&) = delete;
    OwnedBuffer& operator=(const OwnedBuffer&) = delete;
    OwnedBuffer(OwnedBuffer&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
    OwnedBuffer& operator=(OwnedBuffer&& other) noexcept {
        if (this != &other) {
            release();
            data_ = std::exchange(other.data_, nullptr);
            count_ = std::exchange(other.count_, 0);
        }
        return *this;
    }

    T* get() const { return data_; }
    std::size_t size() const { return count_; }
    std::size_t bytes() const { return count_ * sizeof(T); }

  private:
    void release() noexcept {
        // A destructor must not throw; freeing only fails when the runtime is already shut down.
        if (data_ != nullptr)
            (void)Release(data_);
        data_ = nullptr;
    }

    T* data_ = nullptr;
    std::size_t count_ = 0;
};

/// `count` elements of T in the memory of the device that was current when it was made.
template <typename T>
class DeviceBuffer : public OwnedBuffer<T, allocate_device_bytes, hipFree> {
  public:
    using OwnedBuffer<T, allocate_device_bytes, hipFree>::OwnedBuffer;

    /// Copies a whole host matrix in; the buffer must have exactly its size.
    void upload(const Matrix<T>& host) {
        check_size(host.size());
        HIP_CHECK(hipMemcpy(this->get(), host.data(), this->bytes(), hipMemcpyHostToDevice));
    }
    /// Copies the buffer out into a host matrix of exactly its size.
    void download(Matrix<T>& host) const {
        check_size(host.size());
        HIP_CHECK(hipMemcpy(host.data(), this->get(), this->bytes(), hipMemcpyDeviceToHost));
    }

  private:
    void check_size(std::size_t count) const {
        if (count != this->size())
            throw std::invalid_argument("DeviceBuffer: host and device sizes differ");
    }
};

/// `count` elements of T in page-locked host memory, which the GPU can copy asynchronously.
template <typename T>
class PinnedBuffer : public OwnedBuffer<T, allocate_pinned_bytes, hipHostFree> {
  public:
    using OwnedBuffer<T, allocate_pinned_bytes, hipHostFree>::OwnedBuffer;

    T& operator[](std::size_t i) { return this->get()[i]; }
    const T& operator[](std::size_t i) const { return this->get()[i]; }
};

}  // namespace tutorial
