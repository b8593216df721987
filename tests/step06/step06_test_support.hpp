/// \file
/// \brief What step 06's GPU tests share: a multiply from host matrices with C poisoned first,
/// checks of the statistics, device memory readings and a deadline against hangs.
#pragma once

#include <gtest/gtest.h>
#include <hip/hip_runtime.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <functional>
#include <future>
#include <iostream>
#include <limits>
#include <memory>
#include <thread>

#include "common/hip_check.hpp"
#include "common/matrix.hpp"
#include "multi_gpu_gemm.hpp"

namespace step06_test {

/// C = A·B with step06::gemm from tutorial::Matrix (ordinary, pageable memory). C starts as NaN
/// everywhere, so an element no tile wrote fails any comparison.
inline tutorial::Matrix<float> multiply(const tutorial::Matrix<float>& a,
                                        const tutorial::Matrix<float>& b,
                                        const step06::MultiGpuOptions& options,
                                        step06::GemmStatistics* statistics = nullptr) {
    tutorial::Matrix<float> c(a.rows(), b.cols());
    std::fill(c.data(), c.data() + c.size(), std::numeric_limits<float>::quiet_NaN());
    const step06::GemmStatistics result =
        step06::gemm(a.data(), b.data(), c.data(), a.rows(), b.cols(), a.cols(), options);
    if (statistics != nullptr)
        *statistics = result;
    return c;
}

/// The statistics must add up to the plan: every chunk taken once, every byte of C sent home
/// once, each entry's copies in equal to its chunks of A plus the panels of B it streamed.
inline void expect_consistent(const step06::GemmStatistics& statistics, int m, int n, int k) {
    const step06::Plan& plan = statistics.plan;
    const std::uint64_t e = sizeof(float);
    int chunks = 0;
    long long rows = 0;
    std::uint64_t to_host = 0;
    for (const step06::EntryStatistics& entry : statistics.entries) {
        chunks += entry.chunks;
        rows += entry.rows;
        to_host += entry.bytes_to_host;
        EXPECT_EQ(entry.tiles, entry.chunks * static_cast<int>(plan.panels.size()));
        // B is streamed once per chunk, or copied once per entry when one panel covers it.
        const std::uint64_t b_copies = plan.b_resident() ? (entry.chunks > 0 ? 1 : 0)
                                                         : static_cast<std::uint64_t>(entry.chunks);
        EXPECT_EQ(entry.bytes_to_device,
                  static_cast<std::uint64_t>(entry.rows) * k * e + b_copies * k * n * e)
            << "entry " << entry.entry;
        EXPECT_LE(entry.compute_ms, entry.span_ms + 1e-3) << "entry " << entry.entry;
        EXPECT_LE(entry.hidden_copy_ms, entry.copy_ms + 1e-3) << "entry " << entry.entry;
    }
    EXPECT_EQ(chunks, static_cast<int>(plan.chunks.size()));
    EXPECT_EQ(rows, m);
    EXPECT_EQ(to_host, static_cast<std::uint64_t>(m) * n * e);
}

/// Free memory of `device`, after making sure its context exists (creating it takes memory too).
inline std::size_t free_device_bytes(int device) {
    HIP_CHECK(hipSetDevice(device));
    HIP_CHECK(hipFree(nullptr));
    HIP_CHECK(hipDeviceSynchronize());
    std::size_t free_bytes = 0, total_bytes = 0;
    HIP_CHECK(hipMemGetInfo(&free_bytes, &total_bytes));
    return free_bytes;
}

/// How far free memory may move between two readings without anything leaking: the runtime keeps
/// small amounts for streams and events of its own.
constexpr std::size_t kMemoryTolerance = 8u << 20;

/// Runs `work` on a thread and returns what it threw (or nullptr). A call that has not returned
/// after `seconds` hangs: the test process then ends with a failure, because a hung test would
/// block the whole suite.
inline std::exception_ptr run_with_deadline(const std::function<void()>& work, int seconds) {
    auto outcome = std::make_shared<std::promise<std::exception_ptr>>();
    std::future<std::exception_ptr> result = outcome->get_future();
    std::thread([work, outcome] {
        try {
            work();
            outcome->set_value(nullptr);
        } catch (...) {
            outcome->set_value(std::current_exception());
        }
    }).detach();
    if (result.wait_for(std::chrono::seconds(seconds)) != std::future_status::ready) {
        std::cerr << "step06::gemm did not return within " << seconds << " s: it hangs\n";
        std::_Exit(EXIT_FAILURE);
    }
    return result.get();
}

}  // namespace step06_test
