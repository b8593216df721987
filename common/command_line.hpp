/// \file
/// \brief The command line shared by every step program.
///
/// Every program takes the same options, in the spirit of the AMD APP SDK sample the tutorial
/// starts from: sizes (C is m x n, A is m x k, B is k x n), a block size where the step has one,
/// iterations, verification (on by default), timing, quiet, the device(s), the random seed and the
/// step's worked example.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/errors.hpp"
#include "common/index_limits.hpp"

namespace tutorial {

/// The largest value accepted for m, n or k. A grid may have at most 65535 blocks along y, so with
/// the smallest tile of the tutorial (2 x 2) one launch covers 131070 rows: 65536 keeps every
/// kernel within one launch.
constexpr long long kMaxDimension = 65536;
/// An option only one step has, such as step 09's --device-memory. Its value reaches the step as
/// text (Options::extra), and the step converts it, throwing UsageError with the option's name.
struct ExtraOption {
    std::string name;           ///< the long option, e.g. "--device-memory"
    std::string help;           ///< one line for --help
    std::string default_value;  ///< the text used when the option is not given
    std::string short_name;     ///< a one-letter alias, e.g. "-b"; empty: none
};

/// What a step tells the command line about itself.
struct StepDescription {
    std::string program;           ///< the executable's name, e.g. "step01_serial_cpu"
    std::string summary;           ///< one line for --help
    std::string worked_example;    ///< what the worked example is, for --help
    int default_size = 512;        ///< m = n = k unless the command line says otherwise
    int default_iterations = 10;   ///< timed repetitions
    std::vector<int> block_sizes;  ///< accepted -b values, first one the default; empty: no -b
    std::string block_help;        ///< what -b means in this step
    bool multi_device = false;     ///< --devices takes a list (step 09) instead of one --device
    std::vector<ExtraOption> extra_options;  ///< options of this step alone
    /// The largest m, n or k the step's library takes: kMaxDimension where the kernels index with
    /// ints (steps 01-05), more from step 06 on.
    long long max_size = kMaxDimension;
    /// Whether each of A, B and C must stay within kMaxMatrixElements (kernels that index with
    /// ints); steps 06 onwards address the matrices in 64 bits and take any number of elements.
    bool int_indexing = true;
    /// Whether the step runs on a device at all: step 01 runs on the CPU and takes no --device.
    bool runs_on_device = true;
};

/// On the CPU route (`GPU_RUNTIME=CPU`) the HIP kernels run on the CPU, hundreds of times slower
/// than on a GPU, so a step's default size and timed repetitions are capped there: every step then
/// finishes in seconds on a two-core machine. Any size can still be asked for on the command line.
constexpr int kCpuRouteMaxDefaultSize = 512;
constexpr int kCpuRouteMaxDefaultIterations = 3;

/// A step's default size (m = n = k) and timed repetitions in one build.
struct RouteDefaults {
    int size = 0;
    int iterations = 0;
};

/// `step`'s defaults on a GPU (`hip_on_cpu` false: the step's own), or on the CPU route (capped at
/// kCpuRouteMaxDefaultSize and kCpuRouteMaxDefaultIterations).
RouteDefaults route_defaults(const StepDescription& step, bool hip_on_cpu);

/// True when this build runs the HIP kernels on the CPU (`GPU_RUNTIME=CPU`).
bool hip_runs_on_cpu();

/// The parsed command line.
struct Options {
    int m = 0;
    int n = 0;
    int k = 0;
    int block = 0;  ///< 0 when the step has no block size
    int iterations = 0;
    int warmup = 0;
    bool verify = true;
    bool timing = true;
    bool quiet = false;
    bool example_only = false;
    std::vector<int> devices;  ///< the device ids; for a multi-device step, empty means all
    std::uint64_t seed = 0;
    std::map<std::string, std::string>
        extra;  ///< the step's own options by name, e.g. extra["--device-memory"]
};

/// --help was asked for; `what()` is the help text.
class HelpRequested : public std::exception {
  public:
    explicit HelpRequested(std::string text) : text_(std::move(text)) {}
    const char* what() const noexcept override { return text_.c_str(); }

  private:
    std::string text_;
};

/// Parses `arguments` (without the program name). Throws UsageError with a message that names the
/// offending option, or HelpRequested.
Options parse_command_line(const StepDescription& step, const std::vector<std::string>& arguments);

/// Reads `text` as a whole number from `low` to `high`, such as the value of -m or of a step's own
/// option. Throws UsageError naming `option`: "'12x' is not a whole number from 1 to 65536" for
/// text that is not a number, "0 is out of range; expected a whole number from 1 to 65536" for a
/// number outside the range (one too large for any integer type included).
long long parse_whole_number(const std::string& option, const std::string& text, long long low,
                             long long high);

/// Reads a comma-separated list of whole numbers from `low` to `high`, such as the device ids of
/// --devices ("0,1,0"). Throws UsageError naming `option` for an empty list, an empty item or an
/// item that is not such a number.
std::vector<int> parse_number_list(const std::string& option, const std::string& text, int low,
                                   int high);

/// `values` joined by `separator`, e.g. "0, 1, 0".
std::string join(const std::vector<int>& values, const std::string& separator = ", ");

/// A list as a sentence says it, for the choices an error message or --help names:
/// "a", "a or b", "a, b or c".
std::string list_in_words(const std::vector<std::string>& items);

/// The value of a step's own option: `parse()` converts its text, and a std::invalid_argument it
/// throws becomes a UsageError that names the option, "--tile: 'x' is not ...", with `also`
/// after the message (for instance " (or auto)" where the option also takes auto).
template <class Parse>
auto parse_option(const std::string& option, Parse parse, const std::string& also = "") {
    try {
        return parse();
    } catch (const std::invalid_argument& error) {
        throw UsageError(option + ": " + error.what() + also);
    }
}

/// The value of a step's own option `option` that may say "auto": nothing for auto, otherwise
/// `parse(text)` through parse_option(), so bad text is a UsageError naming the option, with
/// " (or auto)" after the accepted values.
template <class Parse>
auto parse_unless_auto(const Options& options, const std::string& option, Parse parse)
    -> std::optional<decltype(parse(std::string()))> {
    const std::string& text = options.extra.at(option);
    if (text == "auto")
        return std::nullopt;
    return parse_option(
        option, [&] { return parse(text); }, " (or auto)");
}

/// The help text, exactly as `--help` prints it.
std::string help_text(const StepDescription& step);

}  // namespace tutorial
