#include "wave_fit.hpp"

#include <algorithm>
#include <tuple>

#include "planner.hpp"

namespace step09 {

long long plan_waves(int m, int n, int chunk_rows, int panel_cols, int multiprocessors) {
    auto blocks = [](int rows, int cols) {
        return ceil_div(static_cast<long long>(rows), kWaveTileRows) *
               ceil_div(static_cast<long long>(cols), kWaveTileCols);
    };
    const long long blocks_per_wave = std::max(1, multiprocessors);
    long long waves = 0;
    for (int row = 0; row < m; row += kChunksAtOnce * chunk_rows) {
        for (int col = 0; col < n; col += panel_cols) {
            const int cols = std::min(panel_cols, n - col);
            long long step = 0;  // the blocks of the chunks that compute together on this panel
            for (int r = row; r < std::min(m, row + kChunksAtOnce * chunk_rows); r += chunk_rows)
                step += blocks(std::min(chunk_rows, m - r), cols);
            waves += (step + blocks_per_wave - 1) / blocks_per_wave;
        }
    }
    return waves;
}

// [wave fit]
std::pair<int, int> fit_to_waves(int m, int n, std::pair<int, int> chosen, int tallest_rows,
                                 int multiprocessors, const std::function<bool(int, int)>& fits) {
    // Compared as (waves, -rows, -cols): fewest waves, then tallest, then widest.
    auto key = [&](int rows, int cols) {
        return std::tuple(plan_waves(m, n, rows, cols, multiprocessors), -rows, -cols);
    };
    auto best = key(chosen.first, chosen.second);
    const int whole_rows = tallest_rows / kWaveTileRows * kWaveTileRows;
    for (const int rows : {chosen.first, whole_rows}) {
        if (rows < 1)
            continue;
        for (int cols = kWaveTileCols; cols <= std::min(n, kWidestPanelCols);
             cols += kWaveTileCols) {
            const int last = n % cols == 0 ? cols : n % cols;
            if ((cols < n && 4 * last < 3 * cols) || !fits(rows, cols))
                continue;
            best = std::min(best, key(rows, cols));
        }
    }
    return {-std::get<1>(best), -std::get<2>(best)};
}
// [wave fit]

}  // namespace step09
