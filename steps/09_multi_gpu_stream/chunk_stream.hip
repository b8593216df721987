// Step 09's core: a worker per device entry takes chunks of rows of A and C from a shared queue,
// keeps each chunk of A on its device while B streams through in panels of columns, and sends
// each tile of C home as soon as it is done, with copies and kernels on separate streams that
// wait for each other through events. The tuning lives beside it, each part behind one call:
// the first chunk in halves (first_chunk_halves.hpp), the first panels by a kernel
// (panel_copy.hpp), the buffers kept between calls (chunk_workspace.hpp), and the schedule's
// formulas (schedule.hpp).
#include "chunk_stream.hpp"

#include <hip/hip_runtime.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <stdexcept>
#include <utility>
#include <vector>

#include "common/hip_check.hpp"
#include "common/hip_handles.hpp"
#include "first_chunk_halves.hpp"
#include "inner_kernel.hpp"
#include "operation_log.hpp"
#include "panel_copy.hpp"
#include "panel_exchange.hpp"
#include "schedule.hpp"

namespace step09 {
namespace {

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

// A chunk the worker took: which one it is, where its rows of A are, when they arrived, and when
// it computes.
struct TakenChunk {
    std::size_t index = 0;           // into Plan::chunks
    std::size_t buffer = 0;          // into the buffers of A
    std::size_t join = 0;            // its first step; it computes in steps join .. join + P - 1
    ChunkArrival rows_of_a;          // the copy of its rows of A
    PerLane last_tile = no_tiles();  // its last kernel on each compute stream
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

// What a buffer of B holds: which panel, the copy that brought it and, per compute stream, the
// last tile whose kernel read it (worker-local indices, kNone for none).
struct HeldPanel {
    int panel = -1;
    std::size_t filled_by = kNone;    // into the worker's panel copies
    std::size_t shared_copy = kNone;  // its copy's index in the PanelExchange, if shared
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

// One worker: its device, its buffers and streams, and the events that tie its copies and
// kernels together.
class Worker {
  public:
    Worker(Job& job, int entry, Workspace::Entry& buffers)
        : job_(job),
          plan_(job.plan),
          entry_(entry),
          device_(job.options.devices[static_cast<std::size_t>(entry)]),
          buffers_(buffers),
          panel_copier_(job.options.panel_copy, job.b, job.plan.n, device_) {
        // What the first copies and kernel need; run() allocates the rest while they run.
        buffers_.allocate_first(plan_, device_, copy_in_.get());
        held_panels_.resize(buffers_.b.size());
        if (job_.exchange != nullptr)
            shared_steps_ = steps_every_worker_runs();
    }

    // Waits for the streams: nothing may still copy into the buffers when they are reused or
    // freed, also when an exception unwinds the worker. The first error was thrown already.
    ~Worker() {
        for (const Stream* stream : streams())
            (void)hipStreamSynchronize(stream->get());
    }
    Worker(const Worker&) = delete;
    Worker& operator=(const Worker&) = delete;

    void run();
    EntryStatistics statistics() const;

  private:
    bool take_chunk(std::size_t step = 0);
    std::size_t steps_every_worker_runs() const;
    std::size_t bring_panel(int panel_index, std::size_t oldest, bool shared);
    void copy_shares(float* to, int pitch, int cols, std::size_t copy);
    void enqueue_tile(std::size_t local, int panel_index, std::size_t b_buffer);
    void copy_rows_of_a(std::size_t local, int first, int rows);
    std::vector<std::size_t> computing_in(std::size_t step) const;
    void wait_for_chunk(std::size_t local, hipStream_t stream) const;
    void wait_for_step(std::size_t step) const;
    void wait_for_tile(std::size_t t, hipStream_t stream) const;
    std::vector<const Stream*> streams() const;

    // [worker state]
    Job& job_;
    const Plan& plan_;
    int entry_;
    int device_;
    Workspace::Entry& buffers_;           // chunks of A, panels of B, tiles of C
    std::vector<HeldPanel> held_panels_;  // what each buffer of B holds
    // copy_in_ brings chunks of A and panels of B, in the order the kernels need them (one stream,
    // so that no copy can overtake another); the tiles' kernels take turns on the kLanes compute
    // streams; copy_out_ takes tiles of C home.
    Stream copy_in_, copy_out_;
    std::array<Stream, kLanes> compute_;
    PanelCopier panel_copier_;  // by a kernel or by the copy engine (panel_copy.hpp)
    InnerMultiply inner_{job_.options.inner, kLanes};
    Event begin_;  // the worker's time zero
    // The worker's chunks, tiles and panel copies with their events, in the order it queued them
    // (deques: events stay where they are as they grow).
    std::deque<TakenChunk> chunks_;
    std::deque<TileEvents> tiles_;
    std::deque<PanelCopyEvents> panel_copies_;
    std::vector<std::size_t> step_tiles_;  // the first tile of each step
    OperationLog log_;                     // every copy and kernel, for the statistics
    // Shared panels (panel_exchange.hpp): the copies of the steps before shared_steps_ are shared
    // with the other workers, shared_copies_ of them so far, and peer_bytes_ came from them.
    std::size_t shared_steps_ = 0;
    std::size_t shared_copies_ = 0;
    std::uint64_t peer_bytes_ = 0;
    // [worker state]
};

// [steps]
// The work goes in steps. In step s the worker has panel s mod P of B on the device and runs one
// kernel for each chunk that is computing (two, but for the first and last step): both chunks
// read the same panel, so each byte of B that crosses the host link meets the rows of both.
// Each step: the panel of B it needs (unless still on the device), the chunks taken in it (see
// take_step()), then one kernel per chunk computing in it. A chunk stays in the queue until
// shortly before its rows are needed, for whichever worker is free first.
void Worker::run() {
    const std::size_t panels = plan_.panels.size();
    begin_.record(copy_in_.get());
    bool more = take_chunk();  // joins in step 0
    for (std::size_t step = 0;; ++step) {
        const std::vector<std::size_t> before = computing_in(step);
        if (before.empty())
            break;  // join_step() leaves no step empty before the last chunk is done
        const int panel = static_cast<int>(step % panels);
        const std::size_t b_buffer =
            bring_panel(panel, chunks_[before.front()].index, /*shared=*/step < shared_steps_);
        if (step == 0) {
            chunks_[0].rows_of_a.copy_rest(
                [&](int first, int rows) { copy_rows_of_a(0, first, rows); }, copy_in_.get());
            if (more && take_step(chunks_.size(), panels) == 0)
                buffers_.allocate_rest(plan_, copy_in_.get());  // the next chunk needs its A
        }
        while (more && take_step(chunks_.size(), panels) <= step) {
            if (step >= kQueueLagSteps)
                wait_for_step(step - kQueueLagSteps);  // the chunk stays in the queue till then
            more = take_chunk(step);
        }
        step_tiles_.push_back(tiles_.size());
        for (const std::size_t j : computing_in(step))  // with the chunks that joined just now
            enqueue_tile(j, panel, b_buffer);
        if (step == 0)
            buffers_.allocate_rest(plan_, copy_in_.get());  // while the first copies run
    }
    for (const Stream* stream : streams())
        stream->synchronize();
}
// [steps]

// [take chunk]
// Takes the next chunk from the queue, unless it is empty or another worker failed, and queues the
// copy of its rows of A into the buffer that the chunk a.size() places back used, once that
// chunk's kernels are done.
bool Worker::take_chunk(std::size_t step) {
    if (job_.stop.load())
        return false;
    const std::size_t local = chunks_.size(), buffers = buffers_.a.size();
    // Workers that share panels run the same steps: the chunks are dealt in turns.
    const std::size_t index = job_.exchange != nullptr ? static_cast<std::size_t>(entry_) +
                                                             local * job_.options.devices.size()
                                                       : job_.next_chunk.fetch_add(1);
    if (index >= plan_.chunks.size())
        return false;
    TakenChunk& taken = chunks_.emplace_back();
    taken.index = index;
    taken.buffer = local % buffers;
    taken.join = join_step(local, plan_.panels.size());
    if (local >= buffers) {
        // take_step() lets the buffer's last chunk end at least a step before this one is taken,
        // so its kernels are all queued and the copy can wait for them.
        if (chunks_[local - buffers].join + plan_.panels.size() > step)
            throw std::logic_error("step09: a chunk of A would overwrite one still computing");
        wait_for_chunk(local - buffers, copy_in_.get());
    }
    taken.rows_of_a.copy(
        plan_.chunks[index].rows, /*first_chunk=*/local == 0,
        [&](int first, int rows) { copy_rows_of_a(local, first, rows); }, copy_in_.get());
    log_.add(Operation::Kind::copy_a, index, -1, taken.rows_of_a.started(),
             taken.rows_of_a.arrived());
    return true;
}
// [take chunk]

// [bring panel]
// Returns the buffer that holds panel `panel_index` of B, copying it in first unless a buffer
// holds it already (only when there are no more panels than buffers). The copy goes into the
// buffer used longest ago, once the kernels that read it are done (and, where it held a shared
// copy, once the other workers have copied their shares out of it). A `shared` copy brings only
// this worker's share of the rows from the host and the rest from the others (copy_shares()).
// `oldest` (an index into Plan::chunks) is the chunk the copy is listed under in the timeline.
std::size_t Worker::bring_panel(int panel_index, std::size_t oldest, bool shared) {
    auto held = std::find_if(held_panels_.begin(), held_panels_.end(),
                             [&](const HeldPanel& h) { return h.panel == panel_index; });
    if (held != held_panels_.end())
        return static_cast<std::size_t>(held - held_panels_.begin());
    held = std::min_element(
        held_panels_.begin(), held_panels_.end(),
        [](const HeldPanel& x, const HeldPanel& y) { return x.last_use() < y.last_use(); });
    for (const std::size_t reader : held->last_read_by)
        wait_for_tile(reader, copy_in_.get());
    if (held->shared_copy != kNone) {
        // The other workers may still be copying their shares out of it.
        for (std::size_t other = 0; other < job_.options.devices.size(); ++other) {
            if (other != static_cast<std::size_t>(entry_))
                job_.exchange->wait_until_pulled(other, held->shared_copy, copy_in_.get());
        }
    }
    const std::size_t b_buffer = static_cast<std::size_t>(held - held_panels_.begin());
    float* to = buffers_.b[b_buffer].get();
    const Panel& panel = plan_.panels[static_cast<std::size_t>(panel_index)];
    const int k = plan_.k, pitch = stored(panel.cols);  // pitch: elements per stored row
    PanelCopyEvents& copy = panel_copies_.emplace_back();
    copy.start.record(copy_in_.get());
    const std::size_t shared_copy = shared ? shared_copies_++ : kNone;
    if (shared) {
        const RowShare mine = row_share(k, entry_, static_cast<int>(job_.options.devices.size()));
        if (mine.count > 0) {  // k smaller than the entries leaves some without rows
            panel_copier_.copy(panel.first_col, panel.cols, mine.first, mine.count,
                               to + elements(mine.first, pitch), pitch, copy_in_.get());
        }
        copy_shares(to, pitch, panel.cols, shared_copy);
    } else {
        panel_copier_.copy(panel.first_col, panel.cols, 0, k, to, pitch, copy_in_.get());
    }
    if (stored(k) != k) {
        // The padding rows meet A's zero columns: they must be zeros too (0 x NaN is NaN). The
        // buffer held other panels, of other widths, before: zero them for this one.
        HIP_CHECK(hipMemsetAsync(to + elements(k, pitch), 0,
                                 elements(stored(k) - k, pitch) * sizeof(float), copy_in_.get()));
    }
    copy.done.record(copy_in_.get());
    log_.add(Operation::Kind::copy_b, oldest, panel_index, copy.start, copy.done);
    *held = HeldPanel{};
    held->panel = panel_index;
    held->filled_by = panel_copies_.size() - 1;
    held->shared_copy = shared_copy;
    return b_buffer;
}
// [bring panel]

// [copy shares]
// After this worker's share of shared copy `copy` is queued into `to`: publishes it, copies every
// other worker's share out of that worker's buffer once it is there, and publishes that it has.
void Worker::copy_shares(float* to, int pitch, int cols, std::size_t copy) {
    PanelExchange& exchange = *job_.exchange;
    const int entries = static_cast<int>(job_.options.devices.size());
    Event arrived(hipEventDisableTiming);
    arrived.record(copy_in_.get());
    exchange.publish_share(static_cast<std::size_t>(entry_), copy, to, std::move(arrived));
    for (int other = 0; other < entries; ++other) {
        if (other == entry_)
            continue;
        const RowShare theirs = row_share(plan_.k, other, entries);
        if (theirs.count == 0)
            continue;
        const float* from =
            exchange.wait_for_share(static_cast<std::size_t>(other), copy, copy_in_.get());
        const std::size_t offset = elements(theirs.first, pitch);
        HIP_CHECK(hipMemcpyAsync(to + offset, from + offset,
                                 elements(theirs.count, pitch) * sizeof(float),
                                 hipMemcpyDeviceToDevice, copy_in_.get()));
        peer_bytes_ += elements(theirs.count, cols) * sizeof(float);
    }
    Event pulled(hipEventDisableTiming);
    pulled.record(copy_in_.get());
    exchange.publish_pulled(static_cast<std::size_t>(entry_), copy, std::move(pulled));
}
// [copy shares]

// The steps that every worker runs when the chunks are dealt in turns: the last entry is dealt
// the fewest, chunks / entries (at least one: panels are shared only then), and its last one
// computes for a pass of B after it joins.
std::size_t Worker::steps_every_worker_runs() const {
    const std::size_t fewest = plan_.chunks.size() / job_.options.devices.size();
    return join_step(fewest - 1, plan_.panels.size()) + plan_.panels.size();
}

// [enqueue tile]
void Worker::enqueue_tile(std::size_t local, int panel_index, std::size_t b_buffer) {
    TakenChunk& taken = chunks_[local];
    const Chunk& chunk = plan_.chunks[taken.index];
    const Panel& panel = plan_.panels[static_cast<std::size_t>(panel_index)];
    const std::size_t t = tiles_.size();
    TileEvents& tile = tiles_.emplace_back();
    const std::size_t lane = t % kLanes;
    const hipStream_t compute = compute_[lane].get();
    held_panels_[b_buffer].last_read_by[lane] = t;
    taken.last_tile[lane] = t;
    // The stored row lengths (see kRowAlign): the kernel multiplies the padded matrices, a chunk
    // of rows x k_pitch by a panel of k_pitch x pitch, and only the real columns go home.
    const int k_pitch = stored(plan_.k), pitch = stored(panel.cols);
    const std::size_t c_buffer = t % buffers_.c.size();
    const float* a = buffers_.a[taken.buffer].get();
    const float* b = buffers_.b[b_buffer].get();
    float* c = buffers_.c[c_buffer].get();

    // 1. The kernel, once the panel and the chunk's rows of A are in and the C buffer has gone
    //    home (the worker's first tile starts on the top half of its rows of A).
    HIP_CHECK(
        hipStreamWaitEvent(compute, panel_copies_[held_panels_[b_buffer].filled_by].done.get(), 0));
    if (t >= buffers_.c.size())
        HIP_CHECK(
            hipStreamWaitEvent(compute, tiles_[t - buffers_.c.size()].copy_out_done.get(), 0));
    taken.rows_of_a.wait_for_rows(/*first_tile=*/t == 0, compute);
    tile.kernel_start.record(compute);
    taken.rows_of_a.multiply(
        /*first_tile=*/t == 0,
        [&](int first, int rows) {
            inner_(lane, a + elements(first, k_pitch), b, c + elements(first, pitch), rows, pitch,
                   k_pitch, compute);
        },
        compute);
    tile.kernel_done.record(compute);
    log_.add(Operation::Kind::kernel, taken.index, panel_index, tile.kernel_start,
             tile.kernel_done);
    // [enqueue tile]

    // [tile home]
    // 2. The tile of C (rows x cols) home into its place in C (pitch n), as soon as it is done.
    const std::size_t n = static_cast<std::size_t>(plan_.n);
    HIP_CHECK(hipStreamWaitEvent(copy_out_.get(), tile.kernel_done.get(), 0));
    tile.copy_out_start.record(copy_out_.get());
    HIP_CHECK(
        hipMemcpy2DAsync(job_.c + static_cast<std::size_t>(chunk.first_row) * n + panel.first_col,
                         n * sizeof(float), c, pitch * sizeof(float), panel.cols * sizeof(float),
                         chunk.rows, hipMemcpyDeviceToHost, copy_out_.get()));
    tile.copy_out_done.record(copy_out_.get());
    log_.add(Operation::Kind::copy_c, taken.index, panel_index, tile.copy_out_start,
             tile.copy_out_done);
    // [tile home]
}

// Queues the copy of rows [first, first + rows) of chunk `local`'s rows of A into its buffer: one
// contiguous copy, or each row of k elements into a row of padded(k) where they differ.
void Worker::copy_rows_of_a(std::size_t local, int first, int rows) {
    const Chunk& chunk = plan_.chunks[chunks_[local].index];
    const std::size_t k = static_cast<std::size_t>(plan_.k);
    const std::size_t pitch = static_cast<std::size_t>(stored(plan_.k));
    float* to = buffers_.a[chunks_[local].buffer].get() + first * pitch;
    const float* from = job_.a + (static_cast<std::size_t>(chunk.first_row) + first) * k;
    if (pitch == k) {
        HIP_CHECK(hipMemcpyAsync(to, from, elements(rows, plan_.k) * sizeof(float),
                                 hipMemcpyHostToDevice, copy_in_.get()));
    } else {
        HIP_CHECK(hipMemcpy2DAsync(to, pitch * sizeof(float), from, k * sizeof(float),
                                   k * sizeof(float), rows, hipMemcpyHostToDevice, copy_in_.get()));
    }
}

// The worker's chunks that compute in `step` (see join_step()).
std::vector<std::size_t> Worker::computing_in(std::size_t step) const {
    const std::size_t panels = plan_.panels.size();
    std::vector<std::size_t> computing;
    for (std::size_t j = 0; j < chunks_.size(); ++j) {
        if (chunks_[j].join <= step && step < chunks_[j].join + panels)
            computing.push_back(j);
    }
    return computing;
}

// Makes `stream` wait until every kernel of chunk `local` is done (a null stream: the host
// waits). Its last kernels ran on the compute streams, each of which runs in order.
void Worker::wait_for_chunk(std::size_t local, hipStream_t stream) const {
    for (const std::size_t t : chunks_[local].last_tile)
        wait_for_tile(t, stream);
}

// The host waits until every kernel of `step` is done.
void Worker::wait_for_step(std::size_t step) const {
    for (std::size_t t = step_tiles_[step]; t < step_tiles_[step + 1]; ++t)
        wait_for_tile(t, /*stream=*/nullptr);
}

void Worker::wait_for_tile(std::size_t t, hipStream_t stream) const {
    if (t == kNone)
        return;
    if (stream == nullptr) {
        tiles_[t].kernel_done.synchronize();
    } else {
        HIP_CHECK(hipStreamWaitEvent(stream, tiles_[t].kernel_done.get(), 0));
    }
}

std::vector<const Stream*> Worker::streams() const {
    std::vector<const Stream*> all{&copy_in_, &copy_out_};
    for (const Stream& stream : compute_)
        all.push_back(&stream);
    return all;
}

// The counts and the timeline from the log, with what only the worker knows.
EntryStatistics Worker::statistics() const {
    EntryStatistics result = log_.statistics(plan_, begin_);
    result.entry = entry_;
    result.device = device_;
    result.panels_by_kernel = panel_copier_.by_kernel();
    result.bytes_to_device -= peer_bytes_;  // the log counts whole panels
    result.bytes_from_peers = peer_bytes_;
    result.bytes_allocated = buffers_.bytes_allocated();
    return result;
}

}  // namespace

EntryStatistics stream_chunks(Job& job, int entry, Workspace::Entry& buffers, HostPhases& phases) {
    Worker worker(job, entry, buffers);
    phases.ready = HostPhases::Clock::now();
    worker.run();
    phases.finished = HostPhases::Clock::now();
    return worker.statistics();
}

}  // namespace step09
