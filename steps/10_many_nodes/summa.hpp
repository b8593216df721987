/// \file
/// \brief Step 10's entry point: C = A·B over the ranks of a process grid by SUMMA, each rank
/// multiplying its part with step 08's GEMM on its own GPU.
#pragma once

#include <hip/hip_runtime.h>

#include "panel_broadcast.hpp"
#include "process_grid.hpp"

namespace step10 {

/// Computes C = A·B, A m x k, B k x n and C m x n, each dealt out over `grid` in `block` x `block`
/// blocks (DistributedLayout: block-cyclic from process (0, 0), local arrays column-major as in
/// ScaLAPACK). `a`, `b` and `c` are this rank's local arrays in device memory. C is overwritten.
///
/// SUMMA: for each block of K, the process column that holds it broadcasts that panel of A along
/// every process row, the process row that holds it broadcasts that panel of B along every process
/// column, and each rank adds the product of the two panels to its part of C. The next panels'
/// broadcasts are started before the current product, so they travel while the GPU multiplies.
///
/// Collective over the grid: every rank calls it with the same sizes. Waits first for all work
/// already queued on the current device (which may be producing A and B, on `stream` or any
/// other) and returns when this rank's C is complete. Throws std::invalid_argument for a size below
/// 1 or a block below 1 (on every rank alike) and tutorial::RuntimeFailure for a failing HIP call,
/// after which the other ranks may wait forever: a program ends them all with MPI_Abort.
void gemm(const float* a, const float* b, float* c, int m, int n, int k, int block,
          const ProcessGrid& grid, PanelTransport& transport, hipStream_t stream);

/// The same with the host-staged MPI transport (host_staged_transport()).
void gemm(const float* a, const float* b, float* c, int m, int n, int k, int block,
          const ProcessGrid& grid, hipStream_t stream);

}  // namespace step10
