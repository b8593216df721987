#include "choose_config.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "choose_split.hpp"
#include "common/named_values.hpp"
#include "common/rounding.hpp"

namespace step08 {
namespace {

// [rule constants]
// A multiprocessor holding fewer blocks than it can runs each a little faster, not in proportion:
// its speed scales as the share of its slots in use to the power 0.4.
constexpr double kOccupancyExponent = 0.4;
// What streaming one float from memory costs a multiprocessor, in multiply-adds. No tile is faster
// than reading A and B once at this price; the 8 x 4 tile, which does one multiply-add per float of
// A it reads, pays it for every float of A it reads.
constexpr double kMultiplyAddsPerFloatStreamed = 40.0;
// What one float written or read by the split-K reduction costs: about twice what streaming it
// alone costs, for the second kernel and the partial tiles written first.
constexpr double kMultiplyAddsPerFloatMoved = 2.0 * kMultiplyAddsPerFloatStreamed;
// A block's start (its first slice loaded) and end (its C stored), in columns of K; the blocks
// beside it on its multiprocessor hide most of it: one of `resident` pays this over resident^2.
constexpr double kStartAndEndColumns = 24.0;
// [rule constants]
// The 4 x 128 tile reads B at full speed only with about this many blocks on each
// multiprocessor: on the H200, 1 x 4096 x 4096 took 0.0292 ms in 256 blocks, 0.0264 in 512 and
// 0.0285 in 1024, and 1 x 8192 x 8192 0.0715 in 512 and 0.0732 in 1024. At 3, 512 blocks on 132
// multiprocessors count as enough.
constexpr int kRowBlocksPerMultiprocessor = 3;
// The 8 x 128 tile loads its next chunk while it multiplies this one, twice the loads in flight of
// a 4 x 128 block: two of its blocks on a multiprocessor read B at full speed.
constexpr int kStagedRowBlocksPerMultiprocessor = 2;
// The 8 x 4 tile reads A at full speed only with two blocks on a multiprocessor: a block's 8 rows
// keep too few loads in flight to fill it alone. On the H200 1379 x 1 x 15477 (173 blocks) took
// 0.063 ms with K whole and 0.030 split in 6 (1038 blocks).
constexpr int kDotBlocksPerMultiprocessor = 2;
// A split of the 8 x 4 or the 4 x 128 tile pays for its reduction, a second kernel, about 4 us
// whatever its size: on the H200 300 x 1 x 130 took 0.0072 ms with K whole and 0.0110 split in
// 2, and 1024 x 1 x 1024 0.0076 and 0.0108 to 0.0120 split in 2 to 16. Their blocks are so brief
// that this fixed cost, in multiply-adds of one multiprocessor, decides whether K is split.
constexpr double kStreamingSplitCost = 1.2e6;
// With five rows or more a split of the 8 x 128 tile pays a third of that: there it competes with
// the 16 x 128 tile, whose splits pay none. The third was fitted when the 4 x 128 tile competed
// there (replayed over sweeps that timed every configuration, the notes page: the picks from 0.84,
// 0.90 and 0.78 of the fastest to 0.94 on three H100 sweeps of 75 shapes), and the 8 x 128 tile's
// speed was fitted with it. With one to four rows the 4 x 128 tile competes only with itself, and
// the whole price holds.
constexpr double kRowSplitCost = kStreamingSplitCost / 3.0;
// Where C has more rows than a row tile's block, its groups of rows read the same B: the first from
// memory, the others, when B fits the L2 cache, from the cache at this share of the price. Fitted
// for the 4 x 128 tile to 36 shapes of 5 to 32 rows on the H200 (0 to 0.25 pick alike there, 0.3
// picks 16 x 128 split 4 for 9 x 1221 x 313, 0.85 of cuBLAS, where the 4 x 128 tile ran at 1.10),
// and the 8 x 128 tile's speed was fitted with it.
constexpr double kCacheReadShare = 0.2;

using tutorial::ceil_div;

// The fixed price of a split's reduction kernel for `tile`: only the streaming tiles pay one, the
// 8 x 128 tile, beside the other tiles, a third of it.
double split_launch_cost(TileShape tile) {
    if (tile == TileShape::t8x128)
        return kRowSplitCost;
    return streams_operand(tile) ? kStreamingSplitCost : 0.0;
}

// The blocks of a streaming tile per multiprocessor with which it reads at full speed.
int full_speed_blocks(TileShape tile) {
    if (tile == TileShape::t8x4)
        return kDotBlocksPerMultiprocessor;
    return tile == TileShape::t8x128 ? kStagedRowBlocksPerMultiprocessor
                                     : kRowBlocksPerMultiprocessor;
}

}  // namespace

std::vector<TileShape> all_tiles() {
    std::vector<TileShape> tiles;
    for (const TileShapeRow& row : kTileShapes)
        tiles.push_back(row.value);
    return tiles;
}

void RuleScope::leave_out(TileShape tile) {
    tiles.erase(std::remove(tiles.begin(), tiles.end(), tile), tiles.end());
}

std::string config_name(const Config& config) {
    std::string name = tile_name(config.tile);
    if (config.splits != 1)
        name += " split " + std::to_string(config.splits);
    if (config.workers != 0)
        name += " stream-K " + std::to_string(config.workers);
    if (config.packing != Packing::automatic)
        name += config.packing == Packing::on ? ", packed" : ", unpacked";
    return name;
}

Packing parse_packing(const std::string& text) {
    return tutorial::parse_name(kPackings, text, "a packing of step 08");
}

void check_config(const Config& config) {
    step07::check_config({step06::TileShape::t128x256, config.splits, config.workers});
    if (config.workers != 0 && streams_operand(config.tile)) {
        throw std::invalid_argument(std::string("the ") + tile_name(config.tile) +
                                    " tile shares K among its threads, not among stream-K "
                                    "workers: got " +
                                    std::to_string(config.workers) + " stream-K workers");
    }
}

// [worth packing]
bool worth_packing(int m, int n, int k) {
    const double multiply_adds = static_cast<double>(m) * n * k;
    const double floats_moved = (static_cast<double>(k) + m) * n;  // B in, C out
    return multiply_adds >= kPackMinIntensity * floats_moved;
}

bool packs(const Config& config, int m, int n, int k, step06::Float4 path) {
    // The 8 x 4 and row tiles read A and B where they are, with float4 or without.
    if (path == step06::Float4::all || config.packing == Packing::off ||
        streams_operand(config.tile))
        return false;
    if (config.packing == Packing::on)
        return true;
    return path == step06::Float4::none && worth_packing(m, n, k);
}
// [worth packing]

int stream_k_workers(TileShape tile, const Occupancy& occupancy) {
    if (streams_operand(tile))
        return 0;
    return static_cast<int>(std::min<long long>(step07::kMaxWorkers, occupancy.wave(tile)));
}

double Estimate::total() const {
    return compute + reduction;
}

// [estimate]
namespace {

// The columns of K one block of a tile `resident` to a multiprocessor costs for `depth` of them:
// its start and end on top, hidden by the others in proportion to resident squared.
double block_columns(double depth, int resident) {
    return depth + kStartAndEndColumns / (static_cast<double>(resident) * resident);
}

// The work of the busiest multiprocessor when `blocks` blocks, each of `tile_floats` sums over
// `depth` columns of K, are spread over the GPU: it gets ceil(blocks / multiprocessors) of them
// and runs them `resident` at a time, full rounds at the tile's speed, then the rest, a last round
// in which fewer blocks share the multiprocessor: each runs only a little faster, and fewer
// neighbours hide its start and end.
double busiest_work(long long blocks, double tile_floats, double depth, int multiprocessors,
                    int resident) {
    const long long busiest = ceil_div(blocks, multiprocessors);
    const long long full_rounds = busiest / resident;
    const long long rest = busiest % resident;
    const double last_round_speed =
        std::pow(static_cast<double>(rest) / resident, kOccupancyExponent);
    return static_cast<double>(full_rounds) * resident * tile_floats *
               block_columns(depth, resident) +
           (rest > 0 ? static_cast<double>(rest) * tile_floats *
                           block_columns(depth, static_cast<int>(rest)) / last_round_speed
                     : 0.0);
}

// Whether the k x n matrix B fits the L2 cache.
bool b_fits_cache(int n, int k, const Occupancy& occupancy) {
    return static_cast<double>(n) * k * sizeof(float) <= static_cast<double>(occupancy.cache_bytes);
}

// The least a multiply can cost: reading A and B once, spread over the multiprocessors that run
// its blocks. Shapes with a thin C and a long K reach it, and then more splits only add traffic.
double streaming_floor(int m, int n, int k, long long blocks, int multiprocessors) {
    const double floats = (static_cast<double>(m) + n) * k;
    return kMultiplyAddsPerFloatStreamed * floats /
           static_cast<double>(std::min<long long>(blocks, multiprocessors));
}

}  // namespace

Estimate estimate(int m, int n, int k, const Config& config, const Occupancy& occupancy) {
    const TileShapeRow& row = tutorial::row_of(kTileShapes, config.tile);
    const step07::SplitPlan split = step07::plan_splits(k, config.splits);
    const long long tiles = ceil_div(static_cast<long long>(m), row.rows) *
                            ceil_div(static_cast<long long>(n), row.cols);
    const int resident = occupancy.blocks_per_multiprocessor(config.tile);
    const int multiprocessors = std::max(1, occupancy.multiprocessors);
    const double tile_floats = static_cast<double>(row.rows) * row.cols;
    Estimate result{};
    result.config = config;
    if (config.workers > 0) {
        // Stream-K: the whole waves of tiles, then the workers' equal shares of the rest.
        const step07::StreamKPlan plan =
            step07::plan_stream_k(m, n, k, {row.rows, row.cols}, config.workers);
        result.blocks = plan.first_tile + plan.workers;
        result.waves = static_cast<double>(plan.tiles) / occupancy.wave(config.tile);
        // Each worker is a block too, with its own start and end.
        const double share = plan.workers > 0
                                 ? static_cast<double>(plan.total) / plan.workers * step06::kSlice
                                 : 0.0;
        result.compute = std::max(
            (busiest_work(plan.first_tile, tile_floats, split.depth, multiprocessors, resident) +
             busiest_work(plan.workers, tile_floats, share, multiprocessors, resident)) /
                row.speed,
            streaming_floor(m, n, k, result.blocks, multiprocessors));
        // A worker writes at most two partial tiles, and the last one to finish a tile reads
        // its partial tiles back and writes C: about four tiles moved per worker.
        result.reduction =
            kMultiplyAddsPerFloatMoved * 4.0 * plan.workers * tile_floats / multiprocessors;
        return result;
    }
    const long long blocks = tiles * split.count;
    result.blocks = blocks;
    result.waves = static_cast<double>(blocks) / occupancy.wave(config.tile);
    if (streams_operand(config.tile)) {
        // The 8 x 4 tile reads its rows of A over its range of K, a float4 per thread of a row's
        // group at a time: 4 kDotLanes columns, or 4 kDotShortLanes where a range is short enough
        // for the kernel to give a row fewer threads (dot_lanes()); the 4 x 128 tile reads its 128
        // columns of B, kRowSteps rows at a time. Every range counts its own rows, the last one's
        // too, in whole steps.
        const bool dot = config.tile == TileShape::t8x4;
        const double step = dot ? 4.0 * dot_lanes(split.depth) : static_cast<double>(kRowSteps);
        const double floats_per_step = dot ? row.rows : row.cols;
        const auto steps_of = [&](double rows) { return std::ceil(rows / step) * step; };
        const double last = k - (split.count - 1.0) * split.depth;
        const double rows = (split.count - 1.0) * steps_of(split.depth) + steps_of(last);
        double work =
            static_cast<double>(tiles) * floats_per_step * rows * kMultiplyAddsPerFloatStreamed;
        // A row tile's groups of rows of C after the first find B in the L2 cache when it fits
        // there.
        const long long groups = ceil_div(static_cast<long long>(m), row.rows);
        if (!dot && groups > 1 && b_fits_cache(n, k, occupancy))
            work *= (1.0 + (groups - 1.0) * kCacheReadShare) / static_cast<double>(groups);
        // Either tile reads at full speed only with enough of its blocks on each multiprocessor.
        const double readers =
            static_cast<double>(full_speed_blocks(config.tile)) * multiprocessors;
        if (dot) {
            // The reading spreads evenly over all the readers, or at a lower speed over as many
            // as there are blocks.
            result.compute = work * kDotBlocksPerMultiprocessor / std::min<double>(blocks, readers);
        } else {
            // The 4 x 128 tile's blocks stay until their range is read, so they run in waves of
            // as many as fit at once: each whole wave, and then the rest, reads at the speed of
            // its blocks, up to the readers. With 564 blocks in waves of 528, 1 x 12000 x 16384
            // took 0.252 ms on the H200, and 0.188 with 1504.
            const long long wave = std::max(1LL, occupancy.wave(config.tile));
            const long long rest = blocks % wave;
            const double per_block = work / static_cast<double>(blocks);
            result.compute =
                per_block *
                (static_cast<double>(blocks / wave) * wave / std::min<double>(wave, readers) +
                 (rest > 0 ? rest / std::min<double>(rest, readers) : 0.0));
        }
        // The 8 x 128 tile multiplies each float of B by eight of A: with more rows its
        // multiply-adds, at its speed, can cost more than its reading.
        if (config.tile == TileShape::t8x128)
            result.compute = std::max(result.compute, busiest_work(blocks, tile_floats, split.depth,
                                                                   multiprocessors, resident) /
                                                          row.speed);
    } else {
        result.compute = std::max(
            busiest_work(blocks, tile_floats, split.depth, multiprocessors, resident) / row.speed,
            streaming_floor(m, n, k, blocks, multiprocessors));
    }
    // Split-K writes `count` partial tiles of m x n and the reduction reads them and writes C;
    // for the streaming tiles the reduction's launch counts too.
    if (split.count > 1) {
        result.reduction = kMultiplyAddsPerFloatMoved * (split.count + 1.0) * m *
                               static_cast<double>(n) / multiprocessors +
                           split_launch_cost(config.tile);
    }
    return result;
}
// [estimate]

std::vector<Estimate> candidates(int m, int n, int k, const Occupancy& occupancy,
                                 const RuleScope& scope) {
    std::vector<Estimate> all;
    // A tile is in the running when the scope has it, whatever m: gemm() multiplies a C whose
    // rows need more than the grid's 65535 blocks along y in bands of rows.
    const auto in_scope = [&](TileShape tile) {
        return std::find(scope.tiles.begin(), scope.tiles.end(), tile) != scope.tiles.end();
    };
    // [dot rule]
    // One column of C: each float of A meets one of B, so every tile reads A once and the multiply
    // costs what that reading costs; the other tiles multiply 15 or more columns of padding on top,
    // and read A without float4 (n is not a multiple of 4). The 8 x 4 tile is then tried alone,
    // whatever K: on the H200 it ran one column at 1.2 to 1.7 of cuBLAS from K = 1 to 127 as well,
    // where the best other tile reached 0.55 to 1.16. With 2 to 4 columns the 128 x 16 tile
    // measured faster on the H100, so the 8 x 4 tile is a candidate nowhere else.
    const bool dot_only = in_scope(TileShape::t8x4) && n == 1;
    // [dot rule]
    // [row rule]
    // One to four rows and at least kRowMinCols columns: the mirror image. Each float of B meets
    // at most four of A, and the 4 x 128 tile reads B once with float4, kRowLoads rows at a time,
    // faster than the others at every size of B measured (the notes page). It is then tried alone.
    const bool row_only = !dot_only && in_scope(TileShape::t4x128) && m <= kRowRows &&
                          n >= kRowMinCols && k >= kRowSteps;
    // From five rows on, the 8 x 128 tile reads B once per eight rows of C, A staged in shared
    // memory: it is tried beside the others up to kStagedRowsMaxRows rows, whether B fits the cache
    // or not. The 4 x 128 tile, which reads B once per four rows, is not: on the H100 the 8 x 128
    // tile ran faster on most shapes of 5 to 32 rows (the notes page).
    const bool staged_beside = !dot_only && in_scope(TileShape::t8x128) && m > kRowRows &&
                               m <= kStagedRowsMaxRows && n >= kStagedRowsMinCols &&
                               k >= kStagedRowsMinDepth;
    // [row rule]
    const auto only = [&](TileShape tile) {
        if (dot_only)
            return tile == TileShape::t8x4;
        if (row_only)
            return tile == TileShape::t4x128;
        return !streams_operand(tile) || (staged_beside && tile == TileShape::t8x128);
    };
    for (const TileShapeRow& row : kTileShapes) {
        const TileShape tile = row.value;
        if (!in_scope(tile) || !only(tile))
            continue;
        // A split is worth trying only if every range keeps kMinSplitDepth columns and it makes
        // more ranges than the smaller factor before it: ranges are whole slices, so 20001
        // columns asked for 64 ranges make 63 of 320, and at a small K two factors can make the
        // same ranges.
        int ranges_tried = 0;
        for (const int splits : step07::kChoiceSplits) {
            if (splits > scope.max_splits)
                continue;
            const int ranges = step07::plan_splits(k, splits).count;
            if (splits > 1 &&
                (ceil_div(k, splits) < step07::kMinSplitDepth || ranges <= ranges_tried))
                continue;
            ranges_tried = ranges;
            all.push_back(estimate(m, n, k, {tile, splits}, occupancy));
        }
        // Stream-K, with one worker per resident block, where the tiles make more than one wave
        // and end in a partial one; it needs a workspace, as split-K does.
        const step07::StreamKPlan plan =
            step07::plan_stream_k(m, n, k, {row.rows, row.cols}, stream_k_workers(tile, occupancy));
        if (scope.max_splits > 1 && plan.workers > 0 && plan.first_tile > 0)
            all.push_back(
                estimate(m, n, k, {tile, 1, Packing::automatic, plan.workers}, occupancy));
    }
    return all;
}

namespace {

std::invalid_argument no_candidate(int m, int n, int k) {
    return std::invalid_argument(
        "step08::choose_config: no tile of the rule's scope is a candidate for " +
        std::to_string(m) + " x " + std::to_string(n) + " x " + std::to_string(k));
}

}  // namespace

// [choose]
Config choose_config(int m, int n, int k, const Occupancy& occupancy, const RuleScope& scope) {
    const std::vector<Estimate> all = candidates(m, n, k, occupancy, scope);
    if (all.empty())
        throw no_candidate(m, n, k);
    const auto best = std::min_element(
        all.begin(), all.end(),
        [](const Estimate& a, const Estimate& b) { return a.total() < b.total(); });
    return best->config;
}
// [choose]

}  // namespace step08
