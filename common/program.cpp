#include "common/program.hpp"

#include <algorithm>
#include <iostream>
#include <new>
#include <stdexcept>

#include "common/errors.hpp"
#include "common/freivalds.hpp"

namespace tutorial {

int exit_code_of(const std::string& program, const std::function<int()>& body) {
    try {
        return body();
    } catch (const UsageError& error) {
        std::cerr << program << ": " << error.what() << '\n';
        return kExitBadUsage;
    } catch (const std::invalid_argument& error) {
        // A library entry point refusing its arguments: the values came from the command line.
        std::cerr << program << ": " << error.what() << '\n';
        return kExitBadUsage;
    } catch (const RuntimeFailure& error) {
        std::cerr << program << ": " << error.what() << '\n';
        return kExitRuntimeFailure;
    }
}

int run_step(int argc, char** argv, const StepDescription& step,
             const std::function<int(const Options&)>& body) {
    Options options;
    try {
        options = parse_command_line(step, std::vector<std::string>(argv + 1, argv + argc));
    } catch (const HelpRequested& help) {
        std::cout << help.what();
        return kExitVerified;
    } catch (const UsageError& error) {
        std::cerr << step.program << ": " << error.what() << "\nRun '" << step.program
                  << " --help' for the options.\n";
        return kExitBadUsage;
    }
    return exit_code_of(step.program, [&]() -> int {
        try {
            return body(options);
        } catch (const std::bad_alloc&) {
            std::cerr << step.program << ": out of host memory for " << options.m << " x "
                      << options.n << " x " << options.k << "; try smaller sizes\n";
            return kExitRuntimeFailure;
        }
    });
}

namespace {

// Whether the element-wise check is cheap enough: at most VerifyOptions::max_reference_work
// multiply-adds on the host.
bool element_wise_affordable(int m, int n, int k) {
    return static_cast<double>(m) * n * k <= VerifyOptions{}.max_reference_work;
}

ProductCheck freivalds_product_check(ConstMatrixView<float> a, ConstMatrixView<float> b,
                                     ConstMatrixView<float> c) {
    const FreivaldsReport verification = freivalds_check(a, b, c);
    return {verification.passed, verification.summary()};
}

}  // namespace

ProductCheck check_product(const Matrix<float>& a, const Matrix<float>& b, const Matrix<float>& c) {
    if (!element_wise_affordable(a.rows(), b.cols(), a.cols()))
        return freivalds_product_check(a, b, c);
    const VerifyReport verification = verify_gemm(a, b, c);
    return {verification.passed, verification.summary()};
}

ProductCheck check_product(ConstMatrixView<float> a, ConstMatrixView<float> b,
                           ConstMatrixView<float> c) {
    if (!element_wise_affordable(a.rows(), b.cols(), a.cols()))
        return freivalds_product_check(a, b, c);
    // Small: copied into the Matrix objects that the element-wise check reads.
    auto copy = [](ConstMatrixView<float> view) {
        Matrix<float> matrix(view.rows(), view.cols());
        std::copy(view.data(), view.data() + view.size(), matrix.data());
        return matrix;
    };
    return check_product(copy(a), copy(b), copy(c));
}

int report_general_multiply(const Options& options, RunReport report, const Matrix<float>& a,
                            const Matrix<float>& b, const Matrix<float>& c,
                            const std::function<void(std::ostream&)>& extra_lines) {
    int exit_code = kExitVerified;
    if (options.verify) {
        const ProductCheck verification = check_product(a, b, c);
        const bool passed = verification.passed;
        const std::string& summary = verification.summary;
        report.verification = passed ? "passed" : "FAILED";
        if (!options.quiet)
            std::cout << summary << "\n";
        if (!passed)
            exit_code = kExitVerificationFailed;
    }
    if (!options.quiet) {
        if (extra_lines)
            extra_lines(std::cout);
        print_report(std::cout, report);
    }
    std::cout << result_line(report) << "\n";
    return exit_code;
}

int run_step_flow(int argc, char** argv, const StepDescription& step, const StepFlow& flow) {
    return run_step(argc, argv, step, [&](const Options& options) {
        if (!options.quiet)
            std::cout << step.summary << "\n\n";
        if (flow.prepare)
            flow.prepare(options);
        const int example = flow.example(options);
        if (example != kExitVerified || options.example_only)
            return example;
        return flow.general(options);
    });
}

}  // namespace tutorial
