// Tiled-MM on the CUDA route: ETH Zürich / CSCS's GEMM from host memory on one GPU, "almost a
// drop-in replacement for cuBLASXt", the second peer step 09 is measured against.
#include "bench/tiledmm_gemm.hpp"

#include <Tiled-MM/tiled_mm.hpp>

#include <stdexcept>

#include "common/errors.hpp"

namespace bench {

struct TiledMmContext::Handle {
    std::unique_ptr<gpu::mm_handle<float>> context;
};

namespace {

// Tiled-MM reports a failing CUDA or cuBLAS call on stderr and throws std::runtime_error; the
// benchmark's failures are RuntimeFailure (exit 3), with the configuration named.
template <class Call>
void tiledmm_call(const TiledMmContext& context, const char* what, const Call& call) {
    try {
        call();
    } catch (const std::runtime_error& error) {
        throw tutorial::RuntimeFailure("Tiled-MM (tile " + std::to_string(context.tile()) + ", " +
                                       std::to_string(context.streams()) + " streams): " + what +
                                       " failed: " + error.what());
    }
}

}  // namespace

std::optional<std::string> tiledmm_unavailable() {
    return std::nullopt;
}

std::string tiledmm_name() {
    return "Tiled-MM " TUTORIAL_TILED_MM_VERSION " (cuBLAS back end)";
}

TiledMmContext::TiledMmContext(int tile, int streams) : tile_(tile), streams_(streams) {
    if (tile < 1 || tile > kTiledMmMaxTile || streams < 1 || streams > kTiledMmMaxStreams) {
        throw std::invalid_argument("Tiled-MM takes a tile of 1 to " +
                                    std::to_string(kTiledMmMaxTile) + " and 1 to " +
                                    std::to_string(kTiledMmMaxStreams) + " streams, not tile " +
                                    std::to_string(tile) + " with " + std::to_string(streams));
    }
    handle_ = std::make_unique<Handle>();
    tiledmm_call(*this, "making its context",
                 [&] { handle_->context = gpu::make_context<float>(streams, tile, tile, tile); });
}

TiledMmContext::~TiledMmContext() = default;

void tiledmm_sgemm_row_major(TiledMmContext& context, int m, int n, int k, const float* a,
                             const float* b, float* c) {
    if (const auto refused = tiledmm_size_refused(m, n, k))
        throw std::invalid_argument(*refused);
    const float one = 1.0f, zero = 0.0f;
    // Column-major like cuBLAS: C^T = B^T A^T computed column-major is C row-major. Tiled-MM takes
    // A and B as float* but only reads them. The host matrices are page-locked already
    // (pin_host_buffers false: registering them again would fail), and C comes back to the host.
    tiledmm_call(context, "gemm", [&] {
        gpu::gemm(*context.handle_->context, 'N', 'N', n, m, k, one, const_cast<float*>(b), n,
                  const_cast<float*>(a), k, zero, c, n, /*pin_host_buffers=*/false,
                  /*copy_c_back=*/true);
    });
}

}  // namespace bench
