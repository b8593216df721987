/// \file
/// \brief The second PanelTransport: panels broadcast GPU to GPU by NCCL on NVIDIA (RCCL, the same
/// API, on AMD), over NVLink or PCIe inside a node and over the network between nodes, with no
/// stop in host memory. Built where CMake found the library (option TUTORIAL_NCCL).
#pragma once

#include <hip/hip_runtime.h>

#include <memory>
#include <optional>
#include <string>

#include "panel_broadcast.hpp"
#include "process_grid.hpp"

namespace step10 {

/// Why panels cannot go GPU to GPU through NCCL on `grid`, or nothing when they can: the build
/// has no NCCL (or RCCL), or two ranks use the same GPU, which NCCL refuses. Collective over the
/// grid (the ranks compare their current devices), so every rank gets the same answer.
std::optional<std::string> nccl_unavailable_reason(const ProcessGrid& grid);

/// NCCL communicators for the process rows and columns of `grid`, on the current device, with
/// the broadcasts queued on `stream`. Collective over the grid; throws tutorial::RuntimeFailure
/// when nccl_unavailable_reason() gives a reason or NCCL fails.
std::unique_ptr<PanelTransport> nccl_transport(const ProcessGrid& grid, hipStream_t stream);

}  // namespace step10
