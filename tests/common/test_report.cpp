#include <gtest/gtest.h>

#include <string>

#include "common/report.hpp"

TEST(Report, MedianOfOddAndEvenCounts) {
    const auto odd = tutorial::summarize_times({5.0, 1.0, 3.0});
    EXPECT_DOUBLE_EQ(odd.median_ms, 3.0);
    EXPECT_DOUBLE_EQ(odd.min_ms, 1.0);
    EXPECT_EQ(odd.repetitions, 3);
    const auto even = tutorial::summarize_times({4.0, 1.0, 10.0, 2.0});
    EXPECT_DOUBLE_EQ(even.median_ms, 3.0);
    EXPECT_DOUBLE_EQ(even.min_ms, 1.0);
    EXPECT_THROW(tutorial::summarize_times({}), std::invalid_argument);
}

TEST(Report, GflopsCountsTwoOperationsPerTerm) {
    // 2 * 1000^3 operations in one second are 2 GFLOPS.
    EXPECT_DOUBLE_EQ(tutorial::gflops(1000, 1000, 1000, 1000.0), 2.0);
    EXPECT_DOUBLE_EQ(tutorial::gflops(10, 20, 30, 0.012), 2.0 * 10 * 20 * 30 / 0.012e-3 / 1e9);
}

TEST(Report, HostTimerRunsWarmupAndRepetitions) {
    int calls = 0;
    const auto summary = tutorial::time_on_host(2, 5, [&] { ++calls; });
    EXPECT_EQ(calls, 7);
    EXPECT_EQ(summary.repetitions, 5);
    EXPECT_LE(summary.min_ms, summary.median_ms);
}

TEST(Report, ResultLineIsOneLineOfJsonWithEveryField) {
    // In the order of RunReport's fields: step, variant, device, m, n, k, kernel, end to end,
    // verification.
    const tutorial::RunReport report{
        "04", "tiled16", "GPU \"quoted\"", 100, 200, 300, tutorial::TimingSummary{2.0, 1.5, 10},
        4.0,  "passed"};
    const std::string line = tutorial::result_line(report);
    EXPECT_EQ(line.rfind("RESULT {", 0), 0u);
    EXPECT_EQ(line.back(), '}');
    EXPECT_EQ(line.find('\n'), std::string::npos);
    for (const char* field :
         {"\"step\": \"04\"", "\"variant\": \"tiled16\"", "\"device\": \"GPU \\\"quoted\\\"\"",
          "\"m\": 100", "\"n\": 200", "\"k\": 300", "\"kernel_median_ms\": 2",
          "\"kernel_min_ms\": 1.5", "\"repetitions\": 10", "\"kernel_gflops\": 6",
          "\"end_to_end_ms\": 4", "\"end_to_end_gflops\": 3", "\"verification\": \"passed\""}) {
        EXPECT_NE(line.find(field), std::string::npos) << field << " missing from " << line;
    }
}
