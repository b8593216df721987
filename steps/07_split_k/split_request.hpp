/// \file
/// \brief The command line's say in split-K and stream-K (--splits, --stream-k), shared by the
/// programs of steps 07 and 08.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/command_line.hpp"
#include "k_split.hpp"

namespace step07 {

/// What --splits and --stream-k force; nothing where they say auto.
struct SplitRequest {
    std::optional<int> splits;
    std::optional<int> workers;
};

/// Reads --splits and --stream-k. Throws tutorial::UsageError naming the option for text that is
/// not auto or an allowed number, and for split-K and stream-K forced together.
SplitRequest parse_split_request(const tutorial::Options& options);

/// The options of a program that chooses a configuration: `tile` (--tile), then --splits and
/// --stream-k, whose help says that auto leaves them to `choice` ("the rule's choice"), then
/// `more`, the step's own.
std::vector<tutorial::ExtraOption> split_options(tutorial::ExtraOption tile,
                                                 const std::string& choice,
                                                 std::vector<tutorial::ExtraOption> more = {});

/// Puts what `request` forces into `splits` and `workers`: forcing one of split-K and stream-K
/// turns the other off unless it is forced too.
void apply(const SplitRequest& request, int& splits, int& workers);

/// "; stream-K: 13 whole tiles, then 2 shared by 13 blocks", or nothing without stream-K.
std::string stream_k_summary(const StreamKPlan& plan);

}  // namespace step07
