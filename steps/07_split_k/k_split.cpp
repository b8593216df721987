#include "k_split.hpp"

#include <algorithm>

#include "common/rounding.hpp"

namespace step07 {

// [plan splits]
SplitPlan plan_splits(int k, int splits) {
    if (k <= 0)
        return {0, 1};
    const long long depth =
        tutorial::round_up(tutorial::ceil_div(static_cast<long long>(k), splits), step06::kSlice);
    return {static_cast<int>(depth), static_cast<int>(tutorial::ceil_div(k, depth))};
}
// [plan splits]

// [plan stream-K]
StreamKPlan plan_stream_k(int m, int n, int k, step06::TileSize tile, int workers) {
    StreamKPlan plan;
    plan.tiles = tutorial::ceil_div(static_cast<long long>(m), tile.rows) *
                 tutorial::ceil_div(static_cast<long long>(n), tile.cols);
    plan.first_tile = plan.tiles;
    plan.slices = std::max(1, tutorial::ceil_div(k, step06::kSlice));
    if (workers <= 0 || k <= 0 || plan.tiles == 0)
        return plan;
    // Whole waves stay whole tiles; what is left over (all of it, short of one wave) is shared.
    const int shared = static_cast<int>(plan.tiles % workers);
    if (shared == 0)
        return plan;
    plan.workers = workers;
    plan.first_tile = plan.tiles - shared;
    plan.total = static_cast<long long>(shared) * plan.slices;
    return plan;
}
// [plan stream-K]

}  // namespace step07
