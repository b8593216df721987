#include <gtest/gtest.h>

#include <string>

#include "common/device.hpp"
#include "common/device_buffer.hpp"
#include "common/errors.hpp"
#include "common/hip_check.hpp"
#include "common/hip_handles.hpp"
#include "common/matrix.hpp"
#include "tests/support/gpu_test.hpp"

using tutorial::Matrix;

TEST(DeviceBuffer, MatrixRoundTrip) {
    TUTORIAL_REQUIRE_GPU();
    tutorial::select_device(0);
    Matrix<float> host(37, 53);
    tutorial::fill_random(host, 17);
    tutorial::DeviceBuffer<float> device(host.size());
    EXPECT_EQ(device.bytes(), host.bytes());
    device.upload(host);
    Matrix<float> back(37, 53);
    device.download(back);
    for (std::size_t i = 0; i < host.size(); ++i)
        ASSERT_EQ(back.data()[i], host.data()[i]) << "index " << i;
}

TEST(DeviceBuffer, SizeMismatchIsRefused) {
    TUTORIAL_REQUIRE_GPU();
    tutorial::select_device(0);
    tutorial::DeviceBuffer<float> device(10);
    const Matrix<float> host(3, 3);
    EXPECT_THROW(device.upload(host), std::invalid_argument);
}

TEST(DeviceBuffer, MoveTransfersOwnership) {
    TUTORIAL_REQUIRE_GPU();
    tutorial::select_device(0);
    tutorial::DeviceBuffer<int> first(64);
    int* pointer = first.get();
    tutorial::DeviceBuffer<int> second(std::move(first));
    EXPECT_EQ(second.get(), pointer);
    EXPECT_EQ(first.get(), nullptr);
    EXPECT_EQ(second.size(), 64u);
}

TEST(DeviceBuffer, OutOfMemoryNamesBytesAndDevice) {
    TUTORIAL_REQUIRE_GPU();
    const tutorial::DeviceInfo info = tutorial::select_device(0);
    const std::size_t too_many = info.global_memory_bytes * 4;
    try {
        tutorial::DeviceBuffer<char> huge(too_many);
        FAIL() << "allocating " << too_many << " bytes succeeded";
    } catch (const tutorial::RuntimeFailure& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find("out of device memory"), std::string::npos) << message;
        EXPECT_NE(message.find(std::to_string(too_many) + " bytes"), std::string::npos) << message;
        EXPECT_NE(message.find("device 0 (" + info.name + ")"), std::string::npos) << message;
    }
    // The failed allocation leaves the device usable.
    tutorial::DeviceBuffer<float> small(16);
    EXPECT_NE(small.get(), nullptr);
}

TEST(PinnedBuffer, AsyncRoundTripThroughDevice) {
    TUTORIAL_REQUIRE_GPU();
    tutorial::select_device(0);
    const std::size_t count = 1 << 16;
    tutorial::PinnedBuffer<float> in(count), out(count);
    for (std::size_t i = 0; i < count; ++i)
        in[i] = static_cast<float>(i) * 0.5f - 7.0f;
    tutorial::DeviceBuffer<float> device(count);
    const tutorial::Stream stream;
    HIP_CHECK(
        hipMemcpyAsync(device.get(), in.get(), in.bytes(), hipMemcpyHostToDevice, stream.get()));
    HIP_CHECK(
        hipMemcpyAsync(out.get(), device.get(), out.bytes(), hipMemcpyDeviceToHost, stream.get()));
    stream.synchronize();
    for (std::size_t i = 0; i < count; ++i)
        ASSERT_EQ(out[i], in[i]) << "index " << i;
}

TEST(SelectDevice, UnknownIdIsAUsageError) {
    TUTORIAL_REQUIRE_GPU();
    const int count = tutorial::device_count();
    try {
        tutorial::select_device(count);
        FAIL() << "device " << count << " was accepted";
    } catch (const tutorial::UsageError& error) {
        EXPECT_NE(std::string(error.what()).find("there is no device " + std::to_string(count)),
                  std::string::npos);
    }
}

TEST(HipCheck, NamesExpressionErrorFileAndLine) {
    TUTORIAL_REQUIRE_GPU();
    tutorial::select_device(0);
    int line = 0;
    try {
        line = __LINE__ + 1;
        HIP_CHECK(hipMemcpy(nullptr, reinterpret_cast<void*>(16), 64, hipMemcpyDeviceToDevice));
        FAIL() << "an invalid copy succeeded";
    } catch (const tutorial::RuntimeFailure& error) {
        const std::string message = error.what();
        EXPECT_NE(
            message.find(
                "'hipMemcpy(nullptr, reinterpret_cast<void*>(16), 64, hipMemcpyDeviceToDevice)'"),
            std::string::npos)
            << message;
        EXPECT_NE(message.find("test_device_buffer.hip:" + std::to_string(line)), std::string::npos)
            << message;
        EXPECT_NE(message.find("failed with "), std::string::npos) << message;
    }
    (void)hipGetLastError();
}
