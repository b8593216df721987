/// \file
/// \brief The frame of every step program: parse, run, map failures onto exit codes.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>

#include "common/command_line.hpp"
#include "common/matrix.hpp"

namespace tutorial {

/// Parses the command line, runs `body`, and turns what can go wrong into an exit code with a
/// message on stderr: --help prints the help and returns 0, a UsageError returns 2, a
/// RuntimeFailure or an exhausted host allocation returns 3. `body` returns 0 when the result was
/// verified and 1 when it was not.
int run_step(int argc, char** argv, const StepDescription& step,
             const std::function<int(const Options&)>& body);

/// Prints a small matrix, one row per line, values right-aligned.
template <typename T>
void print_matrix(std::ostream& out, const Matrix<T>& matrix);

}  // namespace tutorial

#include <iomanip>
#include <ostream>

template <typename T>
void tutorial::print_matrix(std::ostream& out, const Matrix<T>& matrix) {
    for (int row = 0; row < matrix.rows(); ++row) {
        for (int col = 0; col < matrix.cols(); ++col)
            out << std::setw(col ? 5 : 4) << matrix(row, col);
        out << '\n';
    }
}

namespace tutorial {

/// Prints a worked example's product (unless --quiet) and checks it exactly against the reference.
/// Returns kExitVerified or kExitVerificationFailed.
int report_worked_example(const Options& options, const std::string& title, const Matrix<int>& a,
                          const Matrix<int>& b, const Matrix<int>& c);

}  // namespace tutorial
