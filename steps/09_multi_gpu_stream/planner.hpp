/// \file
/// \brief Step 09's chunk planner: how C is cut into row chunks and B into column panels so that
/// each device entry's buffers fit its memory budget. Pure host code, no HIP.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/rounding.hpp"

namespace step09 {

/// Chunk rows and panel columns are multiples of this where the budget and the sizes allow: the
/// edge of step 05's block tile, so that no block is left partly idle.
constexpr int kGranule = 128;

/// The tallest chunk the planner picks on its own: two such chunks share every panel of B, enough
/// rows for each byte of B that crosses the host link to hide behind its multiply.
constexpr int kPreferredChunkRows = 2048;

/// At most this many chunks of A are resident on one entry: two being computed, which share each
/// panel of B, and one arriving for the next.
constexpr int kChunkBuffers = 3;

/// How many chunks compute at once on one entry, sharing every panel of B that it copies.
constexpr int kChunksAtOnce = 2;

/// Buffers for panels of B on one entry when B is streamed: one read by the kernels while the next
/// arrives.
constexpr int kPanelBuffers = 2;

/// The widest panel the planner picks on its own: each row of a panel is one piece of a 2D copy,
/// and the copy engine moves short pieces slowly.
constexpr int kPreferredPanelCols = 2048;

/// Every row of a device buffer starts on a 16-byte boundary, whatever n and k are, so that the
/// inner kernels keep their float4 path: a chunk of A is stored with its k columns padded to a
/// multiple of kRowAlign elements, a panel of B and a tile of C with their columns padded likewise,
/// and B's panels get the padded k rows. The padding of A and B holds zeros, so the padded product
/// equals the real one in every real element of C, and the padded columns of C never go home.
constexpr int kRowAlign = 4;

using tutorial::ceil_div;

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
    /// the planner sizes chunks and panels so that the steps fill whole waves (wave_fit.hpp).
    int multiprocessors = 0;
    /// The entries are dealt the chunks in turns (they share panels, panel_exchange.hpp) rather
    /// than taking them from the queue: then the tallest chunks may stay where their number is a
    /// multiple of the entries, since the last round evens out what each entry gets.
    bool in_turns = false;
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
/// plan_multiply() may add a spare buffer of B to what buffers_for() gives
/// (spare_panel_buffer.hpp).
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

/// Cuts the multiply into chunks and panels for the request.
///
/// Without overrides the planner keeps chunks as tall as the budget allows, up to
/// kPreferredChunkRows and ceil(m / entries) (so that every entry can get work), because the
/// chunk height sets how many flops each streamed byte of B buys; it then widens the panels up to
/// kPreferredPanelCols with the memory that is left. Both are spread evenly over m and n and
/// rounded to multiples of kGranule where that still fits; with several entries, the chunks
/// instead number a multiple of the entries and are all ceil(m / chunks) rows but the last, so
/// that entries taking equally many chunks get equally many rows. When the request knows the
/// device's multiprocessors and nothing is overridden, fit_to_waves() then picks the chunk height
/// (with one entry) and the panel width whose steps fill the most whole waves. Overrides are taken
/// as they are (capped at m and n). Last, add_spare_panel_buffers() adds a buffer of B where the
/// budget still has room for it.
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
