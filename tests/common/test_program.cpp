#include <gtest/gtest.h>

#include <new>
#include <sstream>
#include <string>
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

    testing::internal::CaptureStderr();
    EXPECT_EQ(run({"-m", "0"},
                  [](const tutorial::Options&) -> int { throw std::logic_error("must not run"); }),
              2);
    EXPECT_NE(testing::internal::GetCapturedStderr().find("-m: 0"), std::string::npos);

    testing::internal::CaptureStderr();
    EXPECT_EQ(run({},
                  [](const tutorial::Options&) -> int {
                      throw tutorial::UsageError("--device: no device 7");
                  }),
              2);
    EXPECT_NE(testing::internal::GetCapturedStderr().find("no device 7"), std::string::npos);

    testing::internal::CaptureStderr();
    EXPECT_EQ(run({},
                  [](const tutorial::Options&) -> int {
                      throw tutorial::RuntimeFailure("no HIP device was found");
                  }),
              3);
    EXPECT_NE(testing::internal::GetCapturedStderr().find("no HIP device was found"),
              std::string::npos);

    testing::internal::CaptureStderr();
    EXPECT_EQ(run({}, [](const tutorial::Options&) -> int { throw std::bad_alloc(); }), 3);
    EXPECT_NE(testing::internal::GetCapturedStderr().find("out of host memory"), std::string::npos);
}

TEST(RunStep, HelpPrintsAndReturnsZeroWithoutRunning) {
    testing::internal::CaptureStdout();
    EXPECT_EQ(run({"--help"},
                  [](const tutorial::Options&) -> int { throw std::logic_error("must not run"); }),
              0);
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
