#include "multi_gpu_gemm.hpp"

#include <hip/hip_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "common/device.hpp"
#include "common/device_buffer.hpp"
#include "common/errors.hpp"
#include "common/hip_check.hpp"
#include "common/hip_handles.hpp"
#include "common/vendor_blas.hpp"
#include "lds_float4_gemm.hpp"
#include "tiled_gemm.hpp"
#include "timeline.hpp"

namespace step06 {
namespace {

using tutorial::DeviceBuffer;
using tutorial::Event;
using tutorial::Stream;

// Two compute streams per worker: a tile's kernel can start while the previous tile's kernel
// finishes its last, partly filled wave of blocks.
constexpr int kComputeLanes = 2;

std::size_t elements(int rows, int cols) {
    return static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
}

// ---- the inner kernel --------------------------------------------------------------------------

// Multiplies one chunk of A (rows x k) by one panel of B (k x cols) into a tile of C (rows x cols),
// all three contiguous in device memory, on a given compute lane's stream.
class InnerMultiply {
  public:
    explicit InnerMultiply(InnerKernel kind) : kind_(kind) {
        if (kind_ != InnerKernel::vendor)
            return;
        // One handle per lane: a BLAS handle's workspace must not be shared by kernels that run at
        // the same time on two streams.
        for (int lane = 0; lane < kComputeLanes; ++lane) {
            std::string why_not;
            vendor_[lane] = tutorial::make_vendor_blas(why_not);
            if (!vendor_[lane])
                throw tutorial::RuntimeFailure("inner kernel 'vendor': " + why_not);
        }
    }

    void operator()(int lane, const float* a, const float* b, float* c, int rows, int cols, int k,
                    hipStream_t stream) const {
        switch (kind_) {
            case InnerKernel::step05:
                step05::gemm(a, b, c, rows, cols, k, stream, step05::Variant::reg8x8_db);
                return;
            case InnerKernel::step04:
                step04::gemm<float>(a, b, c, rows, cols, k, stream, 32);
                return;
            case InnerKernel::vendor:
                vendor_[lane]->sgemm(a, b, c, rows, cols, k, stream);
                return;
        }
    }

  private:
    InnerKernel kind_;
    std::unique_ptr<tutorial::VendorBlas> vendor_[kComputeLanes];
};

// ---- page-locking the host matrices ------------------------------------------------------------

// Page-locks host ranges for its lifetime, so the copies can run asynchronously at full speed.
// A range that cannot be locked is left as it is: the runtime then stages its copies.
class HostRegistration {
  public:
    struct Range {
        const void* pointer;
        std::size_t bytes;
    };

    HostRegistration(bool enabled, std::initializer_list<Range> ranges) {
        if (!enabled) {
            note_ = "pinned by the caller";
            return;
        }
        for (const Range& range : ranges) {
            const bool seen = std::any_of(locked_.begin(), locked_.end(),
                                          [&](const void* p) { return p == range.pointer; });
            if (seen)
                continue;  // A and B may be the same matrix
            // hipHostRegister takes a non-const pointer but does not write through it.
            void* pointer = const_cast<void*>(range.pointer);
            const hipError_t status =
                hipHostRegister(pointer, range.bytes, hipHostRegisterPortable);
            if (status == hipSuccess) {
                locked_.push_back(pointer);
            } else {
                (void)hipGetLastError();  // not sticky, but leave no error behind for later calls
                failure_ = std::string(hipGetErrorName(status));
            }
        }
        note_ = failure_.empty()
                    ? "page-locked for the call (hipHostRegister)"
                    : "hipHostRegister failed with " + failure_ +
                          " for some of them: memory that is pinned already fails this way, "
                          "ordinary memory is then copied through the runtime's staging buffers";
    }
    ~HostRegistration() {
        for (void* pointer : locked_)
            (void)hipHostUnregister(pointer);
    }
    HostRegistration(const HostRegistration&) = delete;
    HostRegistration& operator=(const HostRegistration&) = delete;

    const std::string& note() const { return note_; }

  private:
    std::vector<void*> locked_;
    std::string failure_;
    std::string note_;
};

// ---- one worker per device entry ---------------------------------------------------------------

// What the workers share: the matrices, the plan, the queue of chunks and the stop flag.
struct Job {
    const float* a;
    const float* b;
    float* c;
    const Plan& plan;
    const MultiGpuOptions& options;
    std::atomic<std::size_t> next_chunk{0};  // the queue: the next chunk nobody has taken
    std::atomic<bool> stop{false};           // set when a worker fails: the others stop taking
};

// The events of one tile (one chunk times one panel). They order the streams and, afterwards,
// give the timeline.
struct TileEvents {
    bool copied_in = false;  // false when the panel was already resident
    Event copy_in_start, copy_in_done;
    Event kernel_start, kernel_done;
    Event copy_out_start, copy_out_done;
};

// The events of one chunk's copy of A, and which tiles (worker-local indices) belong to it.
struct ChunkEvents {
    Event copy_start, copy_done;
    std::size_t first_tile = 0;
    std::size_t last_tile = 0;
};

// [worker]
// Runs on its own host thread, with its device current. Streams: copy_a_ brings chunks of A,
// copy_b_ panels of B, compute_[lane] runs the kernels of even and odd tiles, copy_c_ takes tiles
// of C home. Buffers: two of each kind (slot = index mod 2), one where a second is never needed.
class Worker {
  public:
    Worker(Job& job, int entry) : job_(job), entry_(entry) {
        const BufferSet& set = job_.plan.buffers;
        const Plan& plan = job_.plan;
        for (int i = 0; i < set.a_buffers; ++i)
            a_.emplace_back(elements(plan.chunk_rows, plan.k));
        for (int i = 0; i < set.b_buffers; ++i)
            b_.emplace_back(elements(plan.k, plan.panel_cols));
        for (int i = 0; i < set.c_buffers; ++i) {
            // The test hook asks for 2^62 bytes, which no device has: the real allocation path
            // fails with its real message.
            const bool fail = entry_ == job_.options.fail_allocation_on_entry;
            c_.emplace_back(fail ? (std::size_t{1} << 60)
                                 : elements(plan.chunk_rows, plan.panel_cols));
        }
    }

    // Waits for the streams before the buffers go: nothing may still copy into freed memory, also
    // when an exception unwinds the worker. Errors are ignored here; the first one was thrown.
    ~Worker() {
        for (const Stream* stream : {&copy_a_, &copy_b_, &compute_[0], &compute_[1], &copy_c_})
            (void)hipStreamSynchronize(stream->get());
    }

    Worker(const Worker&) = delete;
    Worker& operator=(const Worker&) = delete;

    // Takes chunks from the shared queue and enqueues their copies and kernels until the queue is
    // empty or another worker failed, then waits for its streams.
    void run();

    EntryStatistics statistics() const;

  private:
    // Makes `stream` wait until every kernel of `chunk` is done (a null stream: the host waits).
    // The chunk's last two tiles ran on the two lanes, and each lane runs its kernels in order.
    void wait_for_kernels(const ChunkEvents& chunk, hipStream_t stream) const {
        const std::size_t first =
            chunk.last_tile > chunk.first_tile ? chunk.last_tile - 1 : chunk.first_tile;
        for (std::size_t t = first; t <= chunk.last_tile; ++t) {
            if (stream == nullptr) {
                tiles_[t].kernel_done.synchronize();
            } else {
                HIP_CHECK(hipStreamWaitEvent(stream, tiles_[t].kernel_done.get(), 0));
            }
        }
    }

    void enqueue_chunk(const Chunk& chunk);

    Job& job_;
    int entry_;
    std::vector<DeviceBuffer<float>> a_, b_, c_;
    Stream copy_a_, copy_b_, copy_c_;
    Stream compute_[kComputeLanes];
    InnerMultiply inner_{job_.options.inner};
    Event begin_;                     // the worker's time zero
    std::deque<ChunkEvents> chunks_;  // a deque: events stay where they are as it grows
    std::deque<TileEvents> tiles_;
    std::size_t b_loaded_by_[2] = {SIZE_MAX, SIZE_MAX};  // the tile whose copy filled each B slot
    EntryStatistics statistics_;
};
// [worker]

// [take chunks]
// Takes chunks from the shared queue until it is empty or another worker failed. At most two
// chunks are in flight: before taking a third, the worker waits on the host until the kernels
// of the one two back are done, which frees that chunk's A buffer. Taking more would look
// ahead in the queue and spoil the load balance.
void Worker::run() {
    begin_.record(copy_a_.get());
    HIP_CHECK(hipStreamWaitEvent(copy_b_.get(), begin_.get(), 0));
    while (!job_.stop.load()) {
        if (chunks_.size() >= 2)
            wait_for_kernels(chunks_[chunks_.size() - 2], /*stream=*/nullptr);
        if (job_.stop.load())
            break;
        const std::size_t index = job_.next_chunk.fetch_add(1);
        if (index >= job_.plan.chunks.size())
            break;
        enqueue_chunk(job_.plan.chunks[index]);
    }
    for (const Stream* stream : {&copy_a_, &copy_b_, &compute_[0], &compute_[1], &copy_c_})
        stream->synchronize();
}
// [take chunks]

// [enqueue chunk]
void Worker::enqueue_chunk(const Chunk& chunk) {
    const Plan& plan = job_.plan;
    const int k = plan.k, n = plan.n;
    const std::size_t local = chunks_.size();
    float* a_chunk = a_[local % a_.size()].get();

    // 1. A's chunk, on its own stream so it can arrive while the previous chunk still computes.
    //    It waits for the kernels that read this buffer last (the chunk two back), and for the
    //    first panel of the previous chunk, which needs the link more urgently.
    ChunkEvents& events = chunks_.emplace_back();
    if (local >= 2)
        wait_for_kernels(chunks_[local - 2], copy_a_.get());
    if (local >= 1 && tiles_[chunks_[local - 1].first_tile].copied_in) {
        HIP_CHECK(hipStreamWaitEvent(copy_a_.get(),
                                     tiles_[chunks_[local - 1].first_tile].copy_in_done.get(), 0));
    }
    events.copy_start.record(copy_a_.get());
    HIP_CHECK(hipMemcpyAsync(a_chunk, job_.a + static_cast<std::size_t>(chunk.first_row) * k,
                             elements(chunk.rows, k) * sizeof(float), hipMemcpyHostToDevice,
                             copy_a_.get()));
    events.copy_done.record(copy_a_.get());
    statistics_.bytes_to_device += elements(chunk.rows, k) * sizeof(float);
    events.first_tile = tiles_.size();

    for (const Panel& panel : plan.panels) {
        const std::size_t t = tiles_.size();
        TileEvents& tile = tiles_.emplace_back();
        const std::size_t b_slot = t % b_.size();
        const std::size_t c_slot = t % c_.size();
        const hipStream_t compute = compute_[t % kComputeLanes].get();

        // 2. The panel of B (k x cols, pitch n on the host) into a contiguous buffer, once the
        //    kernel that last read that buffer is done. A resident panel is copied only once.
        if (!plan.b_resident() || b_loaded_by_[b_slot] == SIZE_MAX) {
            if (t >= b_.size()) {
                HIP_CHECK(
                    hipStreamWaitEvent(copy_b_.get(), tiles_[t - b_.size()].kernel_done.get(), 0));
            }
            tile.copy_in_start.record(copy_b_.get());
            HIP_CHECK(hipMemcpy2DAsync(b_[b_slot].get(), panel.cols * sizeof(float),
                                       job_.b + panel.first_col, n * sizeof(float),
                                       panel.cols * sizeof(float), k, hipMemcpyHostToDevice,
                                       copy_b_.get()));
            tile.copy_in_done.record(copy_b_.get());
            tile.copied_in = true;
            b_loaded_by_[b_slot] = t;
            statistics_.bytes_to_device += elements(k, panel.cols) * sizeof(float);
        }

        // 3. The kernel, once A's chunk and B's panel are in and the C buffer has gone home.
        HIP_CHECK(hipStreamWaitEvent(compute, events.copy_done.get(), 0));
        HIP_CHECK(hipStreamWaitEvent(compute, tiles_[b_loaded_by_[b_slot]].copy_in_done.get(), 0));
        if (t >= c_.size())
            HIP_CHECK(hipStreamWaitEvent(compute, tiles_[t - c_.size()].copy_out_done.get(), 0));
        tile.kernel_start.record(compute);
        inner_(static_cast<int>(t % kComputeLanes), a_chunk, b_[b_slot].get(), c_[c_slot].get(),
               chunk.rows, panel.cols, k, compute);
        tile.kernel_done.record(compute);

        // 4. The tile of C (rows x cols) home into its place in C (pitch n), as soon as it is done.
        HIP_CHECK(hipStreamWaitEvent(copy_c_.get(), tile.kernel_done.get(), 0));
        tile.copy_out_start.record(copy_c_.get());
        HIP_CHECK(hipMemcpy2DAsync(
            job_.c + static_cast<std::size_t>(chunk.first_row) * n + panel.first_col,
            n * sizeof(float), c_[c_slot].get(), panel.cols * sizeof(float),
            panel.cols * sizeof(float), chunk.rows, hipMemcpyDeviceToHost, copy_c_.get()));
        tile.copy_out_done.record(copy_c_.get());
        statistics_.bytes_to_host += elements(chunk.rows, panel.cols) * sizeof(float);
    }
    events.last_tile = tiles_.size() - 1;
    ++statistics_.chunks;
    statistics_.rows += chunk.rows;
    statistics_.tiles += static_cast<int>(plan.panels.size());
}
// [enqueue chunk]

// The timeline of every copy and kernel, measured from begin_, reduced to busy and hidden times.
EntryStatistics Worker::statistics() const {
    EntryStatistics result = statistics_;
    result.entry = entry_;
    result.device = job_.options.devices[static_cast<std::size_t>(entry_)];
    std::vector<Interval> kernels, copies;
    auto interval = [&](const Event& start, const Event& stop) {
        return Interval{start.milliseconds_since(begin_), stop.milliseconds_since(begin_)};
    };
    for (const ChunkEvents& chunk : chunks_)
        copies.push_back(interval(chunk.copy_start, chunk.copy_done));
    for (const TileEvents& tile : tiles_) {
        if (tile.copied_in)
            copies.push_back(interval(tile.copy_in_start, tile.copy_in_done));
        kernels.push_back(interval(tile.kernel_start, tile.kernel_done));
        copies.push_back(interval(tile.copy_out_start, tile.copy_out_done));
        result.span_ms = std::max(result.span_ms, copies.back().end);
    }
    result.compute_ms = covered_ms(kernels);
    result.copy_ms = covered_ms(copies);
    result.hidden_copy_ms = covered_by_both_ms(copies, kernels);
    return result;
}

// One worker's whole life on its thread: its device, its buffers, its chunks, its statistics.
void work(Job& job, int entry, EntryStatistics& statistics) {
    HIP_CHECK(hipSetDevice(job.options.devices[static_cast<std::size_t>(entry)]));
    Worker worker(job, entry);
    worker.run();
    statistics = worker.statistics();
}

}  // namespace

const char* inner_kernel_name(InnerKernel inner) {
    switch (inner) {
        case InnerKernel::step05:
            return "step05";
        case InnerKernel::step04:
            return "step04";
        case InnerKernel::vendor:
            return "vendor";
    }
    throw std::invalid_argument("step06::inner_kernel_name: not an InnerKernel");
}

InnerKernel parse_inner_kernel(const std::string& text) {
    for (const InnerKernel inner : kAllInnerKernels) {
        if (text == inner_kernel_name(inner))
            return inner;
    }
    throw std::invalid_argument("'" + text +
                                "' is not an inner kernel; choose step05, step04 or "
                                "vendor");
}

std::optional<std::string> inner_kernel_unavailable(InnerKernel inner) {
    if (inner != InnerKernel::vendor)
        return std::nullopt;
    std::string why_not;
    if (tutorial::make_vendor_blas(why_not) == nullptr)
        return why_not;
    return std::nullopt;
}

std::uint64_t resolve_budget(const MultiGpuOptions& options) {
    if (options.device_memory_bytes > 0)
        return options.device_memory_bytes;
    int current = 0;
    HIP_CHECK(hipGetDevice(&current));
    std::uint64_t budget = UINT64_MAX;
    for (const int device : options.devices) {
        const auto sharing = std::count(options.devices.begin(), options.devices.end(), device);
        std::size_t free_bytes = 0, total_bytes = 0;
        HIP_CHECK(hipSetDevice(device));
        HIP_CHECK(hipMemGetInfo(&free_bytes, &total_bytes));
        const std::uint64_t usable =
            free_bytes > kAllMemoryMargin ? free_bytes - kAllMemoryMargin : 0;
        budget = std::min<std::uint64_t>(budget, usable / static_cast<std::uint64_t>(sharing));
    }
    HIP_CHECK(hipSetDevice(current));
    return budget;
}

Plan plan_for(int m, int n, int k, const MultiGpuOptions& options) {
    if (options.devices.empty()) {
        throw std::invalid_argument(
            "step06::gemm: the list of devices is empty; name at least one device");
    }
    if (const auto reason = tutorial::gpu_unavailable_reason())
        throw tutorial::RuntimeFailure(*reason);
    const int count = tutorial::device_count();
    for (const int device : options.devices) {
        if (device < 0 || device >= count) {
            throw std::invalid_argument("there is no device " + std::to_string(device) +
                                        "; this machine has " + std::to_string(count) +
                                        " (ids 0 to " + std::to_string(count - 1) + ")");
        }
    }
    PlanRequest request;
    request.m = m;
    request.n = n;
    request.k = k;
    request.element_bytes = sizeof(float);
    request.entries = static_cast<int>(options.devices.size());
    request.budget_bytes = resolve_budget(options);
    request.chunk_rows = options.chunk_rows;
    request.panel_cols = options.panel_cols;
    return plan_multiply(request);
}

// [gemm]
GemmStatistics gemm(const float* a, const float* b, float* c, int m, int n, int k,
                    const MultiGpuOptions& options) {
    if (m < 0 || n < 0 || k < 0)
        throw std::invalid_argument("step06::gemm: negative size");
    if (m == 0 || n == 0)
        return {};  // C is empty
    if (a == nullptr || b == nullptr || c == nullptr)
        throw std::invalid_argument("step06::gemm: a null matrix pointer");
    if (k == 0) {
        std::fill(c, c + elements(m, n), 0.0f);  // empty sums
        return {};
    }
    const auto start = std::chrono::steady_clock::now();
    GemmStatistics result;
    result.plan = plan_for(m, n, k, options);
    const HostRegistration registration(options.host_memory == HostMemory::pageable,
                                        {{a, elements(m, k) * sizeof(float)},
                                         {b, elements(k, n) * sizeof(float)},
                                         {c, elements(m, n) * sizeof(float)}});
    result.host_memory = registration.note();

    // One worker thread per entry; each one's error is kept and the first rethrown here once all
    // have stopped, so no thread outlives the call and no device memory stays allocated.
    const std::size_t entries = options.devices.size();
    Job job{a, b, c, result.plan, options};
    result.entries.resize(entries);
    std::vector<std::exception_ptr> errors(entries);
    std::vector<std::thread> threads;
    auto join_all = [&] {
        for (std::thread& thread : threads)
            thread.join();
    };
    try {
        for (std::size_t entry = 0; entry < entries; ++entry) {
            threads.emplace_back([&, entry] {
                try {
                    work(job, static_cast<int>(entry), result.entries[entry]);
                } catch (...) {
                    errors[entry] = std::current_exception();
                    job.stop = true;
                }
            });
        }
    } catch (const std::system_error& error) {
        job.stop = true;
        join_all();
        throw tutorial::RuntimeFailure(std::string("could not start a worker thread: ") +
                                       error.what());
    }
    join_all();
    for (const std::exception_ptr& error : errors) {
        if (error)
            std::rethrow_exception(error);
    }
    result.wall_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return result;
}
// [gemm]

}  // namespace step06
