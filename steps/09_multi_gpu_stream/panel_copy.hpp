/// \file
/// \brief Bringing a panel of B to a device by a kernel that reads page-locked host memory
/// directly, instead of the copy engine: on the H100 of the page the copy engine moves a panel's
/// short rows at about 33 GB/s once kernels have run, where such a kernel keeps about 51.
#pragma once

#include <hip/hip_runtime.h>

#include <cstddef>
#include <string>

namespace step09 {

/// How panels of B reach a device.
enum class PanelCopy {
    /// Each worker's first kPanelsByKernel panels (schedule.hpp) by gather_rows(), the rest by
    /// the copy engine (hipMemcpy2DAsync). The default: while they cross, the multiply leaves
    /// multiprocessors idle, and the copy engine is at its slowest with a panel's short rows.
    first_by_kernel,
    /// Every panel by the copy engine, which leaves every multiprocessor to the multiply.
    copy_engine,
    /// Every panel by gather_rows(): faster on the link, but its blocks take multiprocessors
    /// from the multiply, which on the H100 of the page cost more than the link gained.
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

}  // namespace step09
