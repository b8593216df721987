#include "planner.hpp"

#include <algorithm>
#include <climits>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "common/byte_size.hpp"
#include "spare_panel_buffer.hpp"
#include "wave_fit.hpp"

namespace step09 {
namespace {

// A size near `limit` that spreads `total` evenly: as many pieces as pieces of `limit` need, all of
// the same size, rounded up to a multiple of `granule` where that still stays within `limit`.
// Where it does not, one piece more is worth it if the pieces can then be granule multiples: an
// unaligned width such as 1171 columns costs step 05 its float4 path and leaves partial block
// tiles. The last piece takes what is left.
int balanced(int total, int limit, int granule) {
    if (total <= limit)
        return total;
    auto round_up = [&](std::uint64_t value) {
        return static_cast<int>(ceil_div(value, granule) * granule);
    };
    const std::uint64_t count = ceil_div(total, limit);
    const int even = static_cast<int>(ceil_div(total, count));
    if (round_up(even) <= limit)
        return round_up(even);
    if (limit >= granule) {
        const std::uint64_t more = ceil_div(total, limit / granule * granule);
        if (more <= count + 1)
            return round_up(ceil_div(total, more));
    }
    return even;
}

// The height for several entries: as many chunks as `tallest` rows need, rounded up to a multiple
// of the entries, each ceil(m / chunks) rows rounded up to a multiple of `granule` where that still
// fits `tallest` (plan_multiply() then shares what is left over a last round, a chunk per entry).
// The queue hands each chunk to whichever entry is free, so which chunks an entry gets is not
// known in advance, only that entries of equal speed get equally many: with chunks of one height,
// that is equal block rows but for the last round's.
int even_over_entries(int m, int tallest, int entries, int granule) {
    const std::uint64_t chunks = ceil_div(ceil_div(m, tallest), entries) * entries;
    const int even = static_cast<int>(ceil_div(m, std::min<std::uint64_t>(chunks, m)));
    const int rounded = static_cast<int>(ceil_div(even, granule) * granule);
    return rounded <= tallest ? rounded : even;
}

// `total` rows (at least `pieces`, at most `pieces` x `limit`) in `pieces` chunks: one height
// rounded up to a multiple of `granule` where that fits `limit` and leaves the last chunk a row or
// more, the last what is left (3481 rows in two: 1792 and 1689); otherwise heights a row apart.
std::vector<int> even_pieces(int total, int pieces, int granule, int limit) {
    const int even = static_cast<int>(ceil_div(total, pieces));
    const int rounded = static_cast<int>(ceil_div(even, granule) * granule);
    std::vector<int> heights;
    if (rounded <= limit && static_cast<long long>(rounded) * (pieces - 1) < total) {
        heights.assign(static_cast<std::size_t>(pieces - 1), rounded);
        heights.push_back(total - rounded * (pieces - 1));
    } else {
        for (int piece = 0; piece < pieces; ++piece)
            heights.push_back(total / pieces + (piece < total % pieces ? 1 : 0));
    }
    return heights;
}

// The largest value in [1, limit] for which `fits` holds, or 0 when none does. `fits` must hold
// for every value below one for which it holds, which is true of the panel buffers below n
// (there the number of buffers no longer changes).
template <typename Fits>
int largest_fitting(int limit, Fits fits) {
    int low = 0, high = limit;  // fits(low) (or low == 0), and the answer is at most high
    while (low < high) {
        const int middle = low + (high - low + 1) / 2;
        if (fits(middle)) {
            low = middle;
        } else {
            high = middle - 1;
        }
    }
    return low;
}

// From this many chunks on, the number of each kind of buffer no longer grows with the count (see
// buffers_for()): kChunkBuffers of A, and kChunksAtOnce + 1 of C once there is more than one panel
// or that many chunks.
constexpr int kSteadyChunks = std::max(kChunkBuffers, kChunksAtOnce + 1);

// The tallest chunk height in [1, limit] for which `fits` holds, or 0 when none does. The bytes
// do not shrink steadily with the height: just below m / 2 a third chunk appears, and with it a
// third buffer of A. So the search goes through the numbers of chunks below kSteadyChunks, fewest
// first, and takes the tallest height that fits among those giving that number (there the buffers
// are fixed and the bytes grow with the height); the heights of kSteadyChunks chunks or more, where
// the bytes only grow with the height, are searched by halving.
template <typename Fits>
int tallest_fitting(int m, int limit, Fits fits) {
    const int steady = std::min(m, kSteadyChunks);
    for (int count = 1; count < steady; ++count) {
        const int shortest = static_cast<int>(ceil_div(m, count));  // the least for `count` chunks
        const int tallest = count == 1 ? m : static_cast<int>(ceil_div(m, count - 1)) - 1;
        if (shortest > limit || tallest < shortest)
            continue;
        if (fits(shortest)) {
            return shortest + largest_fitting(std::min(tallest, limit) - shortest,
                                              [&](int extra) { return fits(shortest + extra); });
        }
    }
    const int tallest = steady == 1 ? m : static_cast<int>(ceil_div(m, steady - 1)) - 1;
    return largest_fitting(std::min(tallest, limit), fits);
}

void check_request(const PlanRequest& request) {
    if (request.m < 1 || request.n < 1 || request.k < 1) {
        throw std::invalid_argument(
            "step09 plan: m, n and k must be at least 1, got m = " + std::to_string(request.m) +
            ", n = " + std::to_string(request.n) + ", k = " + std::to_string(request.k));
    }
    if (request.element_bytes == 0)
        throw std::invalid_argument("step09 plan: the element size must not be 0");
    if (request.entries < 1) {
        throw std::invalid_argument(
            "step09 plan: no device entries to run on; list at least one device");
    }
    if (request.chunk_rows < 0 || request.panel_cols < 0) {
        throw std::invalid_argument(
            "step09 plan: chunk rows and panel columns must be positive (or 0 to choose them)");
    }
}

}  // namespace

std::uint64_t budget_per_entry(std::optional<std::uint64_t> asked,
                               const std::vector<DeviceMemory>& entries) {
    std::uint64_t budget = UINT64_MAX;
    for (const DeviceMemory& entry : entries) {
        const auto sharing = static_cast<std::uint64_t>(
            std::count_if(entries.begin(), entries.end(),
                          [&](const DeviceMemory& other) { return other.device == entry.device; }));
        if (!asked) {
            const std::uint64_t usable =
                entry.free_bytes > kAllMemoryMargin ? entry.free_bytes - kAllMemoryMargin : 0;
            budget = std::min(budget, usable / sharing);
        } else if (*asked > entry.total_bytes / sharing) {
            std::string what =
                "a device memory budget of " + tutorial::format_bytes_exactly(*asked) +
                " per device entry is more than device " + std::to_string(entry.device) +
                " has: " + tutorial::format_bytes(entry.total_bytes) + " in all";
            if (sharing > 1) {
                what +=
                    ", shared by its " + std::to_string(sharing) + " entries in the device list";
            }
            throw std::invalid_argument(
                what + "; give at most " +
                tutorial::format_bytes_exactly(entry.total_bytes / sharing) +
                " or 'all' (free memory less " + tutorial::format_bytes(kAllMemoryMargin) + ")");
        }
    }
    return asked ? *asked : (entries.empty() ? 0 : budget);
}

BufferSet buffers_for(const PlanRequest& request, int chunk_rows, int panel_cols) {
    const std::uint64_t chunks = ceil_div(request.m, chunk_rows);
    const std::uint64_t panels = ceil_div(request.n, panel_cols);
    // Stored rows are padded to kRowAlign elements (see kRowAlign).
    const std::uint64_t rows = static_cast<std::uint64_t>(chunk_rows);
    const std::uint64_t cols = padded(panel_cols);
    const std::uint64_t k = padded(request.k);
    BufferSet set;
    // No more buffers of a kind than the plan can use at once (see BufferSet).
    const std::uint64_t computing = std::min<std::uint64_t>(chunks, kChunksAtOnce);
    set.a_buffers = static_cast<int>(std::min<std::uint64_t>(chunks, kChunkBuffers));
    set.b_buffers = panels > 1 ? kPanelBuffers : 1;
    set.c_buffers = static_cast<int>(std::min<std::uint64_t>(chunks * panels, computing + 1));
    set.a_bytes = rows * k * request.element_bytes;
    set.b_bytes = k * cols * request.element_bytes;
    set.c_bytes = rows * cols * request.element_bytes;
    return set;
}

namespace {

// " panels of 1 column", " chunks of 5 rows".
std::string with_count(const char* before, int count, const char* noun) {
    return before + std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

// The least memory any plan needs, keeping whatever chunk height or panel width the caller fixed.
// The bytes grow with the height and width where the number of chunks (panels) is at least
// kSteadyChunks (two), and below that the buffers are fewer: so the least is at one row (column)
// or at the least height (width) that gives each smaller number of chunks (panels).
template <typename WithinIndex>
std::uint64_t smallest_budget(const PlanRequest& request, WithinIndex within_index) {
    auto candidates = [](int fixed, int total, int steady) {
        std::vector<int> sizes;
        if (fixed > 0) {
            sizes.push_back(std::min(fixed, total));
        } else {
            sizes.push_back(1);
            for (int count = 1; count < steady && count < total; ++count)
                sizes.push_back(static_cast<int>(ceil_div(total, count)));
        }
        return sizes;
    };
    std::uint64_t least = UINT64_MAX;
    for (const int rows : candidates(request.chunk_rows, request.m, kSteadyChunks)) {
        for (const int cols : candidates(request.panel_cols, request.n, 2)) {
            if (within_index(rows, cols))
                least = std::min(least, buffers_for(request, rows, cols).total_bytes());
        }
    }
    return least;
}

}  // namespace

Plan plan_multiply(const PlanRequest& request) {
    check_request(request);
    const int m = request.m, n = request.n, k = request.k;
    // The kernels index a buffer with 32-bit ints, so no buffer may hold more than INT_MAX
    // elements: a chunk of A has rows x padded(k), a panel of B padded(k) x padded(cols). The
    // limit is a multiple of kRowAlign, so that a panel's padded width stays within it too.
    const int index_limit = static_cast<int>(INT_MAX / padded(k) / kRowAlign * kRowAlign);
    if (index_limit == 0) {
        throw std::invalid_argument(
            "step09 plan: k = " + std::to_string(k) + " is too long: a chunk of A of one row (" +
            std::to_string(padded(k)) +
            " elements stored) would hold more elements than a 32-bit int can index");
    }
    auto within_index = [&](int rows, int cols) {
        return rows <= index_limit && cols <= index_limit &&
               static_cast<std::uint64_t>(rows) * padded(cols) <= INT_MAX;
    };
    auto fits = [&](int rows, int cols) {
        return within_index(rows, cols) &&
               buffers_for(request, rows, cols).total_bytes() <= request.budget_bytes;
    };

    int rows = request.chunk_rows > 0 ? std::min(request.chunk_rows, m) : 0;
    int cols = request.panel_cols > 0 ? std::min(request.panel_cols, n) : 0;
    if (rows > index_limit || cols > index_limit) {
        throw std::invalid_argument(
            "step09 plan: a chunk of " + std::to_string(rows) + " rows or a panel of " +
            std::to_string(cols) + " columns with k = " + std::to_string(k) +
            " would hold more elements than a 32-bit int can index; at most " +
            std::to_string(index_limit) + " rows or columns");
    }

    int tallest_rows = 0;  // the tallest chunk height that fits, when the planner chose it
    if (rows == 0) {
        // [chunk height]
        // Tall chunks first: the chunk height sets the flops per byte of B that crosses the host
        // link. Measured against the narrowest useful panel, so that panels do not steal the
        // memory that chunks need.
        const int probe_cols = cols > 0 ? cols : std::min(n, kGranule);
        const int limit = std::min(
            {m, static_cast<int>(ceil_div(m, request.entries)), kPreferredChunkRows, index_limit});
        int tallest = tallest_fitting(m, limit, [&](int r) { return fits(r, probe_cols); });
        if (tallest == 0 && cols == 0) {
            // Not even one row fits next to that panel: chunks and panels shrink together.
            for (int side = std::min(limit, probe_cols); side > 0 && tallest == 0; --side) {
                if (fits(side, side))
                    tallest = side;
            }
        }
        tallest_rows = tallest;
        if (tallest > 0) {
            // Several entries get chunks of one height in a number they share evenly: none gets a
            // chunk more than another, nor a last chunk of a few rows while the others get full
            // ones.
            rows = request.entries > 1 ? even_over_entries(m, tallest, request.entries, kGranule)
                                       : balanced(m, tallest, kGranule);
            if (!fits(rows, std::min(probe_cols, tallest)))
                rows = tallest;  // that made a chunk more, and a buffer of A with it
        }
        // [chunk height]
    }
    if (cols == 0 && rows > 0) {
        // [panel width]
        // The memory left over widens the panels, up to the preferred width.
        const int limit = std::min({n, kPreferredPanelCols, index_limit});
        const int widest =
            fits(rows, limit)
                ? limit
                : largest_fitting(std::min(limit, n - 1), [&](int c) { return fits(rows, c); });
        if (widest > 0)
            cols = balanced(n, widest, kGranule);
        // [panel width]
    }

    if (request.multiprocessors > 0 && request.chunk_rows == 0 && request.panel_cols == 0 &&
        rows > 0 && cols > 0 && fits(rows, cols)) {
        // A kernel takes as long as its waves of blocks, full or not: fill whole waves. Entries
        // dealt chunks in turns may also take the tallest whole-block chunks where their number
        // is a multiple of the entries: the last round then evens out what each gets. Entries
        // that take chunks from the queue keep the even height, and only the panel width is
        // fitted, since one of them may take the tallest chunks of all.
        const int whole_rows = tallest_rows / kWaveTileRows * kWaveTileRows;
        const bool whole_share_evenly =
            request.entries == 1 ||
            (request.in_turns && whole_rows > 0 &&
             ceil_div(m, whole_rows) % static_cast<std::uint64_t>(request.entries) == 0);
        std::tie(rows, cols) =
            fit_to_waves(m, n, {rows, cols}, whole_share_evenly ? tallest_rows : 0,
                         request.multiprocessors, fits);
    }

    if (rows == 0 || cols == 0 || !fits(rows, cols)) {
        std::string what =
            "the device memory budget of " + tutorial::format_bytes_exactly(request.budget_bytes) +
            " per device entry is too small for one panel of C (" + std::to_string(m) + " x " +
            std::to_string(n) + ") = A (" + std::to_string(m) + " x " + std::to_string(k) +
            ") B (" + std::to_string(k) + " x " + std::to_string(n) + ")";
        if (request.chunk_rows > 0)
            what += with_count(" with chunks of ", request.chunk_rows, "row");
        if (request.panel_cols > 0) {
            what += std::string(request.chunk_rows > 0 ? " and" : " with") +
                    with_count(" panels of ", request.panel_cols, "column");
        }
        throw std::invalid_argument(
            what + "; the smallest budget that works is " +
            tutorial::format_bytes_exactly(smallest_budget(request, within_index)));
    }

    Plan plan;
    plan.m = m;
    plan.n = n;
    plan.k = k;
    plan.element_bytes = request.element_bytes;
    plan.entries = request.entries;
    plan.budget_bytes = request.budget_bytes;
    plan.chunk_rows = rows;
    plan.panel_cols = cols;
    // Full chunks, then a last round that shares what they leave: with several entries, one
    // short chunk per entry rather than a single one, so that no entry's share falls short by a
    // whole chunk's worth of what the others' last chunks hold.
    const int count = static_cast<int>(ceil_div(m, rows));
    const int last_round = m % rows != 0 && count >= request.entries ? request.entries : 1;
    int row = 0;
    for (int chunk = 0; chunk < count - last_round; ++chunk, row += rows)
        plan.chunks.push_back({row, rows});
    for (const int height : even_pieces(m - row, last_round, kGranule, rows)) {
        plan.chunks.push_back({row, height});
        row += height;
    }
    for (int col = 0; col < n; col += cols)
        plan.panels.push_back({col, std::min(cols, n - col)});
    plan.buffers = buffers_for(request, rows, cols);
    add_spare_panel_buffers(plan);
    return plan;
}

std::string describe_plan(const Plan& plan) {
    const BufferSet& set = plan.buffers;
    std::ostringstream text;
    text << "Plan: C (" << plan.m << " x " << plan.n << ") in " << plan.chunks.size()
         << (plan.chunks.size() == 1 ? " chunk" : " chunks") << " of up to " << plan.chunk_rows
         << (plan.chunk_rows == 1 ? " row" : " rows") << " times " << plan.panels.size()
         << (plan.panels.size() == 1 ? " panel" : " panels") << " of up to " << plan.panel_cols
         << (plan.panel_cols == 1 ? " column (" : " columns (")
         << plan.chunks.size() * plan.panels.size()
         << (plan.chunks.size() * plan.panels.size() == 1 ? " tile), shared by "
                                                          : " tiles), shared by ")
         << plan.entries << (plan.entries == 1 ? " device entry" : " device entries") << "\n";
    text << "  each entry holds " << set.a_buffers << " x A chunk ("
         << tutorial::format_bytes(set.a_bytes) << "), " << set.b_buffers << " x B panel ("
         << tutorial::format_bytes(set.b_bytes) << (plan.b_resident() ? ", resident" : "") << "), "
         << set.c_buffers << " x C tile (" << tutorial::format_bytes(set.c_bytes)
         << ") = " << tutorial::format_bytes(set.total_bytes()) << " of a "
         << tutorial::format_bytes(plan.budget_bytes) << " budget\n";
    return text.str();
}

}  // namespace step09
