/// \file
/// \brief One device entry's buffers in a step09::Workspace: the chunks of A, panels of B and
/// tiles of C that a worker computes with, kept from one call to the next while the plan needs the
/// very same ones.
#pragma once

#include <hip/hip_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/device_buffer.hpp"
#include "multi_gpu_gemm.hpp"

namespace step09 {

/// The buffers of entry `index` and what they were allocated for. An entry may hold fewer than
/// its plan's counts (a worker that took no chunk allocates only what its first step needs); the
/// worker adds the rest.
struct Workspace::Entry {
    explicit Entry(std::size_t index) : index_(index) {}

    std::vector<tutorial::DeviceBuffer<float>> a;  ///< chunks of A: rows x padded(k)
    std::vector<tutorial::DeviceBuffer<float>> b;  ///< panels of B: padded(k) x padded(cols)
    std::vector<tutorial::DeviceBuffer<float>> c;  ///< tiles of C: rows x padded(cols)

    /// Makes ready what a worker's first copies and first kernel need for `plan` on `device` (the
    /// current one): one buffer of A, every buffer of B and one tile of C. The buffers it holds
    /// are kept where the plan needs the very same ones and freed otherwise. The padding columns
    /// of a new buffer of A are zeroed on `stream`.
    void allocate_first(const Plan& plan, int device, hipStream_t stream);
    /// Allocates the plan's other buffers, those the worker needs once its first copies are
    /// queued.
    void allocate_rest(const Plan& plan, hipStream_t stream);

    /// Device memory held now.
    std::uint64_t bytes() const;
    /// Device memory allocated since allocate_first() began: 0 when every buffer was kept.
    std::uint64_t bytes_allocated() const { return bytes() - held_before_; }
    /// Frees every buffer, on the device it was allocated on (which it leaves current).
    void release();

  private:
    bool holds(const Plan& plan, int on_device) const;
    void clear();
    void add_buffer_of_a(const Plan& plan, hipStream_t stream);
    void add_buffer_of_c(const Plan& plan);

    std::size_t index_;
    // What the buffers were allocated for; device -1: nothing.
    int device_ = -1;
    int k_ = 0, chunk_rows_ = 0, panel_cols_ = 0;
    std::uint64_t held_before_ = 0;
};

}  // namespace step09
