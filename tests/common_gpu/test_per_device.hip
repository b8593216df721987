#include <gtest/gtest.h>

#include "common/device.hpp"
#include "common/per_device.hpp"
#include "tests/support/gpu_test.hpp"

namespace {

// Remembers key * 10 + (how many times make ran so far), so a recomputed value differs from the
// remembered one.
int remembered(int key, int& made, std::size_t limit) {
    return tutorial::once_per_device_and_key(
        key, [&] { return key * 10 + made++; }, limit);
}

}  // namespace

TEST(PerDevice, EachKeyIsMadeOnceThenRemembered) {
    TUTORIAL_REQUIRE_GPU();
    tutorial::select_device(0);
    int made = 0;
    EXPECT_EQ(remembered(1, made, 3), 10);
    EXPECT_EQ(remembered(2, made, 3), 21);
    EXPECT_EQ(remembered(1, made, 3), 10);
    EXPECT_EQ(remembered(2, made, 3), 21);
    EXPECT_EQ(made, 2);
    // A third key fills the memory; a fourth starts it afresh, so key 1 is made again.
    EXPECT_EQ(remembered(3, made, 3), 32);
    EXPECT_EQ(remembered(4, made, 3), 43);
    EXPECT_EQ(remembered(1, made, 3), 14);
    EXPECT_EQ(made, 5);
}
