/// \file
/// \brief How much of a device's time its copies and kernels covered, and how much of the copy
/// time was hidden behind kernels: interval arithmetic on event times. Pure host code, no HIP.
#pragma once

#include <vector>

namespace step09 {

/// One operation on a device's timeline, in milliseconds from a common start.
struct Interval {
    double begin = 0.0;
    double end = 0.0;
};

/// The length of the union of `intervals`: time during which at least one of them was running.
/// Overlapping intervals (two kernels on two streams) count once.
double covered_ms(std::vector<Interval> intervals);

/// The length of the time during which at least one of `first` and at least one of `second` were
/// running at once: for copies and kernels, the copy time hidden behind computation.
double covered_by_both_ms(std::vector<Interval> first, std::vector<Interval> second);

}  // namespace step09
