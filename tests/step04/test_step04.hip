#include <gtest/gtest.h>
#include <hip/hip_runtime.h>

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "common/device_buffer.hpp"
#include "common/hip_check.hpp"
#include "common/matrix.hpp"
#include "common/verify.hpp"
#include "steps/04_tiled_16x16/tiled_gemm.hpp"
#include "tests/support/gpu_gemm_test.hpp"
#include "tests/support/gpu_test.hpp"
#include "tests/support/shapes.hpp"

using tutorial::Matrix;

namespace {

// step04::gemm with `tile`, as a launcher.
template <typename T>
tutorial::GemmLauncher<T> launcher(int tile) {
    return [tile](const T* a, const T* b, T* c, int m, int n, int k, hipStream_t stream) {
        step04::gemm(a, b, c, m, n, k, stream, tile);
    };
}

// Runs step04::gemm with `tile` over a C full of garbage (see tutorial_test::multiply_over).
template <typename T>
Matrix<T> multiply_over_garbage(const Matrix<T>& a, const Matrix<T>& b, int tile,
                                std::uint64_t garbage_seed) {
    return tutorial_test::multiply_over<T>(
        a, b, tutorial_test::garbage<T>(a.rows(), b.cols(), garbage_seed), launcher<T>(tile));
}

const int kTiles[] = {8, 16, 32};

std::string tile_name(const testing::TestParamInfo<int>& info) {
    return "tile" + std::to_string(info.param);
}

}  // namespace

// ---- per tile size ----

class Step04Tile : public testing::TestWithParam<int> {};

TEST_P(Step04Tile, WorkedExampleExactly) {
    TUTORIAL_REQUIRE_GPU();
    const Matrix<int> a = tutorial_test::worked_example_matrix<int>();
    tutorial_test::expect_worked_example_product(multiply_over_garbage(a, a, GetParam(), 11));
}

TEST_P(Step04Tile, OverwritesInsteadOfAccumulating) {
    TUTORIAL_REQUIRE_GPU();
    const int tile = GetParam();
    const auto [a, b] = tutorial_test::random_operands<int>(
        {2 * tile + 3, tile + 5, 3 * tile - 1}, 100 * tile + 21, 100 * tile + 22, -9, 9);
    // Twice into the same C: a kernel that adds to C would end with twice the product plus garbage.
    const Matrix<int> c = tutorial_test::multiply_over<int>(
        a, b, tutorial_test::garbage<int>(a.rows(), b.cols(), 100 * tile + 23), launcher<int>(tile),
        2);
    const auto report = tutorial::verify_gemm(a, b, c);
    EXPECT_TRUE(report.passed) << report.summary();
}

// Nearly the tallest C the command line allows (65536 rows): one row less, so that the last row of
// tiles is partial for every tile size.
TEST_P(Step04Tile, TallestMatrixTheCommandLineAllows) {
    TUTORIAL_REQUIRE_GPU();
    const int tile = GetParam();
    const int m = 65535, n = 3, k = 2;
    Matrix<int> a(m, k), b(k, n);
    tutorial::fill_random(a, 100 * tile + 31, -50, 50);
    tutorial::fill_random(b, 100 * tile + 32, -50, 50);
    const Matrix<int> c = multiply_over_garbage(a, b, tile, 100 * tile + 33);
    const auto report = tutorial::verify_gemm(a, b, c);
    EXPECT_TRUE(report.passed) << report.summary();
    EXPECT_EQ(report.checked, static_cast<std::size_t>(m) * n);
}

INSTANTIATE_TEST_SUITE_P(Tiles, Step04Tile, testing::ValuesIn(kTiles), tile_name);

// ---- every shape with every tile size ----

using tutorial_test::Shape;

// The common edge cases, then for each tile t sizes one below, at and one above a multiple of t.
std::vector<Shape> shapes() {
    std::vector<Shape> list = {
        {1, 1, 1},   {40, 30, 1}, {17, 31, 13},   {7, 13, 5},
        {64, 1, 33}, {1, 50, 40}, {129, 65, 257}, {1031, 1025, 1037},
    };
    for (const int t : kTiles) {
        list.push_back({t - 1, t - 1, t - 1});
        list.push_back({t, t, t});
        list.push_back({t + 1, t + 1, t + 1});
        list.push_back({2 * t + 1, 2 * t - 1, 2 * t});
    }
    return list;
}

class Step04Shapes : public testing::TestWithParam<std::tuple<Shape, int>> {};

// Different for every shape and tile, so no two tests share inputs.
std::uint64_t seed_for(const Shape& s, int tile) {
    return 1000003ULL * s.m + 10007ULL * s.n + 101ULL * s.k + tile;
}

TEST_P(Step04Shapes, IntegersMatchExactly) {
    TUTORIAL_REQUIRE_GPU();
    const auto [s, tile] = GetParam();
    const std::uint64_t seed = seed_for(s, tile);
    tutorial_test::expect_product_over_garbage<int>(s, launcher<int>(tile), seed, seed + 1,
                                                    seed + 2);
}

TEST_P(Step04Shapes, FloatsWithinTheBound) {
    TUTORIAL_REQUIRE_GPU();
    const auto [s, tile] = GetParam();
    const std::uint64_t seed = seed_for(s, tile);
    tutorial_test::expect_product_over_garbage<float>(s, launcher<float>(tile), seed + 3, seed + 4,
                                                      seed + 5);
}

std::string shape_and_tile_name(const testing::TestParamInfo<std::tuple<Shape, int>>& info) {
    return tutorial_test::shape_name(std::get<0>(info.param)) + "_tile" +
           std::to_string(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(ShapesAndTiles, Step04Shapes,
                         testing::Combine(testing::ValuesIn(shapes()), testing::ValuesIn(kTiles)),
                         shape_and_tile_name);

// ---- the entry point's checks, which need no GPU ----

TEST(Step04Gemm, RejectsTilesItWasNotCompiledFor) {
    for (const int tile : {0, 1, 4, 12, 24, 64, -16}) {
        EXPECT_THROW(step04::gemm<float>(nullptr, nullptr, nullptr, 1, 1, 1, nullptr, tile),
                     std::invalid_argument)
            << "tile " << tile;
    }
}

TEST(Step04Gemm, RejectsNegativeSizes) {
    for (const int tile : kTiles) {
        SCOPED_TRACE("tile " + std::to_string(tile));
        tutorial_test::expect_negative_sizes_rejected(launcher<float>(tile));
        tutorial_test::expect_negative_sizes_rejected(launcher<int>(tile));
    }
}

TEST(Step04Gemm, RejectsSizesItCannotIndex) {
    for (const int tile : kTiles) {
        SCOPED_TRACE("tile " + std::to_string(tile));
        tutorial_test::expect_unindexable_sizes_rejected(launcher<float>(tile));
        tutorial_test::expect_unindexable_sizes_rejected(launcher<int>(tile));
    }
}

TEST(Step04Gemm, EmptyProductLaunchesNothing) {
    for (const int tile : kTiles) {
        SCOPED_TRACE("tile " + std::to_string(tile));
        tutorial_test::expect_empty_product_launches_nothing(launcher<float>(tile));
        tutorial_test::expect_empty_product_launches_nothing(launcher<int>(tile));
    }
}
