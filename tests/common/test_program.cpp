#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <new>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/errors.hpp"
#include "common/program.hpp"

namespace {

int run(std::vector<std::string> arguments,
        const std::function<int(const tutorial::Options&)>& body) {
    tutorial::StepDescription step;
    step.program = "test_program";
    step.summary = "exit code test";
    arguments.insert(arguments.begin(), "test_program");
    std::vector<char*> argv;
    for (auto& argument : arguments)
        argv.push_back(argument.data());
    return tutorial::run_step(static_cast<int>(argv.size()), argv.data(), step, body);
}

// Runs the step and expects exit code `exit_code` and `message` in what it wrote to standard error.
void expect_exit_with_message(std::vector<std::string> arguments,
                              const std::function<int(const tutorial::Options&)>& body,
                              int exit_code, const std::string& message) {
    testing::internal::CaptureStderr();
    EXPECT_EQ(run(std::move(arguments), body), exit_code) << message;
    const std::string written = testing::internal::GetCapturedStderr();
    EXPECT_NE(written.find(message), std::string::npos) << written;
}

// A step body that throws `error`.
template <class Error>
std::function<int(const tutorial::Options&)> throwing(Error error) {
    return [error](const tutorial::Options&) -> int { throw error; };
}

// The body of the runs that must stop before the step's work.
const std::function<int(const tutorial::Options&)> must_not_run =
    throwing(std::logic_error("must not run"));

}  // namespace

TEST(RunStep, ExitCodes) {
    bool ran = false;
    EXPECT_EQ(run({},
                  [&](const tutorial::Options&) {
                      ran = true;
                      return tutorial::kExitVerified;
                  }),
              0);
    EXPECT_TRUE(ran);
    EXPECT_EQ(run({}, [](const tutorial::Options&) { return tutorial::kExitVerificationFailed; }),
              1);

    expect_exit_with_message({"-m", "0"}, must_not_run, 2, "-m: 0");
    expect_exit_with_message({}, throwing(tutorial::UsageError("--device: no device 7")), 2,
                             "no device 7");
    expect_exit_with_message({}, throwing(tutorial::RuntimeFailure("no HIP device was found")), 3,
                             "no HIP device was found");
    expect_exit_with_message({}, throwing(std::bad_alloc()), 3, "out of host memory");
}

TEST(RunStep, HelpPrintsAndReturnsZeroWithoutRunning) {
    testing::internal::CaptureStdout();
    EXPECT_EQ(run({"--help"}, must_not_run), 0);
    EXPECT_NE(testing::internal::GetCapturedStdout().find("Usage:"), std::string::npos);
}

TEST(PrintMatrix, SmallValuesKeepTheUsualColumns) {
    std::ostringstream out;
    tutorial::print_matrix(out, tutorial::Matrix<int>{{34, 44}, {82, 108}});
    EXPECT_EQ(out.str(), "  34   44\n  82  108\n");
}

TEST(PrintMatrix, WideValuesNeverRunTogether) {
    std::ostringstream out;
    tutorial::print_matrix(out, tutorial::Matrix<int>{{32, 528}, {528, 11440}});
    EXPECT_EQ(out.str(), "   32   528\n  528 11440\n");
}

namespace {

// A 2 x 2 product that is right, and the same with one element wrong.
struct SmallProduct {
    tutorial::Matrix<float> a{{1, 2}, {3, 4}};
    tutorial::Matrix<float> b{{5, 6}, {7, 8}};
    tutorial::Matrix<float> c{{19, 22}, {43, 50}};
};

tutorial::RunReport timed_report() {
    tutorial::RunReport report;
    report.step = "99";
    report.variant = "test";
    report.device = "CPU";
    report.m = report.n = report.k = 2;
    report.kernel = tutorial::summarize_times({2.0, 1.0, 3.0});
    return report;
}

// What report_general_multiply prints for `options`, and its exit code.
std::pair<std::string, int> general_tail(const tutorial::Options& options,
                                         const tutorial::Matrix<float>& c,
                                         const std::function<void(std::ostream&)>& extra = {}) {
    const SmallProduct product;
    testing::internal::CaptureStdout();
    const int exit_code =
        tutorial::report_general_multiply(options, timed_report(), product.a, product.b, c, extra);
    return {testing::internal::GetCapturedStdout(), exit_code};
}

}  // namespace

TEST(GeneralMultiplyTail, VerifiesThenPrintsExtraLinesReportAndResultInThatOrder) {
    const SmallProduct product;
    tutorial::Options options;
    const auto [out, exit_code] = general_tail(
        options, product.c, [](std::ostream& extra) { extra << "a line of the step\n"; });
    EXPECT_EQ(exit_code, tutorial::kExitVerified);
    const std::size_t verified = out.find("verification passed: 4 elements");
    const std::size_t extra = out.find("a line of the step\n");
    const std::size_t timing = out.find("multiply: median 2.0000 ms, min 1.0000 ms over 3 runs");
    const std::size_t result = out.find("RESULT {\"step\": \"99\"");
    EXPECT_EQ(verified, 0u) << out;
    EXPECT_LT(verified, extra) << out;
    EXPECT_LT(extra, timing) << out;
    EXPECT_LT(timing, result) << out;
    EXPECT_NE(out.find("\"verification\": \"passed\"}\n"), std::string::npos) << out;
}

TEST(GeneralMultiplyTail, AboveTheReferencesWorkFreivaldsChecksAllOfC) {
    // 700 x 800 x 600 is 3.36e8 multiply-adds, more than the reference is given: all of C is
    // checked by Freivalds' check, and the summary says so. Small integers keep C exact in float.
    tutorial::Matrix<float> a(700, 600), b(600, 800);
    tutorial::fill_random(a, 3, -4.0f, 4.0f);
    tutorial::fill_random(b, 4, -4.0f, 4.0f);
    for (auto* m : {&a, &b})
        for (std::size_t i = 0; i < m->size(); ++i)
            m->data()[i] = std::round(m->data()[i]);
    tutorial::Matrix<float> c(700, 800);
    for (int i = 0; i < 700; ++i)
        for (int p = 0; p < 600; ++p)
            for (int j = 0; j < 800; ++j)
                c(i, j) += a(i, p) * b(p, j);
    const auto run = [&] {
        testing::internal::CaptureStdout();
        const int exit_code =
            tutorial::report_general_multiply(tutorial::Options{}, timed_report(), a, b, c);
        return std::make_pair(testing::internal::GetCapturedStdout(), exit_code);
    };
    const auto [out, exit_code] = run();
    EXPECT_EQ(exit_code, tutorial::kExitVerified);
    EXPECT_EQ(out.find("verification passed: Freivalds' check, 20 trials"), 0u) << out;
    EXPECT_NE(out.find("all 700 rows equal"), std::string::npos) << out;  // floats holding integers
    c(699, 0) += 1.0f;
    const auto [wrong, wrong_exit] = run();
    EXPECT_EQ(wrong_exit, tutorial::kExitVerificationFailed);
    EXPECT_EQ(wrong.find("verification FAILED: Freivalds' check"), 0u) << wrong;
    EXPECT_NE(wrong.find("worst row 699"), std::string::npos) << wrong;
}

TEST(GeneralMultiplyTail, AWrongProductFailsInTheSummaryTheResultAndTheExitCode) {
    SmallProduct product;
    product.c(1, 0) = 42;
    const auto [out, exit_code] = general_tail(tutorial::Options{}, product.c);
    EXPECT_EQ(exit_code, tutorial::kExitVerificationFailed);
    EXPECT_EQ(out.find("verification FAILED"), 0u) << out;
    EXPECT_NE(out.find("\"verification\": \"FAILED\"}\n"), std::string::npos) << out;
}

TEST(GeneralMultiplyTail, QuietPrintsTheResultLineAlone) {
    SmallProduct product;
    product.c(0, 1) = -1;
    tutorial::Options options;
    options.quiet = true;
    bool extra_called = false;
    const auto [out, exit_code] =
        general_tail(options, product.c, [&](std::ostream&) { extra_called = true; });
    EXPECT_EQ(exit_code, tutorial::kExitVerificationFailed) << "quiet still verifies";
    EXPECT_FALSE(extra_called);
    EXPECT_EQ(out.rfind("RESULT {", 0), 0u) << out;
    EXPECT_EQ(out.find('\n'), out.size() - 1) << "one line: " << out;
}

TEST(GeneralMultiplyTail, NoVerifyReportsSkippedAndNeverFails) {
    SmallProduct product;
    product.c(1, 1) = 0;
    tutorial::Options options;
    options.verify = false;
    const auto [out, exit_code] = general_tail(options, product.c);
    EXPECT_EQ(exit_code, tutorial::kExitVerified);
    EXPECT_EQ(out.find("verification passed"), std::string::npos) << out;
    EXPECT_EQ(out.find("verification FAILED"), std::string::npos) << out;
    EXPECT_NE(out.find("\"verification\": \"skipped\"}\n"), std::string::npos) << out;
}
