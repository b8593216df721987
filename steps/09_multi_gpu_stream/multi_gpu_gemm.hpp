/// \file
/// \brief Step 09's entry point: C = A·B for matrices in host memory, on one or more GPUs, out of
/// core: rows of A and C in chunks handed out from a shared queue, B streamed through each device
/// in column panels, copies overlapped with the multiply.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "inner_kernel.hpp"
#include "panel_copy.hpp"
#include "planner.hpp"

namespace step09 {

/// Compute streams (lanes) per worker: its tiles' kernels take turns on them, so that the next
/// tile's kernel fills the multiprocessors that the current one leaves idle while its last blocks
/// finish. Each lane has its own inner kernel handle.
constexpr std::size_t kLanes = 2;

/// What the host matrices are.
enum class HostMemory {
    /// Ordinary (pageable) memory: gemm() page-locks A, B and C with hipHostRegister for the call
    /// and unregisters them before it returns. Where that fails (memory that is already
    /// page-locked, for one) the copies still work, staged by the runtime, only slower; the
    /// statistics say which happened.
    pageable,
    /// Page-locked memory from hipHostMalloc (tutorial::PinnedBuffer) or hipHostRegister: used as
    /// it is, so repeated calls do not pay for locking pages.
    pinned,
};

/// How gemm() runs.
struct MultiGpuOptions {
    /// The device ids to use, one worker (a host thread with its own streams and buffers) per
    /// entry. An id may repeat: a device listed twice runs two workers, which is how the
    /// multi-device code is exercised on one GPU. Must not be empty.
    std::vector<int> devices{0};
    /// Device memory each entry may allocate. With a device listed twice, each of its two entries
    /// gets this budget. Nothing means "all": the device's free memory less kAllMemoryMargin,
    /// shared equally by the entries of that device. plan_for() turns it into the plan's budget.
    std::optional<std::uint64_t> device_memory_bytes;
    InnerKernel inner = kInnerKernels[0].kernel;  ///< the kernel for each tile (the default first)
    int chunk_rows = 0;  ///< rows per chunk; 0 chooses from the budget (see plan_multiply())
    int panel_cols = 0;  ///< columns per panel; 0 chooses from the budget
    HostMemory host_memory = HostMemory::pageable;  ///< what a, b and c point to
    /// How panels of B reach the devices. The kernel needs B in page-locked memory that the
    /// device can address; where it is not, the copy engine brings every panel.
    PanelCopy panel_copy = PanelCopy::first_by_kernel;
    /// Whether devices that can read each other's memory share panels of B (panel_exchange.hpp):
    /// each brings its share of a panel's rows from the host and the rest from the others. Needs
    /// two entries or more, no device listed twice, peer access between every pair and a chunk for
    /// every entry; otherwise each device brings whole panels, as with false.
    bool share_panels = true;
};

/// One copy or kernel on a device entry's timeline.
struct Operation {
    enum class Kind {
        copy_a,  ///< a chunk of A to the device
        copy_b,  ///< a panel of B to the device
        kernel,  ///< one tile: a chunk of A times a panel of B
        copy_c,  ///< a tile of C back to the host
    };
    Kind kind = Kind::kernel;
    int chunk = 0;          ///< index into Plan::chunks
    int panel = -1;         ///< index into Plan::panels; -1 for copy_a
    double begin_ms = 0.0;  ///< from the entry's first operation
    double end_ms = 0.0;
};

/// What one entry did in a call, for the load balance and the overlap. The times come from events
/// on the device's clock, in milliseconds from the entry's first operation. An operation counts as
/// busy from the event recorded just before it in its stream to the one just after it, which
/// includes any time it queued behind other work on the device.
struct EntryStatistics {
    int entry = 0;                       ///< index into MultiGpuOptions::devices
    int device = 0;                      ///< the device id
    int chunks = 0;                      ///< chunks this entry took from the queue
    long long rows = 0;                  ///< rows of C it computed
    int tiles = 0;                       ///< chunk x panel multiplies it ran
    int panel_copies = 0;                ///< panels of B it copied in (the others were still there)
    int panels_by_kernel = 0;            ///< of those, brought by gather_rows() (see PanelCopy)
    std::uint64_t bytes_to_device = 0;   ///< A chunks and B panels copied in from the host
    std::uint64_t bytes_from_peers = 0;  ///< shares of panels of B copied from other devices
    std::uint64_t bytes_to_host = 0;     ///< C tiles copied back
    double span_ms = 0.0;                ///< from the first copy in to the last copy out
    double compute_ms = 0.0;             ///< time at least one kernel was busy
    double copy_ms = 0.0;                ///< time at least one copy (in or out) was busy
    double hidden_copy_ms = 0.0;         ///< copy time during which a kernel was busy as well
    double setup_ms = 0.0;     ///< host time before the first copy: streams, handles, first buffers
    double teardown_ms = 0.0;  ///< host time after the last operation: statistics, freeing
    /// Device memory this call allocated for the entry: its plan's buffers, or 0 when a Workspace
    /// still held them from an earlier call.
    std::uint64_t bytes_allocated = 0;
    /// Every copy and kernel in the order the entry queued them: for each step its panel of B (if
    /// it was copied), the chunks of A taken in it, then each tile's kernel and its copy of C. A
    /// panel copy is listed under the older of the chunks that read it in its step.
    std::vector<Operation> operations;
};

/// What a call did: the plan, each entry's share and the wall time.
struct GemmStatistics {
    Plan plan;  ///< with the budget per entry it was made for
    std::vector<EntryStatistics> entries;
    double wall_ms = 0.0;        ///< host time of the whole call, transfers and set-up included
    std::string host_memory;     ///< how the host matrices were treated, in words
    bool panels_shared = false;  ///< whether the devices shared panels of B
    std::string panel_sharing;   ///< how panels of B reached the devices, in words
};

/// Device buffers kept from one call of gemm() to the next, like the workspace a BLAS handle keeps,
/// because allocating and freeing them costs every call host time and slows the copies after it.
/// Without one, each call allocates its entries' buffers (chunks of A, panels of B, tiles of C) and
/// frees them before it returns. With one, the first call allocates and later calls reuse each
/// entry's buffers while their plan needs the same ones (the same k, chunk height, panel width and
/// buffer counts, on the same device); a plan that needs others replaces them. The memory stays
/// allocated until release() or the destructor. One call at a time: two concurrent calls must not
/// share a Workspace.
class Workspace {
  public:
    Workspace();
    ~Workspace();  // frees what it holds
    Workspace(const Workspace&) = delete;
    Workspace& operator=(const Workspace&) = delete;

    /// Device memory held now, over all entries.
    std::uint64_t bytes() const;
    /// Frees every buffer; the next call allocates again.
    void release();

    struct Entry;  ///< one device entry's buffers (defined in chunk_workspace.hpp)
    /// The buffers of entry `index` (empty ones for an entry not seen before).
    Entry& entry(std::size_t index);

  private:
    std::vector<std::unique_ptr<Entry>> entries_;
};

/// `listed`, or every device of the machine when it is empty. Throws std::invalid_argument for
/// an id that is not a device of this machine (naming the ids there are) and
/// tutorial::RuntimeFailure when there is no GPU at all.
std::vector<int> devices_or_all(const std::vector<int>& listed);

/// The budget per entry for options.devices: budget_per_entry() with each device's memory as
/// hipMemGetInfo reports it now. Throws what budget_per_entry() throws.
std::uint64_t resolve_budget(const MultiGpuOptions& options);

/// The plan for an m x n x k multiply with `options`: its devices, its budget (resolved here,
/// once, and kept in Plan::budget_bytes) and its chunk and panel sizes. Throws
/// std::invalid_argument for an empty device list, an id that is not a device of this machine, a
/// budget larger than a device has and everything plan_multiply() refuses (a budget too small,
/// with the smallest that works), and tutorial::RuntimeFailure when there is no GPU at all.
Plan plan_for(int m, int n, int k, const MultiGpuOptions& options);

/// Computes C = A·B for row-major float matrices in host memory: A is m x k, B is k x n, C is
/// m x n, overwritten (it must not overlap A or B). Every size works (1 x 1 x 1, primes, sizes that
/// are multiples of nothing); only each device buffer must stay within 32-bit indexing, which the
/// planner sees to.
///
/// Chunks of rows of A and C are handed out from a shared queue to one worker thread per entry of
/// options.devices; each worker copies a chunk of A in once, streams B through in column panels
/// and copies each tile of C back as soon as it is done. A worker computes two chunks at a time,
/// and both multiply every panel it copies, so each panel crosses the host link once for two
/// chunks; the copies of the next panel and of the next chunk overlap the multiply of the current
/// ones. Where the devices can read each other's memory they share each panel instead (see
/// MultiGpuOptions::share_panels), and the chunks are dealt in turns rather than queued.
///
/// Errors: std::invalid_argument for negative sizes, null pointers and what plan_for() refuses;
/// tutorial::RuntimeFailure for what goes wrong on a device (out of memory, a failed HIP call),
/// rethrown on the calling thread after every worker has stopped and released its device memory.
/// C is then incomplete.
GemmStatistics gemm(const float* a, const float* b, float* c, int m, int n, int k,
                    const MultiGpuOptions& options);

/// The same multiply following `plan`, made by plan_for() for these options (its shapes and its
/// number of entries must match, or std::invalid_argument): the plan a program prints is then the
/// plan it runs, however often it calls. options.device_memory_bytes, chunk_rows and panel_cols
/// are not read again; the plan holds what they gave.
GemmStatistics gemm(const float* a, const float* b, float* c, const Plan& plan,
                    const MultiGpuOptions& options);

/// The same multiply with the buffers that `workspace` keeps between calls (see Workspace). Where
/// a call fails, the workspace is released before the error reaches the caller, so a failed call
/// leaves no device memory behind either.
GemmStatistics gemm(const float* a, const float* b, float* c, const Plan& plan,
                    const MultiGpuOptions& options, Workspace& workspace);

}  // namespace step09
