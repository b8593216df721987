#include "common/program.hpp"

#include <iostream>
#include <new>

#include "common/errors.hpp"
#include "common/verify.hpp"

namespace tutorial {

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
    try {
        return body(options);
    } catch (const UsageError& error) {
        std::cerr << step.program << ": " << error.what() << '\n';
        return kExitBadUsage;
    } catch (const RuntimeFailure& error) {
        std::cerr << step.program << ": " << error.what() << '\n';
        return kExitRuntimeFailure;
    } catch (const std::bad_alloc&) {
        std::cerr << step.program << ": out of host memory for " << options.m << " x " << options.n
                  << " x " << options.k << "; try smaller sizes\n";
        return kExitRuntimeFailure;
    }
}

int report_worked_example(const Options& options, const std::string& title, const Matrix<int>& a,
                          const Matrix<int>& b, const Matrix<int>& c) {
    const VerifyReport report = verify_gemm(a, b, c);
    if (!options.quiet) {
        std::cout << title << " =\n";
        print_matrix(std::cout, c);
        std::cout << report.summary() << "\n";
    }
    return report.passed ? kExitVerified : kExitVerificationFailed;
}

}  // namespace tutorial
