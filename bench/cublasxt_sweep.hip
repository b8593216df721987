#include "bench/cublasxt_sweep.hpp"

#include <algorithm>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>

#include "bench/cublasxt_sgemm.hpp"
#include "common/byte_size.hpp"
#include "common/command_line.hpp"
#include "common/errors.hpp"

namespace bench::multi_gpu {

std::vector<int> default_block_dims(int n, std::uint64_t device_bytes) {
    std::vector<int> dims{1024, 2048, 4096, 8192, 16384, 32768, (n + 1) / 2, n};
    for (int& dim : dims)
        dim = std::min(dim, n);
    std::sort(dims.begin(), dims.end());
    dims.erase(std::unique(dims.begin(), dims.end()), dims.end());
    auto tiles_fit = [&](int dim) {
        return 10 * static_cast<std::uint64_t>(dim) * static_cast<std::uint64_t>(dim) *
                   sizeof(float) <=
               device_bytes;
    };
    std::vector<int> kept;
    for (const int dim : dims) {
        if (dim >= n / 16 && tiles_fit(dim))
            kept.push_back(dim);
    }
    if (kept.empty()) {
        for (const int dim : dims) {
            if (tiles_fit(dim))
                kept = {dim};
        }
    }
    return kept.empty() ? std::vector<int>{dims.front()} : kept;
}

Measurement measure_cublasxt(const std::vector<int>& devices, int block_dim,
                             const Settings& settings, Inputs& inputs) {
    Measurement result;
    result.what = "cublasxt";
    result.inner = "cuBLASXt";
    result.n = inputs.n;
    result.devices = devices;
    result.block_dim = block_dim;
    FreeMemoryWatch watch(devices);
    std::string why_not;
    const std::unique_ptr<bench::HostBlas> blas = bench::make_cublasxt(devices, why_not);
    if (!blas)
        throw tutorial::RuntimeFailure(why_not);
    blas->set_block_dim(block_dim);
    const int n = inputs.n;
    time_from_host(result, inputs, settings, watch, [&] {
        blas->sgemm(inputs.host_a.get(), inputs.host_b.get(), inputs.host_c.get(), n, n, n);
    });
    return result;
}

void sweep_cublasxt(const std::vector<int>& first, const std::vector<int>& all,
                    const std::vector<int>& block_dims, const Settings& settings, Inputs& inputs,
                    const Record& record) {
    for (const int block_dim : block_dims) {
        record(measure_cublasxt(first, block_dim, settings, inputs));
        if (all.size() > 1)
            record(measure_cublasxt(all, block_dim, settings, inputs));
    }
}

void stream_at_cublasxt_memory(const std::vector<Measurement>& rows, const std::vector<int>& first,
                               const std::vector<int>& devices,
                               const std::vector<step09::InnerKernel>& inners,
                               const Settings& settings, Inputs& inputs, const Record& record) {
    const std::vector<int> all = distinct(devices);
    const int n = settings.n;
    for (const std::vector<int>* on : {&first, &all}) {
        const Measurement* best = fastest(rows, "cublasxt", *on);
        if (best == nullptr || (on == &all && all.size() == 1))
            continue;
        const std::vector<int>& stream_devices = on == &first ? first : devices;
        std::uint64_t most_entries = 0;
        for (const int device : stream_devices) {
            most_entries = std::max<std::uint64_t>(
                most_entries, std::count(stream_devices.begin(), stream_devices.end(), device));
        }
        const std::uint64_t equal = best->memory_used / most_entries;
        step09::Plan plan;
        try {
            plan = step09::plan_for(
                n, n, n, stream_options(kPlanningKernel, stream_devices, settings, equal));
        } catch (const std::invalid_argument& error) {
            std::cout << "the step within " << tutorial::format_bytes(equal)
                      << " per entry (cuBLASXt's memory): not run, " << error.what() << "\n";
            continue;
        }
        const Measurement* streamed =
            find(rows, "stream",
                 step09::inner_kernel_name(inners.empty() ? kPlanningKernel : inners.front()),
                 stream_devices, "option");
        if (streamed && streamed->statistics &&
            streamed->statistics->plan.chunk_rows == plan.chunk_rows &&
            streamed->statistics->plan.panel_cols == plan.panel_cols &&
            streamed->plan_bytes <= best->memory_used) {
            std::cout << "within cuBLASXt's memory on " << tutorial::join(stream_devices, ",")
                      << " (" << tutorial::format_bytes(equal)
                      << " per entry): the plan of the streamed rows above, whose buffers ("
                      << tutorial::format_bytes(streamed->plan_bytes)
                      << ") already fit; not run again\n";
            continue;
        }
        std::cout << "within cuBLASXt's memory on " << tutorial::join(stream_devices, ",") << ": "
                  << step09::describe_plan(plan);
        for (const step09::InnerKernel inner : inners) {
            record(measure_stream(plan, stream_options(inner, stream_devices, settings, equal),
                                  "cublasxt", settings, inputs));
        }
    }
}

}  // namespace bench::multi_gpu
