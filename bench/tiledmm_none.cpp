// Builds without Tiled-MM (every route but CUDA; on CUDA, TUTORIAL_TILED_MM off or Tiled-MM not
// found) still run the multi-GPU benchmark: its Tiled-MM rows say "not built", and why.
#include "bench/tiledmm_gemm.hpp"

#include "common/errors.hpp"

namespace bench {

struct TiledMmContext::Handle {};

std::optional<std::string> tiledmm_unavailable() {
    return std::string(TUTORIAL_TILED_MM_WHY_NOT);
}

std::string tiledmm_name() {
    return "Tiled-MM not built: " + *tiledmm_unavailable();
}

TiledMmContext::TiledMmContext(int tile, int streams) : tile_(tile), streams_(streams) {
    throw tutorial::RuntimeFailure(tiledmm_name());
}

TiledMmContext::~TiledMmContext() = default;

void tiledmm_sgemm_row_major(TiledMmContext&, int, int, int, const float*, const float*, float*) {
    throw tutorial::RuntimeFailure(tiledmm_name());
}

}  // namespace bench
