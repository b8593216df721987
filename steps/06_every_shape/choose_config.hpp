/// \file
/// \brief Step 06's configurations and the rule that picks one per shape: plain host code, no HIP,
/// so the rule is tested on every build.
#pragma once

#include <string>
#include <vector>

namespace step06 {

/// The block tiles this step launches; the measurements on the page decided on these six: three
/// for C of every shape, two thin ones for a C of a few rows or a few columns, where a square tile
/// would mostly multiply padding, and a dot-product tile for a C of one column (it computes up to
/// four), where reading A once is the whole cost.
enum class TileShape {
    t128x256,  ///< 128 x 256 of C per block, 8 warps (256 threads) of 32 x 128, 8 x 16 per thread
    t128x128,  ///< 128 x 128 of C per block, 4 warps (128 threads) of 32 x 128, 8 x 16 per thread
    t64x64,    ///< 64 x 64 of C per block, 2 warps (64 threads) of 32 x 64, 8 x 8 per thread
    t16x128,   ///< 16 x 128 of C per block, 2 warps (64 threads) of 16 x 64, 4 x 8 per thread
    t128x16,   ///< 128 x 16 of C per block, 2 warps (64 threads) of 64 x 16, 8 x 4 per thread
    t8x4,      ///< 8 x 4 of C per block, 8 groups of 32 threads, each group one row's dot products
};

/// Every tile shape: the square ones, largest first, then the thin ones, then the dot-product one.
constexpr TileShape kAllTileShapes[] = {TileShape::t128x256, TileShape::t128x128, TileShape::t64x64,
                                        TileShape::t16x128,  TileShape::t128x16,  TileShape::t8x4};

/// Rows and columns of C that one block of `tile` computes.
struct TileSize {
    int rows;
    int cols;
};

/// The tile's size.
TileSize tile_size(TileShape tile);

/// The tile's name as reports and the command line spell it: "128x256", "64x64", "16x128"...
const char* tile_name(TileShape tile);

/// Every tile's name, as a list in words: "128x256, 128x128, 64x64, 16x128, 128x16 or 8x4".
std::string tile_choices();

/// The tile called `text` (a name tile_name() returns). Throws std::invalid_argument naming the
/// accepted names when there is none.
TileShape parse_tile_shape(const std::string& text);

/// Columns of A (rows of B) that every tile shape stages in shared memory per step of its loop.
constexpr int kSlice = 16;

/// Rows of C in one block of the 8 x 4 tile: one per group of kDotLanes threads.
constexpr int kDotRows = 8;

/// Threads that share the dot products of one row of C in the 8 x 4 tile: each takes 4 columns of
/// A's row at a time, so the group covers 4 kDotLanes columns per step.
constexpr int kDotLanes = 32;

/// The most ranges of K one multiply is split into.
constexpr int kMaxSplits = 64;

/// The split factors the rule considers (a forced configuration may use any from 1 to kMaxSplits).
constexpr int kRuleSplits[] = {1, 2, 3, 4, 6, 8, 16, 32, 64};

/// Each range of K has at least this many columns of A: shorter ranges make the reduction cost
/// more than the parallelism gains.
constexpr int kMinSplitDepth = 64;

/// What a multiply does when the float4 path cannot read A, B or C where they are: n or k is not a
/// multiple of 4, or a pointer is not 16-byte aligned.
enum class Packing {
    automatic,  ///< pack when worth_packing() says the multiply repays the copies
    off,        ///< never pack: the kernel falls back to guarded scalar accesses
    on,         ///< always pack: A and B are copied into rows padded to a multiple of 4 floats
};

/// The most stream-K workers one multiply may use (a forced configuration; the rule uses one per
/// resident block: multiprocessors times blocks per multiprocessor).
constexpr int kMaxWorkers = 1024;

/// A way to run one multiply: which block tile, into how many ranges K is split (1: no split-K,
/// the blocks write C directly), whether the last, partial wave of tiles is shared out by stream-K
/// among `workers` blocks (0: no stream-K), and whether operands that float4 cannot read are
/// packed first.
struct Config {
    TileShape tile = TileShape::t128x256;
    int splits = 1;
    Packing packing = Packing::automatic;
    int workers = 0;
};

/// "128x256" for one split, "64x64 split 4" for four, "128x256 stream-K 132" with 132 stream-K
/// workers; ", packed" or ", unpacked" follow when the packing is forced.
std::string config_name(const Config& config);

/// "auto", "on" or "off", as the command line spells it.
const char* packing_name(Packing packing);

/// The packing called `text` (a name packing_name() returns). Throws std::invalid_argument naming
/// the accepted names when there is none.
Packing parse_packing(const std::string& text);

/// Multiply-adds per float that packing moves, at least, before packing pays (see worth_packing()).
/// Measured on the H100 (step 06's page): packing gained 1-5% from about 1365 multiply-adds per
/// float (4095^3, 4097^3, 4096 x 4095 x 4096, 8191^3) and lost 3-7% from 1000 down (3001^3,
/// 1024 x 1024 x 16383, 1023^3, 777^3), where the scalar path is nearly as fast.
constexpr double kPackMinIntensity = 1024.0;

/// Whether an m x n x k multiply that cannot use float4 as its operands are should copy them into
/// padded rows first: packing reads and writes about m k + k n + m n floats (A, B, and C on its way
/// out), and pays when the m n k multiply-adds are at least kPackMinIntensity times as many.
bool worth_packing(int m, int n, int k);

/// Whether gemm() packs an m x n x k multiply with `config`: never when float4 can read the
/// operands where they are (`float4_ready`), otherwise as config.packing says.
bool packs(const Config& config, int m, int n, int k, bool float4_ready);

/// Throws std::invalid_argument, naming the allowed values, when config.splits is not 1 to
/// kMaxSplits, config.workers is not 0 to kMaxWorkers, both split-K and stream-K are asked for, or
/// stream-K with the 8 x 4 tile (which shares K among threads instead).
void check_config(const Config& config);

/// Parses a number of stream-K workers given as text ("132", or "0" for none); throws
/// std::invalid_argument naming the allowed range otherwise.
int parse_workers(const std::string& text);

/// Parses a split factor given as text ("4"); throws std::invalid_argument naming the allowed
/// range otherwise.
int parse_splits(const std::string& text);

/// How K is actually cut for `splits` ranges: each range `depth` columns deep (a multiple of
/// kSlice), `count` ranges in all (fewer than asked when K is short).
struct SplitPlan {
    int depth;
    int count;
};

/// The split of K into at most `splits` ranges whose starts are multiples of kSlice, so that only
/// the last range can end inside a slice. K = 0 gives one empty range.
SplitPlan plan_splits(int k, int splits);

/// How stream-K shares out an m x n x k multiply of `tile` tiles among `workers` blocks. The tiles
/// are numbered row by row; the first `first_tile` of them make whole waves and are computed one
/// block per tile, as without stream-K. The last `tiles - first_tile` (tiles % workers, or all of
/// them when there are fewer tiles than workers) make `total` = their count times `slices`
/// K-slices, and worker w computes slices [begin(w), begin(w + 1)) of that sequence: a few tiles'
/// worth, as even as whole slices allow, cut wherever its share ends.
struct StreamKPlan {
    int workers = 0;      ///< blocks sharing the last tiles (0: no stream-K tiles at all)
    int tiles = 0;        ///< all tiles of C
    int first_tile = 0;   ///< tiles [0, first_tile) are computed whole, one block each
    int slices = 0;       ///< K-slices of one tile: ceil(k / kSlice), at least 1
    long long total = 0;  ///< K-slices shared out: (tiles - first_tile) slices

    /// Where worker w's share starts (w = workers gives `total`).
    long long begin(int w) const { return static_cast<long long>(w) * total / workers; }
    /// The worker whose share holds slice x of the shared sequence.
    int owner(long long x) const {
        return static_cast<int>(((x + 1) * workers + total - 1) / total - 1);
    }
};

/// The stream-K plan for `workers` blocks (none when `workers` is 0 or the tiles fill whole
/// waves).
StreamKPlan plan_stream_k(int m, int n, int k, TileShape tile, int workers);

/// What the rule needs to know of the GPU: its multiprocessors, and how many blocks of each tile
/// shape one multiprocessor holds at once (from the occupancy calculator).
struct DeviceSlots {
    int multiprocessors = 1;
    int blocks_128x256 = 1;  ///< resident 128 x 256 blocks per multiprocessor
    int blocks_128x128 = 1;  ///< resident 128 x 128 blocks per multiprocessor
    int blocks_64x64 = 1;    ///< resident 64 x 64 blocks per multiprocessor
    int blocks_16x128 = 1;   ///< resident 16 x 128 blocks per multiprocessor
    int blocks_128x16 = 1;   ///< resident 128 x 16 blocks per multiprocessor
    int blocks_8x4 = 8;      ///< resident 8 x 4 blocks per multiprocessor

    /// Resident blocks per multiprocessor for `tile`.
    int blocks_per_multiprocessor(TileShape tile) const;

    /// The stream-K workers the rule uses for `tile`: one per slot of the whole GPU (at most
    /// kMaxWorkers), and none for the 8 x 4 tile, whose threads share K instead.
    int stream_k_workers(TileShape tile) const;
};

/// The rule's estimate for one configuration, in multiply-adds of one multiprocessor at the 128 x
/// 256 tile's speed (only comparisons between estimates mean anything).
struct Estimate {
    Config config;
    int blocks;            ///< blocks launched (tiles times splits)
    double waves;          ///< blocks over the slots of all multiprocessors
    double compute;        ///< the busiest multiprocessor's share of the multiply-adds
    double reduction;      ///< split-K's or stream-K's partial tiles' memory traffic, same unit
    double total() const;  ///< compute + reduction
};

/// The estimate for `config` on an m x n x k multiply.
Estimate estimate(int m, int n, int k, const Config& config, const DeviceSlots& device);

/// Every configuration the rule considers for this shape (split factors up to `max_splits`, and
/// stream-K with one worker per resident block when the tiles make more than one wave but not a
/// whole number of them), with its estimate, in the order tried. Where C has one column and K is
/// at least 4 kDotLanes, only the 8 x 4 tile, unless `dot_tile` is false (the benchmark's
/// comparison without it); it is never a candidate elsewhere.
std::vector<Estimate> candidates(int m, int n, int k, const DeviceSlots& device,
                                 int max_splits = kMaxSplits, bool dot_tile = true);

/// The rule: the configuration with the smallest estimate (the first one on a tie). With
/// `max_splits` = 1 it neither splits K nor uses stream-K, so the multiply needs no workspace.
Config choose_config(int m, int n, int k, const DeviceSlots& device, int max_splits = kMaxSplits,
                     bool dot_tile = true);

}  // namespace step06
