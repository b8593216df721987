#include "panel_copy.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/command_line.hpp"
#include "common/hip_check.hpp"
#include "common/named_values.hpp"
#include "common/rounding.hpp"

namespace step09 {

namespace {

// [gather]
// Block b copies rows b, b + blocks, b + 2 blocks, ...; its threads share each row, kInFlight
// elements (float4 or float) each per pass, all loaded before any is stored: a read of host
// memory takes microseconds, and only many of them on their way at once fill the host link.
// Each warp reads whole 128-byte lines of host memory: where a row does not start on one (rows
// of 15001 floats), the threads start `shift` elements before it and those before the row's
// start or past its end read nothing. Half-used lines would double the read requests.
constexpr int kInFlight = 4;
constexpr int kLineBytes = 128;

template <typename T>
__global__ void __launch_bounds__(kGatherThreads)
    gather_kernel(const T* __restrict__ from, std::size_t from_pitch, T* __restrict__ to,
                  std::size_t to_pitch, int rows, int cols) {
    constexpr int kLine = kLineBytes / static_cast<int>(sizeof(T));  // elements per line
    static_assert(kGatherThreads % kLine == 0, "a warp's reads must stay on whole lines");
    for (int row = blockIdx.x; row < rows; row += gridDim.x) {
        const T* source = from + row * from_pitch;
        T* target = to + row * to_pitch;
        const int shift =
            static_cast<int>(reinterpret_cast<std::uintptr_t>(source) / sizeof(T) % kLine);
        for (int first = static_cast<int>(threadIdx.x) - shift; first < cols;
             first += kGatherThreads * kInFlight) {
            T value[kInFlight];
#pragma unroll
            for (int u = 0; u < kInFlight; ++u) {
                const int col = first + u * kGatherThreads;
                if (col >= 0 && col < cols)
                    value[u] = source[col];
            }
#pragma unroll
            for (int u = 0; u < kInFlight; ++u) {
                const int col = first + u * kGatherThreads;
                if (col >= 0 && col < cols)
                    target[col] = value[u];
            }
        }
    }
}
// [gather]

using tutorial::aligned_16;

// Every PanelCopy with its name on the command line, the default first.
struct PanelCopyName {
    PanelCopy value;
    const char* name;
};
constexpr PanelCopyName kPanelCopyNames[] = {{PanelCopy::first_by_kernel, "first-by-kernel"},
                                             {PanelCopy::copy_engine, "copy-engine"},
                                             {PanelCopy::kernel, "kernel"}};

}  // namespace

const char* panel_copy_name(PanelCopy copy) {
    return tutorial::name_of(kPanelCopyNames, copy);
}

std::string panel_copy_choices() {
    return tutorial::names_in_words(kPanelCopyNames);
}

PanelCopy parse_panel_copy(const std::string& text) {
    return tutorial::parse_name(kPanelCopyNames, text, "a way to copy panels");
}

const float* device_view_of_host(const float* host) {
    void* view = nullptr;
    if (hipHostGetDevicePointer(&view, const_cast<float*>(host), 0) != hipSuccess) {
        (void)hipGetLastError();  // not sticky, but leave no error behind
        return nullptr;
    }
    return static_cast<const float*>(view);
}

void gather_rows(const float* from, std::size_t from_pitch, float* to, std::size_t to_pitch,
                 int rows, int cols, int blocks, hipStream_t stream) {
    if (rows <= 0 || cols <= 0)
        return;
    const bool by_four = aligned_16(from) && aligned_16(to) && from_pitch % 4 == 0 &&
                         to_pitch % 4 == 0 && cols % 4 == 0;
    if (by_four) {
        hipLaunchKernelGGL(gather_kernel<float4>, dim3(blocks), dim3(kGatherThreads), 0, stream,
                           reinterpret_cast<const float4*>(from), from_pitch / 4,
                           reinterpret_cast<float4*>(to), to_pitch / 4, rows, cols / 4);
    } else {
        hipLaunchKernelGGL(gather_kernel<float>, dim3(blocks), dim3(kGatherThreads), 0, stream,
                           from, from_pitch, to, to_pitch, rows, cols);
    }
    HIP_CHECK_LAUNCH();
}

PanelCopier::PanelCopier(PanelCopy how, const float* b, int n, int device)
    : how_(how), b_(b), n_(n) {
    if (how_ != PanelCopy::copy_engine) {
        b_view_ = device_view_of_host(b_);
        HIP_CHECK(hipDeviceGetAttribute(&multiprocessors_, hipDeviceAttributeMultiprocessorCount,
                                        device));
    }
}

// [panel copier]
void PanelCopier::copy(int first_col, int cols, int first_row, int rows, float* to, int to_pitch,
                       hipStream_t stream) {
    const std::size_t first = static_cast<std::size_t>(first_row) * static_cast<std::size_t>(n_) +
                              static_cast<std::size_t>(first_col);
    ++copies_;  // this one included
    const bool first_ones = how_ == PanelCopy::first_by_kernel && copies_ <= kPanelsByKernel;
    if (b_view_ != nullptr && (how_ == PanelCopy::kernel || first_ones)) {
        // The first panel has the device to itself; later ones share it with the multiply.
        const int blocks =
            copies_ == 1 ? kFirstPanelBlocksPerMultiprocessor * multiprocessors_ : multiprocessors_;
        gather_rows(b_view_ + first, static_cast<std::size_t>(n_), to,
                    static_cast<std::size_t>(to_pitch), rows, cols, blocks, stream);
        ++by_kernel_;
    } else {
        HIP_CHECK(hipMemcpy2DAsync(to, to_pitch * sizeof(float), b_ + first, n_ * sizeof(float),
                                   cols * sizeof(float), rows, hipMemcpyHostToDevice, stream));
    }
}
// [panel copier]

}  // namespace step09
