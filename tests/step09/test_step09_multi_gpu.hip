// Step 09 on two GPUs (label multi_gpu): the same multiply spread over devices 0 and 1, in any
// order and with repeats, both devices taking work, panels of B shared (on three and four devices
// too, where the machine has them), and an allocation that fails on the second device. On a machine
// with fewer GPUs than a test needs, the test is skipped with the reason.
#include <gtest/gtest.h>
#include <hip/hip_runtime.h>

#include <string>
#include <vector>

#include "common/device.hpp"
#include "common/errors.hpp"
#include "common/matrix.hpp"
#include "common/verify.hpp"
#include "multi_gpu_gemm.hpp"
#include "test_hooks.hpp"
#include "tests/step09/step09_test_support.hpp"

using step09::MultiGpuOptions;
using tutorial::Matrix;

namespace {

// Skips the current test, with the reason, unless two devices can be used.
#define REQUIRE_TWO_GPUS()                                                                     \
    do {                                                                                       \
        if (const auto no_gpu_ = ::tutorial::gpu_unavailable_reason())                         \
            GTEST_SKIP() << "needs two GPUs: " << *no_gpu_;                                    \
        if (::tutorial::device_count() < 2)                                                    \
            GTEST_SKIP() << "needs two GPUs; this machine has " << ::tutorial::device_count(); \
    } while (false)

// Creates the contexts of devices 0 and 1 up front, so neither worker starts late because its
// device was still being initialized.
void warm_up_two_devices() {
    step09_test::free_device_bytes(0);
    step09_test::free_device_bytes(1);
}

struct Case {
    const char* name;
    std::vector<int> devices;
    int m, n, k;
    int chunk_rows, panel_cols;
};

const Case kCases[] = {
    {"devices_0_1_odd_sizes", {0, 1}, 1031, 1025, 1037, 0, 0},
    {"devices_1_0_two_chunks", {1, 0}, 301, 517, 203, 151, 259},
    {"devices_0_1_0_1_many_chunks", {0, 1, 0, 1}, 777, 555, 333, 13, 61},
    {"devices_0_1_one_chunk_each", {0, 1}, 2, 3000, 5, 1, 0},
    {"devices_0_1_k_1", {0, 1}, 640, 480, 1, 0, 0},
};

void PrintTo(const Case& test_case, std::ostream* out) {
    *out << test_case.name;
}

}  // namespace

class Step09MultiGpu : public testing::TestWithParam<Case> {};

TEST_P(Step09MultiGpu, VerifiedAcrossDevices) {
    REQUIRE_TWO_GPUS();
    warm_up_two_devices();
    const Case& c = GetParam();
    Matrix<float> a(c.m, c.k), b(c.k, c.n);
    tutorial::fill_random(a, 10 + c.m);
    tutorial::fill_random(b, 20 + c.n);
    MultiGpuOptions options;
    options.devices = c.devices;
    options.chunk_rows = c.chunk_rows;
    options.panel_cols = c.panel_cols;
    step09::GemmStatistics statistics;
    const Matrix<float> result = step09_test::multiply(a, b, options, &statistics);
    const auto report = tutorial::verify_gemm(a, b, result);
    EXPECT_TRUE(report.passed) << report.summary();
    step09_test::expect_consistent(statistics, c.m, c.n, c.k);
    for (std::size_t i = 0; i < c.devices.size(); ++i)
        EXPECT_EQ(statistics.entries[i].device, c.devices[i]);
}

INSTANTIATE_TEST_SUITE_P(Cases, Step09MultiGpu, testing::ValuesIn(kCases),
                         [](const testing::TestParamInfo<Case>& info) { return info.param.name; });

TEST(Step09MultiGpuBalance, BothDevicesTakeChunks) {
    REQUIRE_TWO_GPUS();
    warm_up_two_devices();
    // The queue (panels not shared): 128 chunks, each of which multiplies all of B (16 MiB): tens
    // of milliseconds in all, and a worker takes a chunk only a step before it computes it, so the
    // other one cannot be left without work.
    step09_test::HostProduct product({8192, 2048, 2048}, 31);
    MultiGpuOptions options;
    options.devices = {0, 1};
    options.chunk_rows = 64;
    options.share_panels = false;
    const step09::GemmStatistics statistics = product.multiply(options);
    const auto report = product.verify();
    EXPECT_TRUE(report.passed) << report.summary();
    step09_test::expect_consistent(statistics, 8192, 2048, 2048);
    for (const step09::EntryStatistics& entry : statistics.entries) {
        EXPECT_GT(entry.chunks, 0) << "device " << entry.device << " took no chunk";
        std::cout << "device " << entry.device << ": " << entry.chunks << " chunks, "
                  << entry.compute_ms << " ms of kernels in " << entry.span_ms << " ms\n";
    }
}

namespace {

// The shared-panel product: odd sizes, k = 1037 rows of B split among the devices (518 / 519 on
// two), 17 chunks of 64 rows dealt in turns, several panels of 100 columns per device, panels that
// come back into buffers a peer has copied from.
constexpr int kSharedM = 1031, kSharedN = 1025, kSharedK = 1037, kSharedChunks = 17;

MultiGpuOptions shared_panel_options(int entries) {
    MultiGpuOptions options;
    options.devices.clear();  // the default is device 0
    for (int device = 0; device < entries; ++device) {
        step09_test::free_device_bytes(device);  // the device's context made up front
        options.devices.push_back(device);
    }
    options.chunk_rows = 64;
    options.panel_cols = 100;
    return options;
}

// Multiplies `product` on devices 0 to entries - 1 with panels shared and checks C and that every
// entry took its turns of the chunks and copied rows of B from its peers. Sets `shared` to false,
// and checks nothing, where the devices cannot share panels; the caller skips with the reason.
step09::GemmStatistics multiply_sharing(step09_test::HostProduct& product, int entries,
                                        bool& shared) {
    const MultiGpuOptions options = shared_panel_options(entries);
    product.poison_c();
    const step09::GemmStatistics statistics = product.multiply(options);
    shared = statistics.panels_shared;
    if (!shared)
        return statistics;
    const auto report = product.verify();
    EXPECT_TRUE(report.passed) << entries << " devices: " << report.summary();
    step09_test::expect_consistent(statistics, kSharedM, kSharedN, kSharedK);
    EXPECT_EQ(statistics.entries.size(), static_cast<std::size_t>(entries));
    for (std::size_t i = 0; i < statistics.entries.size(); ++i) {
        const int turns = kSharedChunks / entries + (static_cast<int>(i) < kSharedChunks % entries);
        EXPECT_EQ(statistics.entries[i].chunks, turns) << entries << " devices, entry " << i;
        EXPECT_GT(statistics.entries[i].bytes_from_peers, 0u) << entries << " devices, entry " << i;
    }
    return statistics;
}

}  // namespace

TEST(Step09MultiGpuSharedPanels, EachDeviceBringsItsShareAndTheProductIsTheSame) {
    REQUIRE_TWO_GPUS();
    step09_test::HostProduct product({kSharedM, kSharedN, kSharedK}, 51);
    bool shared = false;
    const step09::GemmStatistics with_peers = multiply_sharing(product, 2, shared);
    if (!shared)
        GTEST_SKIP() << "devices 0 and 1 cannot share panels: " << with_peers.panel_sharing;
    // The same product with each device bringing all of B from the host: the same C, more bytes
    // from the host.
    MultiGpuOptions options = shared_panel_options(2);
    options.share_panels = false;
    product.poison_c();
    const step09::GemmStatistics alone = product.multiply(options);
    EXPECT_FALSE(alone.panels_shared);
    const auto alone_report = product.verify();
    EXPECT_TRUE(alone_report.passed) << alone_report.summary();
    step09_test::expect_consistent(alone, kSharedM, kSharedN, kSharedK);
    ASSERT_EQ(with_peers.entries.size(), 2u);
    ASSERT_EQ(alone.entries.size(), 2u);
    std::uint64_t host_shared = 0, host_alone = 0;
    for (std::size_t i = 0; i < 2; ++i) {
        host_shared += with_peers.entries[i].bytes_to_device;
        host_alone += alone.entries[i].bytes_to_device;
    }
    EXPECT_LT(host_shared, host_alone);
}

TEST(Step09MultiGpuSharedPanels, ThreeAndFourDevicesEachBringTheirShare) {
    REQUIRE_TWO_GPUS();
    const int count = tutorial::device_count();
    if (count < 3)
        GTEST_SKIP() << "needs three or more GPUs; this machine has " << count;
    // k split 345 / 346 / 346 on three devices and 259 / 259 / 259 / 260 on four; the 17 chunks
    // dealt 6, 6, 5 and 5, 4, 4, 4.
    step09_test::HostProduct product({kSharedM, kSharedN, kSharedK}, 57);
    for (int entries = 3; entries <= (count < 4 ? count : 4); ++entries) {
        bool shared = false;
        const step09::GemmStatistics statistics = multiply_sharing(product, entries, shared);
        if (!shared)
            GTEST_SKIP() << entries << " devices cannot share panels: " << statistics.panel_sharing;
    }
}

TEST(Step09MultiGpuSharedPanels, ADeviceListedTwiceDoesNotShare) {
    REQUIRE_TWO_GPUS();
    warm_up_two_devices();
    step09_test::HostProduct product({300, 257, 129}, 53);
    MultiGpuOptions options;
    options.devices = {0, 1, 0};
    options.chunk_rows = 32;
    const step09::GemmStatistics statistics = product.multiply(options);
    EXPECT_FALSE(statistics.panels_shared);
    EXPECT_NE(statistics.panel_sharing.find("device 0 is listed twice"), std::string::npos)
        << statistics.panel_sharing;
}

TEST(Step09MultiGpuFaults, AllocationFailureOnTheSecondDevice) {
    REQUIRE_TWO_GPUS();
    warm_up_two_devices();
    step09_test::HostProduct product({1000, 800, 600}, 41);
    MultiGpuOptions options;
    options.devices = {0, 1};
    options.chunk_rows = 32;
    product.multiply(options);  // a first, healthy call
    const std::size_t before[2] = {step09_test::free_device_bytes(0),
                                   step09_test::free_device_bytes(1)};

    const step09::test_hooks::FailAllocationOnEntry fault(1);
    const std::exception_ptr error =
        step09_test::run_with_deadline([&] { product.multiply(options); }, 120);
    ASSERT_TRUE(error) << "device 1 could not allocate, yet gemm succeeded";
    try {
        std::rethrow_exception(error);
    } catch (const tutorial::RuntimeFailure& failure) {
        EXPECT_NE(std::string(failure.what()).find("out of device memory"), std::string::npos)
            << failure.what();
        EXPECT_NE(std::string(failure.what()).find("device 1"), std::string::npos)
            << failure.what();
    } catch (const std::exception& other) {
        ADD_FAILURE() << "expected a RuntimeFailure, got: " << other.what();
    }
    for (int device = 0; device < 2; ++device) {
        const std::size_t after = step09_test::free_device_bytes(device);
        EXPECT_LE(before[device], after + step09_test::kMemoryTolerance)
            << "device " << device << " did not get its memory back";
    }
}
