#include "choose_split.hpp"

#include <algorithm>
#include <stdexcept>

#include "common/rounding.hpp"

namespace step07 {
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

std::string config_name(const Config& config) {
    std::string name = step06::tile_name(config.tile);
    if (config.splits != 1)
        name += " split " + std::to_string(config.splits);
    if (config.workers != 0)
        name += " stream-K " + std::to_string(config.workers);
    return name;
}

void check_config(const Config& config) {
    if (config.splits < 1 || config.splits > kMaxSplits) {
        throw std::invalid_argument("a split factor is a whole number from 1 to " +
                                    std::to_string(kMaxSplits) + ", not " +
                                    std::to_string(config.splits));
    }
    if (config.workers < 0 || config.workers > kMaxWorkers) {
        throw std::invalid_argument(
            "the stream-K workers are a whole number from 0 (no "
            "stream-K) to " +
            std::to_string(kMaxWorkers) + ", not " + std::to_string(config.workers));
    }
    if (config.workers != 0 && config.splits != 1) {
        throw std::invalid_argument("split-K or stream-K, not both: got split " +
                                    std::to_string(config.splits) + " with " +
                                    std::to_string(config.workers) + " stream-K workers");
    }
}

int parse_splits(const std::string& text) {
    const int splits = parse_count(text, 3, 1, kMaxSplits);
    if (splits < 0) {
        throw std::invalid_argument("'" + text +
                                    "' is not a split factor; choose a whole number from 1 to " +
                                    std::to_string(kMaxSplits));
    }
    return splits;
}

int parse_workers(const std::string& text) {
    const int workers = parse_count(text, 4, 0, kMaxWorkers);
    if (workers < 0) {
        throw std::invalid_argument("'" + text +
                                    "' is not a number of stream-K workers; choose a whole number "
                                    "from 0 (no stream-K) to " +
                                    std::to_string(kMaxWorkers));
    }
    return workers;
}

// [choose]
Config choose_config(int m, int n, int k, const step06::Occupancy& occupancy) {
    Config config;
    config.tile = step06::choose_tile(m, n, occupancy);
    const step06::TileSize size = step06::tile_size(config.tile);
    const long long tiles = tutorial::ceil_div(static_cast<long long>(m), size.rows) *
                            tutorial::ceil_div(static_cast<long long>(n), size.cols);
    const long long wave = occupancy.wave(config.tile);
    if (tiles == 0 || k <= 0)
        return config;
    if (tiles < wave) {
        // Few tiles: split K into as many ranges as one wave has room for. Ranges are whole
        // K-slices, so a factor may make fewer than it asks for (64 of 10000 columns make 63).
        for (const int splits : kChoiceSplits) {
            const int ranges = plan_splits(k, splits).count;
            if (tutorial::ceil_div(k, splits) >= kMinSplitDepth && tiles * ranges <= wave)
                config.splits = splits;
        }
        return config;
    }
    // Several waves: share out a last wave that would run at most half full.
    const long long last_wave = tiles % wave;
    if (last_wave != 0 && 2 * last_wave <= wave)
        config.workers = static_cast<int>(std::min<long long>(wave, kMaxWorkers));
    return config;
}
// [choose]

}  // namespace step07
