#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/command_line.hpp"
#include "common/errors.hpp"

namespace {

tutorial::StepDescription plain_step() {
    tutorial::StepDescription step;
    step.program = "test_step";
    step.summary = "a step without a block size";
    step.worked_example = "the example";
    step.default_size = 96;
    step.default_iterations = 7;
    return step;
}

tutorial::StepDescription tiled_step() {
    tutorial::StepDescription step = plain_step();
    step.block_sizes = {16, 8, 32};
    step.block_help = "tile edge";
    return step;
}

tutorial::StepDescription multi_device_step() {
    tutorial::StepDescription step = plain_step();
    step.multi_device = true;
    return step;
}

// The UsageError message for `arguments`; fails the test when parsing succeeds.
std::string usage_error(const tutorial::StepDescription& step,
                        const std::vector<std::string>& arguments) {
    try {
        tutorial::parse_command_line(step, arguments);
    } catch (const tutorial::UsageError& error) {
        return error.what();
    }
    ADD_FAILURE() << "no UsageError";
    return {};
}

}  // namespace

TEST(CommandLine, Defaults) {
    const tutorial::Options options = tutorial::parse_command_line(plain_step(), {});
    EXPECT_EQ(options.m, 96);
    EXPECT_EQ(options.n, 96);
    EXPECT_EQ(options.k, 96);
    // 7 repetitions are above the CPU route's cap of 3.
    EXPECT_EQ(options.iterations, tutorial::hip_runs_on_cpu() ? 3 : 7);
    EXPECT_EQ(options.warmup, 2);
    EXPECT_EQ(options.block, 0);
    EXPECT_TRUE(options.verify);
    EXPECT_TRUE(options.timing);
    EXPECT_FALSE(options.quiet);
    EXPECT_FALSE(options.example_only);
    EXPECT_EQ(options.devices, std::vector<int>{0});
    EXPECT_EQ(options.seed, 42u);
}

TEST(CommandLine, SizeSetsAllThreeAndEachDimensionOverridesIt) {
    const auto options =
        tutorial::parse_command_line(plain_step(), {"-s", "300", "-n", "17", "-k", "5"});
    EXPECT_EQ(options.m, 300);
    EXPECT_EQ(options.n, 17);
    EXPECT_EQ(options.k, 5);
}

TEST(CommandLine, SwitchesAndValues) {
    const auto options = tutorial::parse_command_line(
        plain_step(), {"--no-verify", "--no-timing", "-q", "-e", "-i", "3", "--warmup", "0", "-d",
                       "2", "--seed", "9"});
    EXPECT_FALSE(options.verify);
    EXPECT_FALSE(options.timing);
    EXPECT_TRUE(options.quiet);
    EXPECT_TRUE(options.example_only);
    EXPECT_EQ(options.iterations, 3);
    EXPECT_EQ(options.warmup, 0);
    EXPECT_EQ(options.devices, std::vector<int>{2});
    EXPECT_EQ(options.seed, 9u);
}

TEST(CommandLine, BadSizesNameTheOption) {
    const auto step = plain_step();
    EXPECT_EQ(usage_error(step, {"-m", "0"}),
              "-m: 0 is out of range; expected a whole number from 1 to 65536");
    EXPECT_NE(usage_error(step, {"-n", "-5"}).find("-n: -5 is out of range"), std::string::npos);
    EXPECT_NE(usage_error(step, {"-k", "abc"}).find("-k: 'abc' is not a whole number"),
              std::string::npos);
    EXPECT_NE(usage_error(step, {"-k", "12x"}).find("-k: '12x' is not"), std::string::npos);
    EXPECT_NE(usage_error(step, {"-k", "1.5"}).find("-k: '1.5' is not"), std::string::npos);
    EXPECT_NE(
        usage_error(step, {"-m", "99999999999999"}).find("-m: 99999999999999 is out of range"),
        std::string::npos);
    EXPECT_NE(usage_error(step, {"-m", "99999999999999999999999999"})
                  .find("-m: 99999999999999999999999999 is out of range"),
              std::string::npos);
    EXPECT_NE(usage_error(step, {"--size", "0"}).find("--size"), std::string::npos);
    EXPECT_NE(usage_error(step, {"-m"}).find("-m"), std::string::npos);
}

TEST(CommandLine, MatricesTooLargeForIntIndexingAreRefused) {
    const std::string message =
        usage_error(plain_step(), {"-m", "65536", "-n", "4", "-k", "65536"});
    EXPECT_NE(message.find("A (m x k) would be 65536 x 65536"), std::string::npos) << message;
    EXPECT_NE(
        usage_error(plain_step(), {"-m", "4", "-n", "65536", "-k", "65536"}).find("B (k x n)"),
        std::string::npos);
    EXPECT_NE(
        usage_error(plain_step(), {"-m", "65536", "-n", "65536", "-k", "4"}).find("C (m x n)"),
        std::string::npos);
    EXPECT_NO_THROW(
        tutorial::parse_command_line(plain_step(), {"-m", "46340", "-n", "46340", "-k", "46340"}));
}

TEST(CommandLine, StepsThatIndexIn64BitsTakeAnyNumberOfElements) {
    // Steps 06 onwards: no cap per matrix, sides up to the step's own largest size.
    tutorial::StepDescription wide = plain_step();
    wide.int_indexing = false;
    wide.max_size = 2147418112;
    const tutorial::Options big =
        tutorial::parse_command_line(wide, {"-m", "70000", "-n", "32768", "-k", "64"});
    EXPECT_EQ(big.m, 70000);
    EXPECT_EQ(big.n, 32768);
    EXPECT_EQ(tutorial::parse_command_line(wide, {"-s", "90000"}).k, 90000);
    EXPECT_EQ(tutorial::parse_command_line(wide, {"-m", "2147418112", "-n", "1", "-k", "1"}).m,
              2147418112);
    EXPECT_NE(usage_error(wide, {"-m", "2147418113"}).find("-m: 2147418113 is out of range"),
              std::string::npos);
    // The same sizes on a step whose kernels index with ints are refused.
    EXPECT_NE(usage_error(plain_step(), {"-s", "90000"}).find("--size"), std::string::npos);
}

TEST(CommandLine, UnknownOptionIsNamed) {
    EXPECT_NE(usage_error(plain_step(), {"--bogus"}).find("--bogus"), std::string::npos);
    EXPECT_NE(usage_error(plain_step(), {"-b", "16"}).find("-b"), std::string::npos)
        << "a step without a block size has no -b";
    // Everything not expected, in the order it was given.
    const std::string extras = usage_error(plain_step(), {"foo", "-m", "3", "bar", "--bogus"});
    EXPECT_NE(extras.find("not expected: foo bar --bogus"), std::string::npos) << extras;
}

TEST(CommandLine, BlockSizeMustBeOneTheStepSupports) {
    EXPECT_EQ(tutorial::parse_command_line(tiled_step(), {}).block, 16);
    EXPECT_EQ(tutorial::parse_command_line(tiled_step(), {"-b", "32"}).block, 32);
    const std::string message = usage_error(tiled_step(), {"--block", "12"});
    EXPECT_NE(message.find("--block: 12 is not supported"), std::string::npos) << message;
    EXPECT_NE(message.find("16, 8, 32"), std::string::npos) << message;
}

// A step's own option (step 09's --chunk-rows, say) is read the way the sizes are.
TEST(CommandLine, WholeNumbersWithinTheirRange) {
    EXPECT_EQ(tutorial::parse_whole_number("--chunk-rows", "0", 0, 65536), 0);
    EXPECT_EQ(tutorial::parse_whole_number("--chunk-rows", "65536", 0, 65536), 65536);
    EXPECT_EQ(tutorial::parse_whole_number("--seed", "4294967295", 0, 4294967295LL), 4294967295LL);
    const auto message = [](const std::string& text) {
        try {
            tutorial::parse_whole_number("--panel-cols", text, 0, 65536);
        } catch (const tutorial::UsageError& error) {
            return std::string(error.what());
        }
        ADD_FAILURE() << "'" << text << "' was accepted";
        return std::string();
    };
    EXPECT_EQ(message("x12"), "--panel-cols: 'x12' is not a whole number from 0 to 65536");
    EXPECT_EQ(message(""), "--panel-cols: '' is not a whole number from 0 to 65536");
    EXPECT_EQ(message("12 "), "--panel-cols: '12 ' is not a whole number from 0 to 65536");
    EXPECT_EQ(message("-1"),
              "--panel-cols: -1 is out of range; expected a whole number from 0 to 65536");
    EXPECT_EQ(message("65537"),
              "--panel-cols: 65537 is out of range; expected a whole number from 0 to 65536");
    EXPECT_EQ(message("99999999999999999999"),
              "--panel-cols: 99999999999999999999 is out of range; expected a whole number from 0 "
              "to 65536");
}

TEST(CommandLine, DeviceLists) {
    EXPECT_TRUE(tutorial::parse_command_line(multi_device_step(), {}).devices.empty())
        << "empty means all";
    EXPECT_EQ(tutorial::parse_command_line(multi_device_step(), {"--devices", "0,1,0"}).devices,
              (std::vector<int>{0, 1, 0}));
    EXPECT_NE(usage_error(multi_device_step(), {"--devices", "0,x"}).find("--devices: 'x'"),
              std::string::npos);
    EXPECT_NE(usage_error(multi_device_step(), {"--devices", "0,"}).find("--devices"),
              std::string::npos);
    EXPECT_NE(usage_error(plain_step(), {"--device", "0,1"}).find("--device: takes one device id"),
              std::string::npos);
}

TEST(CommandLine, CpuRouteCapsTheDefaultSizeAndRepetitions) {
    tutorial::StepDescription step = plain_step();
    step.default_size = 2048;
    step.default_iterations = 10;
    const tutorial::RouteDefaults on_gpu = tutorial::route_defaults(step, false);
    EXPECT_EQ(on_gpu.size, 2048);
    EXPECT_EQ(on_gpu.iterations, 10);
    const tutorial::RouteDefaults on_cpu = tutorial::route_defaults(step, true);
    EXPECT_EQ(on_cpu.size, tutorial::kCpuRouteMaxDefaultSize);
    EXPECT_EQ(on_cpu.iterations, tutorial::kCpuRouteMaxDefaultIterations);
    // Defaults already below the caps are kept.
    step.default_size = 100;
    step.default_iterations = 2;
    EXPECT_EQ(tutorial::route_defaults(step, true).size, 100);
    EXPECT_EQ(tutorial::route_defaults(step, true).iterations, 2);
    // The program follows this build's route, and an explicit size is never capped.
    step.default_size = 2048;
    const tutorial::Options options = tutorial::parse_command_line(step, {});
    EXPECT_EQ(options.m, tutorial::hip_runs_on_cpu() ? 512 : 2048);
    EXPECT_EQ(tutorial::parse_command_line(step, {"-s", "2048"}).k, 2048);
}

TEST(CommandLine, HelpNamesBothDefaultsWhereTheRoutesDiffer) {
    tutorial::StepDescription step = plain_step();
    step.default_size = 2048;
    step.default_iterations = 10;
    const std::string help = tutorial::help_text(step);
    EXPECT_NE(help.find("(default 2048; 512 when HIP runs on the CPU)"), std::string::npos) << help;
    EXPECT_NE(help.find("(default 10; 3 when HIP runs on the CPU)"), std::string::npos) << help;
    // Where they agree, one number.
    EXPECT_NE(tutorial::help_text(plain_step()).find("(default 96)"), std::string::npos);
}

TEST(CommandLine, HelpListsEveryOption) {
    const std::string help = tutorial::help_text(tiled_step());
    for (const char* option : {"-m", "-n", "-k", "--size", "--block", "--iterations", "--warmup",
                               "--no-verify", "--no-timing", "--quiet", "--example-only",
                               "--device", "--seed", "--help", "Exit codes"}) {
        EXPECT_NE(help.find(option), std::string::npos) << option << " missing from:\n" << help;
    }
    EXPECT_THROW(tutorial::parse_command_line(tiled_step(), {"-h"}), tutorial::HelpRequested);
}

TEST(CommandLine, ExtraOptionsOfOneStep) {
    tutorial::StepDescription step = plain_step();
    step.extra_options = {{"--device-memory", "memory each device may use", "all"}};
    EXPECT_EQ(tutorial::parse_command_line(step, {}).extra.at("--device-memory"), "all");
    EXPECT_EQ(
        tutorial::parse_command_line(step, {"--device-memory", "2GiB"}).extra.at("--device-memory"),
        "2GiB");
    EXPECT_NE(tutorial::help_text(step).find("--device-memory TEXT"), std::string::npos)
        << tutorial::help_text(step);
    EXPECT_NE(usage_error(plain_step(), {"--device-memory", "1"}).find("--device-memory"),
              std::string::npos)
        << "a step without the option rejects it";
}

TEST(CommandLine, AnExtraOptionMayHaveAShortName) {
    // Step 10's --block is its own option, and -b, as every step with a block size spells it.
    tutorial::StepDescription step = plain_step();
    step.extra_options = {{"--block", "the block of the layout", "64", "-b"}};
    EXPECT_EQ(tutorial::parse_command_line(step, {"-b", "32"}).extra.at("--block"), "32");
    EXPECT_EQ(tutorial::parse_command_line(step, {"--block", "16"}).extra.at("--block"), "16");
    EXPECT_EQ(tutorial::parse_command_line(step, {}).extra.at("--block"), "64");
    EXPECT_NE(usage_error(step, {"-b", ""}).find("--block: an empty value"), std::string::npos);
    EXPECT_NE(tutorial::help_text(step).find("-b,--block TEXT"), std::string::npos)
        << tutorial::help_text(step);
    EXPECT_NE(usage_error(plain_step(), {"-b", "32"}).find("-b"), std::string::npos)
        << "a step without it rejects -b";
}

TEST(CommandLine, AnEmptyValueIsRefusedNotTakenForTheDefault) {
    tutorial::StepDescription step = tiled_step();
    step.extra_options = {{"--tile", "the block tile", "auto"}};
    for (const char* option : {"-m", "-n", "-k", "-s", "-i", "--warmup", "--seed", "-b", "-d"})
        EXPECT_NE(usage_error(step, {option, ""}).find("''"), std::string::npos) << option;
    EXPECT_NE(usage_error(step, {"--tile", ""}).find("--tile"), std::string::npos);
    EXPECT_NE(usage_error(multi_device_step(), {"-d", ""}).find("--devices"), std::string::npos);
    // Nothing after '=': CLI11 took the next argument as the value ("--seed= -q": "'-q' is not a
    // whole number").
    EXPECT_EQ(usage_error(step, {"--seed=", "-q"}), "--seed: an empty value after '='");
    EXPECT_EQ(usage_error(step, {"--tile=", "-s", "64"}), "--tile: an empty value after '='");
    EXPECT_EQ(usage_error(step, {"-m=", "5"}), "-m: an empty value after '='");
}

TEST(CommandLine, AStepOffTheDeviceTakesNoDevice) {
    tutorial::StepDescription cpu = plain_step();
    cpu.runs_on_device = false;
    EXPECT_EQ(usage_error(cpu, {"-d", "3"}), "The following arguments were not expected: -d 3");
    EXPECT_EQ(tutorial::parse_command_line(cpu, {"-s", "8"}).m, 8);
    EXPECT_EQ(tutorial::parse_command_line(plain_step(), {"-d", "3"}).devices, std::vector<int>{3});
}

TEST(CommandLine, AKTooLongToVerifyInFloatNeedsNoVerify) {
    // K = 2^24 makes K u = 1 in float: the check's bound would be infinite; from K = 5,592,406
    // on, 2 gamma_K >= 1 already lets a C of zeros through.
    tutorial::StepDescription wide = plain_step();
    wide.int_indexing = false;
    wide.max_size = 2147418112;
    const std::string message = usage_error(wide, {"-m", "1", "-n", "1", "-k", "16777216"});
    EXPECT_EQ(message.rfind("-k: 16777216", 0), 0u) << message;
    EXPECT_NE(message.find("--no-verify"), std::string::npos) << message;
    EXPECT_EQ(usage_error(wide, {"-s", "16777216"}).rfind("--size: 16777216", 0), 0u);
    EXPECT_EQ(
        tutorial::parse_command_line(wide, {"-m", "1", "-n", "1", "-k", "16777216", "--no-verify"})
            .k,
        16777216);
    EXPECT_EQ(usage_error(wide, {"-m", "1", "-n", "1", "-k", "5592406"}).rfind("-k: 5592406", 0),
              0u);
    EXPECT_EQ(tutorial::parse_command_line(wide, {"-m", "1", "-n", "1", "-k", "5592405"}).k,
              5592405);
}

TEST(CommandLine, ListInWordsSaysOrBeforeTheLast) {
    EXPECT_EQ(tutorial::list_in_words({}), "");
    EXPECT_EQ(tutorial::list_in_words({"on"}), "on");
    EXPECT_EQ(tutorial::list_in_words({"on", "off"}), "on or off");
    EXPECT_EQ(tutorial::list_in_words({"auto", "on", "off"}), "auto, on or off");
}
