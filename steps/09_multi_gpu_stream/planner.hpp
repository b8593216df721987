/// \file
/// \brief Step 09's chunk planner: how C is cut into row chunks and B into column panels so that
/// each device entry's buffers fit its memory budget. Pure host code, no HIP.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace step09 {

/// Chunk rows and panel columns are multiples of this where the budget and the sizes allow: it is
/// the edge of step 05's block tile, so a chunk or panel that is a multiple of it leaves no
/// partly idle block behind.
constexpr int kGranule = 128;

/// The tallest chunk the planner picks on its own. A worker computes two chunks at a time, and
/// both read every panel of B it copies, so each streamed byte of B meets 2 x 2,048 rows of A.
/// Hiding the copies of B needs at least 2 W / R such rows (W the kernel's FLOP rate, R the host
/// link's bytes per second; see the page): about 1,800 for 44 TFLOPS over 50 GB/s, 3,500 over
/// 25 GB/s. Shorter chunks leave more of the budget to wider panels; taller ones make the start
/// of the pipeline (the first chunk of A) longer.
constexpr int kPreferredChunkRows = 2048;

/// At most this many chunks of A are resident on one entry: two being computed, which share each
/// panel of B, and one arriving for the next.
constexpr int kChunkBuffers = 3;

/// How many chunks compute at once on one entry, sharing every panel of B that it copies.
constexpr int kChunksAtOnce = 2;

/// Buffers for panels of B on one entry when B is streamed: one read by the kernels while the next
/// arrives. The worker fills them in the order of use, so more of them let a copy start earlier.
constexpr int kPanelBuffers = 2;

/// Buffers of B the planner adds to kPanelBuffers where the budget has room for them next to the
/// chunks and panels it chose (see plan_multiply()). With a third buffer the copy of panel s + 1
/// can start as soon as the kernels of step s - 1 are done rather than those of step s: measured
/// on an H100 at n = 16384 (1 GiB budget, 816 MiB of plan instead of 688), the streamed multiply
/// took 191.9 ms instead of 193.6 ms.
constexpr int kSparePanelBuffers = 1;

/// The widest panel the planner picks on its own. A panel of B is a 2D copy: one piece of
/// `cols` floats from every row of B, and a copy engine moves short pieces slowly. Measured on an
/// H100 (PCIe 5.0) from pinned memory: 34 GB/s for 4 KiB pieces (1024 floats), 49 GB/s for 8 KiB
/// (2048), 55 GB/s for a contiguous copy. Wider panels also mean fewer, larger kernels; narrower
/// ones leave more of the budget to the chunks of A.
constexpr int kPreferredPanelCols = 2048;

/// The block tile the wave count assumes: step 06's largest, 128 x 256, which its rule picks for
/// the tiles of a plan. A panel whose width is a multiple of kWaveTileCols leaves no block column
/// half empty.
constexpr int kWaveTileRows = 128;
constexpr int kWaveTileCols = 256;

/// The widest panel the planner tries when it knows the multiprocessor count (see
/// plan_multiply()). Wider panels take budget from the chunks of A and, measured on an H100 at
/// n = 16384, panels of 4096 columns were no faster than panels of 2048.
constexpr int kWidestPanelCols = 3072;

/// Every row of a device buffer starts on a 16-byte boundary, whatever n and k are, so that the
/// inner kernels keep their float4 path (steps 05 and 06 fall back to scalar accesses otherwise):
/// a chunk of A is stored with its k columns padded to a multiple of kRowAlign elements, a panel
/// of B and a tile of C with their columns padded likewise, and B's panels get the padded k rows.
/// The padding of A and B holds zeros, so the padded product equals the real one in every real
/// element of C, and the padded columns of C are never copied home.
constexpr int kRowAlign = 4;

/// `count` rounded up to a multiple of kRowAlign: the stored length of a row of `count` elements.
constexpr std::uint64_t padded(int count) {
    const auto value = static_cast<std::uint64_t>(count);
    return (value + kRowAlign - 1) / kRowAlign * kRowAlign;
}

/// What the planner is asked: the shapes (C is m x n, A is m x k, B is k x n), the element size,
/// how many device entries share the work and how much memory each entry may use.
struct PlanRequest {
    int m = 0;
    int n = 0;
    int k = 0;
    std::size_t element_bytes = sizeof(float);
    int entries = 1;                 ///< device entries (a device listed twice counts twice)
    std::uint64_t budget_bytes = 0;  ///< device memory each entry may allocate
    int chunk_rows = 0;              ///< 0: chosen from the budget; otherwise used (capped at m)
    int panel_cols = 0;              ///< 0: chosen from the budget; otherwise used (capped at n)
    /// Multiprocessors of the device (the fewest over the entries); 0 when unknown. When known,
    /// the planner sizes chunks and panels so that the steps fill whole waves (see plan_waves()).
    int multiprocessors = 0;
};

/// Rows [first_row, first_row + rows) of A and C.
struct Chunk {
    int first_row = 0;
    int rows = 0;
};

/// Columns [first_col, first_col + cols) of B and C.
struct Panel {
    int first_col = 0;
    int cols = 0;
};

/// The device buffers one entry allocates for a given chunk height and panel width, and never
/// more than can be in use: kChunkBuffers chunks of A (two computing, one arriving),
/// kPanelBuffers panels of B (one read while the next arrives) and a tile of C per computing chunk
/// plus one on its way home; fewer where the plan has fewer chunks, panels or tiles.
/// plan_multiply() may add kSparePanelBuffers buffers of B to what buffers_for() gives.
struct BufferSet {
    int a_buffers = 0;  ///< chunks of A: rows x padded(k)
    int b_buffers = 0;  ///< panels of B: padded(k) x padded(cols); one when a single panel covers
                        ///< B (it stays)
    int c_buffers = 0;  ///< tiles of C: rows x padded(cols)
    std::uint64_t a_bytes = 0;  ///< bytes of one A buffer
    std::uint64_t b_bytes = 0;  ///< bytes of one B buffer
    std::uint64_t c_bytes = 0;  ///< bytes of one C buffer

    /// Everything one entry allocates.
    std::uint64_t total_bytes() const {
        return a_buffers * a_bytes + b_buffers * b_bytes + c_buffers * c_bytes;
    }
};

/// The plan: every chunk of rows times every panel of columns is one tile of C, computed once.
struct Plan {
    int m = 0, n = 0, k = 0;
    std::size_t element_bytes = 0;
    int entries = 0;
    std::uint64_t budget_bytes = 0;
    int chunk_rows = 0;         ///< the height of every chunk but possibly the last
    int panel_cols = 0;         ///< the width of every panel but possibly the last
    std::vector<Chunk> chunks;  ///< in row order, handed out from a shared queue
    std::vector<Panel> panels;  ///< in column order, streamed through every chunk
    BufferSet buffers;          ///< what each entry allocates

    /// True when one panel covers all of B: it is copied once per entry and stays resident.
    bool b_resident() const { return panels.size() == 1; }
};

/// Device memory left to the runtime, the context and the vendor BLAS when the budget is "all".
constexpr std::uint64_t kAllMemoryMargin = 512ull << 20;

/// The memory of the device behind one entry of a device list, as hipMemGetInfo reports it.
struct DeviceMemory {
    int device = 0;
    std::uint64_t free_bytes = 0;
    std::uint64_t total_bytes = 0;
};

/// The device memory each entry may allocate, the one budget a plan is made for. `asked` is a
/// size per entry, or nothing for "all": each device's free memory less kAllMemoryMargin, shared
/// equally by the entries on it, and the smallest share over the devices. `entries` has one
/// element per entry of the device list (a device listed twice appears twice). Throws
/// std::invalid_argument, naming the device and its memory, when `asked` times the entries on a
/// device is more than the device has in all.
std::uint64_t budget_per_entry(std::optional<std::uint64_t> asked,
                               const std::vector<DeviceMemory>& entries);

/// The device memory one entry needs for chunks of `chunk_rows` and panels of `panel_cols` (both
/// at least 1) of the request's shapes.
BufferSet buffers_for(const PlanRequest& request, int chunk_rows, int panel_cols);

/// How many waves of kWaveTileRows x kWaveTileCols blocks over `multiprocessors` (one block each)
/// the kernels of a plan with chunks of `chunk_rows` and panels of `panel_cols` take, when the two
/// chunks that compute at once share each wave: for every pair of chunks (0 and 1, 2 and 3, ...)
/// and every panel, the blocks of both tiles, rounded up to whole waves. The kernels of two lanes
/// run side by side, so one tile's last, partial wave is filled by its partner's blocks, but
/// nothing fills the last wave of a step. Fewer waves, shorter kernels.
long long plan_waves(int m, int n, int chunk_rows, int panel_cols, int multiprocessors);

/// Cuts the multiply into chunks and panels for the request.
///
/// Without overrides the planner keeps chunks as tall as the budget allows, up to
/// kPreferredChunkRows and ceil(m / entries) (so that every entry can get work), because the
/// chunk height sets how many flops each streamed byte of B buys; it then widens the panels up to
/// kPreferredPanelCols with the memory that is left. Both are spread evenly over m and n and
/// rounded to multiples of kGranule where that still fits. When the request knows the device's
/// multiprocessors, the planner then also tries chunks of the tallest height in whole block rows
/// and panels of every multiple of kWaveTileCols up to kWidestPanelCols whose last panel is at
/// least three quarters as wide (a short last step leaves the next panel's copy exposed), and keeps
/// the pair with the fewest plan_waves(), the tallest and then the widest on a tie. Overrides are
/// taken as they are (capped at m and n).
/// Last, where the budget still has room next to the chosen buffers, it adds kSparePanelBuffers
/// buffers of B (only while B has more panels than buffers).
///
/// Throws std::invalid_argument with a message when the request is impossible: a size or the
/// number of entries below 1, an element size of 0, a buffer with more elements than an int can
/// index, or a budget too small for even one row of A and one column of B (the message then gives
/// the smallest budget that works).
Plan plan_multiply(const PlanRequest& request);

/// The plan in a few lines for a learner: chunk and panel counts and sizes, the buffers and their
/// bytes against the budget.
std::string describe_plan(const Plan& plan);

}  // namespace step09
