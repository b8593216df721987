// Step 05 on the GPU: each variant and block size through the shared kernel harness, the variant
// names, and the entry point's checks.
#include <gtest/gtest.h>
#include <hip/hip_runtime.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "lds_float4_gemm.hpp"
#include "tests/support/gpu_gemm_test.hpp"
#include "tests/support/kernel_suite.hpp"

using step05::Variant;

namespace {

// One kernel of the step: the variant and, for seed and lds_ab (named with it), the block size.
KernelUnderTest with(Variant variant, int block = 8) {
    std::string name = step05::variant_name(variant);
    if (variant == Variant::seed || variant == Variant::lds_ab)
        name += std::to_string(block);
    return {name, [variant, block](const float* a, const float* b, float* c, int m, int n, int k,
                                   hipStream_t stream) {
                step05::gemm(a, b, c, m, n, k, stream, variant, block);
            }};
}

std::vector<KernelUnderTest> step05_kernels() {
    return {with(Variant::seed, 8),    with(Variant::seed, 16), with(Variant::lds_ab, 8),
            with(Variant::lds_ab, 16), with(Variant::reg8x8),   with(Variant::reg8x8_db)};
}

}  // namespace

TUTORIAL_KERNEL_SUITES(Step05, step05_kernels);

// ---- no GPU needed ----------------------------------------------------------------------------

TEST(Step05Variants, NamesRoundTrip) {
    for (const Variant variant : step05::kAllVariants) {
        EXPECT_EQ(step05::parse_variant(step05::variant_name(variant)), variant)
            << step05::variant_name(variant);
    }
    EXPECT_STREQ(step05::variant_name(Variant::reg8x8_db), "reg8x8_db");
}

TEST(Step05Variants, UnknownNameIsRejected) {
    EXPECT_THROW(step05::parse_variant("reg8x8db"), std::invalid_argument);
    EXPECT_THROW(step05::parse_variant(""), std::invalid_argument);
}

TEST(Step05Variants, UnsupportedBlockIsRejectedBeforeLaunch) {
    EXPECT_THROW(step05::gemm(nullptr, nullptr, nullptr, 4, 4, 4, nullptr, Variant::seed, 12),
                 std::invalid_argument);
}

TEST(Step05Gemm, RejectsNegativeSizes) {
    for (const KernelUnderTest& kernel : step05_kernels()) {
        SCOPED_TRACE(kernel.name);
        tutorial_test::expect_negative_sizes_rejected(kernel.launch);
    }
}

TEST(Step05Gemm, RejectsSizesItCannotIndex) {
    for (const KernelUnderTest& kernel : step05_kernels()) {
        SCOPED_TRACE(kernel.name);
        tutorial_test::expect_unindexable_sizes_rejected(kernel.launch);
    }
}

TEST(Step05Gemm, EmptyProductLaunchesNothing) {
    tutorial_test::expect_empty_product_launches_nothing<float>(
        [](const float* a, const float* b, float* c, int m, int n, int k, hipStream_t stream) {
            step05::gemm(a, b, c, m, n, k, stream);
        });
    for (const KernelUnderTest& kernel : step05_kernels()) {
        SCOPED_TRACE(kernel.name);
        tutorial_test::expect_empty_product_launches_nothing(kernel.launch);
    }
}
