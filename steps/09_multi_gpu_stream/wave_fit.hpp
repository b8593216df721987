/// \file
/// \brief The planner's wave fit: chunk heights and panel widths whose tiles fill whole waves of
/// blocks on the device, because a kernel takes as long as its waves, full or not. Pure host code.
#pragma once

#include <functional>
#include <utility>

namespace step09 {

/// The block tile the wave count assumes: step 06's largest, which its rule picks for the tiles of
/// a plan.
constexpr int kWaveTileRows = 128;
constexpr int kWaveTileCols = 256;

/// The widest panel the wave fit tries: wider panels take budget from the chunks of A for no
/// gain.
constexpr int kWidestPanelCols = 3072;

/// How many waves of kWaveTileRows x kWaveTileCols blocks over `multiprocessors` (one block each)
/// the kernels of a plan with chunks of `chunk_rows` and panels of `panel_cols` take, when the two
/// chunks that compute at once share each wave: for every pair of chunks (0 and 1, 2 and 3, ...)
/// and every panel, the blocks of both tiles, rounded up to whole waves. The kernels of two lanes
/// run side by side, so one tile's last, partial wave is filled by its partner's blocks, but
/// nothing fills the last wave of a step. Fewer waves, shorter kernels.
long long plan_waves(int m, int n, int chunk_rows, int panel_cols, int multiprocessors);

/// The chunk height and panel width, as (rows, columns), with the fewest plan_waves() for an
/// m x n product on `multiprocessors`: `chosen` itself, or chunks of `chosen` rows or of the
/// tallest whole block rows up to `tallest_rows` (none when it is 0), with panels of any multiple
/// of kWaveTileCols up to kWidestPanelCols whose last panel is at least three quarters as wide as
/// the others (a short last step leaves the next panel's copy exposed). Only pairs for which `fits`
/// holds are tried; on a tie the tallest chunks win, then the widest panels.
std::pair<int, int> fit_to_waves(int m, int n, std::pair<int, int> chosen, int tallest_rows,
                                 int multiprocessors, const std::function<bool(int, int)>& fits);

}  // namespace step09
