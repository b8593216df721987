#include <gtest/gtest.h>

#include "common/device.hpp"
#include "common/gpu_gemm_runner.hpp"
#include "common/vendor_blas.hpp"
#include "common/verify.hpp"
#include "tests/support/gpu_test.hpp"

// The comparisons only mean something if the vendor BLAS computes in FP32: TF32 or another
// reduced-precision mode would fail the gamma_K bound by orders of magnitude.
TEST(VendorBlas, RowMajorProductWithinTheFp32Bound) {
    TUTORIAL_REQUIRE_GPU();
    tutorial::select_device(0);
    std::string why_not;
    auto blas = tutorial::make_vendor_blas(why_not);
    if (!blas)
        GTEST_SKIP() << why_not;
    for (const auto& [m, n, k] :
         {std::tuple{129, 65, 257}, std::tuple{1, 1, 1}, std::tuple{300, 517, 1024}}) {
        tutorial::Matrix<float> a(m, k), b(k, n);
        tutorial::fill_random(a, m);
        tutorial::fill_random(b, n);
        const tutorial::Matrix<float> c = tutorial::multiply_on_device<float>(
            a, b,
            [&](const float* da, const float* db, float* dc, int mm, int nn, int kk,
                hipStream_t s) { blas->sgemm(da, db, dc, mm, nn, kk, s); });
        const tutorial::VerifyReport report = tutorial::verify_gemm(a, b, c);
        EXPECT_TRUE(report.passed) << blas->name() << ": " << report.summary();
    }
}
