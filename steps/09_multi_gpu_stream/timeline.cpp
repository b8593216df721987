#include "timeline.hpp"

#include <algorithm>

namespace step09 {
namespace {

// The union of `intervals` as disjoint intervals in time order; empty ones are dropped.
std::vector<Interval> merged(std::vector<Interval> intervals) {
    intervals.erase(std::remove_if(intervals.begin(), intervals.end(),
                                   [](const Interval& i) { return !(i.end > i.begin); }),
                    intervals.end());
    std::sort(intervals.begin(), intervals.end(),
              [](const Interval& x, const Interval& y) { return x.begin < y.begin; });
    std::vector<Interval> result;
    for (const Interval& interval : intervals) {
        if (!result.empty() && interval.begin <= result.back().end) {
            result.back().end = std::max(result.back().end, interval.end);
        } else {
            result.push_back(interval);
        }
    }
    return result;
}

}  // namespace

double covered_ms(std::vector<Interval> intervals) {
    double total = 0.0;
    for (const Interval& interval : merged(std::move(intervals)))
        total += interval.end - interval.begin;
    return total;
}

double covered_by_both_ms(std::vector<Interval> first, std::vector<Interval> second) {
    // Two sorted lists of disjoint intervals: walk them together like a merge.
    const std::vector<Interval> x = merged(std::move(first));
    const std::vector<Interval> y = merged(std::move(second));
    double total = 0.0;
    std::size_t i = 0, j = 0;
    while (i < x.size() && j < y.size()) {
        const double begin = std::max(x[i].begin, y[j].begin);
        const double end = std::min(x[i].end, y[j].end);
        if (end > begin)
            total += end - begin;
        if (x[i].end < y[j].end) {
            ++i;
        } else {
            ++j;
        }
    }
    return total;
}

}  // namespace step09
