/// \file
/// \brief The MPI processes arranged as a pr x pc grid, with a communicator for each process row
/// and each process column, and each rank's place on its node (which GPU it takes).
#pragma once

#include <mpi.h>

#include <string>

#include "grid_shape.hpp"

namespace step10 {

/// The ranks of `world` laid out row by row on a `shape` grid: rank r sits at process row
/// r / pc and process column r % pc, the order BLACS uses for `Cblacs_gridinit(..., "Row", ...)`,
/// so ScaLAPACK on the same ranks sees the same grid. Owns the row and column communicators.
class ProcessGrid {
  public:
    /// Splits `world`; collective over it. Throws std::invalid_argument when `shape` does not have
    /// exactly as many processes as `world`.
    ProcessGrid(MPI_Comm world, GridShape shape);
    ~ProcessGrid();
    ProcessGrid(const ProcessGrid&) = delete;
    ProcessGrid& operator=(const ProcessGrid&) = delete;

    GridShape shape() const { return shape_; }
    int rank() const { return rank_; }
    int row() const { return row_; }  ///< this rank's process row
    int col() const { return col_; }  ///< this rank's process column
    MPI_Comm world() const { return world_; }
    /// The pc ranks of this process row; a rank's rank in it is its process column.
    MPI_Comm row_communicator() const { return row_communicator_; }
    /// The pr ranks of this process column; a rank's rank in it is its process row.
    MPI_Comm col_communicator() const { return col_communicator_; }
    /// This rank's place among the ranks on its node (MPI_COMM_TYPE_SHARED): rank i on a node
    /// takes that node's GPU i.
    int node_rank() const { return node_rank_; }
    /// How many ranks run on this node.
    int node_size() const { return node_size_; }

  private:
    MPI_Comm world_;
    GridShape shape_;
    int rank_ = 0;
    int row_ = 0;
    int col_ = 0;
    int node_rank_ = 0;
    int node_size_ = 1;
    MPI_Comm row_communicator_ = MPI_COMM_NULL;
    MPI_Comm col_communicator_ = MPI_COMM_NULL;
};

/// Ends every rank of MPI_COMM_WORLD with exit code `code`: one rank's failure would otherwise
/// leave the others waiting in MPI for ever. This rank first prints
/// `<program>: rank R of P: <message>` on stderr, in one write, so that two ranks failing at once
/// cannot interleave their lines (mpirun forwards each rank's stream on its own).
[[noreturn]] void abort_all_ranks(const std::string& program, const std::string& message, int code);

}  // namespace step10
