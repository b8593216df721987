#include <gtest/gtest.h>

#include <hip/hip_runtime.h>

#include <cstdint>
#include <ostream>
#include <stdexcept>
#include <string>
#include <tuple>

#include "common/command_line.hpp"
#include "common/device.hpp"
#include "common/matrix.hpp"
#include "common/verify.hpp"
#include "naive_gemm.hpp"
#include "tests/support/gpu_gemm_test.hpp"
#include "tests/support/gpu_test.hpp"
#include "tests/support/shapes.hpp"

using tutorial::Matrix;

namespace {

// The two thread mappings of step 02; both must give the same, correct product.
enum class Mapping { kCoalesced, kSwapped };

std::string mapping_name(Mapping mapping) {
    return mapping == Mapping::kCoalesced ? "coalesced" : "swapped";
}

// Lets GoogleTest print the parameter by name in its listings and failure messages.
void PrintTo(Mapping mapping, std::ostream* out) {
    *out << mapping_name(mapping);
}

// Either mapping with `block_edge`, as a launcher.
template <typename T>
tutorial::GemmLauncher<T> launcher(Mapping mapping, int block_edge = 16) {
    return [mapping, block_edge](const T* a, const T* b, T* c, int m, int n, int k,
                                 hipStream_t stream) {
        if (mapping == Mapping::kCoalesced) {
            step02::gemm(a, b, c, m, n, k, stream, block_edge);
        } else {
            step02::gemm_swapped_mapping(a, b, c, m, n, k, stream, block_edge);
        }
    };
}

// Runs `runs` multiplies into one C that starts as `c_before` (see tutorial_test::multiply_over)
// with either mapping.
template <typename T>
Matrix<T> multiply(Mapping mapping, const Matrix<T>& a, const Matrix<T>& b,
                   const Matrix<T>& c_before, int block_edge, int runs = 1) {
    return tutorial_test::multiply_over<T>(a, b, c_before, launcher<T>(mapping, block_edge), runs);
}

using tutorial_test::garbage;
using tutorial_test::Shape;
using tutorial_test::shape_name;

}  // namespace

class Step02WorkedExample : public testing::TestWithParam<std::tuple<Mapping, int>> {};

TEST_P(Step02WorkedExample, MatchesTheHandComputedProduct) {
    TUTORIAL_REQUIRE_GPU();
    tutorial::select_device(0);
    const auto [mapping, block_edge] = GetParam();
    const Matrix<int> a{{1, 4}, {2, 5}, {3, 6}};
    const Matrix<int> b{{7, 8, 9}, {10, 11, 12}};
    const Matrix<int> c = multiply(mapping, a, b, garbage<int>(3, 3, 1), block_edge);
    const int expected[3][3] = {{47, 52, 57}, {64, 71, 78}, {81, 90, 99}};
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            EXPECT_EQ(c(i, j), expected[i][j]) << "C(" << i << ", " << j << ")";
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Mappings, Step02WorkedExample,
                         testing::Combine(testing::Values(Mapping::kCoalesced, Mapping::kSwapped),
                                          testing::Values(16, 8, 32)),
                         [](const testing::TestParamInfo<std::tuple<Mapping, int>>& info) {
                             return mapping_name(std::get<0>(info.param)) + "_b" +
                                    std::to_string(std::get<1>(info.param));
                         });

TEST(Step02, OverwritesInsteadOfAccumulating) {
    TUTORIAL_REQUIRE_GPU();
    tutorial::select_device(0);
    const auto [a, b] = tutorial_test::random_operands<int>({5, 6, 4}, 11, 12, -9, 9);
    // Run twice into the same C: the second result must equal the first, not twice it.
    for (Mapping mapping : {Mapping::kCoalesced, Mapping::kSwapped}) {
        const Matrix<int> twice = multiply(mapping, a, b, garbage<int>(5, 6, 13), 16, 2);
        const auto report = tutorial::verify_gemm(a, b, twice);
        EXPECT_TRUE(report.passed) << mapping_name(mapping) << ": " << report.summary();
    }
}

class Step02Shapes : public testing::TestWithParam<std::tuple<Shape, Mapping, int>> {};

TEST_P(Step02Shapes, IntegersMatchExactly) {
    TUTORIAL_REQUIRE_GPU();
    tutorial::select_device(0);
    const auto [s, mapping, block_edge] = GetParam();
    tutorial_test::expect_shape_over_garbage<int>(s, launcher<int>(mapping, block_edge));
}

TEST_P(Step02Shapes, FloatsWithinTheBound) {
    TUTORIAL_REQUIRE_GPU();
    tutorial::select_device(0);
    const auto [s, mapping, block_edge] = GetParam();
    tutorial_test::expect_shape_over_garbage<float>(s, launcher<float>(mapping, block_edge));
}

// 1x1x1; K = 1; primes; a single row and a single column; sizes just below and above a multiple of
// every block edge; non-square in each direction; one size above 1000 in every dimension.
INSTANTIATE_TEST_SUITE_P(
    Shapes, Step02Shapes,
    testing::Combine(testing::Values(Shape{1, 1, 1}, Shape{40, 30, 1}, Shape{17, 31, 13},
                                     Shape{1, 50, 40}, Shape{64, 1, 33}, Shape{31, 33, 7},
                                     Shape{65, 63, 32}, Shape{7, 129, 5}, Shape{129, 65, 257},
                                     Shape{1031, 1025, 1037}),
                     testing::Values(Mapping::kCoalesced, Mapping::kSwapped),
                     testing::Values(16, 8, 32)),
    [](const testing::TestParamInfo<std::tuple<Shape, Mapping, int>>& info) {
        return shape_name(std::get<0>(info.param)) + "_" + mapping_name(std::get<1>(info.param)) +
               "_b" + std::to_string(std::get<2>(info.param));
    });

// The command line allows 65536 rows (or columns): the largest grid along y that the swapped
// mapping and 8 x 8 blocks then need is 8192 blocks, well within one launch.
TEST(Step02, LargestDimensionTheCommandLineAllows) {
    TUTORIAL_REQUIRE_GPU();
    tutorial::select_device(0);
    const int long_side = static_cast<int>(tutorial::kMaxDimension);
    {
        Matrix<int> a(long_side, 2), b(2, 3);
        tutorial::fill_random(a, 21, -20, 20);
        tutorial::fill_random(b, 22, -20, 20);
        const Matrix<int> c =
            multiply(Mapping::kCoalesced, a, b, garbage<int>(long_side, 3, 23), 8);
        const auto report = tutorial::verify_gemm(a, b, c);
        EXPECT_TRUE(report.passed) << "coalesced: " << report.summary();
    }
    {
        Matrix<int> a(3, 2), b(2, long_side);
        tutorial::fill_random(a, 24, -20, 20);
        tutorial::fill_random(b, 25, -20, 20);
        const Matrix<int> c = multiply(Mapping::kSwapped, a, b, garbage<int>(3, long_side, 26), 8);
        const auto report = tutorial::verify_gemm(a, b, c);
        EXPECT_TRUE(report.passed) << "swapped: " << report.summary();
    }
}

// The argument checks come before any HIP call, so these need no GPU.
TEST(Step02, RefusesABlockEdgeOutsideOneTo32) {
    for (int block_edge : {0, -4, 33, 64}) {
        EXPECT_THROW(step02::gemm<float>(nullptr, nullptr, nullptr, 4, 4, 4, nullptr, block_edge),
                     std::invalid_argument)
            << "block_edge " << block_edge;
        EXPECT_THROW(step02::gemm_swapped_mapping<float>(nullptr, nullptr, nullptr, 4, 4, 4,
                                                         nullptr, block_edge),
                     std::invalid_argument)
            << "block_edge " << block_edge;
    }
}

TEST(Step02, RefusesNegativeSizes) {
    for (Mapping mapping : {Mapping::kCoalesced, Mapping::kSwapped}) {
        SCOPED_TRACE(mapping_name(mapping));
        tutorial_test::expect_negative_sizes_rejected(launcher<float>(mapping));
        tutorial_test::expect_negative_sizes_rejected(launcher<int>(mapping));
    }
}

TEST(Step02, RefusesSizesItCannotIndex) {
    for (Mapping mapping : {Mapping::kCoalesced, Mapping::kSwapped}) {
        SCOPED_TRACE(mapping_name(mapping));
        const bool columns_on_y = mapping == Mapping::kSwapped;
        tutorial_test::expect_unindexable_sizes_rejected(launcher<float>(mapping), columns_on_y);
        tutorial_test::expect_unindexable_sizes_rejected(launcher<int>(mapping), columns_on_y);
    }
}

TEST(Step02, EmptyProductLaunchesNothing) {
    for (Mapping mapping : {Mapping::kCoalesced, Mapping::kSwapped}) {
        SCOPED_TRACE(mapping_name(mapping));
        tutorial_test::expect_empty_product_launches_nothing(launcher<float>(mapping));
        tutorial_test::expect_empty_product_launches_nothing(launcher<int>(mapping));
    }
}
