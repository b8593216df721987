#include "split_request.hpp"

#include <string>
#include <utility>

#include "choose_split.hpp"

namespace step07 {

SplitRequest parse_split_request(const tutorial::Options& options) {
    SplitRequest request;
    request.splits = tutorial::parse_unless_auto(options, "--splits", parse_splits);
    request.workers = tutorial::parse_unless_auto(options, "--stream-k", parse_workers);
    if (request.splits && request.workers) {
        tutorial::parse_option("--splits and --stream-k", [&] {
            check_config({step06::TileShape::t128x256, *request.splits, *request.workers});
            return 0;
        });
    }
    return request;
}

std::vector<tutorial::ExtraOption> split_options(tutorial::ExtraOption tile,
                                                 const std::string& choice,
                                                 std::vector<tutorial::ExtraOption> more) {
    std::vector<tutorial::ExtraOption> options{
        std::move(tile),
        {"--splits",
         "ranges K is split into: auto (" + choice + ") or 1 to " + std::to_string(kMaxSplits),
         "auto"},
        {"--stream-k",
         "blocks that share out the last, partial wave of tiles: auto (" + choice +
             "), 0 (no stream-K) or 1 to 1024",
         "auto"}};
    options.insert(options.end(), more.begin(), more.end());
    return options;
}

void apply(const SplitRequest& request, int& splits, int& workers) {
    if (request.splits) {
        splits = *request.splits;
        workers = request.workers.value_or(0);
    }
    if (request.workers) {
        workers = *request.workers;
        splits = request.splits.value_or(1);
    }
}

std::string stream_k_summary(const StreamKPlan& plan) {
    if (plan.workers == 0)
        return "";
    return "; stream-K: " + std::to_string(plan.first_tile) + " whole tiles, then " +
           std::to_string(plan.tiles - plan.first_tile) + " shared by " +
           std::to_string(plan.workers) + " blocks";
}

}  // namespace step07
