#include "bench/multi_gpu_runs.hpp"

#include <cstring>
#include <iomanip>
#include <random>

#include "common/command_line.hpp"
#include "common/device.hpp"
#include "common/gpu_timer.hpp"
#include "common/hip_handles.hpp"
#include "common/matrix.hpp"
#include "common/program.hpp"

namespace bench::multi_gpu {
namespace {

// Runs body(begin, end) over [0, count) in pieces of kPiece elements, the pieces shared out over
// the host's cores: filling or poisoning 32 GB on one core takes minutes.
constexpr std::size_t kPiece = std::size_t{1} << 22;

template <class Body>
void over_pieces(std::size_t count, const Body& body) {
    const std::size_t pieces = (count + kPiece - 1) / kPiece;
    const std::size_t threads =
        std::min<std::size_t>(pieces, std::max(1u, std::thread::hardware_concurrency()));
    std::vector<std::thread> pool;
    for (std::size_t t = 0; t < threads; ++t) {
        pool.emplace_back([&, t] {
            for (std::size_t piece = t; piece < pieces; piece += threads)
                body(piece, piece * kPiece, std::min(count, (piece + 1) * kPiece));
        });
    }
    for (std::thread& thread : pool)
        thread.join();
}

// Values drawn uniformly from [-1, 1], piece by piece, each piece from std::mt19937 seeded with
// the seed and the piece's number.
void fill_random(float* data, std::size_t count, std::uint64_t seed) {
    over_pieces(count, [&](std::size_t piece, std::size_t begin, std::size_t end) {
        std::seed_seq sequence{static_cast<std::uint32_t>(seed),
                               static_cast<std::uint32_t>(seed >> 32),
                               static_cast<std::uint32_t>(piece)};
        std::mt19937 generator(sequence);
        std::uniform_real_distribution<float> distribution(-1.0f, 1.0f);
        for (std::size_t i = begin; i < end; ++i)
            data[i] = distribution(generator);
    });
}

}  // namespace

Inputs::Inputs(int size, std::uint64_t seed)
    : n(size),
      host_a(static_cast<std::size_t>(size) * static_cast<std::size_t>(size)),
      host_b(host_a.size()),
      host_c(host_a.size()) {
    fill_random(host_a.get(), host_a.size(), seed);
    fill_random(host_b.get(), host_b.size(), seed + 1);
}

void Inputs::poison_c() {
    float* c = host_c.get();
    over_pieces(host_c.size(), [c](std::size_t, std::size_t begin, std::size_t end) {
        std::memset(c + begin, 0xFF, (end - begin) * sizeof(float));
    });
}

bool Inputs::verify_c(const std::string& what) const {
    const tutorial::ConstMatrixView<float> a(host_a.get(), n, n), b(host_b.get(), n, n),
        c(host_c.get(), n, n);
    const auto start = std::chrono::steady_clock::now();
    const tutorial::ProductCheck check = tutorial::check_product(a, b, c);
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    std::cout << "  " << what << ": " << check.summary << " (" << std::fixed << std::setprecision(1)
              << seconds.count() << " s)" << std::endl;
    if (!check.passed)
        std::cerr << what << ": " << check.summary << "\n";
    return check.passed;
}

Measurement measure_resident(step09::InnerKernel inner, int device, Inputs& inputs,
                             const Settings& settings) {
    tutorial::select_device(device);
    const int n = inputs.n;
    const step09::InnerMultiply multiply(inner, /*lanes=*/1);
    tutorial::DeviceBuffer<float> a(inputs.host_a.size()), b(inputs.host_b.size()),
        c(inputs.host_c.size());
    HIP_CHECK(hipMemcpy(a.get(), inputs.host_a.get(), a.bytes(), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(b.get(), inputs.host_b.get(), b.bytes(), hipMemcpyHostToDevice));
    const tutorial::Stream stream;
    HIP_CHECK(hipMemsetAsync(c.get(), 0xFF, c.bytes(), stream.get()));
    Measurement result;
    result.what = "resident";
    result.inner = step09::inner_kernel_name(inner);
    result.n = n;
    result.devices = {device};
    result.timing = tutorial::time_with_events(
        stream.get(), settings.warmup, settings.iterations,
        [&] { multiply(0, a.get(), b.get(), c.get(), n, n, n, stream.get()); });
    stream.synchronize();
    HIP_CHECK(hipMemcpy(inputs.host_c.get(), c.get(), c.bytes(), hipMemcpyDeviceToHost));
    result.verified = inputs.verify_c("resident " + result.inner);
    return result;
}

void time_from_host(Measurement& result, Inputs& inputs, const Settings& settings,
                    FreeMemoryWatch& watch, const std::function<void()>& multiply) {
    inputs.poison_c();
    result.timing = tutorial::time_on_host(settings.warmup, settings.iterations, multiply);
    result.memory_used = watch.used();
    result.verified = inputs.verify_c(result.what + " " + result.inner + " on " +
                                      tutorial::join(result.devices, ","));
}

std::vector<int> distinct(std::vector<int> devices) {
    std::sort(devices.begin(), devices.end());
    devices.erase(std::unique(devices.begin(), devices.end()), devices.end());
    return devices;
}

step09::MultiGpuOptions stream_options(step09::InnerKernel inner, const std::vector<int>& devices,
                                       const Settings& settings,
                                       std::optional<std::uint64_t> budget) {
    step09::MultiGpuOptions options;
    options.devices = devices;
    options.device_memory_bytes = budget;
    options.inner = inner;
    options.chunk_rows = settings.chunk_rows;
    options.panel_cols = settings.panel_cols;
    options.host_memory = step09::HostMemory::pinned;
    options.panel_copy = step09::parse_panel_copy(settings.panel_copy);
    options.share_panels = settings.share_panels == "on";
    return options;
}

Measurement measure_stream(const step09::Plan& plan, const step09::MultiGpuOptions& options,
                           const std::string& budget_from, const Settings& settings,
                           Inputs& inputs) {
    const std::vector<int>& devices = options.devices;
    Measurement result;
    result.what = "stream";
    result.inner = step09::inner_kernel_name(options.inner);
    result.n = inputs.n;
    result.devices = devices;
    result.budget_from = budget_from;
    for (const int device : devices) {
        const auto entries = std::count(devices.begin(), devices.end(), device);
        result.plan_bytes = std::max<std::uint64_t>(
            result.plan_bytes, static_cast<std::uint64_t>(entries) * plan.buffers.total_bytes());
    }
    // The step keeps its buffers from one call to the next (step09::Workspace), as a program that
    // multiplies again and again would; cuBLASXt, likewise, is timed with one handle over all its
    // calls. The warm-up allocates the buffers inside the watch, which therefore sees them all,
    // and the timed calls reuse them. They are freed before the next row.
    FreeMemoryWatch watch(distinct(devices));
    step09::Workspace workspace;
    time_from_host(result, inputs, settings, watch, [&] {
        result.statistics = step09::gemm(inputs.host_a.get(), inputs.host_b.get(),
                                         inputs.host_c.get(), plan, options, workspace);
    });
    if (devices.size() > 1)
        std::cout << "  panels of B on " << tutorial::join(devices, ",") << ": "
                  << result.statistics->panel_sharing << std::endl;
    return result;
}

const Measurement* find(const std::vector<Measurement>& rows, const std::string& what,
                        const std::string& inner, const std::vector<int>& devices,
                        const std::string& budget_from) {
    for (const Measurement& m : rows) {
        if (m.what == what && m.inner == inner && m.devices == devices &&
            m.budget_from == budget_from)
            return &m;
    }
    return nullptr;
}

const Measurement* fastest(const std::vector<Measurement>& rows, const std::string& what,
                           const std::vector<int>& devices) {
    const Measurement* best = nullptr;
    for (const Measurement& m : rows) {
        if (m.what == what && m.devices == devices && m.verified &&
            (best == nullptr || m.timing.median_ms < best->timing.median_ms))
            best = &m;
    }
    return best;
}

}  // namespace bench::multi_gpu
