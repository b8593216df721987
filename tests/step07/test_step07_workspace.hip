// A workspace (split-K's partial tiles, packed copies) that cannot be allocated: step07::gemm must
// throw tutorial::RuntimeFailure with a message that says so, and leave the device's memory as it
// found it. Runs alone (CTest RUN_SERIAL), because it fills the device's memory and measures what
// is free.
#include <gtest/gtest.h>
#include <hip/hip_runtime.h>

#include <string>
#include <vector>

#include "common/device_buffer.hpp"
#include "common/errors.hpp"
#include "common/hip_check.hpp"
#include "common/matrix.hpp"
#include "common/verify.hpp"
#include "split_k_gemm.hpp"
#include "tests/support/gpu_test.hpp"

namespace {

std::size_t free_device_bytes() {
    HIP_CHECK(hipDeviceSynchronize());
    std::size_t free_bytes = 0, total_bytes = 0;
    HIP_CHECK(hipMemGetInfo(&free_bytes, &total_bytes));
    return free_bytes;
}

// Takes all but about `leave` bytes of the device's free memory, in pieces, until freed.
class MemoryHog {
  public:
    explicit MemoryHog(std::size_t leave) {
        std::size_t piece = std::size_t{1} << 30;
        while (piece >= (std::size_t{1} << 20)) {
            const std::size_t free_bytes = free_device_bytes();
            if (free_bytes <= leave + piece) {
                piece /= 2;
                continue;
            }
            void* pointer = nullptr;
            if (hipMalloc(&pointer, piece) != hipSuccess) {
                (void)hipGetLastError();
                piece /= 2;
                continue;
            }
            pieces_.push_back(pointer);
        }
    }
    ~MemoryHog() {
        for (void* pointer : pieces_)
            (void)hipFree(pointer);
    }
    MemoryHog(const MemoryHog&) = delete;
    MemoryHog& operator=(const MemoryHog&) = delete;

  private:
    std::vector<void*> pieces_;
};

}  // namespace

TEST(Step07Workspace, AllocationFailureIsReportedAndNothingLeaks) {
    TUTORIAL_REQUIRE_GPU();
    const int m = 1024, n = 1024, k = 2048;
    tutorial::Matrix<float> a(m, k), b(k, n), c(m, n);
    tutorial::fill_random(a, 801);
    tutorial::fill_random(b, 802);
    tutorial::DeviceBuffer<float> device_a(a.size()), device_b(b.size()), device_c(c.size());
    device_a.upload(a);
    device_b.upload(b);
    // Warm the stream-ordered allocator once, so that what it keeps is counted in `before`.
    step07::gemm(device_a.get(), device_b.get(), device_c.get(), m, n, k, nullptr,
                 step07::Config{step06::TileShape::t128x128, 2});
    const std::size_t before = free_device_bytes();
    {
        // 16 splits need 16 x 4 MiB = 64 MiB of workspace; leave about 16 MiB free.
        const MemoryHog hog(std::size_t{16} << 20);
        try {
            step07::gemm(device_a.get(), device_b.get(), device_c.get(), m, n, k, nullptr,
                         step07::Config{step06::TileShape::t128x128, 16});
            HIP_CHECK(hipDeviceSynchronize());
            FAIL() << "a 64 MiB workspace was allocated with about 16 MiB free";
        } catch (const tutorial::RuntimeFailure& error) {
            EXPECT_NE(std::string(error.what()).find("cannot allocate the workspace"),
                      std::string::npos)
                << error.what();
        }
    }
    // Nothing leaked: the device has what it had (the allocator's pool may hand back a little).
    const std::size_t after = free_device_bytes();
    EXPECT_GE(after + (std::size_t{2} << 20), before) << "before " << before << ", after " << after;
    // And the multiply still works once memory is back.
    step07::gemm(device_a.get(), device_b.get(), device_c.get(), m, n, k, nullptr,
                 step07::Config{step06::TileShape::t128x128, 16});
    HIP_CHECK(hipDeviceSynchronize());
    device_c.download(c);
    const auto report = tutorial::verify_gemm(a, b, c);
    EXPECT_TRUE(report.passed) << report.summary();
}
