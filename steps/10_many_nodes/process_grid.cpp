#include "process_grid.hpp"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace step10 {

ProcessGrid::ProcessGrid(MPI_Comm world, GridShape shape) : world_(world), shape_(shape) {
    int size = 0;
    MPI_Comm_size(world, &size);
    MPI_Comm_rank(world, &rank_);
    if (shape.rows < 1 || shape.cols < 1 || shape.size() != size) {
        throw std::invalid_argument("a " + to_string(shape) + " grid does not fit " +
                                    std::to_string(size) + " processes");
    }
    row_ = rank_ / shape.cols;
    col_ = rank_ % shape.cols;
    // [communicators]
    // Same colour, same communicator; the key orders the ranks in it.
    MPI_Comm_split(world, /*color=*/row_, /*key=*/col_, &row_communicator_);
    MPI_Comm_split(world, /*color=*/col_, /*key=*/row_, &col_communicator_);
    // [communicators]
    MPI_Comm node = MPI_COMM_NULL;
    MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, /*key=*/rank_, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &node_rank_);
    MPI_Comm_size(node, &node_size_);
    MPI_Comm_free(&node);
}

ProcessGrid::~ProcessGrid() {
    MPI_Comm_free(&row_communicator_);
    MPI_Comm_free(&col_communicator_);
}

void abort_all_ranks(const std::string& program, const std::string& message, int code) {
    int rank = 0, processes = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &processes);
    const std::string line = program + ": rank " + std::to_string(rank) + " of " +
                             std::to_string(processes) + ": " + message + "\n";
    std::fwrite(line.data(), 1, line.size(), stderr);
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, code);
    std::exit(code);
}

}  // namespace step10
