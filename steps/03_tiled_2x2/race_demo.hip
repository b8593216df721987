/// \file
/// \brief Step 03's kernel deliberately broken (its second barrier switched off), for
/// compute-sanitizer's racecheck to catch.
///
/// The kernel here is step 03's tiled kernel with the second barrier switched off, so a thread can
/// start overwriting the shared tiles with the next step's elements while another thread of its
/// block is still reading the current ones. It is never used as a real kernel: no test, benchmark
/// or later step calls it, and the tutorial runner does not run this program. The result may even
/// verify, because whether the race corrupts anything depends on how the hardware schedules the
/// threads; racecheck reports the hazard either way. The kernel is the one in tiling.hpp, the same
/// template the step uses, so the two differ only in the missing barrier.
#include <hip/hip_runtime.h>

#include <iostream>
#include <string>

#include "common/errors.hpp"
#include "common/gpu_gemm_runner.hpp"
#include "common/program.hpp"
#include "tiling.hpp"

namespace {

const tutorial::StepDescription kDemo{
    "step03_race_demo",
    "Step 03's tiled kernel WITHOUT its second barrier: a shared-memory race for racecheck to "
    "catch.",
    "none; this program has no worked example (step03_tiled_2x2 has one)",
    /*default_size=*/512,
    /*default_iterations=*/10,
    /*block_sizes=*/{2, 16},
    /*block_help=*/"tile size of the broken kernel (the real step 03 kernel always uses 2)",
};

// [racy kernel]
// Step 03's kernel with kSecondBarrier = false: the next step's loads race with this step's reads.
template <int kTile>
void racy_gemm(const float* a, const float* b, float* c, int m, int n, int k, hipStream_t stream) {
    step03::launch_over_tiles<float, kTile, /*kSecondBarrier=*/false>(a, b, c, m, n, k, stream);
}
// [racy kernel]

}  // namespace

int main(int argc, char** argv) {
    return tutorial::run_step(argc, argv, kDemo, [](const tutorial::Options& options) {
        if (options.example_only) {
            throw tutorial::UsageError(
                "--example-only: " + kDemo.program +
                " has no worked example; run step03_tiled_2x2 --example-only");
        }
        if (!options.quiet) {
            std::cout << kDemo.summary
                      << "\nRun it under 'compute-sanitizer --tool racecheck' to see the hazard.\n";
        }
        const tutorial::GemmLauncher<float> launch =
            options.block == 16 ? racy_gemm<16> : racy_gemm<2>;
        return tutorial::run_gpu_gemm(
            options, {"03", "race_demo_tile" + std::to_string(options.block)}, launch);
    });
}
