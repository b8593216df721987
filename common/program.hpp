/// \file
/// \brief The frame of every step program: parse, run, map failures onto exit codes, print the
/// worked example and end the general multiply.
#pragma once

#include <algorithm>
#include <functional>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>

#include "common/command_line.hpp"
#include "common/errors.hpp"
#include "common/matrix.hpp"
#include "common/report.hpp"
#include "common/verify.hpp"

namespace tutorial {

/// Runs `body` and turns the failures that every program of the tutorial reports alike into an exit
/// code, with "program: message" on stderr: a UsageError, or a std::invalid_argument (a library
/// entry point refusing values that came from the command line), returns kExitBadUsage; a
/// RuntimeFailure returns kExitRuntimeFailure. Otherwise returns what `body` returns.
int exit_code_of(const std::string& program, const std::function<int()>& body);

/// Parses the command line, runs `body`, and turns what can go wrong into an exit code with a
/// message on stderr: --help prints the help and returns 0, a UsageError returns 2, a
/// RuntimeFailure or an exhausted host allocation returns 3. `body` returns 0 when the result was
/// verified and 1 when it was not.
int run_step(int argc, char** argv, const StepDescription& step,
             const std::function<int(const Options&)>& body);

/// What a step program does, in this order, after the step's summary (unless --quiet): `prepare`,
/// which reads the step's own options and, in a GPU step, selects the device, so that bad usage
/// and a missing GPU stop the program before any work; the worked example; and, unless that failed
/// or --example-only was given, the general multiply. The last two return exit codes.
struct StepFlow {
    std::function<void(const Options&)> prepare;  ///< may be empty
    std::function<int(const Options&)> example;
    std::function<int(const Options&)> general;
};

/// run_step() with the flow that every step program follows (StepFlow).
int run_step_flow(int argc, char** argv, const StepDescription& step, const StepFlow& flow);

/// Prints a small matrix, one row per line, values right-aligned: 4 characters for the first column
/// and 5 for the others, more when a value is wider, so that neighbours never run together.
template <typename T>
void print_matrix(std::ostream& out, const Matrix<T>& matrix) {
    std::size_t widest = 0;
    for (std::size_t i = 0; i < matrix.size(); ++i) {
        std::ostringstream text;
        text << matrix.data()[i];
        widest = std::max(widest, text.str().size());
    }
    const int first = std::max(4, static_cast<int>(widest));
    const int others = std::max(5, static_cast<int>(widest) + 1);
    for (int row = 0; row < matrix.rows(); ++row) {
        for (int col = 0; col < matrix.cols(); ++col)
            out << std::setw(col ? others : first) << matrix(row, col);
        out << '\n';
    }
}

/// Prints a worked example's product (unless --quiet) and checks it against the reference: exactly
/// for integers, within the gamma_K bound for floats (small integers stored as float come out
/// exact). Returns kExitVerified or kExitVerificationFailed.
template <typename T>
int report_worked_example(const Options& options, const std::string& title, const Matrix<T>& a,
                          const Matrix<T>& b, const Matrix<T>& c) {
    const VerifyReport report = verify_gemm(a, b, c);
    if (!options.quiet) {
        std::cout << title << " =\n";
        print_matrix(std::cout, c);
        std::cout << report.summary() << "\n";
    }
    return report.passed ? kExitVerified : kExitVerificationFailed;
}

/// What check_product() found: whether C is right, and the sentence saying which check ran.
struct ProductCheck {
    bool passed = false;
    std::string summary;
};

/// Checks C = A·B as every general multiply does: element by element against the double reference
/// up to VerifyOptions::max_reference_work multiply-adds (seconds on the host), and by Freivalds'
/// check (freivalds.hpp) of all of C above that, O(m k + k n + m n) per trial instead of O(m n k).
ProductCheck check_product(const Matrix<float>& a, const Matrix<float>& b, const Matrix<float>& c);

/// The same check of matrices held elsewhere (pinned host memory, say); small ones are copied.
ProductCheck check_product(ConstMatrixView<float> a, ConstMatrixView<float> b,
                           ConstMatrixView<float> c);

/// The end of every general multiply, the same in every step: verifies C unless --no-verify
/// (`report` then says "passed" or "FAILED"), element by element against the double reference up to
/// VerifyOptions::max_reference_work multiply-adds and by Freivalds' check (freivalds.hpp) of all
/// of C above that, prints the verification's summary, the step's own `extra_lines` if it has any
/// and the timing report, all unless --quiet, and always the RESULT line. Returns kExitVerified, or
/// kExitVerificationFailed when C is wrong.
int report_general_multiply(const Options& options, RunReport report, const Matrix<float>& a,
                            const Matrix<float>& b, const Matrix<float>& c,
                            const std::function<void(std::ostream&)>& extra_lines = {});

}  // namespace tutorial
