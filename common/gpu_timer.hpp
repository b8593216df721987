/// \file
/// \brief Timing GPU work with events: warm-up first, then the median and minimum of repetitions.
#pragma once

#include <hip/hip_runtime.h>

#include <functional>

#include "common/report.hpp"

namespace tutorial {

/// Runs `work` (which enqueues GPU work on `stream`) `warmup` times untimed, then `repetitions`
/// times between two events each, and summarizes the elapsed times. Events measure on the GPU's
/// own clock, so launch overhead on the host does not blur the kernel time.
TimingSummary time_with_events(hipStream_t stream, int warmup, int repetitions,
                               const std::function<void()>& work);

}  // namespace tutorial
