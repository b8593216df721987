// Step 09's tests that read a whole device's free memory, so CTest runs them alone (RUN_SERIAL):
// another test allocating on the same GPU at the same time would move that figure. An allocation
// that fails on one device entry must be reported, must not hang, and must give back every byte the
// call had taken; and a device listed twice gives each entry half of its free memory.
#include <gtest/gtest.h>
#include <hip/hip_runtime.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "common/errors.hpp"
#include "common/matrix.hpp"
#include "common/verify.hpp"
#include "multi_gpu_gemm.hpp"
#include "test_hooks.hpp"
#include "tests/step09/step09_test_support.hpp"
#include "tests/support/gpu_test.hpp"
#include "tests/support/shapes.hpp"

using step09::MultiGpuOptions;
using tutorial::Matrix;

using tutorial_test::Shape;

// The fault hook (test_hooks.hpp) makes one entry's allocation fail. The call must throw the
// allocation's RuntimeFailure, return (no worker may wait for the failed one) and leave device
// memory where it was; the next call must work.
class Step09AllocationFailure : public testing::TestWithParam<std::vector<int>> {};

TEST_P(Step09AllocationFailure, ReportedReleasedAndRecovered) {
    TUTORIAL_REQUIRE_GPU();
    step09_test::HostProduct product({600, 700, 500}, 600);
    // Chunks of 32 rows: enough for the healthy workers to be busy when it fails.
    MultiGpuOptions options = step09_test::tiled_options(32, 128, GetParam());
    product.multiply(options);  // a first, healthy call
    const std::size_t before = step09_test::free_device_bytes(0);

    for (std::size_t failing = 0; failing < options.devices.size(); ++failing) {
        const step09::test_hooks::FailAllocationOnEntry fault(static_cast<int>(failing));
        const std::exception_ptr error =
            step09_test::run_with_deadline([&] { product.multiply(options); }, 120);
        ASSERT_TRUE(error) << "entry " << failing << " could not allocate, yet gemm succeeded";
        try {
            std::rethrow_exception(error);
        } catch (const tutorial::RuntimeFailure& failure) {
            EXPECT_NE(std::string(failure.what()).find("out of device memory"), std::string::npos)
                << failure.what();
        } catch (const std::exception& other) {
            ADD_FAILURE() << "expected a RuntimeFailure, got: " << other.what();
        }
        const std::size_t after = step09_test::free_device_bytes(0);
        EXPECT_LE(before, after + step09_test::kMemoryTolerance)
            << "device memory not released: " << (before - after) << " bytes fewer free";
    }

    product.poison_c();
    product.multiply(options);
    const auto report = product.verify();
    EXPECT_TRUE(report.passed) << "after the failures: " << report.summary();
}

INSTANTIATE_TEST_SUITE_P(Entries, Step09AllocationFailure,
                         testing::Values(std::vector<int>{0}, std::vector<int>{0, 0},
                                         std::vector<int>{0, 0, 0}),
                         [](const testing::TestParamInfo<std::vector<int>>& info) {
                             return std::to_string(info.param.size()) + "_entries_on_device_0";
                         });

// The same fault through a Workspace that holds buffers from a healthy call: the failed call must
// release the whole workspace (every entry's buffers, not only the failing one's), so the device
// gets back what the workspace held, and the workspace must work again afterwards.
TEST(Step09AllocationFailure, AFailedCallReleasesTheWorkspace) {
    TUTORIAL_REQUIRE_GPU();
    // Buffers of about 16 MiB per entry: more than the tolerance of the memory readings.
    step09_test::HostProduct product({600, 640, 2100}, 610);
    const Shape& s = product.shape;
    MultiGpuOptions options = step09_test::tiled_options(300, 320, {0, 0});
    product.multiply(options);  // contexts, workspaces
    const std::size_t before = step09_test::free_device_bytes(0);

    step09::Workspace workspace;
    const step09::Plan plan = step09::plan_for(s.m, s.n, s.k, options);
    product.multiply(plan, options, workspace);
    // At most both entries' whole plans (an entry that took no chunk holds less).
    ASSERT_LE(workspace.bytes(), 2 * plan.buffers.total_bytes());
    ASSERT_GT(workspace.bytes(), step09_test::kMemoryTolerance);

    {
        const step09::test_hooks::FailAllocationOnEntry fault(1);
        const std::exception_ptr error = step09_test::run_with_deadline(
            [&] { product.multiply(plan, options, workspace); }, 120);
        ASSERT_TRUE(error) << "entry 1 could not allocate, yet gemm succeeded";
        EXPECT_THROW(std::rethrow_exception(error), tutorial::RuntimeFailure);
    }
    EXPECT_EQ(workspace.bytes(), 0u);
    const std::size_t after = step09_test::free_device_bytes(0);
    EXPECT_LE(before, after + step09_test::kMemoryTolerance)
        << "device memory not released: " << (before - after) << " bytes fewer free";

    product.poison_c();
    product.multiply(plan, options, workspace);
    const auto report = product.verify();
    EXPECT_TRUE(report.passed) << "after the failure: " << report.summary();
}

// The two budgets are read one after the other, so nothing else may allocate in between.
TEST(Step09, AllMemoryIsSharedByTheEntriesOfADevice) {
    TUTORIAL_REQUIRE_GPU();
    MultiGpuOptions one, two;
    two.devices = {0, 0};
    const std::uint64_t alone = step09::resolve_budget(one);
    const std::uint64_t shared = step09::resolve_budget(two);
    EXPECT_GT(alone, 0u);
    EXPECT_LE(shared, alone / 2 + step09_test::kMemoryTolerance);
    EXPECT_GE(shared + step09_test::kMemoryTolerance, alone / 2);
}
