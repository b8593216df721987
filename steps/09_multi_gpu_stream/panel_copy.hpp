/// \file
/// \brief Bringing a panel of B to a device by a kernel that reads page-locked host memory
/// directly, instead of the copy engine, which moves a panel's short rows slowly once kernels have
/// run: the first panels by a kernel.
#pragma once

#include <hip/hip_runtime.h>

#include <cstddef>
#include <string>

namespace step09 {

/// How panels of B reach a device.
enum class PanelCopy {
    /// Each worker's first kPanelsByKernel panels by gather_rows(), the rest by the copy engine
    /// (hipMemcpy2DAsync). The default: while they cross, the multiply leaves multiprocessors
    /// idle.
    first_by_kernel,
    /// Every panel by the copy engine, which leaves every multiprocessor to the multiply.
    copy_engine,
    /// Every panel by gather_rows(): faster on the link, but its blocks take multiprocessors
    /// from the multiply.
    kernel,
};

/// "first-by-kernel", "copy-engine" or "kernel", as the command line spells it.
const char* panel_copy_name(PanelCopy copy);
/// The choices in words for --help and messages.
std::string panel_copy_choices();
/// The PanelCopy called `text`; throws std::invalid_argument naming the choices otherwise.
PanelCopy parse_panel_copy(const std::string& text);

/// The address at which the current device reads host memory `host`, or nullptr where it cannot
/// (memory that is not page-locked, or page-locked without being mapped for devices). Leaves no
/// HIP error behind.
const float* device_view_of_host(const float* host);

/// Queues on `stream` a copy of a rows x cols block of floats from `from` (row pitch `from_pitch`
/// elements, host memory as device_view_of_host() gave it) to `to` (device memory, row pitch
/// `to_pitch`), done by a kernel of `blocks` blocks of kGatherThreads threads. Small blocks with
/// few registers (at most 32 each on NVIDIA's sm_90), which fit beside a 128 x 256 block of step
/// 06 on a multiprocessor. Reads four floats at a time where both sides allow it.
void gather_rows(const float* from, std::size_t from_pitch, float* to, std::size_t to_pitch,
                 int rows, int cols, int blocks, hipStream_t stream);

/// Threads per block of gather_rows(): two warps.
constexpr int kGatherThreads = 64;

/// Blocks of gather_rows() per multiprocessor for a worker's first panel, when nothing else runs
/// yet: enough reads on their way to fill the link. Later panels get one block per
/// multiprocessor, which fits beside the multiply's blocks.
constexpr int kFirstPanelBlocksPerMultiprocessor = 8;

/// How many of a worker's first panels of B come by gather_rows() with PanelCopy::first_by_kernel:
/// the one copied before any kernel runs and the one copied while the first chunk computes alone;
/// from the third on, two chunks' kernels fill the device and need its multiprocessors.
constexpr std::size_t kPanelsByKernel = 2;

/// How one worker brings its panels of B, following a PanelCopy: by gather_rows() where the
/// choice asks for it and the device can read B's host memory, by the copy engine otherwise.
class PanelCopier {
  public:
    /// For B (row-major, n columns) in host memory at `b`, on `device`, which must be current.
    PanelCopier(PanelCopy how, const float* b, int n, int device);

    /// Queues on `stream` the copy of columns [first_col, first_col + cols) of `rows` rows of B,
    /// from row `first_row` on, into device memory at `to`, its rows `to_pitch` elements apart.
    void copy(int first_col, int cols, int first_row, int rows, float* to, int to_pitch,
              hipStream_t stream);

    /// How many of the panels it copied came by gather_rows().
    int by_kernel() const { return by_kernel_; }

  private:
    PanelCopy how_;
    const float* b_;
    int n_;
    // B as this device's kernels read it (nullptr: the copy engine brings every panel), and the
    // device's multiprocessors, which size gather_rows().
    const float* b_view_ = nullptr;
    int multiprocessors_ = 1;
    std::size_t copies_ = 0;  // panels copied so far
    int by_kernel_ = 0;
};

}  // namespace step09
