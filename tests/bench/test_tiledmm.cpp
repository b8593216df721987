// Tiled-MM behind bench/tiledmm_gemm.hpp, without a GPU: a build says whether it has Tiled-MM, one
// without it says "not built" wherever it is asked, and the sizes Tiled-MM cannot address (int
// offsets into the host matrices) are refused before it is called.
#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include "bench/tiledmm_gemm.hpp"
#include "common/errors.hpp"

namespace {

// TUTORIAL_TEST_TILED_MM_BUILT: whether CMake built bench_tiledmm from Tiled-MM.
TEST(TiledMm, SaysWhetherThisBuildHasIt) {
    const auto why_not = bench::tiledmm_unavailable();
    if (TUTORIAL_TEST_TILED_MM_BUILT) {
        EXPECT_FALSE(why_not) << *why_not;
        EXPECT_EQ(bench::tiledmm_name().rfind("Tiled-MM 2.", 0), 0u) << bench::tiledmm_name();
        return;
    }
    ASSERT_TRUE(why_not);
    EXPECT_GT(why_not->size(), 10u);
    EXPECT_EQ(bench::tiledmm_name(), "Tiled-MM not built: " + *why_not);
    try {
        bench::TiledMmContext context(256, 2);
        ADD_FAILURE() << "a context was made without Tiled-MM";
    } catch (const tutorial::RuntimeFailure& error) {
        EXPECT_EQ(std::string(error.what()), bench::tiledmm_name());
    }
}

// Checked before any device is touched, so it runs without a GPU where Tiled-MM is built.
TEST(TiledMm, ContextRefusesTilesAndStreamsOutOfRange) {
    if (!TUTORIAL_TEST_TILED_MM_BUILT)
        GTEST_SKIP() << bench::tiledmm_name();
    for (const auto& [tile, streams] :
         {std::pair{0, 2}, std::pair{bench::kTiledMmMaxTile + 1, 1}, std::pair{256, 0},
          std::pair{256, bench::kTiledMmMaxStreams + 1}}) {
        EXPECT_THROW({ bench::TiledMmContext context(tile, streams); }, std::invalid_argument)
            << "tile " << tile << ", " << streams << " streams";
    }
}

// The largest tile with the most streams still fits Tiled-MM's int-sized device buffers.
TEST(TiledMm, LargestContextIsAddressableWithInt) {
    EXPECT_LE(static_cast<long long>(bench::kTiledMmMaxStreams) * bench::kTiledMmMaxTile *
                  bench::kTiledMmMaxTile,
              std::numeric_limits<int>::max());
}

TEST(TiledMm, RefusesMatricesPast2To31Elements) {
    EXPECT_FALSE(bench::tiledmm_size_refused(16384, 16384, 16384));
    EXPECT_FALSE(bench::tiledmm_size_refused(46340, 46340, 46340));
    EXPECT_FALSE(bench::tiledmm_size_refused(1, 1, std::numeric_limits<int>::max()));
    for (const auto& [m, n, k] : {std::tuple{46341, 46341, 1}, std::tuple{2, 1, 1 << 30},
                                  std::tuple{1, 1 << 30, 2}, std::tuple{90000, 90000, 90000}}) {
        const auto refused = bench::tiledmm_size_refused(m, n, k);
        ASSERT_TRUE(refused) << m << " x " << n << " x " << k;
        EXPECT_NE(refused->find(std::to_string(m) + " x " + std::to_string(n) + " x " +
                                std::to_string(k)),
                  std::string::npos)
            << *refused;
    }
}

}  // namespace
