#include <gtest/gtest.h>

#include "common/device_ids.hpp"

TEST(DeviceIds, EveryIdFromZeroToCountLessOneIsADevice) {
    for (int count = 1; count <= 8; ++count) {
        for (int id = 0; id < count; ++id)
            EXPECT_FALSE(tutorial::missing_device_reason(id, count)) << id << " of " << count;
    }
}

TEST(DeviceIds, AnIdOutsideTheRangeIsNamedWithTheIdsThatExist) {
    EXPECT_EQ(tutorial::missing_device_reason(2, 2),
              "there is no device 2; this machine has 2 (ids 0 to 1)");
    EXPECT_EQ(tutorial::missing_device_reason(99, 1),
              "there is no device 99; this machine has 1 (ids 0 to 0)");
    EXPECT_EQ(tutorial::missing_device_reason(-1, 4),
              "there is no device -1; this machine has 4 (ids 0 to 3)");
}

TEST(DeviceIds, NoDeviceAtAllSaysNone) {
    EXPECT_EQ(tutorial::missing_device_reason(0, 0), "there is no device 0; this machine has none");
}
