/// \file
/// \brief Step 08's configurations and the rule that picks one per shape by estimating each
/// candidate's time from the waves of blocks it gives: plain host code, no HIP, so the rule is
/// tested on every build.
#pragma once

#include <string>
#include <vector>

#include "every_shape_tiles.hpp"
#include "k_split.hpp"

namespace step08 {

/// What a multiply does when the float4 path cannot read A, B or C where they are: n or k is not a
/// multiple of 4, or a pointer is not 16-byte aligned.
enum class Packing {
    automatic,  ///< pack when worth_packing() says the multiply repays the copies
    off,        ///< never pack: the kernel falls back to guarded scalar accesses
    on,         ///< always pack: B is copied into rows padded to a multiple of 4 floats
};

/// One row of the table of packings.
struct PackingRow {
    Packing value;
    const char* name;  ///< as the command line spells it
};

/// Every packing and its name.
constexpr PackingRow kPackings[] = {
    {Packing::automatic, "auto"},
    {Packing::on, "on"},
    {Packing::off, "off"},
};

/// A way to run one multiply: which block tile, into how many ranges K is split (1: no split-K),
/// how many blocks share out the last, partial wave by stream-K (0: none), and whether operands
/// that float4 cannot read are packed first.
struct Config {
    TileShape tile = TileShape::t128x256;
    int splits = 1;
    Packing packing = Packing::automatic;
    int workers = 0;
};

/// "128x256" for one split, "64x64 split 4" for four, "128x256 stream-K 132" with 132 stream-K
/// workers; ", packed" or ", unpacked" follow when the packing is forced.
std::string config_name(const Config& config);

/// The packing called `text` ("auto", "on" or "off"). Throws std::invalid_argument naming the
/// accepted names when there is none.
Packing parse_packing(const std::string& text);

/// Throws std::invalid_argument, naming the allowed values, where step07::check_config() would,
/// and for stream-K with the 8 x 4 tile (which shares K among threads instead).
void check_config(const Config& config);

/// Multiply-adds per float that packing moves, at least, before packing pays (see worth_packing();
/// measured on an H100, whose break-even lies between 613 and 682; an H200's, with more memory
/// bandwidth, is near 400: the notes page).
constexpr double kPackMinIntensity = 650.0;

/// Whether an m x n x k multiply that cannot use float4 as its operands are should copy B into
/// padded rows first: packing reads and writes about k n + m n floats (B, and C on its way out),
/// and pays when the m n k multiply-adds are at least kPackMinIntensity times as many. That is
/// m k / (m + k) per float, whatever n: never with fewer than kPackMinIntensity rows or columns
/// of A.
bool worth_packing(int m, int n, int k);

/// Whether gemm() packs an m x n x k multiply with `config`, given the matrices' step06::Float4
/// path: never when float4 reads all three where they are; otherwise as config.packing says, and
/// by worth_packing() only when float4 can touch none of them (with B and C on float4, the kernels
/// read A element by element faster than packing makes up for: the notes page).
bool packs(const Config& config, int m, int n, int k, step06::Float4 path);

/// The stream-K workers the rule gives `tile`: one per slot of the whole GPU (at most
/// step07::kMaxWorkers), and none for the 8 x 4 tile, whose threads share K instead.
int stream_k_workers(TileShape tile, const Occupancy& occupancy);

/// The rule's estimate for one configuration, in multiply-adds of one multiprocessor at the 128 x
/// 256 tile's speed (only comparisons between estimates mean anything).
struct Estimate {
    Config config;
    long long blocks;      ///< blocks launched (tiles times splits)
    double waves;          ///< blocks over the slots of all multiprocessors
    double compute;        ///< the busiest multiprocessor's share of the multiply-adds
    double reduction;      ///< split-K's or stream-K's partial tiles' memory traffic, same unit
    double total() const;  ///< compute + reduction
};

/// The estimate for `config` on an m x n x k multiply.
Estimate estimate(int m, int n, int k, const Config& config, const Occupancy& occupancy);

/// Every tile of kTileShapes, in its order.
std::vector<TileShape> all_tiles();

/// What the rule may choose from: split factors up to `max_splits` (1: neither split-K nor
/// stream-K, so the multiply needs no workspace), and the tiles in `tiles`.
struct RuleScope {
    int max_splits = step07::kMaxSplits;
    std::vector<TileShape> tiles = all_tiles();

    /// Takes `tile` out of the scope.
    void leave_out(TileShape tile);
};

/// Every configuration the rule considers for this shape, with its estimate, in the order tried:
/// each tile of the scope with the split factors of step07::kChoiceSplits (each range at least
/// step07::kMinSplitDepth deep, and more ranges than the factor before made), and stream-K with one
/// worker per resident block where the tiles make more than one wave but not a whole number of
/// them. Where C has one column, only the 8 x 4 tile (when the scope has it); where C has one to
/// four rows, at least kRowMinCols columns and K at least kRowSteps, only the 4 x 128 tile; where
/// it has 5 to kStagedRowsMaxRows rows, at least kStagedRowsMinCols columns and K at least
/// kStagedRowsMinDepth, the 8 x 128 tile too (the 4 x 128 tile never beside others). Every other
/// tile, whatever m: gemm() multiplies a C taller than one grid holds in bands of rows.
std::vector<Estimate> candidates(int m, int n, int k, const Occupancy& occupancy,
                                 const RuleScope& scope = {});

/// The rule: the configuration with the smallest estimate (the first one on a tie). Throws
/// std::invalid_argument when no tile of the scope is a candidate (an empty scope, or one that
/// holds only the 8 x 4 tile for a C of more than one column).
Config choose_config(int m, int n, int k, const Occupancy& occupancy, const RuleScope& scope = {});

}  // namespace step08
