#include "chunk_workspace.hpp"

#include <memory>

#include "common/hip_check.hpp"
#include "planner.hpp"
#include "test_hooks.hpp"

namespace step09 {

Workspace::Workspace() = default;
Workspace::~Workspace() {
    release();
}

std::uint64_t Workspace::bytes() const {
    std::uint64_t total = 0;
    for (const std::unique_ptr<Entry>& entry : entries_)
        total += entry->bytes();
    return total;
}

// Each entry's buffers are freed with their own device current, then the caller's is restored.
void Workspace::release() {
    int current = 0;
    const bool known = hipGetDevice(&current) == hipSuccess;
    for (const std::unique_ptr<Entry>& entry : entries_)
        entry->release();
    if (known)
        (void)hipSetDevice(current);
}

Workspace::Entry& Workspace::entry(std::size_t index) {
    while (entries_.size() <= index)
        entries_.push_back(std::make_unique<Entry>(entries_.size()));
    return *entries_[index];
}

// [workspace]
// A later plan keeps the buffers only where it needs the very same ones. The padding columns of
// A's buffers were zeroed when they were allocated and no copy writes them, so they hold zeros
// for the same k.
bool Workspace::Entry::holds(const Plan& plan, int on_device) const {
    const BufferSet& wanted = plan.buffers;
    return device_ == on_device && k_ == plan.k && chunk_rows_ == plan.chunk_rows &&
           panel_cols_ == plan.panel_cols &&
           a.size() <= static_cast<std::size_t>(wanted.a_buffers) &&
           b.size() <= static_cast<std::size_t>(wanted.b_buffers) &&
           c.size() <= static_cast<std::size_t>(wanted.c_buffers);
}

void Workspace::Entry::allocate_first(const Plan& plan, int device, hipStream_t stream) {
    // The fault hook must reach a real allocation, so its entry never keeps buffers.
    if (!holds(plan, device) || test_hooks::allocation_fails_on(index_)) {
        clear();
        device_ = device;
        k_ = plan.k;
        chunk_rows_ = plan.chunk_rows;
        panel_cols_ = plan.panel_cols;
    }
    held_before_ = bytes();
    a.reserve(static_cast<std::size_t>(plan.buffers.a_buffers));
    if (a.empty())
        add_buffer_of_a(plan, stream);
    while (b.size() < static_cast<std::size_t>(plan.buffers.b_buffers))
        b.emplace_back(plan.buffers.b_bytes / plan.element_bytes);
    if (c.empty())
        add_buffer_of_c(plan);
}

void Workspace::Entry::allocate_rest(const Plan& plan, hipStream_t stream) {
    while (a.size() < static_cast<std::size_t>(plan.buffers.a_buffers))
        add_buffer_of_a(plan, stream);
    while (c.size() < static_cast<std::size_t>(plan.buffers.c_buffers))
        add_buffer_of_c(plan);
}
// [workspace]

// Where k is not a multiple of kRowAlign, the padding columns are zeroed once: copies never
// write them.
void Workspace::Entry::add_buffer_of_a(const Plan& plan, hipStream_t stream) {
    tutorial::DeviceBuffer<float>& buffer =
        a.emplace_back(plan.buffers.a_bytes / plan.element_bytes);
    if (padded(plan.k) != static_cast<std::uint64_t>(plan.k))
        HIP_CHECK(hipMemsetAsync(buffer.get(), 0, buffer.bytes(), stream));
}

// The fault hook asks for 2^60 bytes, which no device has.
void Workspace::Entry::add_buffer_of_c(const Plan& plan) {
    c.emplace_back(test_hooks::allocation_fails_on(index_)
                       ? std::size_t{1} << 60
                       : plan.buffers.c_bytes / plan.element_bytes);
}

std::uint64_t Workspace::Entry::bytes() const {
    std::uint64_t total = 0;
    for (const auto* buffers : {&a, &b, &c}) {
        for (const tutorial::DeviceBuffer<float>& buffer : *buffers)
            total += buffer.bytes();
    }
    return total;
}

void Workspace::Entry::release() {
    if (device_ >= 0)
        (void)hipSetDevice(device_);
    clear();
}

void Workspace::Entry::clear() {
    a.clear();
    b.clear();
    c.clear();
    device_ = -1;
}

}  // namespace step09
