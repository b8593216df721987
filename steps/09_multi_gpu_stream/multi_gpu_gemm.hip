#include "multi_gpu_gemm.hpp"

#include <hip/hip_runtime.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "common/device_buffer.hpp"
#include "common/errors.hpp"
#include "common/hip_check.hpp"
#include "common/hip_handles.hpp"
#include "host_registration.hpp"
#include "inner_kernel.hpp"
#include "operation_log.hpp"
#include "panel_copy.hpp"
#include "schedule.hpp"

namespace step09 {

// [workspace]
// One entry's buffers and what they were allocated for: a later plan reuses them only where it
// needs the very same ones. An entry may hold fewer than its plan's counts (a worker that took
// no chunk allocates only what its first step needs); the worker adds the rest. The padding
// columns of A's buffers were zeroed when they were allocated (see add_buffer_of_a) and no copy
// writes them, so they hold zeros for the same k.
struct Workspace::Entry {
    int device = -1;
    int k = 0, chunk_rows = 0, panel_cols = 0;
    std::vector<tutorial::DeviceBuffer<float>> a, b, c;

    bool holds(const Plan& plan, int on_device) const {
        const BufferSet& wanted = plan.buffers;
        return device == on_device && k == plan.k && chunk_rows == plan.chunk_rows &&
               panel_cols == plan.panel_cols &&
               a.size() <= static_cast<std::size_t>(wanted.a_buffers) &&
               b.size() <= static_cast<std::size_t>(wanted.b_buffers) &&
               c.size() <= static_cast<std::size_t>(wanted.c_buffers);
    }
    // Frees what it holds (on its own device) and notes what the next buffers will be for.
    void prepare(const Plan& plan, int on_device) {
        clear();
        device = on_device;
        k = plan.k;
        chunk_rows = plan.chunk_rows;
        panel_cols = plan.panel_cols;
    }
    void clear() {
        a.clear();
        b.clear();
        c.clear();
        device = -1;
    }
    std::uint64_t bytes() const {
        std::uint64_t total = 0;
        for (const auto* buffers : {&a, &b, &c}) {
            for (const tutorial::DeviceBuffer<float>& buffer : *buffers)
                total += buffer.bytes();
        }
        return total;
    }
};

Workspace::Workspace() = default;
Workspace::~Workspace() {
    release();
}

std::uint64_t Workspace::bytes() const {
    std::uint64_t total = 0;
    for (const std::unique_ptr<Entry>& entry : entries_)
        total += entry->bytes();
    return total;
}

// Each entry's buffers are freed with their own device current, then the caller's is restored.
void Workspace::release() {
    int current = 0;
    const bool known = hipGetDevice(&current) == hipSuccess;
    for (const std::unique_ptr<Entry>& entry : entries_) {
        if (entry->device >= 0)
            (void)hipSetDevice(entry->device);
        entry->clear();
    }
    if (known)
        (void)hipSetDevice(current);
}

Workspace::Entry& Workspace::entry(std::size_t index) {
    while (entries_.size() <= index)
        entries_.push_back(std::make_unique<Entry>());
    return *entries_[index];
}
// [workspace]

namespace {

using tutorial::DeviceBuffer;
using tutorial::Event;
using tutorial::Stream;

constexpr std::size_t kNone = SIZE_MAX;

// One tile index per compute stream, none yet.
using PerLane = std::array<std::size_t, kLanes>;
constexpr PerLane no_tiles() {
    PerLane tiles{};
    for (std::size_t& tile : tiles)
        tile = kNone;
    return tiles;
}

std::size_t elements(int rows, int cols) {
    return static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
}

// A row of `count` elements as stored on the device: padded to kRowAlign (see planner.hpp).
int stored(int count) {
    return static_cast<int>(padded(count));
}

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

// The events of one tile (one chunk times one panel): its kernel and its copy of C home.
struct TileEvents {
    Event kernel_start, kernel_done;
    Event copy_out_start, copy_out_done;
};

// The events of one copy of a panel of B.
struct PanelCopyEvents {
    Event start, done;
};

// A worker's chunk: which one it is, when it computes, where its rows of A are and when they
// arrived. A worker's first chunk of A arrives in two pieces (see first_chunk_top_rows()):
// top_rows > 0 rows first, and the rest after the first panel of B.
struct ChunkEvents {
    std::size_t index = 0;   // into Plan::chunks
    std::size_t buffer = 0;  // into the worker's buffers of A
    std::size_t join = 0;    // its first step; it computes in steps join .. join + panels - 1
    Event copy_start, copy_done;
    int top_rows = 0;                // rows in the first piece; 0: copied in one piece
    Event top_done;                  // the first piece is in
    PerLane last_tile = no_tiles();  // its last kernel on each compute stream
};

// A buffer for panels of B: which panel it holds, the copy that brought it and, per compute
// stream, the last tile whose kernel read it (worker-local indices, kNone for none).
struct PanelSlot {
    int panel = -1;
    std::size_t filled_by = kNone;  // into the worker's panel copies
    PerLane last_read_by = no_tiles();

    // One more than the last tile that read it on any stream, 0 when none did (kNone + 1 wraps to
    // 0): the buffer with the smallest value was used longest ago.
    std::size_t last_use() const {
        std::size_t last = 0;
        for (const std::size_t t : last_read_by)
            last = std::max(last, t + 1);
        return last;
    }
};

// [worker]
// Runs on its own host thread, with its device current. Streams: copy_in_ brings chunks of A and
// panels of B, the tiles' kernels take turns on the kLanes streams of compute_, copy_out_ takes
// tiles of C home. A and B share one stream on purpose: on the H100 measured for the page, the
// copies of one direction ran in the order they were queued, whatever their streams, so a copy of
// A on a stream of its own, queued behind panel copies that wait for kernels, waited as long.
// Buffers: as many of each kind as the plan's BufferSet says.
//
// The work goes in steps. In step s the worker has panel s mod P of B on the device and runs one
// kernel for each chunk that is computing (two, but for the first and last step): both chunks
// read the same panel, so each byte of B that crosses the host link meets the rows of both.
class Worker {
  public:
    // Allocates what the first copies and the first kernel need: one buffer of A, the buffers of
    // B and one tile of C. The rest waits for allocate_rest(), which run() calls once they are
    // queued: allocating hundreds of MiB takes the host milliseconds, which then overlap the
    // first copies instead of delaying them.
    // Buffers that `kept` still holds for this plan are used as they are (see Workspace).
    Worker(Job& job, int entry, Workspace::Entry& kept)
        : job_(job), entry_(entry), kept_(kept), a_(kept.a), b_(kept.b), c_(kept.c) {
        const Plan& plan = job_.plan;
        const int device = job_.options.devices[static_cast<std::size_t>(entry)];
        // The fault hook must reach a real allocation, so its entry never reuses buffers.
        if (!kept.holds(plan, device) || entry == job_.options.fail_allocation_on_entry)
            kept.prepare(plan, device);
        held_ = kept.bytes();
        a_.reserve(static_cast<std::size_t>(plan.buffers.a_buffers));
        if (a_.empty())
            add_buffer_of_a();
        while (b_.size() < static_cast<std::size_t>(plan.buffers.b_buffers))
            b_.emplace_back(elements(stored(plan.k), stored(plan.panel_cols)));
        slots_.resize(b_.size());
        if (c_.empty())
            add_buffer_of_c();
        if (job_.options.panel_copy != PanelCopy::copy_engine) {
            b_view_ = device_view_of_host(job_.b);
            HIP_CHECK(hipDeviceGetAttribute(&multiprocessors_,
                                            hipDeviceAttributeMultiprocessorCount, device));
        }
    }

    // Allocates whatever buffers the plan has and the worker does not yet.
    void allocate_rest() {
        const Plan& plan = job_.plan;
        while (a_.size() < static_cast<std::size_t>(plan.buffers.a_buffers))
            add_buffer_of_a();
        while (c_.size() < static_cast<std::size_t>(plan.buffers.c_buffers))
            add_buffer_of_c();
    }

    // Waits for the streams before the worker goes: nothing may still copy into its buffers when
    // they are reused or freed, also when an exception unwinds the worker. Errors are ignored
    // here; the first one was thrown.
    ~Worker() {
        for (const Stream* stream : streams())
            (void)hipStreamSynchronize(stream->get());
    }

    Worker(const Worker&) = delete;
    Worker& operator=(const Worker&) = delete;

    // Takes chunks from the shared queue and enqueues their copies and kernels until the queue is
    // empty or another worker failed, then waits for its streams.
    void run();

    EntryStatistics statistics() const;

  private:
    // Every stream of the worker.
    std::vector<const Stream*> streams() const {
        std::vector<const Stream*> all{&copy_in_, &copy_out_};
        for (const Stream& stream : compute_)
            all.push_back(&stream);
        return all;
    }

    // Makes `stream` wait until every kernel of chunk `local` is done (a null stream: the host
    // waits). Its last kernels ran on the compute streams, each of which runs in order.
    void wait_for_chunk(std::size_t local, hipStream_t stream) const {
        for (const std::size_t t : chunks_[local].last_tile)
            wait_for_tile(t, stream);
    }
    void wait_for_tile(std::size_t t, hipStream_t stream) const {
        if (t == kNone)
            return;
        if (stream == nullptr) {
            tiles_[t].kernel_done.synchronize();
        } else {
            HIP_CHECK(hipStreamWaitEvent(stream, tiles_[t].kernel_done.get(), 0));
        }
    }

    // A buffer for chunks of A, rows of padded(k) elements. Where k itself is not a multiple of
    // kRowAlign, its padding columns are zeroed once: copies never write them.
    void add_buffer_of_a() {
        const Plan& plan = job_.plan;
        DeviceBuffer<float>& buffer = a_.emplace_back(elements(plan.chunk_rows, stored(plan.k)));
        if (stored(plan.k) != plan.k) {
            HIP_CHECK(
                hipMemsetAsync(buffer.get(), 0, buffer.size() * sizeof(float), copy_in_.get()));
        }
    }

    void add_buffer_of_c() {
        // The test hook asks for 2^60 bytes, which no device has: the real allocation path fails
        // with its real message.
        const bool fail = entry_ == job_.options.fail_allocation_on_entry;
        c_.emplace_back(fail ? (std::size_t{1} << 60)
                             : elements(job_.plan.chunk_rows, stored(job_.plan.panel_cols)));
    }

    // Takes a chunk in `step` (0 for the first chunk, before any step).
    bool take_chunk(std::size_t step = 0);
    // Queues the copy of rows [first, first + rows) of chunk `local`'s rows of A into its buffer:
    // one contiguous copy, or each row of k elements into a row of padded(k) where they differ.
    void copy_rows_of_a(std::size_t local, int first, int rows) {
        const Chunk& chunk = job_.plan.chunks[chunks_[local].index];
        const std::size_t k = static_cast<std::size_t>(job_.plan.k);
        const std::size_t pitch = static_cast<std::size_t>(stored(job_.plan.k));
        float* to = a_[chunks_[local].buffer].get() + first * pitch;
        const float* from = job_.a + (static_cast<std::size_t>(chunk.first_row) + first) * k;
        if (pitch == k) {
            HIP_CHECK(hipMemcpyAsync(to, from, elements(rows, job_.plan.k) * sizeof(float),
                                     hipMemcpyHostToDevice, copy_in_.get()));
        } else {
            HIP_CHECK(hipMemcpy2DAsync(to, pitch * sizeof(float), from, k * sizeof(float),
                                       k * sizeof(float), rows, hipMemcpyHostToDevice,
                                       copy_in_.get()));
        }
    }
    std::size_t bring_panel(int panel_index, std::size_t oldest);
    void enqueue_tile(std::size_t local, int panel_index, std::size_t slot);

    Job& job_;
    int entry_;
    Workspace::Entry& kept_;
    std::uint64_t held_ = 0;                        // bytes kept_ held when the worker started
    std::vector<DeviceBuffer<float>>&a_, &b_, &c_;  // kept_'s buffers
    std::vector<PanelSlot> slots_;                  // one per buffer in b_
    Stream copy_in_, copy_out_;
    std::array<Stream, kLanes> compute_;
    // B as this device's kernels read it (nullptr: the copy engine brings every panel), and the
    // device's multiprocessors, which size gather_rows().
    const float* b_view_ = nullptr;
    int multiprocessors_ = 1;
    InnerMultiply inner_{job_.options.inner, kLanes};
    Event begin_;  // the worker's time zero
    // Deques: events stay where they are as they grow.
    std::deque<ChunkEvents> chunks_;
    std::deque<TileEvents> tiles_;
    std::deque<PanelCopyEvents> panel_copies_;
    std::vector<std::size_t> step_tiles_;  // the first tile of each step
    OperationLog log_;
    EntryStatistics statistics_;
};
// [worker]

// [steps]
// Each step: the panel of B it needs (unless still on the device), the chunks taken in it (see
// take_step), then one kernel per chunk computing in it. A chunk stays in the queue until shortly
// before its rows are needed, for whichever worker is free first.
void Worker::run() {
    const std::size_t panels = job_.plan.panels.size();
    begin_.record(copy_in_.get());
    bool more = take_chunk();  // joins in step 0
    auto computing_in = [&](std::size_t step) {
        std::vector<std::size_t> computing;
        for (std::size_t j = 0; j < chunks_.size(); ++j) {
            if (chunks_[j].join <= step && step < chunks_[j].join + panels)
                computing.push_back(j);
        }
        return computing;
    };
    for (std::size_t step = 0;; ++step) {
        const std::vector<std::size_t> before = computing_in(step);
        if (before.empty())
            break;  // join_step() leaves no step empty before the last chunk is done
        const int panel = static_cast<int>(step % panels);
        const std::size_t slot = bring_panel(panel, chunks_[before.front()].index);
        if (step == 0) {
            ChunkEvents& first = chunks_[0];
            if (first.top_rows > 0) {  // the rest of the first chunk, after the first panel
                copy_rows_of_a(0, first.top_rows,
                               job_.plan.chunks[first.index].rows - first.top_rows);
                first.copy_done.record(copy_in_.get());
            }
            if (more && take_step(chunks_.size(), panels) == 0)
                allocate_rest();  // the chunk taken now needs its buffer of A
        }
        while (more && take_step(chunks_.size(), panels) <= step) {
            // The host waits until step - kQueueLagSteps is done: the chunk stays in the queue
            // until then.
            if (step >= kQueueLagSteps) {
                const std::size_t done = step - kQueueLagSteps;
                for (std::size_t t = step_tiles_[done]; t < step_tiles_[done + 1]; ++t)
                    wait_for_tile(t, /*stream=*/nullptr);
            }
            more = take_chunk(step);
        }
        step_tiles_.push_back(tiles_.size());
        for (const std::size_t j : computing_in(step))  // with the chunks that joined just now
            enqueue_tile(j, panel, slot);
        if (step == 0)
            allocate_rest();  // while the first copies and the first kernel run
    }
    for (const Stream* stream : streams())
        stream->synchronize();
}

// Takes the next chunk from the queue, unless it is empty or another worker failed, and queues the
// copy of its rows of A into the buffer that the chunk a_.size() places back used, once that
// chunk's kernels are done. Nothing can compute before the first chunk of A and the first panel
// of B are in, so the first chunk comes in two pieces: its top rows now, the rest after the first
// panel (run), and the first kernel starts on the top rows while the rest arrives.
bool Worker::take_chunk(std::size_t step) {
    if (job_.stop.load())
        return false;
    const std::size_t index = job_.next_chunk.fetch_add(1);
    if (index >= job_.plan.chunks.size())
        return false;
    const Chunk& chunk = job_.plan.chunks[index];
    const std::size_t local = chunks_.size();
    ChunkEvents& events = chunks_.emplace_back();
    events.index = index;
    events.buffer = local % a_.size();
    events.join = join_step(local, job_.plan.panels.size());
    if (local >= a_.size()) {
        // take_step() lets the buffer's last chunk end at least a step before this one is taken,
        // so its kernels are all queued and the copy can wait for them.
        const ChunkEvents& previous = chunks_[local - a_.size()];
        if (previous.join + job_.plan.panels.size() > step)
            throw std::logic_error("step09: a chunk of A would overwrite one still computing");
        wait_for_chunk(local - a_.size(), copy_in_.get());
    }
    events.copy_start.record(copy_in_.get());
    events.top_rows = local == 0 ? first_chunk_top_rows(chunk.rows) : 0;
    if (events.top_rows > 0) {
        copy_rows_of_a(local, 0, events.top_rows);
        events.top_done.record(copy_in_.get());
    } else {
        copy_rows_of_a(local, 0, chunk.rows);
        events.copy_done.record(copy_in_.get());
    }
    log_.add(Operation::Kind::copy_a, index, -1, events.copy_start, events.copy_done);
    ++statistics_.chunks;
    statistics_.rows += chunk.rows;
    statistics_.bytes_to_device += elements(chunk.rows, job_.plan.k) * sizeof(float);
    return true;
}
// [steps]

// [bring panel]
// Returns the buffer that holds panel `panel_index` of B, copying it in first unless a buffer
// holds it already (only when there are no more panels than buffers). The copy goes into the
// buffer used longest ago, once the kernels that read it are done. `oldest` (an index into
// Plan::chunks) is the chunk the copy is listed under in the timeline.
std::size_t Worker::bring_panel(int panel_index, std::size_t oldest) {
    auto slot = std::find_if(slots_.begin(), slots_.end(),
                             [&](const PanelSlot& s) { return s.panel == panel_index; });
    if (slot != slots_.end())
        return static_cast<std::size_t>(slot - slots_.begin());
    slot = std::min_element(
        slots_.begin(), slots_.end(),
        [](const PanelSlot& x, const PanelSlot& y) { return x.last_use() < y.last_use(); });
    for (const std::size_t reader : slot->last_read_by)
        wait_for_tile(reader, copy_in_.get());
    const std::size_t index = static_cast<std::size_t>(slot - slots_.begin());
    const Panel& panel = job_.plan.panels[static_cast<std::size_t>(panel_index)];
    const int k = job_.plan.k, n = job_.plan.n;
    const int pitch = stored(panel.cols);  // elements per stored row of this panel
    PanelCopyEvents& copy = panel_copies_.emplace_back();
    copy.start.record(copy_in_.get());
    // The worker's first kPanelsByKernel panels come by a kernel (unless the options say
    // otherwise): the multiply leaves multiprocessors idle then (see schedule.hpp).
    const std::size_t copies = panel_copies_.size();  // this one included
    const PanelCopy how = job_.options.panel_copy;
    if (b_view_ != nullptr && (how == PanelCopy::kernel ||
                               (how == PanelCopy::first_by_kernel && copies <= kPanelsByKernel))) {
        const int blocks =
            copies == 1 ? kFirstPanelBlocksPerMultiprocessor * multiprocessors_ : multiprocessors_;
        gather_rows(b_view_ + panel.first_col, static_cast<std::size_t>(n), b_[index].get(),
                    static_cast<std::size_t>(pitch), k, panel.cols, blocks, copy_in_.get());
        ++statistics_.panels_by_kernel;
    } else {
        HIP_CHECK(hipMemcpy2DAsync(b_[index].get(), pitch * sizeof(float), job_.b + panel.first_col,
                                   n * sizeof(float), panel.cols * sizeof(float), k,
                                   hipMemcpyHostToDevice, copy_in_.get()));
    }
    if (stored(k) != k) {
        // The padding rows meet A's zero columns: they must be zeros too (0 x NaN is NaN). The
        // buffer held other panels, of other widths, before: zero them for this one.
        HIP_CHECK(hipMemsetAsync(b_[index].get() + elements(k, pitch), 0,
                                 elements(stored(k) - k, pitch) * sizeof(float), copy_in_.get()));
    }
    copy.done.record(copy_in_.get());
    log_.add(Operation::Kind::copy_b, oldest, panel_index, copy.start, copy.done);
    *slot = PanelSlot{};
    slot->panel = panel_index;
    slot->filled_by = panel_copies_.size() - 1;
    statistics_.bytes_to_device += elements(k, panel.cols) * sizeof(float);
    ++statistics_.panel_copies;
    return index;
}
// [bring panel]

// [enqueue tile]
void Worker::enqueue_tile(std::size_t local, int panel_index, std::size_t slot) {
    const Plan& plan = job_.plan;
    const int n = plan.n;
    ChunkEvents& events = chunks_[local];
    const Chunk& chunk = plan.chunks[events.index];
    const Panel& panel = plan.panels[static_cast<std::size_t>(panel_index)];
    const std::size_t t = tiles_.size();
    TileEvents& tile = tiles_.emplace_back();
    const std::size_t lane = t % kLanes;
    const hipStream_t compute = compute_[lane].get();
    slots_[slot].last_read_by[lane] = t;
    events.last_tile[lane] = t;
    const int top_rows = t == 0 ? events.top_rows : 0;  // the worker's first tile is chunk 0's
    // The stored row lengths (see kRowAlign): the kernel multiplies the padded matrices, a chunk
    // of rows x k_pitch by a panel of k_pitch x pitch, and only the real columns go home.
    const int k_pitch = stored(plan.k), pitch = stored(panel.cols);

    // 1. The kernel, once the chunk of A and the panel are in and the C buffer has gone home. The
    //    worker's very first tile starts on the top rows of A while the rest is still arriving.
    const std::size_t c_slot = t % c_.size();
    const float* a_chunk = a_[events.buffer].get();
    const float* b_panel = b_[slot].get();
    HIP_CHECK(hipStreamWaitEvent(compute, panel_copies_[slots_[slot].filled_by].done.get(), 0));
    if (t >= c_.size())
        HIP_CHECK(hipStreamWaitEvent(compute, tiles_[t - c_.size()].copy_out_done.get(), 0));
    const Event& first_rows_in = top_rows > 0 ? events.top_done : events.copy_done;
    HIP_CHECK(hipStreamWaitEvent(compute, first_rows_in.get(), 0));
    tile.kernel_start.record(compute);
    if (top_rows > 0) {
        inner_(lane, a_chunk, b_panel, c_[c_slot].get(), top_rows, pitch, k_pitch, compute);
        HIP_CHECK(hipStreamWaitEvent(compute, events.copy_done.get(), 0));
    }
    inner_(lane, a_chunk + elements(top_rows, k_pitch), b_panel,
           c_[c_slot].get() + elements(top_rows, pitch), chunk.rows - top_rows, pitch, k_pitch,
           compute);
    tile.kernel_done.record(compute);
    log_.add(Operation::Kind::kernel, events.index, panel_index, tile.kernel_start,
             tile.kernel_done);

    // 2. The tile of C (rows x cols) home into its place in C (pitch n), as soon as it is done.
    HIP_CHECK(hipStreamWaitEvent(copy_out_.get(), tile.kernel_done.get(), 0));
    tile.copy_out_start.record(copy_out_.get());
    HIP_CHECK(hipMemcpy2DAsync(
        job_.c + static_cast<std::size_t>(chunk.first_row) * n + panel.first_col, n * sizeof(float),
        c_[c_slot].get(), pitch * sizeof(float), panel.cols * sizeof(float), chunk.rows,
        hipMemcpyDeviceToHost, copy_out_.get()));
    tile.copy_out_done.record(copy_out_.get());
    log_.add(Operation::Kind::copy_c, events.index, panel_index, tile.copy_out_start,
             tile.copy_out_done);
    ++statistics_.tiles;
    statistics_.bytes_to_host += elements(chunk.rows, panel.cols) * sizeof(float);
}
// [enqueue tile]

// The counts, and the timeline of every copy and kernel measured from begin_.
EntryStatistics Worker::statistics() const {
    EntryStatistics result = statistics_;
    result.entry = entry_;
    result.device = job_.options.devices[static_cast<std::size_t>(entry_)];
    result.bytes_allocated = kept_.bytes() - held_;
    log_.fill(result, begin_);
    return result;
}

// One worker's whole life on its thread: its device, its buffers, its chunks, its statistics.
void work(Job& job, int entry, Workspace::Entry& kept, EntryStatistics& statistics) {
    using Clock = std::chrono::steady_clock;
    auto ms = [](Clock::duration d) {
        return std::chrono::duration<double, std::milli>(d).count();
    };
    HIP_CHECK(hipSetDevice(job.options.devices[static_cast<std::size_t>(entry)]));
    const Clock::time_point start = Clock::now();
    Clock::time_point done;
    {
        Worker worker(job, entry, kept);
        const Clock::time_point built = Clock::now();
        worker.run();
        done = Clock::now();
        statistics = worker.statistics();
        statistics.setup_ms = ms(built - start);
    }
    statistics.teardown_ms = ms(Clock::now() - done);
}

}  // namespace

GemmStatistics gemm(const float* a, const float* b, float* c, int m, int n, int k,
                    const MultiGpuOptions& options) {
    if (m < 0 || n < 0 || k < 0)
        throw std::invalid_argument("step09::gemm: negative size");
    if (m == 0 || n == 0)
        return {};  // C is empty
    if (a == nullptr || b == nullptr || c == nullptr)
        throw std::invalid_argument("step09::gemm: a null matrix pointer");
    if (k == 0) {
        std::fill(c, c + elements(m, n), 0.0f);  // empty sums
        return {};
    }
    return gemm(a, b, c, plan_for(m, n, k, options), options);
}

// [gemm]
GemmStatistics gemm(const float* a, const float* b, float* c, const Plan& plan,
                    const MultiGpuOptions& options) {
    Workspace workspace;  // freed when the call returns
    return gemm(a, b, c, plan, options, workspace);
}

GemmStatistics gemm(const float* a, const float* b, float* c, const Plan& plan,
                    const MultiGpuOptions& options, Workspace& workspace) {
    if (a == nullptr || b == nullptr || c == nullptr)
        throw std::invalid_argument("step09::gemm: a null matrix pointer");
    if (plan.entries != static_cast<int>(options.devices.size()) || plan.chunks.empty() ||
        plan.panels.empty()) {
        throw std::invalid_argument(
            "step09::gemm: the plan was made for " + std::to_string(plan.entries) +
            " device entries, the options list " + std::to_string(options.devices.size()));
    }
    const int m = plan.m, n = plan.n, k = plan.k;
    const auto start = std::chrono::steady_clock::now();
    GemmStatistics result;
    result.plan = plan;
    const HostRegistration registration(options.host_memory == HostMemory::pageable,
                                        {{a, elements(m, k) * sizeof(float)},
                                         {b, elements(k, n) * sizeof(float)},
                                         {c, elements(m, n) * sizeof(float)}});
    result.host_memory = registration.note();

    // One worker thread per entry; each one's error is kept and the first rethrown here once all
    // have stopped and the workspace is released, so no thread outlives the call and a failed
    // call leaves no device memory allocated.
    const std::size_t entries = options.devices.size();
    Job job{a, b, c, result.plan, options};
    result.entries.resize(entries);
    std::vector<Workspace::Entry*> kept;  // taken here: the workspace grows on this thread only
    for (std::size_t entry = 0; entry < entries; ++entry)
        kept.push_back(&workspace.entry(entry));
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
                    work(job, static_cast<int>(entry), *kept[entry], result.entries[entry]);
                } catch (...) {
                    errors[entry] = std::current_exception();
                    job.stop = true;
                }
            });
        }
    } catch (const std::system_error& error) {
        job.stop = true;
        join_all();
        workspace.release();
        throw tutorial::RuntimeFailure(std::string("could not start a worker thread: ") +
                                       error.what());
    }
    join_all();
    for (const std::exception_ptr& error : errors) {
        if (error) {
            workspace.release();  // a failed call keeps no device memory
            std::rethrow_exception(error);
        }
    }
    result.wall_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return result;
}
// [gemm]

}  // namespace step09
