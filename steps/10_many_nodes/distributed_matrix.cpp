#include "distributed_matrix.hpp"

#include <mpi.h>

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace step10 {

DistributedLayout DistributedLayout::on(const ProcessGrid& grid, int rows, int cols, int block) {
    DistributedLayout layout{rows, cols, block, grid.shape(), grid.row(), grid.col()};
    layout.row_layout().check();
    layout.col_layout().check();
    return layout;
}

std::vector<float> local_part(const DistributedLayout& layout,
                              const std::function<float(int, int)>& value) {
    const BlockCyclic rows = layout.row_layout();
    const BlockCyclic cols = layout.col_layout();
    const int local_rows = layout.local_rows();
    const int local_cols = layout.local_cols();
    std::vector<float> local(layout.local_size());
    for (int c = 0; c < local_cols; ++c) {
        const int j = cols.to_global(c, layout.col);
        for (int r = 0; r < local_rows; ++r)
            local[r + static_cast<std::size_t>(c) * local_rows] =
                value(rows.to_global(r, layout.row), j);
    }
    return local;
}

tutorial::Matrix<float> gather_on_root(const DistributedLayout& layout,
                                       const std::vector<float>& local, const ProcessGrid& grid) {
    if (local.size() != layout.local_size())
        throw std::invalid_argument("gather_on_root: the local array does not fit the layout");
    const GridShape shape = grid.shape();
    const BlockCyclic rows = layout.row_layout();
    const BlockCyclic cols = layout.col_layout();
    // Rank r's part: the rows of its process row times the columns of its process column.
    std::vector<int> counts(shape.size()), offsets(shape.size());
    long long total = 0;
    for (int rank = 0; rank < shape.size(); ++rank) {
        const long long count = static_cast<long long>(rows.local_count(rank / shape.cols)) *
                                cols.local_count(rank % shape.cols);
        if (total + count > std::numeric_limits<int>::max())
            throw std::invalid_argument("gather_on_root: the matrix has more than 2^31 elements");
        counts[rank] = static_cast<int>(count);
        offsets[rank] = static_cast<int>(total);
        total += count;
    }
    const bool root = grid.rank() == 0;
    std::vector<float> all(root ? static_cast<std::size_t>(total) : 0);
    MPI_Gatherv(local.data(), static_cast<int>(local.size()), MPI_FLOAT, all.data(), counts.data(),
                offsets.data(), MPI_FLOAT, /*root=*/0, grid.world());
    if (!root)
        return {};
    tutorial::Matrix<float> matrix(layout.rows, layout.cols);
    for (int rank = 0; rank < shape.size(); ++rank) {
        const int process_row = rank / shape.cols, process_col = rank % shape.cols;
        const int local_rows = rows.local_count(process_row);
        const int local_cols = cols.local_count(process_col);
        const float* part = all.data() + offsets[rank];
        // Column-major part into row-major matrix, a tile of kTile x kTile at a time, so that the
        // strided side (C's rows lie n floats apart) stays within a few pages: a plain loop over
        // the part's columns wrote one element per row of C, a page apart at n = 32768.
        std::vector<int> to_col(static_cast<std::size_t>(local_cols));
        for (int c = 0; c < local_cols; ++c)
            to_col[c] = cols.to_global(c, process_col);
        constexpr int kTile = 32;
        for (int r0 = 0; r0 < local_rows; r0 += kTile) {
            const int r1 = std::min(r0 + kTile, local_rows);
            for (int c0 = 0; c0 < local_cols; c0 += kTile) {
                const int c1 = std::min(c0 + kTile, local_cols);
                for (int r = r0; r < r1; ++r) {
                    float* row =
                        matrix.data() +
                        static_cast<std::size_t>(rows.to_global(r, process_row)) * layout.cols;
                    for (int c = c0; c < c1; ++c)
                        row[to_col[c]] = part[r + static_cast<std::size_t>(c) * local_rows];
                }
            }
        }
    }
    return matrix;
}

}  // namespace step10
