#include <gtest/gtest.h>

#include "common/device.hpp"
#include "common/gpu_timer.hpp"
#include "common/hip_check.hpp"
#include "common/hip_handles.hpp"
#include "tests/support/gpu_test.hpp"

namespace {
// Spins for about `cycles` clock ticks, so the timed work has a known lower bound.
__global__ void spin(long long cycles, int* sink) {
    const long long start = clock64();
    while (clock64() - start < cycles) {
    }
    if (threadIdx.x == 0)
        *sink = 1;
}
}  // namespace

TEST(GpuTimer, RunsWarmupAndRepetitionsAndMeasuresTheWork) {
    TUTORIAL_REQUIRE_GPU();
    tutorial::select_device(0);
    const tutorial::Stream stream;
    int* sink = nullptr;
    HIP_CHECK(hipMalloc(&sink, sizeof(int)));
    int calls = 0;
    auto short_work = [&] {
        ++calls;
        hipLaunchKernelGGL(spin, dim3(1), dim3(32), 0, stream.get(), 1000LL, sink);
        HIP_CHECK_LAUNCH();
    };
    const tutorial::TimingSummary short_run =
        tutorial::time_with_events(stream.get(), 2, 5, short_work);
    EXPECT_EQ(calls, 7);
    EXPECT_EQ(short_run.repetitions, 5);
    EXPECT_GT(short_run.min_ms, 0.0);
    EXPECT_LE(short_run.min_ms, short_run.median_ms);

    auto long_work = [&] {
        hipLaunchKernelGGL(spin, dim3(1), dim3(32), 0, stream.get(), 20000000LL, sink);
        HIP_CHECK_LAUNCH();
    };
    const tutorial::TimingSummary long_run =
        tutorial::time_with_events(stream.get(), 1, 3, long_work);
    EXPECT_GT(long_run.median_ms, 10.0 * short_run.median_ms)
        << "the timer must see the longer kernel";
    HIP_CHECK(hipFree(sink));
}
