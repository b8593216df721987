/// \file
/// \brief A matrix dealt out block-cyclically over the process grid: the shape of this rank's
/// part, its local array (column-major, as ScaLAPACK keeps it), and the gather of the whole
/// matrix on rank 0 for the checks.
#pragma once

#include <functional>
#include <vector>

#include "block_cyclic.hpp"
#include "common/matrix.hpp"
#include "process_grid.hpp"

namespace step10 {

/// A global `rows` x `cols` matrix in `block` x `block` blocks, dealt out over the grid `shape`
/// from process (0, 0), as ScaLAPACK's descriptor with MB = NB = `block` and RSRC = CSRC = 0
/// describes it; seen from the process at (`row`, `col`).
///
/// The local array is column-major with leading dimension local_rows(), exactly ScaLAPACK's, so
/// the same local arrays and the same descriptor go to PSGEMM unchanged (the tests do that).
struct DistributedLayout {
    int rows = 0;
    int cols = 0;
    int block = 1;
    GridShape shape;
    int row = 0;  ///< this rank's process row
    int col = 0;  ///< this rank's process column

    /// The layout of a `rows` x `cols` matrix seen from this rank of `grid`.
    static DistributedLayout on(const ProcessGrid& grid, int rows, int cols, int block);

    BlockCyclic row_layout() const { return {rows, block, shape.rows, 0}; }
    BlockCyclic col_layout() const { return {cols, block, shape.cols, 0}; }
    int local_rows() const { return row_layout().local_count(row); }
    int local_cols() const { return col_layout().local_count(col); }
    /// ScaLAPACK's LLD: at least 1, even for a rank that holds no row.
    int leading_dimension() const { return local_rows() > 0 ? local_rows() : 1; }
    std::size_t local_size() const {
        return static_cast<std::size_t>(local_rows()) * static_cast<std::size_t>(local_cols());
    }
};

/// This rank's part of the matrix whose element (i, j) is `value(i, j)`, column-major: local
/// element (r, c) at `[r + c * local_rows()]`. No communication: every rank makes its own part.
std::vector<float> local_part(const DistributedLayout& layout,
                              const std::function<float(int, int)>& value);

/// The whole matrix, row-major, on rank 0 of `grid` (an empty matrix on the others), from every
/// rank's `local` array. Collective over the grid.
tutorial::Matrix<float> gather_on_root(const DistributedLayout& layout,
                                       const std::vector<float>& local, const ProcessGrid& grid);

}  // namespace step10
