/// \file
/// \brief Step 07's configurations (a step 06 tile, split-K's ranges, stream-K's workers) and its
/// simple choice of them by counting waves. Plain host code, no HIP, tested on every build.
#pragma once

#include <string>

#include "k_split.hpp"
#include "tile_shape.hpp"

namespace step07 {

/// A way to run one multiply: which of step 06's block tiles, into how many ranges K is split (1:
/// no split-K, the blocks write C directly), and how many blocks share out the last, partial wave
/// of tiles by stream-K (0: no stream-K).
struct Config {
    step06::TileShape tile = step06::TileShape::t128x256;
    int splits = 1;
    int workers = 0;
};

/// "128x256" for one split, "128x128 split 4" for four, "128x256 stream-K 132" with 132 workers.
std::string config_name(const Config& config);

/// Throws std::invalid_argument, naming the allowed values, when config.splits is not 1 to
/// kMaxSplits, config.workers is not 0 to kMaxWorkers, or both split-K and stream-K are asked for.
void check_config(const Config& config);

/// Parses a split factor given as text ("4"); throws std::invalid_argument naming the allowed
/// range otherwise.
int parse_splits(const std::string& text);

/// Parses a number of stream-K workers given as text ("132", or "0" for none); throws
/// std::invalid_argument naming the allowed range otherwise.
int parse_workers(const std::string& text);

/// The split factors the choice considers (a forced configuration may use any from 1 to
/// kMaxSplits).
constexpr int kChoiceSplits[] = {1, 2, 3, 4, 6, 8, 16, 32, 64, 128, 256};

/// Step 07's choice for an m x n x k multiply: step 06's tile for C, then
/// - fewer tiles than one wave: the most ranges of K (of kChoiceSplits, each range at least
///   kMinSplitDepth deep) whose blocks still fit in one wave;
/// - more than one wave, the last one at most half full: stream-K, one worker per resident block;
/// - otherwise the tiles as they are.
Config choose_config(int m, int n, int k, const step06::Occupancy& occupancy);

}  // namespace step07
