#include "serial_gemm.hpp"

namespace step01 {

// The two element types the tutorial uses: int for the worked example, float for the rest.
template void gemm<int>(const int*, const int*, int*, int, int, int);
template void gemm<float>(const float*, const float*, float*, int, int, int);

}  // namespace step01
