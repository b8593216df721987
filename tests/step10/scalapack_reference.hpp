/// \file
/// \brief ScaLAPACK's PSGEMM on the ranks of a step 10 process grid, as the tests' second
/// reference: the same local arrays, the same block-cyclic layout, another implementation.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "distributed_matrix.hpp"
#include "process_grid.hpp"

namespace step10_test {

/// Why PSGEMM cannot be run here (the build found no ScaLAPACK), or nothing.
std::optional<std::string> scalapack_unavailable_reason();

/// This rank's part of C = A·B from PSGEMM, column-major as DistributedLayout describes it, from
/// this rank's parts of A and B (host memory). Sets up a BLACS grid of the same shape in the same
/// rank order as `grid`, and fails the current test if BLACS places this rank elsewhere or a
/// descriptor is refused. Collective over the grid.
std::vector<float> psgemm_local(const step10::ProcessGrid& grid,
                                const step10::DistributedLayout& a_layout,
                                const std::vector<float>& a_local,
                                const step10::DistributedLayout& b_layout,
                                const std::vector<float>& b_local,
                                const step10::DistributedLayout& c_layout);

}  // namespace step10_test
