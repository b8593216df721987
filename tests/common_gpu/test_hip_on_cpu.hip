// What common/hip_on_cpu adds to the HIP CPU Runtime, on the CPU route only (the GPU routes get
// the same behaviour from their drivers, which tests/common_gpu checks through the other files).
#include <gtest/gtest.h>

#include <hip/hip_runtime.h>

#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "common/hip_check.hpp"

namespace {

__global__ void fill_with_index(int* values, int count) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        values[i] = i;
}

// Sets HIP_VISIBLE_DEVICES for one scope, then restores what was there.
class VisibleDevices {
  public:
    explicit VisibleDevices(const char* value) {
        if (const char* old = std::getenv("HIP_VISIBLE_DEVICES"))
            old_ = old;
        had_old_ = std::getenv("HIP_VISIBLE_DEVICES") != nullptr;
        setenv("HIP_VISIBLE_DEVICES", value, 1);
    }
    ~VisibleDevices() {
        if (had_old_)
            setenv("HIP_VISIBLE_DEVICES", old_.c_str(), 1);
        else
            unsetenv("HIP_VISIBLE_DEVICES");
    }

  private:
    std::string old_;
    bool had_old_ = false;
};

int visible_count(const char* value, hipError_t* status) {
    const VisibleDevices scope(value);
    int count = -1;
    *status = hipGetDeviceCount(&count);
    return count;
}

}  // namespace

TEST(HipOnCpu, VisibleDevicesHidesOrShowsTheOneDevice) {
    hipError_t status = hipSuccess;
    EXPECT_EQ(visible_count("0", &status), 1);
    EXPECT_EQ(status, hipSuccess);
    EXPECT_EQ(visible_count("-1", &status), 0);
    EXPECT_EQ(status, hipErrorNoDevice);
    EXPECT_EQ(visible_count("1", &status), 0);  // there is no device 1
    EXPECT_EQ(status, hipErrorNoDevice);
    EXPECT_EQ(visible_count("0,1", &status),
              1);  // the list stops at the first id that is no device
    EXPECT_EQ(status, hipSuccess);
    EXPECT_EQ(visible_count("0,0", &status), 0);  // an id named twice hides every device
    EXPECT_EQ(status, hipErrorNoDevice);
}

TEST(HipOnCpu, AllocationsAreCountedRefusedBeyondTheFreeMemoryAndAligned) {
    std::size_t free_before = 0, total = 0;
    HIP_CHECK(hipMemGetInfo(&free_before, &total));
    ASSERT_GT(free_before, 0u);
    EXPECT_LE(free_before, total);
    void* pointer = reinterpret_cast<void*>(1);
    EXPECT_EQ(hipMalloc(&pointer, free_before + 1), hipErrorOutOfMemory);
    EXPECT_EQ(pointer, nullptr);

    float* small = nullptr;
    HIP_CHECK(hipMalloc(&small, 3 * sizeof(float)));
    ASSERT_NE(small, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(small) % 256, 0u);
    std::size_t free_during = 0;
    HIP_CHECK(hipMemGetInfo(&free_during, &total));
    EXPECT_EQ(free_during, free_before - 3 * sizeof(float));
    HIP_CHECK(hipFree(small));
    std::size_t free_after = 0;
    HIP_CHECK(hipMemGetInfo(&free_after, &total));
    EXPECT_EQ(free_after, free_before);
}

TEST(HipOnCpu, StreamOrderedAllocationIsUsableByTheNextLaunch) {
    hipStream_t stream = nullptr;
    HIP_CHECK(hipStreamCreate(&stream));
    const int count = 1000;
    int* values = nullptr;
    HIP_CHECK(hipMallocAsync(&values, count * sizeof(int), stream));
    ASSERT_NE(values, nullptr) << "the pointer must be set when hipMallocAsync returns";
    hipLaunchKernelGGL(fill_with_index, dim3((count + 255) / 256), dim3(256), 0, stream, values,
                       count);
    HIP_CHECK_LAUNCH();
    std::vector<int> host(count, -1);
    HIP_CHECK(
        hipMemcpyAsync(host.data(), values, count * sizeof(int), hipMemcpyDeviceToHost, stream));
    HIP_CHECK(hipFreeAsync(values, stream));
    HIP_CHECK(hipStreamSynchronize(stream));
    for (int i = 0; i < count; ++i)
        ASSERT_EQ(host[i], i) << "index " << i;
    std::size_t free_bytes = 0, total = 0;
    HIP_CHECK(hipMemGetInfo(&free_bytes, &total));
    std::size_t free_again = 0;
    HIP_CHECK(hipMallocAsync(&values, 64, stream));
    HIP_CHECK(hipFreeAsync(values, stream));
    HIP_CHECK(hipMemGetInfo(&free_again, &total));
    EXPECT_EQ(free_again, free_bytes);
    HIP_CHECK(hipStreamDestroy(stream));
}

TEST(HipOnCpu, StreamWaitingForAnEventOfAStreamCreatedLaterDoesNotHang) {
    // The stream processor takes the streams in turn; a waiting stream taken before the stream
    // that records the event hung the runtime's own hipStreamWaitEvent.
    hipStream_t waiting = nullptr, producing = nullptr;
    HIP_CHECK(hipStreamCreate(&waiting));
    HIP_CHECK(hipStreamCreate(&producing));
    hipEvent_t produced = nullptr;
    HIP_CHECK(hipEventCreate(&produced));
    const int count = 4096;
    int* values = nullptr;
    HIP_CHECK(hipMalloc(&values, count * sizeof(int)));
    hipLaunchKernelGGL(fill_with_index, dim3(count / 256), dim3(256), 0, producing, values, count);
    HIP_CHECK_LAUNCH();
    HIP_CHECK(hipEventRecord(produced, producing));
    HIP_CHECK(hipStreamWaitEvent(waiting, produced, 0));
    std::vector<int> host(count, -1);
    HIP_CHECK(
        hipMemcpyAsync(host.data(), values, count * sizeof(int), hipMemcpyDeviceToHost, waiting));
    HIP_CHECK(hipStreamSynchronize(waiting));
    for (int i = 0; i < count; i += 97)
        ASSERT_EQ(host[i], i) << "index " << i;
    // An event never recorded has nothing to wait for.
    hipEvent_t never = nullptr;
    HIP_CHECK(hipEventCreate(&never));
    EXPECT_EQ(hipStreamWaitEvent(waiting, never, 0), hipSuccess);
    HIP_CHECK(hipEventDestroy(never));
    HIP_CHECK(hipEventDestroy(produced));
    HIP_CHECK(hipFree(values));
    HIP_CHECK(hipStreamDestroy(waiting));
    HIP_CHECK(hipStreamDestroy(producing));
}

TEST(HipOnCpu, StreamsMadeAndDestroyedAllTheProgramsLifeKeepWorking) {
    // The runtime's own threads keep a slot for every stream they have ever served, 255 at most,
    // and never give one back: a program that makes and destroys streams all its life (a test
    // binary; step 09, whose every call makes its workers' streams) aborted with "Overflowed
    // combiner request array". A destroyed stream is kept and handed out again, so the runtime
    // only ever sees as many streams as were alive at once, here three.
    const int count = 1024;
    int* values = nullptr;
    HIP_CHECK(hipMalloc(&values, count * sizeof(int)));
    std::set<hipStream_t> seen;
    std::vector<std::vector<char>> kept;  // other allocations between the streams, held
    for (int round = 0; round < 400; ++round) {
        hipStream_t streams[3] = {};
        for (hipStream_t& stream : streams)
            HIP_CHECK(hipStreamCreateWithFlags(&stream, hipStreamNonBlocking));
        std::vector<int> host(count, -1);
        hipLaunchKernelGGL(fill_with_index, dim3(count / 256), dim3(256), 0, streams[round % 3],
                           values, count);
        HIP_CHECK_LAUNCH();
        HIP_CHECK(hipStreamSynchronize(streams[round % 3]));
        HIP_CHECK(hipMemcpyAsync(host.data(), values, count * sizeof(int), hipMemcpyDeviceToHost,
                                 streams[(round + 1) % 3]));
        HIP_CHECK(hipStreamSynchronize(streams[(round + 1) % 3]));
        ASSERT_EQ(host[round % count], round % count) << "round " << round;
        for (hipStream_t stream : streams) {
            seen.insert(stream);
            HIP_CHECK(hipStreamDestroy(stream));
        }
        kept.emplace_back(16 + (round * 37) % 700);
    }
    EXPECT_EQ(seen.size(), 3u) << "streams made, not handed out again";
    HIP_CHECK(hipFree(values));
}

TEST(HipOnCpu, MoreStreamsAliveThanTheRuntimeHoldsAreRefused) {
    // 64 devices listed for step 09 made 256 streams alive at once, and the runtime aborted. Past
    // kMostStreams a create fails as on a GPU without the memory for one, and a stream destroyed
    // makes room again.
    std::vector<hipStream_t> alive;
    hipError_t status = hipSuccess;
    while (alive.size() <= static_cast<std::size_t>(tutorial_hip_cpu::kMostStreams)) {
        hipStream_t stream = nullptr;
        status = hipStreamCreate(&stream);
        if (status != hipSuccess)
            break;
        alive.push_back(stream);
    }
    EXPECT_EQ(status, hipErrorOutOfMemory);
    EXPECT_EQ(alive.size(), static_cast<std::size_t>(tutorial_hip_cpu::kMostStreams));
    HIP_CHECK(hipStreamDestroy(alive.back()));
    alive.pop_back();
    hipStream_t again = nullptr;
    EXPECT_EQ(hipStreamCreate(&again), hipSuccess);
    alive.push_back(again);
    for (hipStream_t stream : alive)
        HIP_CHECK(hipStreamDestroy(stream));
}
