// Step 09 on one GPU: every shape, every kind of plan (one, two and many chunks and panels, from
// budgets and from overrides), each inner kernel, a device listed twice, pinned and pageable host
// memory, and the faults: bad devices, a budget too small, an allocation that fails.
#include <gtest/gtest.h>
#include <hip/hip_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/device.hpp"
#include "common/device_buffer.hpp"
#include "common/errors.hpp"
#include "common/hip_check.hpp"
#include "common/matrix.hpp"
#include "common/verify.hpp"
#include "multi_gpu_gemm.hpp"
#include "schedule.hpp"
#include "tests/step09/step09_test_support.hpp"
#include "tests/support/exception_message.hpp"
#include "tests/support/gpu_gemm_test.hpp"
#include "tests/support/gpu_test.hpp"
#include "tests/support/shapes.hpp"

using step09::InnerKernel;
using step09::MultiGpuOptions;
using tutorial::Matrix;
using tutorial_test::Shape;
using tutorial_test::shape_name;

namespace {

// Skips a test of the vendor inner kernel, with the reason, on a build without a vendor BLAS.
#define SKIP_IF_UNAVAILABLE(inner)                                                      \
    do {                                                                                \
        if (const auto why_not_ = step09::inner_kernel_unavailable(inner))              \
            GTEST_SKIP() << "inner kernel " << step09::inner_kernel_name(inner) << ": " \
                         << *why_not_;                                                  \
    } while (false)

// Random A and B for a shape, multiplied with `options` and checked against the reference; the
// statistics must add up too.
void expect_verified(const Shape& s, const MultiGpuOptions& options, std::uint64_t seed,
                     step09::GemmStatistics* statistics = nullptr) {
    Matrix<float> a(s.m, s.k), b(s.k, s.n);
    tutorial::fill_random(a, seed);
    tutorial::fill_random(b, seed + 1);
    step09::GemmStatistics local;
    step09::GemmStatistics& result = statistics != nullptr ? *statistics : local;
    const Matrix<float> c = step09_test::multiply(a, b, options, &result);
    const auto report = tutorial::verify_gemm(a, b, c);
    EXPECT_TRUE(report.passed) << shape_name(s) << ": " << report.summary();
    step09_test::expect_consistent(result, s.m, s.n, s.k);
}

// A 64 x 64 x 64 multiply with `options` must be refused with std::invalid_argument, its message
// containing `reason` ("(no exception)" when it was accepted).
void expect_refused(const MultiGpuOptions& options, const std::string& reason) {
    Matrix<float> a(64, 64), b(64, 64), c(64, 64);
    const std::string message = tutorial_test::message_of(
        [&] { step09::gemm(a.data(), b.data(), c.data(), 64, 64, 64, options); });
    EXPECT_NE(message.find(reason), std::string::npos) << message;
}

}  // namespace

// ---- the worked example -----------------------------------------------------------------------

TEST(Step09, WorkedExampleInTwoChunksAndTwoPanels) {
    TUTORIAL_REQUIRE_GPU();
    const Matrix<float> a{{1, 2, 3, 4}, {5, 6, 7, 8}, {1, 2, 3, 4}, {5, 6, 7, 8}};
    MultiGpuOptions options;
    options.device_memory_bytes = 1 << 20;
    options.chunk_rows = 2;
    options.panel_cols = 2;
    step09::GemmStatistics statistics;
    const Matrix<float> c = step09_test::multiply(a, a, options, &statistics);
    const float expected[4][4] = {
        {34, 44, 54, 64}, {82, 108, 134, 160}, {34, 44, 54, 64}, {82, 108, 134, 160}};
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            EXPECT_EQ(c(i, j), expected[i][j]) << "C(" << i << ", " << j << ")";
    EXPECT_EQ(statistics.plan.chunks.size(), 2u);
    EXPECT_EQ(statistics.plan.panels.size(), 2u);
    ASSERT_EQ(statistics.entries.size(), 1u);
    EXPECT_EQ(statistics.entries[0].chunks, 2);
    EXPECT_EQ(statistics.entries[0].tiles, 4);
    step09_test::expect_consistent(statistics, 4, 4, 4);
}

// ---- shapes, with the plan the default budget ("all") gives -----------------------------------

class Step09Shapes : public testing::TestWithParam<Shape> {};

TEST_P(Step09Shapes, RandomFloatsWithinTheBound) {
    TUTORIAL_REQUIRE_GPU();
    const Shape s = GetParam();
    expect_verified(s, MultiGpuOptions{}, 100 + s.m + s.n + s.k);
}

TEST_P(Step09Shapes, SmallIntegersExactly) {
    TUTORIAL_REQUIRE_GPU();
    // Integers in [-8, 8] with K < 2^18 keep every partial sum an exact integer in float.
    const Shape s = GetParam();
    const auto [a, b] = tutorial_test::random_operands<int>(s, 300 + s.m, 400 + s.n, -8, 8);
    const Matrix<float> c = step09_test::multiply(
        tutorial_test::converted<float>(a), tutorial_test::converted<float>(b), MultiGpuOptions{});
    const auto report = tutorial::verify_gemm(a, b, tutorial_test::converted<int>(c));
    EXPECT_TRUE(report.passed) << report.summary();
}

// 1 x 1 x 1, K = 1, primes, non-square, sizes that are multiples of nothing, more rows than one
// chunk takes (4100, 5000: three chunks), more columns than one panel (1025, 2049), one above 1000.
const Shape kShapes[] = {{1, 1, 1},    {3, 3, 2},      {7, 13, 5},        {17, 31, 13},
                         {64, 1, 33},  {1, 50, 40},    {40, 30, 1},       {129, 65, 257},
                         {33, 29, 31}, {4100, 33, 17}, {5000, 130, 9},    {20, 2049, 7},
                         {1, 1, 3000}, {260, 132, 36}, {1031, 1025, 1037}};

INSTANTIATE_TEST_SUITE_P(Shapes, Step09Shapes, testing::ValuesIn(kShapes),
                         [](const testing::TestParamInfo<Shape>& info) {
                             return shape_name(info.param);
                         });

// ---- plans: one, two and many chunks and panels, from budgets and from overrides ---------------

// A plan to force on 301 x 517 x 203 (odd everywhere): a budget or fixed sizes, and the numbers
// of chunks and panels it must give (worked out in the planner's unit tests).
struct PlanCase {
    const char* name;
    std::uint64_t budget;  // 0: all
    int chunk_rows, panel_cols;
    std::size_t chunks, panels;
};

const PlanCase kPlanCases[] = {
    {"budget_all_one_chunk_one_panel", 0, 0, 0, 1, 1},
    {"budget_700000_two_chunks_five_panels", 700000, 0, 0, 2, 5},
    {"budget_64KiB_many_chunks_many_panels", 64 * 1024, 0, 0, 22, 33},
    {"fixed_two_chunks_two_panels", 0, 151, 259, 2, 2},
    {"fixed_many_chunks_many_panels", 0, 7, 13, 43, 40},
    {"fixed_many_chunks_two_panels", 0, 7, 259, 43, 2},
    {"fixed_odd_chunks_three_panels", 0, 30, 173, 11, 3},
    {"fixed_one_chunk_one_column_panels", 0, 301, 1, 1, 517},
    {"fixed_one_row_chunks_resident_panel", 0, 1, 517, 301, 1},
};

void PrintTo(const PlanCase& plan, std::ostream* out) {
    *out << plan.name;
}

class Step09Plans : public testing::TestWithParam<std::tuple<PlanCase, InnerKernel>> {};

TEST_P(Step09Plans, EveryTileVerified) {
    TUTORIAL_REQUIRE_GPU();
    const auto [plan, inner] = GetParam();
    SKIP_IF_UNAVAILABLE(inner);
    MultiGpuOptions options;
    if (plan.budget > 0)
        options.device_memory_bytes = plan.budget;
    options.chunk_rows = plan.chunk_rows;
    options.panel_cols = plan.panel_cols;
    options.inner = inner;
    step09::GemmStatistics statistics;
    expect_verified({301, 517, 203}, options, 7000, &statistics);
    EXPECT_EQ(statistics.plan.chunks.size(), plan.chunks);
    EXPECT_EQ(statistics.plan.panels.size(), plan.panels);
    if (plan.budget > 0)
        EXPECT_LE(statistics.plan.buffers.total_bytes(), plan.budget);
}

INSTANTIATE_TEST_SUITE_P(Plans, Step09Plans,
                         testing::Combine(testing::ValuesIn(kPlanCases),
                                          testing::ValuesIn(step09::all_inner_kernels())),
                         [](const testing::TestParamInfo<std::tuple<PlanCase, InnerKernel>>& info) {
                             return std::string(std::get<0>(info.param).name) + "_" +
                                    step09::inner_kernel_name(std::get<1>(info.param));
                         });

// ---- several workers on one GPU ---------------------------------------------------------------

TEST(Step09, DeviceListedTwiceSharesTheChunks) {
    TUTORIAL_REQUIRE_GPU();
    // Chunks of 64 rows: 17 of them for two workers.
    MultiGpuOptions options = step09_test::tiled_options(64, 300, {0, 0});
    step09::GemmStatistics statistics;
    expect_verified({1031, 1025, 1037}, options, 8000, &statistics);
    ASSERT_EQ(statistics.entries.size(), 2u);
    for (const step09::EntryStatistics& entry : statistics.entries) {
        EXPECT_EQ(entry.device, 0);
        std::cout << "entry " << entry.entry << " took " << entry.chunks << " chunks\n";
    }
}

TEST(Step09, DeviceListedTwiceGetsChunksOfOneHeight) {
    TUTORIAL_REQUIRE_GPU();
    // At 1 MiB per entry the tallest chunk that fits makes 5 chunks, which two entries cannot
    // share evenly; so they get 6 of 167 rows (the last 166), 3 each at equal speeds.
    MultiGpuOptions options;
    options.devices = {0, 0};
    options.device_memory_bytes = 1u << 20;
    step09::GemmStatistics statistics;
    expect_verified({1001, 300, 200}, options, 8050, &statistics);
    EXPECT_EQ(statistics.plan.chunks.size(), 6u);
    EXPECT_EQ(statistics.plan.chunk_rows, 167);
    EXPECT_EQ(statistics.plan.chunks.back().rows, 166);
}

TEST(Step09, DeviceListedThreeTimesWithATightBudget) {
    TUTORIAL_REQUIRE_GPU();
    MultiGpuOptions options;
    options.devices = {0, 0, 0};
    options.device_memory_bytes = 256 * 1024;  // per entry
    step09::GemmStatistics statistics;
    expect_verified({777, 555, 333}, options, 8100, &statistics);
    EXPECT_GT(statistics.plan.chunks.size(), 3u);
    EXPECT_LE(statistics.plan.buffers.total_bytes(), 256u * 1024u);
}

// ---- the plan made once ------------------------------------------------------------------------

TEST(Step09, ThePlanGivenIsThePlanRun) {
    TUTORIAL_REQUIRE_GPU();
    const Shape s{301, 517, 203};
    MultiGpuOptions options;
    options.device_memory_bytes = 700000;
    const step09::Plan plan = step09::plan_for(s.m, s.n, s.k, options);
    EXPECT_EQ(plan.budget_bytes, 700000u);
    Matrix<float> a(s.m, s.k), b(s.k, s.n), c(s.m, s.n);
    tutorial::fill_random(a, 7100);
    tutorial::fill_random(b, 7101);
    options.device_memory_bytes = 1;  // not read again: the plan holds the budget
    for (int run = 0; run < 2; ++run) {
        std::fill(c.data(), c.data() + c.size(), std::numeric_limits<float>::quiet_NaN());
        const step09::GemmStatistics statistics =
            step09::gemm(a.data(), b.data(), c.data(), plan, options);
        EXPECT_EQ(statistics.plan.budget_bytes, plan.budget_bytes);
        EXPECT_EQ(statistics.plan.chunks.size(), plan.chunks.size());
        EXPECT_EQ(statistics.plan.panels.size(), plan.panels.size());
        const auto report = tutorial::verify_gemm(a, b, c);
        EXPECT_TRUE(report.passed) << "run " << run << ": " << report.summary();
        step09_test::expect_consistent(statistics, s.m, s.n, s.k);
    }
}

// ---- buffers kept between calls ---------------------------------------------------------------

// A Workspace allocates on the first call, reuses while the plan needs the same buffers (with new
// inputs, so a panel of B left from the call before would give wrong columns), replaces them for
// another plan and allocates again after release(). k = 203 is stored as 204: the padding column
// of A's reused buffers must still hold zeros. One entry, so that it takes every chunk and its
// allocations do not depend on how a queue was shared.
TEST(Step09Workspace, KeepsTheBuffersWhileThePlanNeedsThem) {
    TUTORIAL_REQUIRE_GPU();
    const Shape s{301, 517, 203};
    MultiGpuOptions options = step09_test::tiled_options(64, 48);
    const step09::Plan first = step09::plan_for(s.m, s.n, s.k, options);
    options.chunk_rows = 32;
    const step09::Plan other = step09::plan_for(s.m, s.n, s.k, options);
    ASSERT_NE(first.buffers.total_bytes(), other.buffers.total_bytes());
    step09::Workspace workspace;
    Matrix<float> a(s.m, s.k), b(s.k, s.n), c(s.m, s.n);
    tutorial::fill_random(a, 7200);
    struct Call {
        const step09::Plan& plan;
        bool allocates;
    };
    const Call calls[] = {{first, true}, {first, false}, {other, true}, {other, false}};
    for (std::size_t call = 0; call < std::size(calls); ++call) {
        tutorial::fill_random(b, 7201 + call);
        std::fill(c.data(), c.data() + c.size(), std::numeric_limits<float>::quiet_NaN());
        const step09::GemmStatistics statistics =
            step09::gemm(a.data(), b.data(), c.data(), calls[call].plan, options, workspace);
        const auto report = tutorial::verify_gemm(a, b, c);
        EXPECT_TRUE(report.passed) << "call " << call << ": " << report.summary();
        step09_test::expect_consistent(statistics, s.m, s.n, s.k);
        ASSERT_EQ(statistics.entries.size(), 1u);
        EXPECT_EQ(statistics.entries[0].bytes_allocated,
                  calls[call].allocates ? calls[call].plan.buffers.total_bytes() : 0u)
            << "call " << call;
        EXPECT_EQ(workspace.bytes(), calls[call].plan.buffers.total_bytes()) << "call " << call;
    }
    workspace.release();
    EXPECT_EQ(workspace.bytes(), 0u);
    const step09::GemmStatistics again =
        step09::gemm(a.data(), b.data(), c.data(), other, options, workspace);
    EXPECT_TRUE(tutorial::verify_gemm(a, b, c).passed);
    EXPECT_EQ(again.entries[0].bytes_allocated, other.buffers.total_bytes());
}

// With several entries, how many chunks each takes depends on timing, and an entry that took
// none allocated only what its first step needs. Whatever the sharing, what the calls allocate
// adds up to what the workspace holds, a call with the same plan only adds to it, another plan
// replaces it, and every result is right.
TEST(Step09Workspace, EntriesAllocateWhatTheyLackAndNoMore) {
    TUTORIAL_REQUIRE_GPU();
    const Shape s{301, 517, 203};
    MultiGpuOptions options = step09_test::tiled_options(64, 48, {0, 0});
    const step09::Plan first = step09::plan_for(s.m, s.n, s.k, options);
    options.chunk_rows = 32;
    const step09::Plan other = step09::plan_for(s.m, s.n, s.k, options);
    step09::Workspace workspace;
    Matrix<float> a(s.m, s.k), b(s.k, s.n), c(s.m, s.n);
    tutorial::fill_random(a, 7250);
    const step09::Plan* plans[] = {&first, &first, &other, &other};
    std::uint64_t held = 0;
    for (std::size_t call = 0; call < std::size(plans); ++call) {
        const bool same_plan = call > 0 && plans[call] == plans[call - 1];
        tutorial::fill_random(b, 7251 + call);
        std::fill(c.data(), c.data() + c.size(), std::numeric_limits<float>::quiet_NaN());
        const step09::GemmStatistics statistics =
            step09::gemm(a.data(), b.data(), c.data(), *plans[call], options, workspace);
        EXPECT_TRUE(tutorial::verify_gemm(a, b, c).passed) << "call " << call;
        std::uint64_t allocated = 0;
        for (const step09::EntryStatistics& entry : statistics.entries)
            allocated += entry.bytes_allocated;
        EXPECT_EQ(workspace.bytes(), (same_plan ? held : 0) + allocated) << "call " << call;
        EXPECT_LE(workspace.bytes(), 2 * plans[call]->buffers.total_bytes()) << "call " << call;
        EXPECT_GT(workspace.bytes(), 0u) << "call " << call;
        held = workspace.bytes();
    }
}

// Without a Workspace every call allocates its buffers, and frees them before it returns.
TEST(Step09Workspace, EachCallWithoutOneAllocates) {
    TUTORIAL_REQUIRE_GPU();
    const Shape s{130, 90, 70};
    MultiGpuOptions options = step09_test::tiled_options(32, 32);
    const step09::Plan plan = step09::plan_for(s.m, s.n, s.k, options);
    Matrix<float> a(s.m, s.k), b(s.k, s.n), c(s.m, s.n);
    tutorial::fill_random(a, 7300);
    tutorial::fill_random(b, 7301);
    for (int call = 0; call < 2; ++call) {
        const step09::GemmStatistics statistics =
            step09::gemm(a.data(), b.data(), c.data(), plan, options);
        ASSERT_EQ(statistics.entries.size(), 1u);
        EXPECT_EQ(statistics.entries[0].bytes_allocated, plan.buffers.total_bytes())
            << "call " << call;
    }
    EXPECT_TRUE(tutorial::verify_gemm(a, b, c).passed);
}

// ---- host memory ------------------------------------------------------------------------------

TEST(Step09, PinnedHostMemoryIsUsedAsItIs) {
    TUTORIAL_REQUIRE_GPU();
    const int m = 517, n = 301, k = 263;
    Matrix<float> a(m, k), b(k, n), c(m, n);
    tutorial::fill_random(a, 9000);
    tutorial::fill_random(b, 9001);
    tutorial::PinnedBuffer<float> host_a(a.size()), host_b(b.size()), host_c(c.size());
    std::memcpy(host_a.get(), a.data(), a.bytes());
    std::memcpy(host_b.get(), b.data(), b.bytes());
    MultiGpuOptions options = step09_test::tiled_options(100, 128);
    for (const step09::HostMemory memory :
         {step09::HostMemory::pinned, step09::HostMemory::pageable}) {
        // Pinned memory declared pageable cannot be registered again: the copies must still work.
        std::memset(host_c.get(), 0xFF, c.bytes());
        options.host_memory = memory;
        const step09::GemmStatistics statistics =
            step09::gemm(host_a.get(), host_b.get(), host_c.get(), m, n, k, options);
        std::memcpy(c.data(), host_c.get(), c.bytes());
        const auto report = tutorial::verify_gemm(a, b, c);
        EXPECT_TRUE(report.passed) << statistics.host_memory << ": " << report.summary();
        EXPECT_FALSE(statistics.host_memory.empty());
    }
}

// ---- panels of B by a kernel
// ----------------------------------------------------------------------

// gather_rows() copies exactly the block asked for, whatever the alignment of the rows: a block
// of a pinned host matrix at an odd column of an odd pitch (single floats, rows starting anywhere
// in a 128-byte line), and at an aligned one (float4); more blocks than rows and fewer. The
// destination's padding columns and the rows after the block keep their sentinel.
TEST(Step09PanelCopy, GatherCopiesExactlyTheBlockAsked) {
    TUTORIAL_REQUIRE_GPU();
    struct Case {
        int host_cols, first_col, rows, cols, to_pitch, blocks;
    };
    const Case cases[] = {
        {517, 3, 41, 97, 100, 7},      // odd pitch and start: single floats, shifted lines
        {517, 0, 41, 517, 520, 200},   // whole rows, more blocks than rows
        {1024, 128, 33, 256, 256, 5},  // aligned: float4
        {1024, 4, 9, 36, 40, 1},       // aligned, one block
        {1001, 1000, 17, 1, 4, 3},     // one column at the end of each row
    };
    for (const Case& c : cases) {
        const int host_rows = c.rows + 2;
        tutorial::PinnedBuffer<float> host(static_cast<std::size_t>(host_rows) * c.host_cols);
        for (std::size_t i = 0; i < host.size(); ++i)
            host.get()[i] = static_cast<float>(i % 1000003) + 0.25f;
        const float* view = step09::device_view_of_host(host.get());
        ASSERT_NE(view, nullptr) << "hipHostMalloc memory must be addressable by the device";
        const std::size_t to_rows = static_cast<std::size_t>(c.rows) + 1;
        tutorial::DeviceBuffer<float> to(to_rows * c.to_pitch);
        const float sentinel = -7.5f;
        std::vector<float> back(to.size(), sentinel);
        HIP_CHECK(
            hipMemcpy(to.get(), back.data(), to.size() * sizeof(float), hipMemcpyHostToDevice));
        step09::gather_rows(view + c.host_cols + c.first_col,  // from the second row on
                            static_cast<std::size_t>(c.host_cols), to.get(),
                            static_cast<std::size_t>(c.to_pitch), c.rows, c.cols, c.blocks,
                            nullptr);
        HIP_CHECK(hipDeviceSynchronize());
        HIP_CHECK(
            hipMemcpy(back.data(), to.get(), to.size() * sizeof(float), hipMemcpyDeviceToHost));
        int wrong = 0;
        for (std::size_t r = 0; r < to_rows; ++r) {
            for (int col = 0; col < c.to_pitch; ++col) {
                const float expected = r < static_cast<std::size_t>(c.rows) && col < c.cols
                                           ? host.get()[(r + 1) * c.host_cols + c.first_col + col]
                                           : sentinel;
                wrong += back[r * c.to_pitch + col] != expected;
            }
        }
        EXPECT_EQ(wrong, 0) << c.rows << " x " << c.cols << " from column " << c.first_col << " of "
                            << c.host_cols << ", " << c.blocks << " blocks";
    }
}

// Each way of bringing the panels gives the same C, and the statistics say how many came by the
// kernel: none with the copy engine, all with the kernel, the first kPanelsByKernel of each entry
// by default. Pinned memory, so that the device can read it on every platform.
TEST(Step09PanelCopy, EveryWayGivesCAndCountsItsPanels) {
    TUTORIAL_REQUIRE_GPU();
    for (const Shape s : {Shape{203, 517, 131}, Shape{160, 512, 96}}) {
        Matrix<float> a(s.m, s.k), b(s.k, s.n), c(s.m, s.n);
        tutorial::fill_random(a, 9100);
        tutorial::fill_random(b, 9101);
        tutorial::PinnedBuffer<float> host_a(a.size()), host_b(b.size()), host_c(c.size());
        std::memcpy(host_a.get(), a.data(), a.bytes());
        std::memcpy(host_b.get(), b.data(), b.bytes());
        for (const step09::PanelCopy how :
             {step09::PanelCopy::first_by_kernel, step09::PanelCopy::copy_engine,
              step09::PanelCopy::kernel}) {
            MultiGpuOptions options = step09_test::tiled_options(40, 64, {0, 0});
            options.host_memory = step09::HostMemory::pinned;
            options.panel_copy = how;
            std::fill(host_c.get(), host_c.get() + c.size(), std::nanf(""));
            const step09::GemmStatistics statistics =
                step09::gemm(host_a.get(), host_b.get(), host_c.get(), s.m, s.n, s.k, options);
            std::memcpy(c.data(), host_c.get(), c.bytes());
            const auto report = tutorial::verify_gemm(a, b, c);
            EXPECT_TRUE(report.passed) << shape_name(s) << ", " << step09::panel_copy_name(how)
                                       << ": " << report.summary();
            for (const step09::EntryStatistics& entry : statistics.entries) {
                const int expected =
                    how == step09::PanelCopy::copy_engine ? 0
                    : how == step09::PanelCopy::kernel
                        ? entry.panel_copies
                        : std::min(entry.panel_copies, static_cast<int>(step09::kPanelsByKernel));
                EXPECT_EQ(entry.panels_by_kernel, expected)
                    << shape_name(s) << ", " << step09::panel_copy_name(how) << ", entry "
                    << entry.entry << " of " << entry.panel_copies << " panels";
            }
        }
    }
}

// Ordinary memory that gemm() page-locked is mapped for the devices too, so the default brings
// the first panels by the kernel; where locking failed, the copy engine brings them all.
TEST(Step09PanelCopy, RegisteredMemoryIsReadByTheKernel) {
    TUTORIAL_REQUIRE_GPU();
    MultiGpuOptions options = step09_test::tiled_options(50, 100);
    step09::GemmStatistics statistics;
    expect_verified({150, 300, 77}, options, 9200, &statistics);
    ASSERT_EQ(statistics.entries.size(), 1u);
    const step09::EntryStatistics& entry = statistics.entries[0];
    if (statistics.host_memory == "page-locked (hipHostRegister)") {
        EXPECT_EQ(entry.panels_by_kernel,
                  std::min(entry.panel_copies, static_cast<int>(step09::kPanelsByKernel)));
    } else {
        EXPECT_EQ(entry.panels_by_kernel, 0) << statistics.host_memory;
    }
}

TEST(Step09Faults, PanelCopyNamesRoundTrip) {
    for (const step09::PanelCopy how :
         {step09::PanelCopy::first_by_kernel, step09::PanelCopy::copy_engine,
          step09::PanelCopy::kernel}) {
        EXPECT_EQ(step09::parse_panel_copy(step09::panel_copy_name(how)), how);
    }
    const std::string message = tutorial_test::message_of([&] { step09::parse_panel_copy("dma"); });
    EXPECT_NE(message.find("first-by-kernel, copy-engine or kernel"), std::string::npos)
        << "'dma': " << message;
}

TEST(Step09, OverwritesCInsteadOfAccumulating) {
    TUTORIAL_REQUIRE_GPU();
    // Two multiplies into the same C: a version that adds to C would return twice the product.
    step09_test::HostProduct product({70, 36, 44}, 501);
    MultiGpuOptions options = step09_test::tiled_options(16, 8);
    for (int run = 0; run < 2; ++run)
        product.multiply(options);
    const auto report = product.verify();
    EXPECT_TRUE(report.passed) << report.summary();
}

// k = 7 is stored as 8 and the panels of 12, 12 and 5 columns as 12, 12 and 8 (kRowAlign): the
// padding must hold zeros wherever it meets a real element, also in a buffer of B that held a
// wider panel before. NaNs in the first two panels of B must make exactly those columns of C NaN
// and leave the last panel's columns right; NaNs in rows of A exactly those rows of C.
TEST(Step09, NaNsSpreadOnlyToTheirColumnsOrRowsOfC) {
    TUTORIAL_REQUIRE_GPU();
    const int m = 9, n = 29, k = 7, poisoned_cols = 24;
    auto poisoned_row = [](int i) { return i == 1 || i == 4 || i == 8; };
    const float nan = std::numeric_limits<float>::quiet_NaN();
    Matrix<float> a(m, k), b(k, n), c(m, n);
    tutorial::fill_random(a, 811);
    tutorial::fill_random(b, 812);
    Matrix<float> b_poisoned = b, a_poisoned = a;
    for (int r = 0; r < k; ++r)
        for (int j = 0; j < poisoned_cols; ++j)
            b_poisoned(r, j) = nan;
    for (int i = 0; i < m; ++i)
        for (int r = 0; r < k && poisoned_row(i); ++r)
            a_poisoned(i, r) = nan;
    // The last panel's columns of B and C, and the rows of A and C without NaNs.
    Matrix<float> b_clean(k, n - poisoned_cols), a_clean(m - 3, k);
    for (int r = 0; r < k; ++r)
        for (int j = poisoned_cols; j < n; ++j)
            b_clean(r, j - poisoned_cols) = b(r, j);
    for (int i = 0, row = 0; i < m; ++i) {
        if (poisoned_row(i))
            continue;
        for (int r = 0; r < k; ++r)
            a_clean(row, r) = a(i, r);
        ++row;
    }
    MultiGpuOptions options = step09_test::tiled_options(4, 12);
    for (const InnerKernel inner : step09::all_inner_kernels()) {
        if (step09::inner_kernel_unavailable(inner))
            continue;  // the vendor BLAS on a build without one
        options.inner = inner;
        const std::string name = step09::inner_kernel_name(inner);

        step09::gemm(a.data(), b_poisoned.data(), c.data(), m, n, k, options);
        Matrix<float> c_clean(m, n - poisoned_cols);
        for (int i = 0; i < m; ++i) {
            for (int j = 0; j < n; ++j) {
                if (j < poisoned_cols) {
                    EXPECT_TRUE(std::isnan(c(i, j))) << name << ": C(" << i << ", " << j << ")";
                } else {
                    c_clean(i, j - poisoned_cols) = c(i, j);
                }
            }
        }
        const auto columns = tutorial::verify_gemm(a, b_clean, c_clean);
        EXPECT_TRUE(columns.passed) << name << ", the last panel: " << columns.summary();

        step09::gemm(a_poisoned.data(), b.data(), c.data(), m, n, k, options);
        Matrix<float> c_rows(m - 3, n);
        for (int i = 0, row = 0; i < m; ++i) {
            const bool poisoned = poisoned_row(i);
            for (int j = 0; j < n; ++j) {
                if (poisoned) {
                    EXPECT_TRUE(std::isnan(c(i, j))) << name << ": C(" << i << ", " << j << ")";
                } else {
                    c_rows(row, j) = c(i, j);
                }
            }
            row += poisoned ? 0 : 1;
        }
        const auto rows = tutorial::verify_gemm(a_clean, b, c_rows);
        EXPECT_TRUE(rows.passed) << name << ", the rows without NaNs: " << rows.summary();
    }
}

TEST(Step09, EmptyProductsNeedNoDevice) {
    // m = 0 or n = 0: nothing to do; k = 0: C is all zeros (empty sums).
    float c[6] = {1, 2, 3, 4, 5, 6};
    step09::gemm(c, c, c, 0, 3, 2, MultiGpuOptions{});
    step09::gemm(c, c, c, 2, 0, 2, MultiGpuOptions{});
    for (int i = 0; i < 6; ++i)
        EXPECT_EQ(c[i], static_cast<float>(i + 1));
    const float a[1] = {0}, b[1] = {0};
    step09::gemm(a, b, c, 2, 3, 0, MultiGpuOptions{});
    for (int i = 0; i < 6; ++i)
        EXPECT_EQ(c[i], 0.0f);
}

// ---- bad input and faults ---------------------------------------------------------------------

TEST(Step09Faults, NegativeSizesAndNullPointersAreRefused) {
    float x[4] = {};
    EXPECT_THROW(step09::gemm(x, x, x, -1, 2, 2, MultiGpuOptions{}), std::invalid_argument);
    EXPECT_THROW(step09::gemm(x, x, x, 2, 2, -2, MultiGpuOptions{}), std::invalid_argument);
    EXPECT_THROW(step09::gemm(nullptr, x, x, 2, 2, 1, MultiGpuOptions{}), std::invalid_argument);
}

TEST(Step09Faults, ZeroDevicesAreRefused) {
    MultiGpuOptions options;
    options.devices = {};
    expect_refused(options, "list of devices is empty");
}

TEST(Step09Faults, AnUnknownDeviceIsRefused) {
    TUTORIAL_REQUIRE_GPU();
    MultiGpuOptions options;
    options.devices = {0, tutorial::device_count()};
    expect_refused(options, "there is no device");
}

TEST(Step09Faults, ABudgetTooSmallForOnePanelIsRefused) {
    TUTORIAL_REQUIRE_GPU();
    MultiGpuOptions options;
    options.device_memory_bytes = 1000;
    expect_refused(options, "smallest budget that works");
}

TEST(Step09Faults, ABudgetLargerThanTheDeviceIsRefused) {
    TUTORIAL_REQUIRE_GPU();
    MultiGpuOptions options;
    options.device_memory_bytes = std::uint64_t{1} << 62;  // --device-memory 4194304TiB
    expect_refused(options, "is more than device 0 has");
}

TEST(Step09Faults, APlanMadeForOtherOptionsIsRefused) {
    // A plan for two entries run with one device: refused before any device is touched.
    step09::PlanRequest request;
    request.m = request.n = request.k = 4;
    request.entries = 2;
    request.budget_bytes = 1 << 20;
    const step09::Plan plan = step09::plan_multiply(request);
    float x[16] = {};
    MultiGpuOptions options;
    options.devices = {0};
    EXPECT_THROW(step09::gemm(x, x, x, plan, options), std::invalid_argument);
}

TEST(Step09Faults, InnerKernelNamesRoundTrip) {
    for (const InnerKernel inner : step09::all_inner_kernels())
        EXPECT_EQ(step09::parse_inner_kernel(step09::inner_kernel_name(inner)), inner);
    EXPECT_THROW(step09::parse_inner_kernel("cublas"), std::invalid_argument);
}
