#include "distributed_matrix.hpp"

#include <mpi.h>

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
        for (int c = 0; c < local_cols; ++c) {
            const int j = cols.to_global(c, process_col);
            for (int r = 0; r < local_rows; ++r)
                matrix(rows.to_global(r, process_row), j) =
                    part[r + static_cast<std::size_t>(c) * local_rows];
        }
    }
    return matrix;
}

}  // namespace step10
