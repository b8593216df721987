#include "common/program.hpp"

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

int report_general_multiply(const Options& options, RunReport report, const Matrix<float>& a,
                            const Matrix<float>& b, const Matrix<float>& c,
                            const std::function<void(std::ostream&)>& extra_lines) {
    int exit_code = kExitVerified;
    if (options.verify) {
        // The element-wise check against the double reference where that takes at most
        // VerifyOptions::max_reference_work multiply-adds (seconds), Freivalds' check of all of C
        // above that: O(m k + k n + m n) per trial instead of O(m n k).
        const bool element_wise = static_cast<double>(a.rows()) * b.cols() * a.cols() <=
                                  VerifyOptions{}.max_reference_work;
        bool passed = false;
        std::string summary;
        if (element_wise) {
            const VerifyReport verification = verify_gemm(a, b, c);
            passed = verification.passed;
            summary = verification.summary();
        } else {
            const FreivaldsReport verification = freivalds_check(a, b, c);
            passed = verification.passed;
            summary = verification.summary();
        }
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
