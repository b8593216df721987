// The host memory check every program makes before it allocates its matrices.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

#include "common/host_memory.hpp"

namespace {

constexpr std::uint64_t kGiB = 1ull << 30;

}  // namespace

TEST(HostMemory, MatricesLargerThanTheHostAreRefusedWithTheirSize) {
    // -s 46340: three 46340 x 46340 float matrices, 25.8 GB (just under 24 GiB), on a 24 GiB
    // machine, which has 22 GiB available to programs.
    const std::uint64_t needed = 3ull * 46340 * 46340 * sizeof(float);
    const auto why = tutorial::host_memory_shortfall(needed, 22 * kGiB, "A, B and C");
    ASSERT_TRUE(why.has_value());
    EXPECT_NE(why->find("A, B and C need 25.8 GB"), std::string::npos) << *why;
    EXPECT_NE(why->find("this machine has 23.6 GB (22.00 GiB) available"), std::string::npos)
        << *why;
    EXPECT_FALSE(tutorial::host_memory_shortfall(needed, 32 * kGiB, "A, B and C"));
    EXPECT_FALSE(tutorial::host_memory_shortfall(needed, std::nullopt, "A, B and C"));
}

TEST(HostMemory, TheAvailableMemoryIsReadWhereTheSystemSaysIt) {
    const auto available = tutorial::available_host_memory();
    if (!available)
        GTEST_SKIP() << "neither /proc/meminfo nor a cgroup limit can be read here";
    EXPECT_GT(*available, 0u);
}

TEST(HostMemory, EveryCopyOfTheMatricesCounts) {
    // Square matrices that take half the available memory: one copy fits, three do not (a GPU
    // program's matrices, their pinned copies and, on the CPU route, the device's buffers).
    const auto available = tutorial::available_host_memory();
    if (!available)
        GTEST_SKIP() << "neither /proc/meminfo nor a cgroup limit can be read here";
    const int side = static_cast<int>(std::sqrt(static_cast<double>(*available) / 24.0));
    EXPECT_FALSE(tutorial::gemm_host_memory_shortfall(side, side, side, 1));
    const auto three = tutorial::gemm_host_memory_shortfall(side, side, side, 3);
    ASSERT_TRUE(three.has_value());
    EXPECT_EQ(three->rfind("3 copies of A (" + std::to_string(side), 0), 0u) << *three;
}
