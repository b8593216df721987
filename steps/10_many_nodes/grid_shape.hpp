/// \file
/// \brief The shape of the process grid, pr x pc: the squarest one for P processes, or one read
/// from the command line (`--grid 2x3`) and checked against P.
#pragma once

#include <string>

namespace step10 {

/// pr x pc processes: process rows share the rows of A and C, process columns the columns of B
/// and C.
struct GridShape {
    int rows = 1;
    int cols = 1;

    int size() const { return rows * cols; }
};

/// The squarest grid of exactly `processes` processes: pr x pc with pr <= pc and pc - pr as small
/// as possible (12 -> 3x4, 7 -> 1x7). A square grid broadcasts the least: each rank receives
/// panels of m/pr rows and n/pc columns. Throws std::invalid_argument for processes < 1.
GridShape squarest_grid(int processes);

/// Reads "PRxPC" (e.g. "2x3"), or "auto" for squarest_grid(processes), and checks that it has
/// exactly `processes` processes. Throws std::invalid_argument with a message that says what was
/// expected.
GridShape parse_grid(const std::string& text, int processes);

/// "2x3".
std::string to_string(const GridShape& shape);

}  // namespace step10
