/// \file
/// \brief Tiled-MM (ETH Zürich / CSCS, the GPU back end of COSMA) for step 09's comparison: a GEMM
/// from host memory on one GPU, its tiles pipelined through streams; "not built" where the build
/// lacks it (every route but CUDA, or CUDA with TUTORIAL_TILED_MM off or Tiled-MM not found).
#pragma once

#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <string>

namespace bench {

/// Nothing when this build has Tiled-MM; otherwise why it was not built, e.g. "its cuBLAS back end
/// is built on the CUDA route only".
std::optional<std::string> tiledmm_unavailable();

/// "Tiled-MM 2.3.1 (cuBLAS back end)", or "Tiled-MM not built: " and the reason.
std::string tiledmm_name();

/// The largest tile edge and number of streams a context takes: Tiled-MM addresses its device
/// buffers, of streams x tile^2 elements, with int, and 7 x 16384^2 < 2^31.
constexpr int kTiledMmMaxTile = 16384;
constexpr int kTiledMmMaxStreams = 7;

/// A Tiled-MM context on the current device: its streams, cuBLAS handles and device buffers of
/// `streams` tiles of A, B and C, each at most `tile` x `tile`. Made once and reused for every
/// multiply, as Tiled-MM's README advises: its buffers then stay allocated from call to call.
class TiledMmContext {
  public:
    /// Throws tutorial::RuntimeFailure on a build without Tiled-MM (the message is
    /// tiledmm_unavailable()'s) or when the device refuses it; std::invalid_argument for a tile
    /// or a number of streams out of range.
    TiledMmContext(int tile, int streams);
    ~TiledMmContext();
    TiledMmContext(const TiledMmContext&) = delete;
    TiledMmContext& operator=(const TiledMmContext&) = delete;

    int tile() const { return tile_; }
    int streams() const { return streams_; }

    struct Handle;  ///< Tiled-MM's own context, where the build has it.

  private:
    int tile_;
    int streams_;
    std::unique_ptr<Handle> handle_;

    friend void tiledmm_sgemm_row_major(TiledMmContext& context, int m, int n, int k,
                                        const float* a, const float* b, float* c);
};

/// Whether Tiled-MM can address an m x n x k product: it offsets into each host matrix with int, so
/// none of A, B and C may pass 2^31 - 1 elements. Nothing when it can; otherwise why not.
inline std::optional<std::string> tiledmm_size_refused(int m, int n, int k) {
    const auto elements = [](int rows, int cols) {
        return static_cast<long long>(rows) * static_cast<long long>(cols);
    };
    if (std::max({elements(m, k), elements(k, n), elements(m, n)}) <=
        std::numeric_limits<int>::max())
        return std::nullopt;
    return "Tiled-MM offsets into host matrices with int, and " + std::to_string(m) + " x " +
           std::to_string(n) + " x " + std::to_string(k) + " has a matrix past 2^31 - 1 elements";
}

/// Row-major single-precision C = A·B (A m x k, B k x n, C m x n) with `context`, from host memory
/// to host memory; blocks until C is back. A, B and C must be page-locked (hipHostMalloc, or the
/// benchmark's pinned inputs), so Tiled-MM's own pinning stays off. Throws std::invalid_argument
/// for sizes tiledmm_size_refused() refuses, tutorial::RuntimeFailure when Tiled-MM fails.
void tiledmm_sgemm_row_major(TiledMmContext& context, int m, int n, int k, const float* a,
                             const float* b, float* c);

}  // namespace bench
