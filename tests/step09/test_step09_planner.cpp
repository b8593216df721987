// Step 09's host-side pieces, no GPU needed: the chunk planner, memory sizes and the timeline
// arithmetic behind the overlap figures.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <numeric>
#include <optional>
#include <random>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include "planner.hpp"
#include "schedule.hpp"
#include "timeline.hpp"
#include "wave_fit.hpp"

using step09::Plan;
using step09::PlanRequest;

namespace {

constexpr std::uint64_t kMiB = 1ull << 20;
constexpr std::uint64_t kGiB = 1ull << 30;

PlanRequest request(int m, int n, int k, std::uint64_t budget, int entries = 1, int chunk_rows = 0,
                    int panel_cols = 0) {
    PlanRequest r;
    r.m = m;
    r.n = n;
    r.k = k;
    r.element_bytes = sizeof(float);
    r.entries = entries;
    r.budget_bytes = budget;
    r.chunk_rows = chunk_rows;
    r.panel_cols = panel_cols;
    return r;
}

std::string describe(const PlanRequest& r) {
    return std::to_string(r.m) + "x" + std::to_string(r.n) + "x" + std::to_string(r.k) +
           ", budget " + std::to_string(r.budget_bytes) + ", entries " + std::to_string(r.entries) +
           ", rows " + std::to_string(r.chunk_rows) + ", cols " + std::to_string(r.panel_cols) +
           ", multiprocessors " + std::to_string(r.multiprocessors);
}

// The pieces of [0, total) must follow each other without gap or overlap, none larger than `size`.
template <typename Piece, typename First, typename Length>
void expect_partition(const std::vector<Piece>& pieces, int total, int size, First first,
                      Length length, const std::string& what) {
    int next = 0;
    for (const Piece& piece : pieces) {
        EXPECT_EQ(first(piece), next) << what << ": a gap or an overlap";
        EXPECT_GE(length(piece), 1) << what;
        EXPECT_LE(length(piece), size) << what;
        next = first(piece) + length(piece);
    }
    EXPECT_EQ(next, total) << what << ": does not end at the last row or column";
}

// What an entry holds at once, recomputed from the plan's sizes rather than taken from it: up to
// three chunks of A (two computing, one arriving), two panels of B and a tile of C for each
// computing chunk plus one going home, fewer only when there are not that many; and a third panel
// of B where B has more than two panels and the budget has room for it next to the rest.
std::uint64_t live_bytes(const Plan& plan) {
    const std::uint64_t e = plan.element_bytes;
    // Stored rows start on 16-byte boundaries: k and the panel width are rounded up to 4 floats.
    auto four = [](int count) { return (static_cast<std::uint64_t>(count) + 3) / 4 * 4; };
    const std::uint64_t rows = static_cast<std::uint64_t>(plan.chunk_rows);
    const std::uint64_t cols = four(plan.panel_cols);
    const std::uint64_t k = four(plan.k);
    const std::uint64_t chunks = plan.chunks.size(), panels = plan.panels.size();
    const std::uint64_t computing = std::min<std::uint64_t>(2, chunks);
    const std::uint64_t panel = k * cols * e;
    const std::uint64_t needed =
        std::min<std::uint64_t>(3, chunks) * rows * k * e +
        std::min<std::uint64_t>(2, panels) * panel +
        std::min<std::uint64_t>(computing + 1, chunks * panels) * rows * cols * e;
    const bool spare = panels > 2 && needed + panel <= plan.budget_bytes;
    return needed + (spare ? panel : 0);
}

// The block rows (of kGranule rows, the block tile's height: what a kernel runs) of the busiest
// entry when the entries run at equal speeds: each then takes as many chunks as the others (one
// more where their count does not divide), but which ones the queue hands it is not known, so the
// busiest may get the tallest chunks.
long long busiest_block_rows(const Plan& plan) {
    std::vector<long long> blocks;
    for (const step09::Chunk& chunk : plan.chunks)
        blocks.push_back((chunk.rows + step09::kGranule - 1) / step09::kGranule);
    std::sort(blocks.begin(), blocks.end(), std::greater<>());
    const std::size_t entries = static_cast<std::size_t>(plan.entries);
    const std::size_t most = (blocks.size() + entries - 1) / entries;
    return std::accumulate(blocks.begin(), blocks.begin() + static_cast<std::ptrdiff_t>(most), 0LL);
}

// The block rows of the busiest entry where the entries take the chunks in turns (entry e chunks
// e, e + entries, ...), as entries of equal speed do from the queue.
long long block_rows_in_turns(const Plan& plan) {
    std::vector<long long> per_entry(static_cast<std::size_t>(plan.entries), 0);
    for (std::size_t i = 0; i < plan.chunks.size(); ++i) {
        per_entry[i % per_entry.size()] +=
            (plan.chunks[i].rows + step09::kGranule - 1) / step09::kGranule;
    }
    return *std::max_element(per_entry.begin(), per_entry.end());
}

// The chunks the busiest entry takes, as busiest_block_rows() counts them.
long long busiest_chunks(const Plan& plan) {
    const std::size_t entries = static_cast<std::size_t>(plan.entries);
    return static_cast<long long>((plan.chunks.size() + entries - 1) / entries);
}

// Plans for many requests that must all succeed: odd sizes, tight and loose budgets, overrides.
std::vector<PlanRequest> feasible_requests() {
    std::vector<PlanRequest> requests;
    const int shapes[][3] = {{1, 1, 1},   {17, 31, 13},         {301, 517, 203},
                             {4, 4, 4},   {1031, 1025, 1037},   {5000, 300, 20},
                             {64, 1, 33}, {1, 50, 40},          {16384, 16384, 16384},
                             {40, 30, 1}, {15001, 15001, 15001}};
    const std::uint64_t budgets[] = {64 * 1024, 700000, 16 * kMiB, 768 * kMiB, 80 * kGiB};
    for (const auto& s : shapes) {
        for (const std::uint64_t budget : budgets) {
            for (const int entries : {1, 2, 3}) {
                PlanRequest r = request(s[0], s[1], s[2], budget, entries);
                if (step09::buffers_for(r, 1, 1).total_bytes() > budget)
                    continue;
                // Without the multiprocessor count, and with it (the wave fit, see planner.hpp).
                for (const int multiprocessors : {0, 7, 132}) {
                    r.multiprocessors = multiprocessors;
                    requests.push_back(r);
                }
            }
        }
        requests.push_back(request(s[0], s[1], s[2], 80 * kGiB, 1, 7, 13));
        requests.push_back(request(s[0], s[1], s[2], 80 * kGiB, 2, 1, 1000000));
        requests.push_back(request(s[0], s[1], s[2], 80 * kGiB, 1, 1000000, 1));
    }
    return requests;
}

}  // namespace

// ---- the planner ------------------------------------------------------------------------------

TEST(Step09Planner, EveryElementOfCIsProducedExactlyOnce) {
    for (const PlanRequest& r : feasible_requests()) {
        const Plan plan = step09::plan_multiply(r);
        // Chunks partition the rows and panels the columns, so their products tile C.
        expect_partition(
            plan.chunks, r.m, plan.chunk_rows, [](const step09::Chunk& c) { return c.first_row; },
            [](const step09::Chunk& c) { return c.rows; }, "chunks of " + describe(r));
        expect_partition(
            plan.panels, r.n, plan.panel_cols, [](const step09::Panel& p) { return p.first_col; },
            [](const step09::Panel& p) { return p.cols; }, "panels of " + describe(r));
        // And, where C is small enough to count, element by element.
        if (static_cast<long long>(r.m) * r.n <= 2'000'000) {
            std::vector<int> produced(static_cast<std::size_t>(r.m) * r.n, 0);
            for (const step09::Chunk& chunk : plan.chunks)
                for (const step09::Panel& panel : plan.panels)
                    for (int row = chunk.first_row; row < chunk.first_row + chunk.rows; ++row)
                        for (int col = panel.first_col; col < panel.first_col + panel.cols; ++col)
                            ++produced[static_cast<std::size_t>(row) * r.n + col];
            for (std::size_t i = 0; i < produced.size(); ++i) {
                ASSERT_EQ(produced[i], 1)
                    << "element (" << i / r.n << ", " << i % r.n << ") of " << describe(r);
            }
        }
    }
}

TEST(Step09Planner, EachEntrysLiveBuffersFitTheBudget) {
    for (const PlanRequest& r : feasible_requests()) {
        const Plan plan = step09::plan_multiply(r);
        EXPECT_LE(live_bytes(plan), r.budget_bytes) << describe(r);
        EXPECT_EQ(plan.buffers.total_bytes(), live_bytes(plan)) << describe(r);
        const long long k = (r.k + 3) / 4 * 4, cols = (plan.panel_cols + 3) / 4 * 4;
        EXPECT_LE(plan.chunk_rows * k, 2147483647LL) << describe(r);
        EXPECT_LE(cols * k, 2147483647LL) << describe(r);
    }
}

TEST(Step09Planner, ImpossibleInputsAreRefused) {
    EXPECT_THROW(step09::plan_multiply(request(0, 4, 4, kGiB)), std::invalid_argument);
    EXPECT_THROW(step09::plan_multiply(request(4, -1, 4, kGiB)), std::invalid_argument);
    EXPECT_THROW(step09::plan_multiply(request(4, 4, 0, kGiB)), std::invalid_argument);
    EXPECT_THROW(step09::plan_multiply(request(4, 4, 4, kGiB, /*entries=*/0)),
                 std::invalid_argument);
    EXPECT_THROW(step09::plan_multiply(request(4, 4, 4, kGiB, 1, -2)), std::invalid_argument);
    PlanRequest no_element = request(4, 4, 4, kGiB);
    no_element.element_bytes = 0;
    EXPECT_THROW(step09::plan_multiply(no_element), std::invalid_argument);
    EXPECT_THROW(step09::plan_multiply(request(4, 4, 4, /*budget=*/0)), std::invalid_argument);
    // A chunk of 65536 rows of k = 65536 would need 2^32 elements: more than an int indexes.
    EXPECT_THROW(step09::plan_multiply(request(65536, 8, 65536, 1ull << 62, 1, 65536, 8)),
                 std::invalid_argument);
}

TEST(Step09Planner, TooSmallABudgetNamesTheSmallestThatWorks) {
    std::vector<PlanRequest> bases = {
        request(301, 517, 203, 100), request(16384, 16384, 16384, 100000), request(1, 1, 1, 3),
        request(64, 64, 64, 1000, 1, 32, 0), request(64, 64, 64, 1000, 1, 0, 48),
        // A few columns: one panel of all of them needs one buffer of B, panels of one column two.
        request(16, 4, 481, 1, 2, 5, 0), request(729, 2, 129, 1, 4),
        // Two chunks need fewer rows of A than three of one row each.
        request(2, 9, 100, 1), request(5, 1, 7, 1, 1, 0, 1)};
    std::mt19937 random(2026);
    for (int i = 0; i < 300; ++i) {
        auto size = [&](int most) { return std::uniform_int_distribution<int>(1, most)(random); };
        PlanRequest r = request(size(40), size(i % 2 == 0 ? 6 : 300), size(300), 1, size(4));
        if (i % 3 == 1)
            r.chunk_rows = size(r.m);
        if (i % 5 == 2)
            r.panel_cols = size(r.n);
        if (i % 4 == 3)
            r.multiprocessors = size(132);
        bases.push_back(r);
    }
    for (const PlanRequest& base : bases) {
        std::string message;
        try {
            step09::plan_multiply(base);
            ADD_FAILURE() << "accepted " << describe(base);
            continue;
        } catch (const std::invalid_argument& error) {
            message = error.what();
        }
        std::smatch match;
        ASSERT_TRUE(std::regex_search(
            message, match, std::regex(R"(smallest budget that works is (?:[^(]*\()?(\d+) bytes)")))
            << message;
        const std::uint64_t least = std::stoull(match[1].str());
        PlanRequest enough = base;
        enough.budget_bytes = least;
        EXPECT_NO_THROW(step09::plan_multiply(enough)) << message;
        PlanRequest short_by_one = base;
        short_by_one.budget_bytes = least - 1;
        EXPECT_THROW(step09::plan_multiply(short_by_one), std::invalid_argument) << message;
        // Only what the caller fixed is named, in words that count it.
        EXPECT_EQ(message.find("chunks of") != std::string::npos, base.chunk_rows > 0) << message;
        EXPECT_EQ(message.find("panels of") != std::string::npos, base.panel_cols > 0) << message;
        EXPECT_EQ(message.find(" 1 rows"), std::string::npos) << message;
        EXPECT_EQ(message.find(" 1 columns"), std::string::npos) << message;
    }
}

TEST(Step09Planner, NoPlanIndexesPastAnInt) {
    // k = 1,000,000 leaves room for 2144 columns of B in a panel of 32-bit indices; on 132
    // multiprocessors the fit to whole waves looked at panels up to 3072 wide and took 2816.
    for (const int multiprocessors : {0, 132}) {
        PlanRequest wide = request(1000, 5000, 1000000, 40 * kGiB);
        wide.multiprocessors = multiprocessors;
        const Plan plan = step09::plan_multiply(wide);
        EXPECT_LE(step09::padded(plan.k) * step09::padded(plan.panel_cols),
                  static_cast<std::uint64_t>(INT_MAX));
        EXPECT_LE(static_cast<std::uint64_t>(plan.chunk_rows) * step09::padded(plan.k),
                  static_cast<std::uint64_t>(INT_MAX));
    }
    // Past 536,870,908 no row of A fits an int's index: refused as such, not for its budget.
    for (const std::uint64_t budget : {std::uint64_t{1}, 12 * kGiB, std::uint64_t{1} << 62}) {
        try {
            step09::plan_multiply(request(1, 1, 600000000, budget));
            ADD_FAILURE() << "accepted k = 600000000";
        } catch (const std::invalid_argument& error) {
            const std::string message = error.what();
            EXPECT_NE(message.find("32-bit int"), std::string::npos) << message;
            EXPECT_EQ(message.find("budget"), std::string::npos) << message;
        }
    }
}

TEST(Step09Planner, ATallCTooBigForTheBudgetIsRefusedAtOnce) {
    // The search for a chunk height went through every number of chunks up to m: 2^31 - 65536
    // rows took it 24 s to refuse. It now halves the heights of three chunks or more: a bound a
    // hundred times what that takes even under the sanitizers.
    const auto start = std::chrono::steady_clock::now();
    PlanRequest tall = request(2147418112, 1, 1, 1);
    EXPECT_THROW(step09::plan_multiply(tall), std::invalid_argument);
    tall.budget_bytes = 64 * kMiB;
    const Plan plan = step09::plan_multiply(tall);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
    EXPECT_LE(plan.buffers.total_bytes(), tall.budget_bytes);
    EXPECT_GT(plan.chunk_rows, 1);
}

TEST(Step09Planner, ASparePanelOfBOnlyWhereTheBudgetHasRoom) {
    // 16384 at 700 MiB: the plan takes 688 MiB, and a third panel (128 MiB) does not fit.
    const Plan tight = step09::plan_multiply(request(16384, 16384, 16384, 700 * kMiB));
    EXPECT_EQ(tight.buffers.b_buffers, 2);
    EXPECT_EQ(tight.buffers.total_bytes(), 688 * kMiB);

    // 15001 on 132 multiprocessors: chunks of 2048 rows and panels of 3072 columns (each stored
    // 15004 long), 775 MiB. A third panel of 15004 x 3072 floats (176 MiB) fits in 1 GiB, not in
    // a third of A + B + C (858 MiB); the chunks and panels stay the same either way.
    PlanRequest odd = request(15001, 15001, 15001, 3ull * 15001 * 15001 * 4 / 3);
    odd.multiprocessors = 132;
    const Plan third = step09::plan_multiply(odd);
    odd.budget_bytes = kGiB;
    const Plan gib = step09::plan_multiply(odd);
    for (const Plan* plan : {&third, &gib}) {
        EXPECT_EQ(plan->chunk_rows, 2048);
        EXPECT_EQ(plan->panel_cols, 3072);
    }
    const std::uint64_t panel = 15004ull * 3072 * 4;
    EXPECT_EQ(third.buffers.b_buffers, 2);
    EXPECT_EQ(gib.buffers.b_buffers, 3);
    EXPECT_EQ(gib.buffers.total_bytes(), third.buffers.total_bytes() + panel);

    // Three panels and room: every panel gets a buffer, so each crosses once and stays. Two
    // panels already have one each, and a single panel is resident: no spare.
    EXPECT_EQ(step09::plan_multiply(request(4096, 6144, 512, 80 * kGiB)).buffers.b_buffers, 3);
    EXPECT_EQ(step09::plan_multiply(request(4096, 4096, 512, 80 * kGiB)).buffers.b_buffers, 2);
    EXPECT_EQ(step09::plan_multiply(request(4096, 2048, 512, 80 * kGiB)).buffers.b_buffers, 1);
}

TEST(Step09Planner, PrefersTallChunksAndGranuleMultiples) {
    // Plenty of memory: chunks of kPreferredChunkRows, panels of kPreferredPanelCols.
    const Plan big = step09::plan_multiply(request(16384, 16384, 16384, 80 * kGiB));
    EXPECT_EQ(big.chunk_rows, step09::kPreferredChunkRows);
    EXPECT_EQ(big.panel_cols, step09::kPreferredPanelCols);
    EXPECT_EQ(big.chunks.size(), static_cast<std::size_t>(16384 / step09::kPreferredChunkRows));
    EXPECT_EQ(big.panels.size(), static_cast<std::size_t>(16384 / step09::kPreferredPanelCols));
    // Three chunks of A (two computing, one arriving), two panels and a spare (80 GiB have room
    // for it), a tile per computing chunk and one going home.
    EXPECT_EQ(big.buffers.a_buffers, 3);
    EXPECT_EQ(big.buffers.b_buffers, 3);
    EXPECT_EQ(big.buffers.c_buffers, 3);

    // 5000 rows: three even chunks (1667), rounded up to a multiple of 128; the last takes the
    // rest.
    const Plan uneven = step09::plan_multiply(request(5000, 300, 20, 80 * kGiB));
    EXPECT_EQ(uneven.chunk_rows, 1792);
    EXPECT_EQ(uneven.chunks.size(), 3u);
    EXPECT_EQ(uneven.chunks.back().rows, 5000 - 2 * 1792);
    // One panel covers B, and three tiles are all there are of C.
    EXPECT_EQ(uneven.buffers.b_buffers, 1);
    EXPECT_EQ(uneven.buffers.c_buffers, 3);

    // Four entries on 1000 rows: every entry can get a chunk.
    const Plan shared = step09::plan_multiply(request(1000, 64, 64, 80 * kGiB, 4));
    EXPECT_EQ(shared.chunks.size(), 4u);
}

TEST(Step09Planner, SeveralEntriesShareTheRowsEvenly) {
    // n = 15001 at 1 GiB on H100s (132 multiprocessors). One entry keeps chunks of 2048 rows, the
    // last of 665. Two entries would get 4 chunks each from that plan: 64 block rows of 128 against
    // 54. With two, the 8 chunks are ceil(15001 / 8) = 1876 rows rounded up to 1920, and the last
    // two share the 3481 rows left, 1792 and 1689: taken in turns, 3 x 15 + 14 = 59 block rows
    // each, the exact half (a last chunk of 1561 alone left 60 against 58).
    PlanRequest odd = request(15001, 15001, 15001, kGiB);
    odd.multiprocessors = 132;
    const Plan alone = step09::plan_multiply(odd);
    EXPECT_EQ(alone.chunk_rows, 2048);
    EXPECT_EQ(alone.chunks.size(), 8u);
    EXPECT_EQ(alone.chunks.back().rows, 665);
    EXPECT_EQ(alone.panel_cols, 3072);
    odd.entries = 2;
    // The height, the last three chunks and the panel width of a plan of 8 chunks, and the block
    // rows of the busier entry when they are taken in turns.
    const auto expect_plan = [](const Plan& plan, int rows, int sixth, int seventh, int last) {
        EXPECT_EQ(plan.chunk_rows, rows);
        ASSERT_EQ(plan.chunks.size(), 8u);
        EXPECT_EQ(plan.chunks[5].rows, sixth);
        EXPECT_EQ(plan.chunks[6].rows, seventh);
        EXPECT_EQ(plan.chunks[7].rows, last);
        EXPECT_EQ(plan.panel_cols, 3072);
        EXPECT_EQ(block_rows_in_turns(plan), 59);
    };
    const Plan shared = step09::plan_multiply(odd);
    expect_plan(shared, 1920, 1920, 1792, 1689);
    EXPECT_EQ(busiest_block_rows(shared), 60);
    Plan old_plan_on_two = alone;
    old_plan_on_two.entries = 2;
    EXPECT_EQ(busiest_block_rows(old_plan_on_two), 64);

    // Entries dealt the chunks in turns (sharing panels) keep the one-entry height, 2048 rows,
    // whose 8 chunks two entries share evenly: six of 2048, then 1408 and 1305 for the last round,
    // 3 x 16 + 11 = 59 block rows each. (Taken from the queue, one entry might get the four
    // tallest, 64 block rows: such entries keep 1920.)
    odd.in_turns = true;
    expect_plan(step09::plan_multiply(odd), 2048, 2048, 1408, 1305);
    odd.in_turns = false;

    // Where the chunks already divide evenly the plan does not change: 2048 rows at n = 16384 on
    // two entries and at n = 32768 on four.
    for (const auto& [size, entries] : {std::pair{16384, 2}, std::pair{32768, 4}}) {
        PlanRequest even = request(size, size, size, kGiB, entries);
        even.multiprocessors = 132;
        const Plan plan = step09::plan_multiply(even);
        EXPECT_EQ(plan.chunk_rows, 2048) << describe(even);
        EXPECT_EQ(plan.chunks.size(), static_cast<std::size_t>(size / 2048)) << describe(even);
        even.entries = 1;
        EXPECT_EQ(step09::plan_multiply(even).chunk_rows, 2048) << describe(even);
    }

    // Chunk heights given by the caller are kept for every chunk but the last round, which shares
    // the 2713 rows that six chunks of 2048 leave.
    const Plan forced = step09::plan_multiply(request(15001, 15001, 15001, kGiB, 2, 2048, 0));
    EXPECT_EQ(forced.chunk_rows, 2048);
    EXPECT_EQ(forced.chunks.size(), 8u);
    EXPECT_EQ(forced.chunks[5].rows, 2048);
    EXPECT_EQ(forced.chunks[6].rows, 1408);
    EXPECT_EQ(forced.chunks.back().rows, 1305);
    // With one entry the last chunk alone takes what is left.
    EXPECT_EQ(
        step09::plan_multiply(request(15001, 15001, 15001, kGiB, 1, 2048, 0)).chunks.back().rows,
        665);
}

TEST(Step09Planner, NoEntryGetsMoreThanItsShareOfBlockRows) {
    // Awkward heights, more entries than chunks (3 rows on 4 or 8), square products and tall thin
    // ones, budgets from tight to loose, with and without the multiprocessor count, chunks queued
    // or dealt in turns: the chunks and
    // panels still tile C (each element computed once) within the budget, and no entry of equal
    // speed runs more block rows than its share, but for the rounding of its chunks.
    for (const int m : {3, 129, 777, 1000, 1031, 2049, 4097, 5000, 12345, 15001, 16384, 32768}) {
        for (const int entries : {2, 3, 4, 5, 8}) {
            for (const std::uint64_t budget : {16 * kMiB, kGiB, 80 * kGiB}) {
                for (const int multiprocessors : {0, 132})
                    for (const bool in_turns : {false, true}) {
                        const int side = std::min(m, 16384);
                        PlanRequest r = request(m, side, side, budget, entries);
                        r.multiprocessors = multiprocessors;
                        r.in_turns = in_turns;
                        if (step09::buffers_for(r, 1, 1).total_bytes() > budget)
                            continue;
                        const Plan plan = step09::plan_multiply(r);
                        expect_partition(
                            plan.chunks, m, plan.chunk_rows,
                            [](const step09::Chunk& c) { return c.first_row; },
                            [](const step09::Chunk& c) { return c.rows; }, describe(r));
                        expect_partition(
                            plan.panels, side, plan.panel_cols,
                            [](const step09::Panel& p) { return p.first_col; },
                            [](const step09::Panel& p) { return p.cols; }, describe(r));
                        // An exact share of the block rows, plus at most one for each chunk taken
                        // (a chunk's rows rounded up to whole blocks): however the queue hands them
                        // out, or, dealt in turns, as they are dealt.
                        const long long blocks = (m + step09::kGranule - 1) / step09::kGranule;
                        EXPECT_LE(in_turns ? block_rows_in_turns(plan) : busiest_block_rows(plan),
                                  (blocks + entries - 1) / entries + busiest_chunks(plan))
                            << describe(r) << (in_turns ? ", in turns" : "");
                        EXPECT_EQ(plan.buffers.total_bytes(), live_bytes(plan)) << describe(r);
                        EXPECT_LE(plan.buffers.total_bytes(), budget) << describe(r);
                    }
            }
        }
    }
}

TEST(Step09Planner, WavesCountThePairedTilesOfEachStep) {
    // 512 x 768 in chunks of 256 rows and panels of 512 columns, on 3 multiprocessors: two chunks
    // of 2 block rows each make a pair; panel 0 (2 block columns) gives 2 x 2 x 2 = 8 blocks, 3
    // waves; panel 1 (256 columns, 1 block column) gives 2 x 2 x 1 = 4 blocks, 2 waves.
    EXPECT_EQ(step09::plan_waves(512, 768, 256, 512, 3), 5);
    // The same pair on 8 multiprocessors: one wave per panel.
    EXPECT_EQ(step09::plan_waves(512, 768, 256, 512, 8), 2);
    // A third chunk (of 100 rows, 1 block row) pairs with nobody: 2 + 1 more blocks.
    EXPECT_EQ(step09::plan_waves(612, 768, 256, 512, 8), 4);
    // A partial block still takes a whole place in a wave: 129 x 257 is 2 x 2 blocks.
    EXPECT_EQ(step09::plan_waves(129, 257, 129, 257, 1), 4);
}

TEST(Step09Planner, KnowingTheMultiprocessorsFillsWaves) {
    // n = 15001 with a third of A + B + C (858 MiB) on a GPU of 132 multiprocessors (an H100):
    // without the count, chunks and panels of 1920 (7.5 block columns of 256, half a block
    // column idle in every tile, 64 waves); with it, panels of whole block columns and fewer
    // waves.
    PlanRequest asked = request(15001, 15001, 15001, 900120004);
    const Plan blind = step09::plan_multiply(asked);
    asked.multiprocessors = 132;
    const Plan fitted = step09::plan_multiply(asked);
    EXPECT_EQ(blind.panel_cols, 1920);
    const long long blind_waves =
        step09::plan_waves(15001, 15001, blind.chunk_rows, blind.panel_cols, 132);
    const long long fitted_waves =
        step09::plan_waves(15001, 15001, fitted.chunk_rows, fitted.panel_cols, 132);
    EXPECT_EQ(blind_waves, 64);
    EXPECT_LT(fitted_waves, blind_waves);
    EXPECT_EQ(fitted.panel_cols % step09::kWaveTileCols, 0);
    EXPECT_LE(fitted.panel_cols, step09::kWidestPanelCols);
    EXPECT_GE(4 * fitted.panels.back().cols, 3 * fitted.panel_cols);  // no short last panel
    EXPECT_LE(fitted.buffers.total_bytes(), asked.budget_bytes);
    // No other candidate of the search does better.
    for (int cols = step09::kWaveTileCols; cols <= step09::kWidestPanelCols;
         cols += step09::kWaveTileCols) {
        const int last = 15001 % cols == 0 ? cols : 15001 % cols;
        if (4 * last < 3 * cols)
            continue;
        for (const int rows : {fitted.chunk_rows, blind.chunk_rows}) {
            if (step09::buffers_for(asked, rows, cols).total_bytes() <= asked.budget_bytes) {
                EXPECT_GE(step09::plan_waves(15001, 15001, rows, cols, 132), fitted_waves)
                    << rows << " x " << cols;
            }
        }
    }

    // n = 16384: 2048 x 2048 already fills whole waves and stays.
    PlanRequest square = request(16384, 16384, 16384, kGiB);
    square.multiprocessors = 132;
    const Plan kept = step09::plan_multiply(square);
    EXPECT_EQ(kept.chunk_rows, 2048);
    EXPECT_EQ(kept.panel_cols, 2048);

    // Overrides are not second-guessed.
    PlanRequest forced = request(15001, 15001, 15001, 900120004, 1, 1920, 1920);
    forced.multiprocessors = 132;
    const Plan as_asked = step09::plan_multiply(forced);
    EXPECT_EQ(as_asked.chunk_rows, 1920);
    EXPECT_EQ(as_asked.panel_cols, 1920);
}

TEST(Step09Planner, ABudgetForcesChunksAndPanels) {
    // 301 x 517 x 203 floats, worked out by hand in the comments. Stored rows are padded to 4
    // floats: A's to 204, B's to 204 rows of the panel's width rounded up, C's to that width.
    // Everything fits: one chunk, one panel, B resident, one buffer of each.
    const Plan all = step09::plan_multiply(request(301, 517, 203, 80 * kGiB));
    EXPECT_EQ(all.chunks.size(), 1u);
    EXPECT_EQ(all.panels.size(), 1u);
    EXPECT_TRUE(all.b_resident());
    EXPECT_EQ(all.buffers.total_bytes(), 4u * (301 * 204 + 204 * 520 + 301 * 520));

    // 700,000 bytes, against a 128-wide panel (two buffers of B, 208,896 bytes): one chunk of 301
    // rows needs 762,736 with two tiles of C. Two chunks take two buffers of A and three tiles,
    // 3,168 bytes a row: at most 155 rows. Spreading them as multiples of 128 would take three
    // chunks, and a third buffer of A with them, which does not fit: 155 and 146. The panels get
    // what is left, 3,492 bytes a column: 128, five panels (4 x 128 + 5).
    const Plan two = step09::plan_multiply(request(301, 517, 203, 700000));
    EXPECT_EQ(two.chunk_rows, 155);
    EXPECT_EQ(two.chunks.size(), 2u);
    EXPECT_EQ(two.panel_cols, 128);
    EXPECT_EQ(two.panels.size(), 5u);
    EXPECT_EQ(two.buffers.total_bytes(),
              2u * 155 * 204 * 4 + 2u * 204 * 128 * 4 + 3u * 155 * 128 * 4);

    // 64 KiB: not even one row fits next to a 128-wide panel (two buffers of B are 208,896
    // bytes), so both shrink together: 2,448 s + 1,632 p + 12 s p bytes for a side of s stored as
    // p (s rounded up to 4): 15 needs 65,712, so at most 14, 22 chunks (21 x 14 + 7). The panels
    // then get 1,800 bytes a stored column: 16.
    const Plan many = step09::plan_multiply(request(301, 517, 203, 64 * 1024));
    EXPECT_EQ(many.chunk_rows, 14);
    EXPECT_EQ(many.chunks.size(), 22u);
    EXPECT_EQ(many.panel_cols, 16);
    EXPECT_EQ(many.panels.size(), 33u);

    // The benchmark's case: n = 16384 (A, B and C are 1 GiB each) with a budget of a third of
    // that: 8 chunks of 2048 rows (3 x 128 MiB) and 8 panels of 2048 columns (2 x 128 MiB, and
    // 3 x 16 MiB of C), 688 MiB; the 336 MiB left hold a spare panel, 816 MiB in all.
    const Plan out_of_core = step09::plan_multiply(request(16384, 16384, 16384, kGiB));
    EXPECT_EQ(out_of_core.chunks.size(), 8u);
    EXPECT_EQ(out_of_core.chunk_rows, 2048);
    EXPECT_EQ(out_of_core.panels.size(), 8u);
    EXPECT_EQ(out_of_core.panel_cols, 2048);
    EXPECT_EQ(out_of_core.buffers.b_buffers, 3);
    EXPECT_EQ(out_of_core.buffers.total_bytes(), 816 * kMiB);
    // That budget forces at least four chunks: three (5462 rows) would need three buffers of
    // 5462 rows of A, more than 1 GiB; four (4096 rows) fit.
    PlanRequest three = request(16384, 16384, 16384, kGiB);
    three.chunk_rows = 5462;
    EXPECT_THROW(step09::plan_multiply(three), std::invalid_argument);
    three.chunk_rows = 4096;
    EXPECT_EQ(step09::plan_multiply(three).chunks.size(), 4u);

    // 700 MiB still hold the same plan: 688 MiB. Two buffers of a three-chunk plan alone would
    // take 683 MiB, so even a planner with one chunk less in memory would need four chunks here.
    const Plan tight = step09::plan_multiply(request(16384, 16384, 16384, 700 * kMiB));
    EXPECT_EQ(tight.chunks.size(), 8u);
    EXPECT_EQ(tight.panel_cols, 2048);
    EXPECT_EQ(tight.panels.size(), 8u);
    EXPECT_LE(tight.buffers.total_bytes(), 700 * kMiB);

    // 640 MiB leave 256 MiB next to the chunks of A, 152 KiB a column (two panels of B and three
    // tiles of C): at most 1724 columns, 10 panels of 1639, rounded up to 1664 (the last 1408).
    const Plan narrower = step09::plan_multiply(request(16384, 16384, 16384, 640 * kMiB));
    EXPECT_EQ(narrower.chunks.size(), 8u);
    EXPECT_EQ(narrower.panel_cols, 1664);
    EXPECT_EQ(narrower.panels.size(), 10u);
    EXPECT_EQ(narrower.panels.back().cols, 1408);
}

TEST(Step09Planner, OverridesAreTakenAndCapped) {
    const Plan fixed = step09::plan_multiply(request(301, 517, 203, 80 * kGiB, 1, 151, 259));
    EXPECT_EQ(fixed.chunks.size(), 2u);
    EXPECT_EQ(fixed.panels.size(), 2u);
    EXPECT_EQ(fixed.chunks[1].rows, 150);
    EXPECT_EQ(fixed.panels[1].cols, 258);

    const Plan capped = step09::plan_multiply(request(30, 20, 10, 80 * kGiB, 1, 1000, 1000));
    EXPECT_EQ(capped.chunk_rows, 30);
    EXPECT_EQ(capped.panel_cols, 20);

    // Fixed sizes that do not fit are refused, not quietly changed.
    EXPECT_THROW(step09::plan_multiply(request(301, 517, 203, 100000, 1, 301, 517)),
                 std::invalid_argument);
}

TEST(Step09Planner, DescriptionNamesCountsAndBytes) {
    const Plan plan = step09::plan_multiply(request(4, 4, 4, kMiB, 1, 2, 2));
    const std::string text = step09::describe_plan(plan);
    EXPECT_NE(text.find("2 chunks of up to 2 rows times 2 panels of up to 2 columns (4 tiles)"),
              std::string::npos)
        << text;
    // Rows stored padded to 4 floats: a panel of 2 columns takes 4 x 4 floats, a tile 2 x 4.
    EXPECT_NE(text.find("2 x A chunk (32 bytes), 2 x B panel (64 bytes), 3 x C tile (32 bytes) = "
                        "288 bytes of a 1.00 MiB budget"),
              std::string::npos)
        << text;
    const std::string one = step09::describe_plan(step09::plan_multiply(request(1, 1, 4, kMiB)));
    EXPECT_NE(one.find("1 chunk of up to 1 row times 1 panel of up to 1 column (1 tile)"),
              std::string::npos)
        << one;
}

// ---- the device memory budget ----------------------------------------------------------------

TEST(Step09Budget, AllIsTheSmallestShareOfFreeMemoryLessTheMargin) {
    using step09::DeviceMemory;
    const std::uint64_t margin = step09::kAllMemoryMargin;
    // One device: its free memory less the margin.
    EXPECT_EQ(step09::budget_per_entry(std::nullopt, {{0, 10 * kGiB, 80 * kGiB}}),
              10 * kGiB - margin);
    // Device 0 listed twice shares its free memory; device 1 has more, so device 0 decides.
    const std::vector<DeviceMemory> entries{
        {0, 10 * kGiB, 80 * kGiB}, {1, 30 * kGiB, 80 * kGiB}, {0, 10 * kGiB, 80 * kGiB}};
    EXPECT_EQ(step09::budget_per_entry(std::nullopt, entries), (10 * kGiB - margin) / 2);
    // Less free memory than the margin leaves nothing; the planner then refuses the budget.
    EXPECT_EQ(step09::budget_per_entry(std::nullopt, {{0, margin / 2, 80 * kGiB}}), 0u);
}

TEST(Step09Budget, AGivenBudgetIsKeptUpToWhatTheDeviceHas) {
    EXPECT_EQ(step09::budget_per_entry(700 * kMiB, {{0, kGiB, 80 * kGiB}}), 700 * kMiB);
    // Two entries on one 80 GiB device: 40 GiB each is the most.
    EXPECT_EQ(step09::budget_per_entry(40 * kGiB, {{0, kGiB, 80 * kGiB}, {0, kGiB, 80 * kGiB}}),
              40 * kGiB);
}

TEST(Step09Budget, MoreThanTheDeviceHasIsRefused) {
    // --device-memory 999999TiB: the message names the device, what it has and what to give.
    try {
        step09::budget_per_entry(999999 * 1024 * kGiB, {{0, 79 * kGiB, 80 * kGiB}});
        FAIL() << "a budget of 999999 TiB was accepted";
    } catch (const std::invalid_argument& error) {
        const std::string what = error.what();
        EXPECT_NE(what.find("is more than device 0 has: 80.00 GiB in all"), std::string::npos)
            << what;
        EXPECT_NE(what.find("give at most 80.00 GiB"), std::string::npos) << what;
    }
    // 41 GiB for each of two entries on one 80 GiB device.
    try {
        step09::budget_per_entry(41 * kGiB, {{1, kGiB, 80 * kGiB}, {1, kGiB, 80 * kGiB}});
        FAIL() << "two entries of 41 GiB on an 80 GiB device were accepted";
    } catch (const std::invalid_argument& error) {
        EXPECT_NE(std::string(error.what()).find("shared by its 2 entries"), std::string::npos)
            << error.what();
    }
}

// ---- the schedule -----------------------------------------------------------------------------

TEST(Step09Schedule, ChunksJoinInPairsAStepApartEveryPass) {
    // P = 4 panels: 0, 1, 4, 5, 8, 9, ...
    const std::size_t expected[] = {0, 1, 4, 5, 8, 9, 12, 13};
    for (std::size_t local = 0; local < std::size(expected); ++local)
        EXPECT_EQ(step09::join_step(local, 4), expected[local]) << "chunk " << local;
    // One panel: one chunk per step.
    for (std::size_t local = 0; local < 10; ++local)
        EXPECT_EQ(step09::join_step(local, 1), local);
}

TEST(Step09Schedule, ChunksAreTakenHalfAPassAheadOrWhenTheyJoin) {
    // P = 8: the first of a pair half a pass (4 steps) before it joins, the second as it joins.
    EXPECT_EQ(step09::take_step(1, 8), 1u);
    EXPECT_EQ(step09::take_step(2, 8), 4u);
    EXPECT_EQ(step09::take_step(3, 8), 9u);
    EXPECT_EQ(step09::take_step(4, 8), 12u);
    // P = 2 and 3: at least a step ahead.
    EXPECT_EQ(step09::take_step(2, 2), 1u);
    EXPECT_EQ(step09::take_step(2, 3), 2u);
    // One panel: a step ahead.
    EXPECT_EQ(step09::take_step(5, 1), 4u);
}

// What the worker relies on, for every number of panels: at most kChunksAtOnce chunks compute in
// a step, no step is empty before the last chunk is done, a chunk is taken no later than it joins
// and in order, and the chunk whose buffer of A it takes (kChunkBuffers places back) has computed
// for the last time before it is taken.
TEST(Step09Schedule, EveryPlanShapeKeepsTheWorkersPromises) {
    const std::size_t buffers = step09::kChunkBuffers;
    for (std::size_t panels = 1; panels <= 40; ++panels) {
        const std::size_t chunks = 25;
        const std::size_t last_step = step09::join_step(chunks - 1, panels) + panels - 1;
        for (std::size_t step = 0; step <= last_step; ++step) {
            std::size_t computing = 0;
            for (std::size_t local = 0; local < chunks; ++local) {
                const std::size_t join = step09::join_step(local, panels);
                computing += join <= step && step < join + panels ? 1 : 0;
            }
            EXPECT_GE(computing, 1u) << panels << " panels, step " << step;
            EXPECT_LE(computing, static_cast<std::size_t>(step09::kChunksAtOnce))
                << panels << " panels, step " << step;
        }
        for (std::size_t local = 1; local < chunks; ++local) {
            const std::size_t take = step09::take_step(local, panels);
            EXPECT_LE(take, step09::join_step(local, panels)) << panels << " panels, " << local;
            if (local >= 2) {
                EXPECT_GE(take, step09::take_step(local - 1, panels))
                    << panels << " panels, " << local;
            }
            if (local >= buffers) {
                const std::size_t previous = step09::join_step(local - buffers, panels);
                EXPECT_GE(take, previous + panels) << panels << " panels, chunk " << local;
            }
        }
    }
}

TEST(Step09Schedule, TheFirstChunkComesInTwoPiecesOfWholeBlockRows) {
    EXPECT_EQ(step09::first_chunk_top_rows(2048), 1024);
    EXPECT_EQ(step09::first_chunk_top_rows(1000), 384);  // 500 rounded down to 128s
    EXPECT_EQ(step09::first_chunk_top_rows(2 * step09::kGranule), step09::kGranule);
    EXPECT_EQ(step09::first_chunk_top_rows(2 * step09::kGranule - 1), 0);
    EXPECT_EQ(step09::first_chunk_top_rows(1), 0);
}

// ---- the timeline -----------------------------------------------------------------------------

TEST(Step09Timeline, CoveredTimeCountsOverlapsOnce) {
    EXPECT_DOUBLE_EQ(step09::covered_ms({}), 0.0);
    EXPECT_DOUBLE_EQ(step09::covered_ms({{0, 2}, {1, 3}, {5, 6}}), 4.0);
    EXPECT_DOUBLE_EQ(step09::covered_ms({{5, 6}, {0, 10}}), 10.0);
    EXPECT_DOUBLE_EQ(step09::covered_ms({{1, 1}, {2, 1}}), 0.0);  // empty and reversed
}

TEST(Step09Timeline, TimeCoveredByBoth) {
    // Copies 0-4 and 6-8, kernels 2-7: hidden copy time is 2-4 and 6-7.
    EXPECT_DOUBLE_EQ(step09::covered_by_both_ms({{0, 4}, {6, 8}}, {{2, 7}}), 3.0);
    EXPECT_DOUBLE_EQ(step09::covered_by_both_ms({{0, 1}}, {{1, 2}}), 0.0);
    EXPECT_DOUBLE_EQ(step09::covered_by_both_ms({{0, 10}}, {{1, 2}, {1.5, 3}, {8, 12}}), 4.0);
    EXPECT_DOUBLE_EQ(step09::covered_by_both_ms({}, {{0, 1}}), 0.0);
}
