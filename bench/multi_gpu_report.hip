#include "bench/multi_gpu_report.hpp"

#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "bench/cublasxt_sweep.hpp"
#include "common/command_line.hpp"
#include "common/errors.hpp"

namespace bench::multi_gpu {
namespace {

std::string streams_text(int streams) {
    return std::to_string(streams) + (streams == 1 ? " stream" : " streams");
}

std::string what_text(const Measurement& m) {
    if (m.what == "cublasxt")
        return "cuBLASXt, block dim " + std::to_string(m.block_dim);
    if (m.what == "tiledmm" && m.status.empty())
        return "Tiled-MM, tile " + std::to_string(m.tile) + ", " + streams_text(m.streams);
    if (m.what == "tiledmm")
        return "Tiled-MM";
    if (m.what == "stream")
        return "stream " + m.inner + (m.budget_from == "cublasxt" ? ", cuBLASXt's memory" : "");
    return "resident " + m.inner + " n=" + std::to_string(m.n);
}

std::string plan_text(const Measurement& m) {
    if (!m.statistics)
        return "-";
    const step09::Plan& plan = m.statistics->plan;
    return std::to_string(plan.chunks.size()) + "x" + std::to_string(plan.panels.size()) + " (" +
           std::to_string(plan.chunk_rows) + "x" + std::to_string(plan.panel_cols) + ")";
}

std::string mib(std::uint64_t bytes) {
    std::ostringstream text;
    text << std::fixed << std::setprecision(0) << static_cast<double>(bytes) / (1 << 20);
    return text.str();
}

const char* kind_name(step09::Operation::Kind kind) {
    switch (kind) {
        case step09::Operation::Kind::copy_a:
            return "copy_a";
        case step09::Operation::Kind::copy_b:
            return "copy_b";
        case step09::Operation::Kind::kernel:
            return "kernel";
        case step09::Operation::Kind::copy_c:
            return "copy_c";
    }
    return "?";
}

}  // namespace

std::pair<double, double> overlap(const step09::GemmStatistics& statistics) {
    double span = 0, compute = 0, copy = 0, hidden = 0;
    for (const step09::EntryStatistics& entry : statistics.entries) {
        span += entry.span_ms;
        compute += entry.compute_ms;
        copy += entry.copy_ms;
        hidden += entry.hidden_copy_ms;
    }
    return {span > 0 ? 100.0 * compute / span : 0.0, copy > 0 ? 100.0 * hidden / copy : 0.0};
}

void print_header() {
    std::cout << std::left << std::setw(36) << "what" << std::setw(9) << "devices" << std::setw(22)
              << "plan" << std::right << std::setw(11) << "median ms" << std::setw(11) << "min ms"
              << std::setw(5) << "runs" << std::setw(11) << "GFLOPS" << std::setw(10) << "used MiB"
              << std::setw(10) << "plan MiB" << std::setw(9) << "kernels" << std::setw(9)
              << "hidden"
              << "  result\n";
}

void print_row(const Measurement& m) {
    std::cout << std::left << std::setw(36) << what_text(m) << std::setw(9)
              << tutorial::join(m.devices, ",");
    if (!m.status.empty()) {
        std::cout << m.status << ": " << m.why_not << std::endl;
        return;
    }
    std::cout << std::setw(22) << plan_text(m) << std::right << std::fixed << std::setprecision(2)
              << std::setw(11) << m.timing.median_ms << std::setw(11) << m.timing.min_ms
              << std::setw(5) << m.timing.repetitions << std::setprecision(1) << std::setw(11)
              << tutorial::gflops(m.n, m.n, m.n, m.timing.median_ms) << std::setw(10)
              << (m.what == "resident" ? "-" : mib(m.memory_used)) << std::setw(10)
              << (m.statistics ? mib(m.plan_bytes) : "-");
    if (m.statistics) {
        const auto [busy, hidden] = overlap(*m.statistics);
        std::cout << std::setw(8) << busy << "%" << std::setw(8) << hidden << "%";
    } else {
        std::cout << std::setw(9) << "-" << std::setw(9) << "-";
    }
    std::cout << "  " << (m.verified ? "verified" : "FAILED") << std::endl;
}

std::vector<Ratio> ratios_of(const std::vector<Measurement>& rows,
                             const std::vector<step09::InnerKernel>& inners,
                             const std::vector<int>& first, const std::vector<int>& devices) {
    std::vector<Ratio> ratios;
    // "x / y": the throughput of x over that of y (the resident rows may be of another size).
    auto ratio = [&](const std::string& name, const Measurement* x, const Measurement* y) {
        if (x && y) {
            ratios.push_back({name, tutorial::gflops(x->n, x->n, x->n, x->timing.median_ms) /
                                        tutorial::gflops(y->n, y->n, y->n, y->timing.median_ms)});
        }
    };
    const std::vector<int> all = distinct(devices);
    for (const step09::InnerKernel inner : inners) {
        const std::string name = step09::inner_kernel_name(inner);
        const Measurement* one = find(rows, "stream", name, first, "option");
        const Measurement* resident = find(rows, "resident", name, first);
        ratio(
            "stream " + name + " on 1 device / resident " + name +
                (resident && one && resident->n != one->n ? " at n = " + std::to_string(resident->n)
                                                          : ""),
            one, resident);
        for (const std::vector<int>* on : {&first, &all}) {
            if (on == &all && all.size() == 1)
                continue;
            const std::vector<int>& stream_devices = on == &first ? first : devices;
            const std::string where =
                on == &first ? "1 device" : "devices " + tutorial::join(*on, ",");
            const Measurement* best = fastest(rows, "cublasxt", *on);
            if (best == nullptr)
                continue;
            const std::string versus =
                " / best cuBLASXt (block dim " + std::to_string(best->block_dim) + "), " + where;
            ratio("stream " + name + versus, find(rows, "stream", name, stream_devices, "option"),
                  best);
            ratio("stream " + name + " at cuBLASXt's memory" + versus,
                  find(rows, "stream", name, stream_devices, "cublasxt"), best);
        }
        // Tiled-MM is a one-GPU library: the step on one device against it.
        if (const Measurement* best = fastest(rows, "tiledmm", first)) {
            ratio("stream " + name + " / best Tiled-MM (tile " + std::to_string(best->tile) + ", " +
                      streams_text(best->streams) + "), 1 device",
                  one, best);
        }
        if (devices.size() > 1) {
            ratio("stream " + name + " on " + tutorial::join(devices, ",") + " / on 1 device",
                  find(rows, "stream", name, devices, "option"), one);
        }
    }
    return ratios;
}

void write_trace(const std::string& path, const std::vector<Measurement>& rows) {
    std::ofstream out(path);
    if (!out)
        throw tutorial::RuntimeFailure("cannot write " + path);
    out << "inner,budget_from,devices,entry,device,operation,chunk,panel,begin_ms,end_ms\n";
    for (const Measurement& m : rows) {
        if (!m.statistics)
            continue;
        for (const step09::EntryStatistics& entry : m.statistics->entries) {
            for (const step09::Operation& op : entry.operations) {
                out << m.inner << "," << m.budget_from << "," << tutorial::join(m.devices, " ")
                    << "," << entry.entry << "," << entry.device << "," << kind_name(op.kind) << ","
                    << op.chunk << "," << op.panel << "," << op.begin_ms << "," << op.end_ms
                    << "\n";
            }
        }
    }
}

}  // namespace bench::multi_gpu
