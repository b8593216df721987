#include "split_request.hpp"

#include "choose_split.hpp"

namespace step07 {

SplitRequest parse_split_request(const tutorial::Options& options) {
    SplitRequest request;
    const std::string& splits = options.extra.at("--splits");
    const std::string& workers = options.extra.at("--stream-k");
    if (splits != "auto") {
        request.splits = tutorial::parse_option(
            "--splits", [&] { return parse_splits(splits); }, " (or auto)");
    }
    if (workers != "auto") {
        request.workers = tutorial::parse_option(
            "--stream-k", [&] { return parse_workers(workers); }, " (or auto)");
    }
    if (request.splits && request.workers) {
        tutorial::parse_option("--splits and --stream-k", [&] {
            check_config({step06::TileShape::t128x256, *request.splits, *request.workers});
            return 0;
        });
    }
    return request;
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
