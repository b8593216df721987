/// \file
/// \brief RAII buffers: device memory and page-locked host memory, freed when they go out of scope,
/// also when an exception unwinds the stack.
#pragma once

#include <hip/hip_runtime.h>

#include <cstddef>
#include <utility>

#include "common/device.hpp"
#include "common/hip_check.hpp"
#include "common/matrix.hpp"

namespace tutorial {

/// `count` elements of T in the memory of the device that was current when it was made.
template <typename T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(std::size_t count)
        : data_(static_cast<T*>(allocate_device_bytes(count * sizeof(T)))), count_(count) {}
    ~DeviceBuffer() { release(); }

    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
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

    /// Copies a whole host matrix in; the buffer must have exactly its size.
    void upload(const Matrix<T>& host) {
        check_size(host.size());
        HIP_CHECK(hipMemcpy(data_, host.data(), bytes(), hipMemcpyHostToDevice));
    }
    /// Copies the buffer out into a host matrix of exactly its size.
    void download(Matrix<T>& host) const {
        check_size(host.size());
        HIP_CHECK(hipMemcpy(host.data(), data_, bytes(), hipMemcpyDeviceToHost));
    }

private:
    void check_size(std::size_t count) const {
        if (count != count_) throw std::invalid_argument("DeviceBuffer: host and device sizes differ");
    }
    void release() noexcept {
        // A destructor must not throw; hipFree only fails when the context is already gone.
        if (data_ != nullptr) (void)hipFree(data_);
        data_ = nullptr;
    }

    T* data_ = nullptr;
    std::size_t count_ = 0;
};

/// `count` elements of T in page-locked host memory, which the GPU can copy asynchronously.
template <typename T>
class PinnedBuffer {
public:
    PinnedBuffer() = default;
    explicit PinnedBuffer(std::size_t count)
        : data_(static_cast<T*>(allocate_pinned_bytes(count * sizeof(T)))), count_(count) {}
    ~PinnedBuffer() { release(); }

    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;
    PinnedBuffer(PinnedBuffer&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
    PinnedBuffer& operator=(PinnedBuffer&& other) noexcept {
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
    T& operator[](std::size_t i) { return data_[i]; }
    const T& operator[](std::size_t i) const { return data_[i]; }

private:
    void release() noexcept {
        if (data_ != nullptr) (void)hipHostFree(data_);
        data_ = nullptr;
    }

    T* data_ = nullptr;
    std::size_t count_ = 0;
};

}  // namespace tutorial
