#include "common/gpu_timer.hpp"

#include <vector>

#include "common/hip_check.hpp"
#include "common/hip_handles.hpp"

namespace tutorial {

TimingSummary time_with_events(hipStream_t stream, int warmup, int repetitions,
                               const std::function<void()>& work) {
    for (int i = 0; i < warmup; ++i)
        work();
    HIP_CHECK(hipStreamSynchronize(stream));

    const Event start;
    const Event stop;
    std::vector<double> milliseconds;
    milliseconds.reserve(static_cast<std::size_t>(repetitions));
    for (int i = 0; i < repetitions; ++i) {
        start.record(stream);
        work();
        stop.record(stream);
        stop.synchronize();
        milliseconds.push_back(stop.milliseconds_since(start));
    }
    return summarize_times(std::move(milliseconds));
}

}  // namespace tutorial
