// Tiled-MM through bench/tiledmm_gemm.hpp on a GPU: row-major products of odd, non-square sizes
// with random inputs, from pinned host memory, against the double reference, with one context
// reused from product to product as the benchmark reuses it. Skipped, with the reason, without a
// GPU or on a build without Tiled-MM.
#include <gtest/gtest.h>

#include <cstring>
#include <tuple>

#include "bench/tiledmm_gemm.hpp"
#include "common/device.hpp"
#include "common/device_buffer.hpp"
#include "common/matrix.hpp"
#include "common/verify.hpp"
#include "tests/support/gpu_test.hpp"

namespace {

// The matrix in pinned host memory, where Tiled-MM copies from.
tutorial::PinnedBuffer<float> pinned_copy(const tutorial::Matrix<float>& matrix) {
    tutorial::PinnedBuffer<float> pinned(matrix.size());
    std::memcpy(pinned.get(), matrix.data(), matrix.bytes());
    return pinned;
}

TEST(TiledMmGpu, RowMajorOddProductsWithinTheFp32Bound) {
    TUTORIAL_REQUIRE_GPU();
    if (const auto why_not = bench::tiledmm_unavailable())
        GTEST_SKIP() << "Tiled-MM not built: " << *why_not;
    tutorial::select_device(0);
    // A tile of 128 cuts these into several tiles along every dimension, the last one short.
    bench::TiledMmContext context(/*tile=*/128, /*streams=*/3);
    for (const auto& [m, n, k] : {std::tuple{301, 517, 259}, std::tuple{1, 1, 1},
                                  std::tuple{129, 65, 1031}, std::tuple{700, 3, 383}}) {
        tutorial::Matrix<float> a(m, k), b(k, n), c(m, n);
        tutorial::fill_random(a, 11 * m + k);
        tutorial::fill_random(b, 13 * n + k);
        const auto host_a = pinned_copy(a), host_b = pinned_copy(b);
        tutorial::PinnedBuffer<float> host_c(c.size());
        std::memset(host_c.get(), 0xFF, c.bytes());  // NaN: an element never written fails
        bench::tiledmm_sgemm_row_major(context, m, n, k, host_a.get(), host_b.get(), host_c.get());
        std::memcpy(c.data(), host_c.get(), c.bytes());
        const tutorial::VerifyReport report = tutorial::verify_gemm(a, b, c);
        EXPECT_TRUE(report.passed) << m << " x " << n << " x " << k << ": " << report.summary();
    }
}

}  // namespace
