#include "bench/multi_gpu_json.hpp"

#include <algorithm>
#include <fstream>

#include "bench/results_json.hpp"
#include "common/command_line.hpp"
#include "common/device.hpp"
#include "common/errors.hpp"

namespace bench::multi_gpu {
namespace {

void write_row_json(std::ostream& out, const Measurement& m, int run_n) {
    using bench::json_number;
    using bench::json_text;
    out << "    {\"measurement\": " << json_text(m.what) << ", \"inner\": " << json_text(m.inner)
        << ", \"devices\": [" << tutorial::join(m.devices, ", ") << "]";
    if (m.what == "cublasxt")
        out << ", \"block_dim\": " << m.block_dim;
    if (m.what == "tiledmm" && m.status.empty())
        out << ", \"tile\": " << m.tile << ", \"streams\": " << m.streams;
    if (m.what == "stream")
        out << ", \"budget_from\": " << json_text(m.budget_from);
    if (m.n != run_n)
        out << ", \"n\": " << m.n;
    if (!m.status.empty()) {
        out << ", \"status\": " << json_text(m.status) << ", \"why_not\": " << json_text(m.why_not)
            << ", \"verified\": false}";
        return;
    }
    out << ", \"median_ms\": " << json_number(m.timing.median_ms)
        << ", \"min_ms\": " << json_number(m.timing.min_ms)
        << ", \"repetitions\": " << m.timing.repetitions
        << ", \"gflops\": " << json_number(tutorial::gflops(m.n, m.n, m.n, m.timing.median_ms));
    if (m.what != "resident")
        out << ", \"device_memory_used_bytes\": " << m.memory_used;
    if (m.statistics) {
        const step09::GemmStatistics& statistics = *m.statistics;
        const step09::Plan& plan = statistics.plan;
        const auto [busy, hidden] = overlap(statistics);
        int panel_copies = 0, panels_by_kernel = 0;
        std::uint64_t bytes_in = 0, bytes_from_peers = 0;
        double setup = 0.0, teardown = 0.0, span = 0.0;
        std::vector<int> chunks;
        for (const step09::EntryStatistics& entry : statistics.entries) {
            chunks.push_back(entry.chunks);
            panel_copies += entry.panel_copies;
            panels_by_kernel += entry.panels_by_kernel;
            bytes_in += entry.bytes_to_device;
            bytes_from_peers += entry.bytes_from_peers;
            setup = std::max(setup, entry.setup_ms);
            teardown = std::max(teardown, entry.teardown_ms);
            span = std::max(span, entry.span_ms);
        }
        out << ", \"budget_bytes\": " << plan.budget_bytes << ", \"plan_bytes\": " << m.plan_bytes
            << ", \"chunks\": " << plan.chunks.size() << ", \"panels\": " << plan.panels.size()
            << ", \"chunk_rows\": " << plan.chunk_rows << ", \"panel_cols\": " << plan.panel_cols
            << ", \"kernel_busy_percent\": " << json_number(busy)
            << ", \"copy_hidden_percent\": " << json_number(hidden) << ", \"chunks_per_entry\": ["
            << tutorial::join(chunks, ", ") << "], \"panel_copies\": " << panel_copies
            << ", \"panels_by_kernel\": " << panels_by_kernel
            << ", \"bytes_to_device\": " << bytes_in
            << ", \"panels_shared\": " << (statistics.panels_shared ? "true" : "false")
            << ", \"bytes_from_peers\": " << bytes_from_peers
            << ", \"device_span_ms\": " << json_number(span)
            << ", \"host_setup_ms\": " << json_number(setup)
            << ", \"host_teardown_ms\": " << json_number(teardown);
    }
    out << ", \"verified\": " << (m.verified ? "true" : "false") << "}";
}

}  // namespace

void write_json(const Settings& settings, const RunFacts& facts,
                const std::vector<Measurement>& rows, const std::vector<Ratio>& ratios,
                bool complete) {
    using bench::json_number;
    using bench::json_text;
    std::ofstream out(settings.json_path);
    if (!out)
        throw tutorial::RuntimeFailure("cannot write " + settings.json_path);
    out << "{\n  \"benchmark\": \"multi_gpu\",\n  \"gpus\": [";
    for (std::size_t i = 0; i < facts.gpus.size(); ++i)
        out << (i ? ", " : "") << json_text(facts.gpus[i]);
    out << "],\n  \"driver_version\": " << facts.driver
        << ",\n  \"runtime_version\": " << facts.runtime
        << ",\n  \"platform\": " << json_text(tutorial::gpu_platform())
        << ",\n  \"vendor_blas\": " << json_text(facts.vendor_blas)
        << ",\n  \"host_blas\": " << json_text(facts.host_blas)
        << ",\n  \"tiledmm\": " << json_text(facts.tiledmm)
        << ",\n  \"date\": " << json_text(bench::utc_date())
        << ",\n  \"commit\": " << json_text(settings.commit) << ",\n  \"n\": " << settings.n
        << ",\n  \"devices\": [" << tutorial::join(facts.devices, ", ")
        << "],\n  \"budget_bytes\": " << facts.budget
        << ",\n  \"budget_option\": " << json_text(facts.budget_option)
        << ",\n  \"device_memory_bytes\": " << facts.device_memory_total
        << ",\n  \"host_memory_available_bytes\": " << facts.host_memory_available
        << ",\n  \"panel_copy\": " << json_text(settings.panel_copy)
        << ",\n  \"share_panels\": " << json_text(settings.share_panels)
        << ",\n  \"warmup\": " << settings.warmup
        << ",\n  \"complete\": " << (complete ? "true" : "false") << ",\n  \"results\": [\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
        write_row_json(out, rows[i], settings.n);
        out << (i + 1 < rows.size() ? "," : "") << "\n";
    }
    out << "  ],\n  \"ratios\": [\n";
    for (std::size_t i = 0; i < ratios.size(); ++i) {
        out << "    {\"name\": " << json_text(ratios[i].name)
            << ", \"value\": " << json_number(ratios[i].value) << "}"
            << (i + 1 < ratios.size() ? "," : "") << "\n";
    }
    out << "  ]\n}\n";
}

}  // namespace bench::multi_gpu
