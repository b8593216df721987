/// \file
/// \brief Step 03's entry point: the kernel of tiling.hpp with both barriers, on 2 x 2 tiles.
#include "tiled_gemm.hpp"

#include <stdexcept>

#include "common/index_limits.hpp"
#include "tiling.hpp"

namespace step03 {

template <typename T>
void gemm(const T* a, const T* b, T* c, int m, int n, int k, hipStream_t stream) {
    if (m < 0 || n < 0 || k < 0) {
        throw std::invalid_argument("step03::gemm: negative size");
    }
    tutorial::check_32bit_indexing("step03::gemm", m, n, k);
    tutorial::check_grid_y("step03::gemm", "m", m, kTile);
    if (m == 0 || n == 0) {
        return;  // an empty C: nothing to launch, and a grid of zero blocks is not a valid launch
    }
    launch_over_tiles<T, kTile>(a, b, c, m, n, k, stream);
}

// The two element types the tutorial uses: int for the worked example, float for the rest.
template void gemm<int>(const int*, const int*, int*, int, int, int, hipStream_t);
template void gemm<float>(const float*, const float*, float*, int, int, int, hipStream_t);

}  // namespace step03
