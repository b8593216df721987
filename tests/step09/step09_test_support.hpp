/// \file
/// \brief What step 09's GPU tests share: a multiply from host matrices with C poisoned first,
/// checks of the statistics, device memory readings and a deadline against hangs.
#pragma once

#include <gtest/gtest.h>
#include <hip/hip_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <functional>
#include <future>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "common/hip_check.hpp"
#include "common/matrix.hpp"
#include "common/verify.hpp"
#include "multi_gpu_gemm.hpp"
#include "schedule.hpp"
#include "tests/support/shapes.hpp"

namespace step09_test {

/// C = A·B with step09::gemm from tutorial::Matrix (ordinary, pageable memory). C starts as NaN
/// everywhere, so an element no tile wrote fails any comparison.
inline tutorial::Matrix<float> multiply(const tutorial::Matrix<float>& a,
                                        const tutorial::Matrix<float>& b,
                                        const step09::MultiGpuOptions& options,
                                        step09::GemmStatistics* statistics = nullptr) {
    tutorial::Matrix<float> c(a.rows(), b.cols());
    std::fill(c.data(), c.data() + c.size(), std::numeric_limits<float>::quiet_NaN());
    const step09::GemmStatistics result =
        step09::gemm(a.data(), b.data(), c.data(), a.rows(), b.cols(), a.cols(), options);
    if (statistics != nullptr)
        *statistics = result;
    return c;
}

/// Options for chunks of `chunk_rows` rows and panels of `panel_cols` columns (0: chosen from the
/// budget) on the device entries `devices`.
inline step09::MultiGpuOptions tiled_options(int chunk_rows, int panel_cols,
                                             std::vector<int> devices = {0}) {
    step09::MultiGpuOptions options;
    options.devices = std::move(devices);
    options.chunk_rows = chunk_rows;
    options.panel_cols = panel_cols;
    return options;
}

/// One product on host matrices: random A (m x k) and B (k x n) from seeds `seed` and
/// `seed + 1`, and C (m x n), with step09::gemm on their pointers.
struct HostProduct {
    HostProduct(const tutorial_test::Shape& shape, std::uint64_t seed)
        : shape(shape), a(shape.m, shape.k), b(shape.k, shape.n), c(shape.m, shape.n) {
        tutorial::fill_random(a, seed);
        tutorial::fill_random(b, seed + 1);
    }

    /// C = A·B with `options`.
    step09::GemmStatistics multiply(const step09::MultiGpuOptions& options) {
        return step09::gemm(a.data(), b.data(), c.data(), shape.m, shape.n, shape.k, options);
    }

    /// C = A·B following `plan`, with the buffers `workspace` keeps between calls.
    step09::GemmStatistics multiply(const step09::Plan& plan,
                                    const step09::MultiGpuOptions& options,
                                    step09::Workspace& workspace) {
        return step09::gemm(a.data(), b.data(), c.data(), plan, options, workspace);
    }

    /// NaN in every element of C, so that an element no tile wrote fails any comparison.
    void poison_c() {
        std::fill(c.data(), c.data() + c.size(), std::numeric_limits<float>::quiet_NaN());
    }

    /// C against the reference product.
    tutorial::VerifyReport verify() const { return tutorial::verify_gemm(a, b, c); }

    tutorial_test::Shape shape;
    tutorial::Matrix<float> a, b, c;
};

/// The panels of B an entry copies for `chunks` chunks: every step brings panel (step mod P), and
/// the steps run from 0 to the last chunk's join_step() plus its P steps. With no more panels
/// than buffers every panel comes once and stays.
inline int expected_panel_copies(const step09::Plan& plan, int chunks) {
    const int panels = static_cast<int>(plan.panels.size());
    if (chunks == 0)
        return 0;
    if (panels <= plan.buffers.b_buffers)
        return panels;
    return static_cast<int>(step09::join_step(static_cast<std::size_t>(chunks - 1),
                                              static_cast<std::size_t>(panels))) +
           panels;
}

/// The timeline must respect what the events promise: each kernel starts after its chunk of A
/// (for the entry's first kernel: ends after it) and its panel of B have arrived, and after the
/// kernel step09::kLanes tiles back (the tiles take turns on that many compute streams); each tile
/// of C leaves after its kernel; a panel copy into a buffer starts after every kernel that read the
/// buffer's previous panel has ended; a chunk of A copied into a buffer starts after every kernel
/// of the chunk that used the buffer before (`a_buffers` chunks earlier on this entry). Event times
/// have microsecond resolution, hence the slack.
inline void expect_ordered(const step09::EntryStatistics& entry, int a_buffers, int b_buffers) {
    using Kind = step09::Operation::Kind;
    constexpr double slack = 0.01;
    std::map<int, double> a_arrived;   // chunk -> when its rows of A were in
    std::map<int, double> chunk_done;  // chunk -> when its last kernel so far ended
    std::vector<int> taken;            // chunks in the order the entry copied them in
    double previous_kernel_end = 0.0;
    std::vector<double> kernel_ends;
    // The buffers of B, used longest ago first.
    struct Buffer {
        int panel;
        double arrived;     // when its copy ended
        double read_until;  // when the last kernel that read it ended
    };
    std::vector<Buffer> resident;
    for (const step09::Operation& op : entry.operations) {
        switch (op.kind) {
            case Kind::copy_a:
                if (static_cast<int>(taken.size()) >= a_buffers) {
                    const int previous = taken[taken.size() - a_buffers];
                    EXPECT_GE(op.begin_ms + slack, chunk_done[previous])
                        << "chunk " << op.chunk << " of A copied over chunk " << previous
                        << " while its kernels ran";
                }
                taken.push_back(op.chunk);
                a_arrived[op.chunk] = op.end_ms;
                break;
            case Kind::copy_b:
                if (static_cast<int>(resident.size()) == b_buffers) {
                    // It overwrote the buffer used longest ago: its kernels must have ended.
                    EXPECT_GE(op.begin_ms + slack, resident.front().read_until)
                        << "panel " << op.panel << " copied over a buffer still being read";
                    resident.erase(resident.begin());
                }
                resident.push_back({op.panel, op.end_ms, 0.0});
                break;
            case Kind::kernel: {
                EXPECT_EQ(a_arrived.count(op.chunk), 1u) << "kernel of a chunk never copied in";
                // The entry's first kernel starts on the top rows of its chunk of A while the
                // rest arrives: only its end must come after all of A.
                if (kernel_ends.empty()) {
                    EXPECT_GE(op.end_ms + slack, a_arrived[op.chunk])
                        << "first kernel ended before its A";
                } else {
                    EXPECT_GE(op.begin_ms + slack, a_arrived[op.chunk])
                        << "kernel before its chunk of A";
                }
                if (kernel_ends.size() >= step09::kLanes) {
                    EXPECT_GE(op.begin_ms + slack, kernel_ends[kernel_ends.size() - step09::kLanes])
                        << "two kernels on one compute stream overlap";
                }
                kernel_ends.push_back(op.end_ms);
                previous_kernel_end = op.end_ms;
                chunk_done[op.chunk] = std::max(chunk_done[op.chunk], op.end_ms);
                auto it = std::find_if(resident.begin(), resident.end(),
                                       [&](const Buffer& b) { return b.panel == op.panel; });
                EXPECT_TRUE(it != resident.end()) << "panel " << op.panel << " not on the device";
                if (it == resident.end())
                    break;
                EXPECT_GE(op.begin_ms + slack, it->arrived) << "kernel before its panel of B";
                // The buffer just used moves to the back (most recently used).
                Buffer used = *it;
                used.read_until = std::max(used.read_until, op.end_ms);
                resident.erase(it);
                resident.push_back(used);
                break;
            }
            case Kind::copy_c:
                EXPECT_GE(op.begin_ms + slack, previous_kernel_end) << "tile of C left too early";
                break;
        }
    }
}

/// The statistics must add up to the plan: every chunk taken once, every byte of C sent home
/// once, each entry's copies in (from the host and from the other devices) equal to its chunks of A
/// plus the panels of B it copied, and its timeline in the order the events impose.
inline void expect_consistent(const step09::GemmStatistics& statistics, int m, int n, int k) {
    const step09::Plan& plan = statistics.plan;
    const std::uint64_t e = sizeof(float);
    int chunks = 0;
    long long rows = 0;
    std::uint64_t to_host = 0;
    for (const step09::EntryStatistics& entry : statistics.entries) {
        chunks += entry.chunks;
        rows += entry.rows;
        to_host += entry.bytes_to_host;
        EXPECT_EQ(entry.tiles, entry.chunks * static_cast<int>(plan.panels.size()));
        EXPECT_EQ(entry.panel_copies, expected_panel_copies(plan, entry.chunks))
            << "entry " << entry.entry;
        // Bytes in: the entry's rows of A, and each panel as often as the timeline copied it.
        std::uint64_t b_bytes = 0;
        int kernels = 0, copies_b = 0;
        for (const step09::Operation& op : entry.operations) {
            if (op.kind == step09::Operation::Kind::copy_b) {
                b_bytes += static_cast<std::uint64_t>(k) * plan.panels[op.panel].cols * e;
                ++copies_b;
            }
            if (op.kind == step09::Operation::Kind::kernel)
                ++kernels;
            EXPECT_LE(op.begin_ms, op.end_ms);
        }
        EXPECT_EQ(kernels, entry.tiles) << "entry " << entry.entry;
        EXPECT_EQ(copies_b, entry.panel_copies) << "entry " << entry.entry;
        // Shared panels come partly from the other devices: the two add up to the panels copied.
        EXPECT_EQ(entry.bytes_to_device + entry.bytes_from_peers,
                  static_cast<std::uint64_t>(entry.rows) * k * e + b_bytes)
            << "entry " << entry.entry;
        if (!statistics.panels_shared)
            EXPECT_EQ(entry.bytes_from_peers, 0u) << "entry " << entry.entry;
        EXPECT_LE(entry.compute_ms, entry.span_ms + 1e-3) << "entry " << entry.entry;
        EXPECT_LE(entry.hidden_copy_ms, entry.copy_ms + 1e-3) << "entry " << entry.entry;
        expect_ordered(entry, plan.buffers.a_buffers, plan.buffers.b_buffers);
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
        std::cerr << "step09::gemm did not return within " << seconds << " s: it hangs\n";
        std::_Exit(EXIT_FAILURE);
    }
    return result.get();
}

}  // namespace step09_test
