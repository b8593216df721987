#include "choose_config.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "common/command_line.hpp"

namespace step06 {
namespace {

// [rule constants]
// Fitted to the H100 sweep on the page (every tile and split factor over 25 shapes): a 128 x 128
// block does 0.93, and a 64 x 64 block 0.80, of the multiply-adds per second of a 128 x 256
// block. Smaller tiles load each value into shared memory for fewer multiply-adds.
constexpr double kSpeed128x256 = 1.0;
constexpr double kSpeed128x128 = 0.93;
constexpr double kSpeed64x64 = 0.80;
// A thin tile's thread stages 9 float4 per K-slice for 4 x 8 multiply-adds per column of the
// slice (a 128 x 256 thread: 6 for 8 x 16). Measured on the H100 at 8192^3, where any tile fills
// the GPU, 16 x 128 blocks ran at 0.52 of the speed of 128 x 256 blocks, so the rule rates both
// thin tiles at 0.5 and takes them only where a square tile would multiply mostly padding.
constexpr double kSpeed16x128 = 0.50;
constexpr double kSpeed128x16 = 0.50;
// A multiprocessor holding fewer blocks than it can runs each a little faster, not in proportion:
// its speed scales as the square root of the share of its slots in use (fitted to the same
// measurements and to 23 more shapes with every configuration: 640^3 to 5000^3, long K, few rows).
constexpr double kOccupancyExponent = 0.5;
// What one float written or read by the split-K reduction costs, in multiply-adds. Streaming
// alone would be about 40 (an H100 moves 3.35 TB/s, 0.84 G floats per ms, and does 33.5 T
// multiply-adds per second); the fit doubles it, for the second kernel and the partial tiles
// that the multiply writes first.
constexpr double kMultiplyAddsPerFloatMoved = 80.0;
// The 8 x 4 tile does one multiply-add per float of A it reads where the rule takes it (a C of one
// column), so its blocks stream A rather than multiply: a float of A costs what streaming it
// costs, about 40 multiply-adds (as above), and B's column comes from the cache.
constexpr double kDotMultiplyAddsPerFloat = 40.0;
// [rule constants]

long long ceil_div(long long value, long long divisor) {
    return (value + divisor - 1) / divisor;
}

double speed(TileShape tile) {
    switch (tile) {
        case TileShape::t128x256:
            return kSpeed128x256;
        case TileShape::t128x128:
            return kSpeed128x128;
        case TileShape::t64x64:
            return kSpeed64x64;
        case TileShape::t16x128:
            return kSpeed16x128;
        case TileShape::t128x16:
            return kSpeed128x16;
        case TileShape::t8x4:
            return 1.0;  // not used: estimate() counts the 8 x 4 tile's floats read instead
    }
    throw std::invalid_argument("step06::speed: not a TileShape");
}

}  // namespace

TileSize tile_size(TileShape tile) {
    switch (tile) {
        case TileShape::t128x256:
            return {128, 256};
        case TileShape::t128x128:
            return {128, 128};
        case TileShape::t64x64:
            return {64, 64};
        case TileShape::t16x128:
            return {16, 128};
        case TileShape::t128x16:
            return {128, 16};
        case TileShape::t8x4:
            return {kDotRows, 4};
    }
    throw std::invalid_argument("step06::tile_size: not a TileShape");
}

const char* tile_name(TileShape tile) {
    switch (tile) {
        case TileShape::t128x256:
            return "128x256";
        case TileShape::t128x128:
            return "128x128";
        case TileShape::t64x64:
            return "64x64";
        case TileShape::t16x128:
            return "16x128";
        case TileShape::t128x16:
            return "128x16";
        case TileShape::t8x4:
            return "8x4";
    }
    throw std::invalid_argument("step06::tile_name: not a TileShape");
}

TileShape parse_tile_shape(const std::string& text) {
    for (const TileShape tile : kAllTileShapes) {
        if (text == tile_name(tile))
            return tile;
    }
    throw std::invalid_argument("'" + text + "' is not a tile shape of step 06; choose " +
                                tile_choices());
}

std::string tile_choices() {
    std::vector<std::string> names;
    for (const TileShape tile : kAllTileShapes)
        names.push_back(tile_name(tile));
    return tutorial::list_in_words(names);
}

std::string config_name(const Config& config) {
    std::string name = tile_name(config.tile);
    if (config.splits != 1)
        name += " split " + std::to_string(config.splits);
    if (config.workers != 0)
        name += " stream-K " + std::to_string(config.workers);
    if (config.packing == Packing::on)
        name += ", packed";
    if (config.packing == Packing::off)
        name += ", unpacked";
    return name;
}

const char* packing_name(Packing packing) {
    switch (packing) {
        case Packing::automatic:
            return "auto";
        case Packing::off:
            return "off";
        case Packing::on:
            return "on";
    }
    throw std::invalid_argument("step06::packing_name: not a Packing");
}

Packing parse_packing(const std::string& text) {
    for (const Packing packing : {Packing::automatic, Packing::off, Packing::on}) {
        if (text == packing_name(packing))
            return packing;
    }
    throw std::invalid_argument("'" + text +
                                "' is not a packing of step 06; choose auto, on or off");
}

// [worth packing]
bool worth_packing(int m, int n, int k) {
    const double multiply_adds = static_cast<double>(m) * n * k;
    const double floats_moved =
        static_cast<double>(m) * k + static_cast<double>(k) * n + static_cast<double>(m) * n;
    return multiply_adds >= kPackMinIntensity * floats_moved;
}

bool packs(const Config& config, int m, int n, int k, bool float4_ready) {
    // The 8 x 4 tile reads A and B where they are, with float4 or without (see its kernel).
    if (float4_ready || config.packing == Packing::off || config.tile == TileShape::t8x4)
        return false;
    return config.packing == Packing::on || worth_packing(m, n, k);
}
// [worth packing]

void check_config(const Config& config) {
    if (config.splits < 1 || config.splits > kMaxSplits) {
        throw std::invalid_argument("a split factor of step 06 is a whole number from 1 to " +
                                    std::to_string(kMaxSplits) + ", not " +
                                    std::to_string(config.splits));
    }
    if (config.workers < 0 || config.workers > kMaxWorkers) {
        throw std::invalid_argument(
            "the stream-K workers of step 06 are a whole number from 0 "
            "(no stream-K) to " +
            std::to_string(kMaxWorkers) + ", not " + std::to_string(config.workers));
    }
    if (config.workers != 0 && config.tile == TileShape::t8x4) {
        throw std::invalid_argument(
            "the 8x4 tile of step 06 shares K among the threads of each row, not among stream-K "
            "workers: got " +
            std::to_string(config.workers) + " stream-K workers");
    }
    if (config.workers != 0 && config.splits != 1) {
        throw std::invalid_argument("step 06 uses split-K or stream-K, not both: got split " +
                                    std::to_string(config.splits) + " with " +
                                    std::to_string(config.workers) + " stream-K workers");
    }
}

namespace {

// A whole number from `low` to `high` written with at most `digits` digits and nothing else (no
// sign, space or exponent), checked before any conversion; -1 otherwise.
int parse_count(const std::string& text, std::size_t digits, int low, int high) {
    const bool ok =
        !text.empty() && text.size() <= digits &&
        std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    const int value = ok ? std::stoi(text) : -1;
    return value >= low && value <= high ? value : -1;
}

}  // namespace

int parse_splits(const std::string& text) {
    const int splits = parse_count(text, 2, 1, kMaxSplits);
    if (splits < 0) {
        throw std::invalid_argument("'" + text +
                                    "' is not a split factor of step 06; choose a whole number "
                                    "from 1 to " +
                                    std::to_string(kMaxSplits));
    }
    return splits;
}

int parse_workers(const std::string& text) {
    const int workers = parse_count(text, 4, 0, kMaxWorkers);
    if (workers < 0) {
        throw std::invalid_argument("'" + text +
                                    "' is not a number of stream-K workers of step 06; choose a "
                                    "whole number from 0 (no stream-K) to " +
                                    std::to_string(kMaxWorkers));
    }
    return workers;
}

// [plan splits]
SplitPlan plan_splits(int k, int splits) {
    if (k <= 0)
        return {0, 1};
    const long long depth = ceil_div(ceil_div(k, splits), kSlice) * kSlice;
    return {static_cast<int>(depth), static_cast<int>(ceil_div(k, depth))};
}
// [plan splits]

// [plan stream-K]
StreamKPlan plan_stream_k(int m, int n, int k, TileShape tile, int workers) {
    StreamKPlan plan;
    const TileSize size = tile_size(tile);
    plan.tiles = static_cast<int>(ceil_div(m, size.rows) * ceil_div(n, size.cols));
    plan.first_tile = plan.tiles;
    plan.slices = static_cast<int>(std::max<long long>(1, ceil_div(k, kSlice)));
    if (workers <= 0 || k <= 0 || plan.tiles == 0)
        return plan;
    // Whole waves stay whole tiles; what is left over (all of it, short of one wave) is shared.
    const int shared = plan.tiles % workers;
    if (shared == 0)
        return plan;
    plan.workers = workers;
    plan.first_tile = plan.tiles - shared;
    plan.total = static_cast<long long>(shared) * plan.slices;
    return plan;
}
// [plan stream-K]

int DeviceSlots::blocks_per_multiprocessor(TileShape tile) const {
    switch (tile) {
        case TileShape::t128x256:
            return blocks_128x256;
        case TileShape::t128x128:
            return blocks_128x128;
        case TileShape::t64x64:
            return blocks_64x64;
        case TileShape::t16x128:
            return blocks_16x128;
        case TileShape::t128x16:
            return blocks_128x16;
        case TileShape::t8x4:
            return blocks_8x4;
    }
    throw std::invalid_argument("step06::blocks_per_multiprocessor: not a TileShape");
}

int DeviceSlots::stream_k_workers(TileShape tile) const {
    if (tile == TileShape::t8x4)
        return 0;
    return std::min(kMaxWorkers,
                    std::max(1, multiprocessors) * std::max(1, blocks_per_multiprocessor(tile)));
}

double Estimate::total() const {
    return compute + reduction;
}

// [estimate]
namespace {

// The work of the busiest multiprocessor when `blocks` blocks of `block_work` multiply-adds each
// are spread over the GPU: it gets ceil(blocks / multiprocessors) of them and runs them `resident`
// at a time, full rounds at the tile's speed, then the rest, a last round in which fewer blocks
// share the multiprocessor and each runs only a little faster.
double busiest_work(long long blocks, double block_work, int multiprocessors, int resident) {
    const long long busiest = ceil_div(blocks, multiprocessors);
    const long long full_rounds = busiest / resident;
    const long long rest = busiest % resident;
    const double last_round_speed =
        std::pow(static_cast<double>(rest) / resident, kOccupancyExponent);
    return static_cast<double>(full_rounds) * resident * block_work +
           (rest > 0 ? static_cast<double>(rest) * block_work / last_round_speed : 0.0);
}

}  // namespace

Estimate estimate(int m, int n, int k, const Config& config, const DeviceSlots& device) {
    const TileSize size = tile_size(config.tile);
    const SplitPlan split = plan_splits(k, config.splits);
    const long long tiles = ceil_div(m, size.rows) * ceil_div(n, size.cols);
    const int resident = std::max(1, device.blocks_per_multiprocessor(config.tile));
    const int multiprocessors = std::max(1, device.multiprocessors);
    const double tile_floats = static_cast<double>(size.rows) * size.cols;
    Estimate result{};
    result.config = config;
    if (config.workers > 0) {
        // Stream-K: the whole waves of tiles, then the workers' equal shares of the rest.
        const StreamKPlan plan = plan_stream_k(m, n, k, config.tile, config.workers);
        const double tile_work = tile_floats * split.depth;
        result.blocks = plan.first_tile + plan.workers;
        result.waves =
            static_cast<double>(plan.tiles) / (static_cast<double>(multiprocessors) * resident);
        const double share =
            plan.workers > 0 ? static_cast<double>(plan.total) / plan.workers * tile_floats * kSlice
                             : 0.0;
        result.compute = (busiest_work(plan.first_tile, tile_work, multiprocessors, resident) +
                          busiest_work(plan.workers, share, multiprocessors, resident)) /
                         speed(config.tile);
        // A worker writes at most two partial tiles, and the last one to finish a tile reads
        // its partial tiles back and writes C: about four tiles moved per worker.
        result.reduction =
            kMultiplyAddsPerFloatMoved * 4.0 * plan.workers * tile_floats / multiprocessors;
        return result;
    }
    const long long blocks = tiles * split.count;
    result.blocks = static_cast<int>(blocks);
    result.waves = static_cast<double>(blocks) / (static_cast<double>(multiprocessors) * resident);
    if (config.tile == TileShape::t8x4) {
        // Each block reads its rows of A over its range of K, a group's 4 kDotLanes columns at a
        // time (a shorter range still costs one such step). Streaming, a multiprocessor keeps its
        // memory busy with any number of blocks, so the reading spreads evenly over all of them,
        // or over as many as there are blocks when there are fewer.
        const double step = 4.0 * kDotLanes;
        const double block_work =
            size.rows * std::ceil(split.depth / step) * step * kDotMultiplyAddsPerFloat;
        result.compute = static_cast<double>(blocks) * block_work /
                         static_cast<double>(std::min<long long>(blocks, multiprocessors));
    } else {
        const double block_work = tile_floats * split.depth;
        result.compute =
            busiest_work(blocks, block_work, multiprocessors, resident) / speed(config.tile);
    }
    // Split-K writes `count` partial tiles of m x n and the reduction reads them and writes C.
    result.reduction = split.count == 1 ? 0.0
                                        : kMultiplyAddsPerFloatMoved * (split.count + 1.0) * m *
                                              static_cast<double>(n) / multiprocessors;
    return result;
}
// [estimate]

std::vector<Estimate> candidates(int m, int n, int k, const DeviceSlots& device, int max_splits,
                                 bool dot_tile) {
    std::vector<Estimate> all;
    // [dot rule]
    // One column of C: each float of A meets one of B, so every tile reads A once and the multiply
    // costs what that reading costs; the other tiles multiply 15 or more columns of padding on top,
    // and read A without float4 (n is not a multiple of 4). The 8 x 4 tile is then tried alone,
    // unless the rows are too short to give each group of kDotLanes threads one step (K under
    // 4 kDotLanes). With 2 to 4 columns the 128 x 16 tile measured faster on the H100, so the 8 x 4
    // tile is a candidate nowhere else.
    const bool dot_only = dot_tile && n == 1 && k >= 4 * kDotLanes;
    // [dot rule]
    for (const TileShape tile : kAllTileShapes) {
        if ((tile == TileShape::t8x4) != dot_only)
            continue;
        for (const int splits : kRuleSplits) {
            if (splits > max_splits)
                continue;
            // A split is worth trying only if every range keeps kMinSplitDepth columns and K
            // really divides into that many ranges.
            if (splits > 1 &&
                (ceil_div(k, splits) < kMinSplitDepth || plan_splits(k, splits).count != splits)) {
                continue;
            }
            all.push_back(estimate(m, n, k, {tile, splits}, device));
        }
        // Stream-K, with one worker per resident block, where the tiles make more than one wave
        // and end in a partial one; it needs a workspace, as split-K does.
        const StreamKPlan plan = plan_stream_k(m, n, k, tile, device.stream_k_workers(tile));
        if (max_splits > 1 && plan.workers > 0 && plan.first_tile > 0)
            all.push_back(estimate(m, n, k, {tile, 1, Packing::automatic, plan.workers}, device));
    }
    return all;
}

// [choose]
Config choose_config(int m, int n, int k, const DeviceSlots& device, int max_splits,
                     bool dot_tile) {
    const std::vector<Estimate> all = candidates(m, n, k, device, max_splits, dot_tile);
    const auto best = std::min_element(
        all.begin(), all.end(),
        [](const Estimate& a, const Estimate& b) { return a.total() < b.total(); });
    return best->config;
}
// [choose]

}  // namespace step06
