#include "common/command_line.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <sstream>

#include "common/errors.hpp"
#include "common/verify.hpp"

namespace tutorial {

// Sizes are read as text and converted here, so every bad value (zero, negative, not a number,
// too large for the type) gets the same kind of message naming the option.
long long parse_whole_number(const std::string& option, const std::string& text, long long low,
                             long long high) {
    long long value = 0;
    const char* first = text.data();
    const char* last = text.data() + text.size();
    const auto [end, error] = std::from_chars(first, last, value);
    const std::string expected =
        "a whole number from " + std::to_string(low) + " to " + std::to_string(high);
    if (text.empty() || end != last ||
        (error != std::errc() && error != std::errc::result_out_of_range)) {
        throw UsageError(option + ": '" + text + "' is not " + expected);
    }
    if (error == std::errc::result_out_of_range || value < low || value > high) {
        throw UsageError(option + ": " + text + " is out of range; expected " + expected);
    }
    return value;
}

namespace {

void check_matrix_fits(const char* name, long long rows, long long cols) {
    const std::string problem = too_many_elements(name, rows, cols);
    if (!problem.empty())
        throw UsageError(problem);
}

// "1024" on every route, or "1024; 512 when HIP runs on the CPU": --help reads the same on every
// route, so the pages that show it hold everywhere.
std::string default_text(int own, int on_cpu) {
    return std::to_string(own) +
           (own == on_cpu ? "" : "; " + std::to_string(on_cpu) + " when HIP runs on the CPU");
}

struct RawOptions {
    std::string size, m, n, k, block, iterations, warmup, seed, devices;
    std::map<std::string, std::string> extra;
    bool no_verify = false;
    bool no_timing = false;
};

void build_app(CLI::App& app, const StepDescription& step, RawOptions& raw, Options& options) {
    const RouteDefaults on_cpu = route_defaults(step, /*hip_on_cpu=*/true);
    app.description(step.summary);
    app.get_formatter()->column_width(26);
    app.add_option("-m", raw.m, "rows of A and C")->type_name("INT");
    app.add_option("-n", raw.n, "columns of B and C")->type_name("INT");
    app.add_option("-k", raw.k, "columns of A, rows of B (the length of each dot product)")
        ->type_name("INT");
    app.add_option("-s,--size", raw.size,
                   "sets m, n and k at once (default " +
                       default_text(step.default_size, on_cpu.size) + "); -m, -n, -k override it")
        ->type_name("INT");
    if (!step.block_sizes.empty()) {
        app.add_option("-b,--block", raw.block,
                       step.block_help + " (one of " + join(step.block_sizes) + "; default " +
                           std::to_string(step.block_sizes.front()) + ")")
            ->type_name("INT");
    }
    app.add_option("-i,--iterations", raw.iterations,
                   "timed repetitions (default " +
                       default_text(step.default_iterations, on_cpu.iterations) + ")")
        ->type_name("INT");
    app.add_option("--warmup", raw.warmup, "untimed runs before timing (default 2)")
        ->type_name("INT");
    app.add_flag("--no-verify", raw.no_verify,
                 "skip the check of C against the double-precision reference (on by default)");
    app.add_flag("--no-timing", raw.no_timing,
                 "run the multiply once, untimed (timing and GFLOPS are on by default)");
    app.add_flag("-q,--quiet", options.quiet, "print only the RESULT line and errors");
    app.add_flag("-e,--example-only", options.example_only,
                 "run only the worked example: " + step.worked_example);
    if (step.multi_device) {
        app.add_option("-d,--devices", raw.devices,
                       "comma-separated device ids, an id may repeat (default: all devices)")
            ->type_name("LIST");
    } else if (step.runs_on_device) {
        app.add_option("-d,--device", raw.devices, "the device id to run on (default 0)")
            ->type_name("INT");
    }
    for (const ExtraOption& extra : step.extra_options) {
        const std::string names =
            extra.short_name.empty() ? extra.name : extra.short_name + "," + extra.name;
        app.add_option(names, raw.extra[extra.name],
                       extra.help + " (default " + extra.default_value + ")")
            ->type_name("TEXT");
    }
    app.add_option("--seed", raw.seed, "seed of the random inputs (default 42)")->type_name("UINT");
    app.footer(
        "Exit codes: 0 verified, 1 verification failed, 2 bad usage, 3 runtime failure "
        "(no device, out of memory, driver error).");
}

}  // namespace

RouteDefaults route_defaults(const StepDescription& step, bool hip_on_cpu) {
    if (!hip_on_cpu)
        return {step.default_size, step.default_iterations};
    return {std::min(step.default_size, kCpuRouteMaxDefaultSize),
            std::min(step.default_iterations, kCpuRouteMaxDefaultIterations)};
}

bool hip_runs_on_cpu() {
#if defined(TUTORIAL_HIP_ON_CPU)
    return true;
#else
    return false;
#endif
}

Options parse_command_line(const StepDescription& step, const std::vector<std::string>& arguments) {
    CLI::App app{step.summary, step.program};
    RawOptions raw;
    Options options;
    build_app(app, step, raw, options);

    // "--seed=" with nothing after the '=': CLI11 would take the next argument as the value.
    for (const std::string& argument : arguments) {
        if (argument.size() > 2 && argument[0] == '-' && argument.back() == '=' &&
            argument.find('=') == argument.size() - 1) {
            throw UsageError(argument.substr(0, argument.size() - 1) +
                             ": an empty value after '='");
        }
    }
    std::vector<std::string> reversed(arguments.rbegin(), arguments.rend());
    try {
        app.parse(reversed);
    } catch (const CLI::CallForHelp&) {
        throw HelpRequested(app.help());
    } catch (const CLI::ExtrasError&) {
        // CLI11 lists what it did not expect last first; name it in the order it was given.
        std::string extras;
        for (const std::string& argument : app.remaining())
            extras += (extras.empty() ? "" : " ") + argument;
        throw UsageError("The following arguments were not expected: " + extras);
    } catch (const CLI::ParseError& error) {
        throw UsageError(error.what());
    }

    // Whether an option was on the command line, even with an empty value ("-m ''"), which the
    // conversions below then refuse instead of taking the default.
    const auto given = [&](const std::string& name) { return app.count(name) > 0; };
    for (const ExtraOption& extra : step.extra_options) {
        const std::string& value = raw.extra[extra.name];
        if (given(extra.name) && value.empty())
            throw UsageError(extra.name + ": an empty value; expected " + extra.help);
        options.extra[extra.name] = given(extra.name) ? value : extra.default_value;
    }
    options.verify = !raw.no_verify;
    options.timing = !raw.no_timing;
    const RouteDefaults defaults = route_defaults(step, hip_runs_on_cpu());
    const long long size =
        given("--size") ? parse_whole_number("--size", raw.size, 1, step.max_size) : defaults.size;
    auto dimension = [&](const char* option, const std::string& text) {
        return static_cast<int>(given(option) ? parse_whole_number(option, text, 1, step.max_size)
                                              : size);
    };
    options.m = dimension("-m", raw.m);
    options.n = dimension("-n", raw.n);
    options.k = dimension("-k", raw.k);
    if (options.verify && options.k > kLongestCheckableK) {
        throw UsageError(
            std::string(given("-k") ? "-k" : "--size") + ": " + std::to_string(options.k) +
            " is too long a K to verify in float: the rounding bound 2 gamma_K (|A||B|) is then "
            "at least |A||B|, which even a C of zeros meets (at most " +
            std::to_string(kLongestCheckableK) + "); give --no-verify to run it unchecked");
    }
    if (step.int_indexing) {
        check_matrix_fits("A (m x k)", options.m, options.k);
        check_matrix_fits("B (k x n)", options.k, options.n);
        check_matrix_fits("C (m x n)", options.m, options.n);
    }

    if (!step.block_sizes.empty()) {
        options.block = step.block_sizes.front();
        if (given("--block")) {
            options.block = static_cast<int>(parse_whole_number("--block", raw.block, 1, 1024));
            if (std::find(step.block_sizes.begin(), step.block_sizes.end(), options.block) ==
                step.block_sizes.end()) {
                throw UsageError("--block: " + raw.block +
                                 " is not supported by this step; choose one of " +
                                 join(step.block_sizes));
            }
        }
    }
    options.iterations =
        given("--iterations")
            ? static_cast<int>(parse_whole_number("--iterations", raw.iterations, 1, 100000))
            : defaults.iterations;
    options.warmup = given("--warmup")
                         ? static_cast<int>(parse_whole_number("--warmup", raw.warmup, 0, 1000))
                         : 2;
    options.seed =
        given("--seed")
            ? static_cast<std::uint64_t>(parse_whole_number("--seed", raw.seed, 0, 4294967295LL))
            : 42;

    const char* device_option = step.multi_device ? "--devices" : "--device";
    if ((step.runs_on_device || step.multi_device) && given("-d")) {
        options.devices = parse_number_list(device_option, raw.devices, 0, 1023);
        if (!step.multi_device && options.devices.size() != 1) {
            throw UsageError("--device: takes one device id, got '" + raw.devices + "'");
        }
    } else if (!step.multi_device) {
        options.devices = {0};
    }
    return options;
}

std::vector<int> parse_number_list(const std::string& option, const std::string& text, int low,
                                   int high) {
    std::vector<int> values;
    std::stringstream list(text);
    std::string item;
    while (std::getline(list, item, ','))
        values.push_back(static_cast<int>(parse_whole_number(option, item, low, high)));
    if (values.empty() || text.back() == ',')
        throw UsageError(option + ": '" + text + "' is not a list of whole numbers");
    return values;
}

std::string join(const std::vector<int>& values, const std::string& separator) {
    std::string text;
    for (std::size_t i = 0; i < values.size(); ++i)
        text += (i ? separator : "") + std::to_string(values[i]);
    return text;
}

std::string list_in_words(const std::vector<std::string>& items) {
    std::string text;
    for (std::size_t i = 0; i < items.size(); ++i) {
        text += i == 0 ? "" : i + 1 == items.size() ? " or " : ", ";
        text += items[i];
    }
    return text;
}

std::string help_text(const StepDescription& step) {
    try {
        parse_command_line(step, {"--help"});
    } catch (const HelpRequested& help) {
        return help.what();
    }
    return {};
}

}  // namespace tutorial
