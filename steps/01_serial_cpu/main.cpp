/// \file
/// \brief Step 01's program: the worked 3x2 · 2x3 example, then a serial multiply of any size.
#include <iostream>

#include "common/errors.hpp"
#include "common/host_memory.hpp"
#include "common/matrix.hpp"
#include "common/program.hpp"
#include "common/report.hpp"
#include "serial_gemm.hpp"

namespace {

const tutorial::StepDescription kStep{
    /*program=*/"step01_serial_cpu",
    /*summary=*/"Step 01: matrix multiplication on the CPU with the serial triple loop.",
    /*worked_example=*/"A (3x2) = {{1,4},{2,5},{3,6}} times B (2x3) = {{7,8,9},{10,11,12}}",
    /*default_size=*/512,
    /*default_iterations=*/3,
    /*block_sizes=*/{},
    /*block_help=*/"",
    /*multi_device=*/false,
    /*extra_options=*/{},
    /*max_size=*/tutorial::kMaxDimension,
    /*int_indexing=*/true,
    /*runs_on_device=*/false,
};

// The worked example: small enough to check by hand, with integers so the check is exact.
int run_worked_example(const tutorial::Options& options) {
    // [worked example]
    const tutorial::Matrix<int> a{{1, 4}, {2, 5}, {3, 6}};
    const tutorial::Matrix<int> b{{7, 8, 9}, {10, 11, 12}};
    tutorial::Matrix<int> c(3, 3);
    step01::gemm(a.data(), b.data(), c.data(), 3, 3, 2);
    // [worked example]
    return tutorial::report_worked_example(options, "Worked example: A (3 x 2) times B (2 x 3)", a,
                                           b, c);
}

// The general case: random float matrices of the command-line sizes, timed and verified.
int run_general(const tutorial::Options& options) {
    // Sizes too large for this machine end with a message (exit 3), not with the system killing
    // the program.
    tutorial::require_host_memory(options.m, options.n, options.k);
    tutorial::Matrix<float> a(options.m, options.k);
    tutorial::Matrix<float> b(options.k, options.n);
    tutorial::Matrix<float> c(options.m, options.n);
    tutorial::fill_random(a, options.seed);
    tutorial::fill_random(b, options.seed + 1);
    if (!options.quiet) {
        std::cout << "\nGeneral multiply: C (" << options.m << " x " << options.n << ") = A ("
                  << options.m << " x " << options.k << ") B (" << options.k << " x " << options.n
                  << "), random values in [-1, 1], seed " << options.seed << "\n";
    }
    auto multiply = [&] {
        step01::gemm(a.data(), b.data(), c.data(), options.m, options.n, options.k);
    };

    tutorial::RunReport report;
    report.step = "01";
    report.variant = "serial";
    report.device = "CPU";
    report.m = options.m;
    report.n = options.n;
    report.k = options.k;
    if (options.timing) {
        report.kernel = tutorial::time_on_host(options.warmup, options.iterations, multiply);
    } else {
        multiply();
    }
    return tutorial::report_general_multiply(options, report, a, b, c);
}

}  // namespace

int main(int argc, char** argv) {
    return tutorial::run_step_flow(argc, argv, kStep, {{}, run_worked_example, run_general});
}
