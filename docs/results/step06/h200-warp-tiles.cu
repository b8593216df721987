// Written to time step 06's main loop with other warp and thread tiles against cuBLAS on the H200;
// not part of the tutorial and not built by it (h200-warp-tiles.txt beside this file has its runs).
//
// Build from the repository's root, one translation unit per variant so that each can take its own
// ptxas options (run 2), every variant a distinct instantiation (its tag):
//   F="-O3 -std=c++17 -arch=sm_90 -Icommon/hip_on_cuda -I. -Isteps/06_warp_tiles -I."
//   nvcc $F -DVARIANT=1 -DTAG=1 -DNAME=v1 -c h200-warp-tiles.cu -o v1.o   (and so on; run 2 built
//        VARIANT=0 again under other names and tags, with -Xptxas ... as the log says)
//   nvcc $F -DVARIANT_MAIN -c h200-warp-tiles.cu -o main.o   (variants.inc: extern const Variant
//        v0, v1, ...; static const Variant* const kVariants[] = {&v0, &v1, ...};)
//   nvcc -arch=sm_90 *.o -lcublas -o warp_tiles && ./warp_tiles 4096x4096x4096 8192x8192x8192 ...
#include <cublas_v2.h>
#include <hip/hip_runtime.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "main_loop.hpp"
#include "tile_store.hpp"
#include "tiling.hpp"

using Launcher = void (*)(const float*, const float*, float*, int, int, int, hipStream_t);
struct Variant {
    const char* name;
    Launcher launch;
};

// Step 06's kernel, with a tag that keeps each translation unit's instantiation its own.
template <class Tiling, int kTag>
__global__ void __launch_bounds__(Tiling::kThreads, Tiling::kMinBlocks)
    variant_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                   int m, int n, int k) {
    HIP_DYNAMIC_SHARED(float4, shared_memory)
    auto* tiles = reinterpret_cast<step06::SliceTiles<Tiling>*>(shared_memory);
    step06::multiply_block_tile<Tiling, step06::Float4::all>(
        a, b, c, m, n, k, blockIdx.y * Tiling::kBlockRows, blockIdx.x * Tiling::kBlockCols, 0, k,
        tiles);
}

template <class Tiling, int kTag>
void variant_launch(const float* a, const float* b, float* c, int m, int n, int k,
                    hipStream_t stream) {
    step06::allow_shared_memory<Tiling>(variant_kernel<Tiling, kTag>);
    const dim3 blocks((n + Tiling::kBlockCols - 1) / Tiling::kBlockCols,
                      (m + Tiling::kBlockRows - 1) / Tiling::kBlockRows);
    hipLaunchKernelGGL((variant_kernel<Tiling, kTag>), blocks, dim3(Tiling::kThreads),
                       step06::shared_bytes<Tiling>(), stream, a, b, c, m, n, k);
}

// The tilings of the log, by number: WarpTiling<block rows, block cols, slice, warp rows, warp
// cols, thread rows, thread cols, min blocks[, pad]>.
template <int kVariant>
struct TilingOf;
#define TILING(number, ...)                           \
    template <>                                       \
    struct TilingOf<number> {                         \
        using type = step06::WarpTiling<__VA_ARGS__>; \
    };
TILING(0, 128, 256, 16, 32, 128, 8, 16, 1)
TILING(1, 128, 256, 16, 64, 64, 8, 16, 1)
TILING(2, 128, 256, 16, 64, 64, 16, 8, 1)
TILING(3, 256, 128, 16, 64, 64, 8, 16, 1)
TILING(4, 128, 128, 16, 32, 64, 8, 8, 2)
TILING(5, 128, 256, 16, 32, 64, 8, 8, 1)
TILING(6, 128, 256, 8, 64, 64, 8, 16, 1)
TILING(7, 128, 128, 16, 64, 64, 8, 16, 2)
TILING(8, 128, 256, 16, 32, 128, 8, 16, 1, 8)
TILING(9, 128, 128, 16, 64, 32, 8, 8, 2)
TILING(10, 256, 128, 16, 64, 64, 16, 8, 1)
TILING(11, 128, 256, 16, 64, 64, 8, 16, 1, 0)
TILING(12, 128, 256, 16, 64, 32, 8, 8, 1)
TILING(13, 256, 128, 16, 32, 64, 8, 8, 1)

#ifdef VARIANT
#define QUOTE_(x) #x
#define QUOTE(x) QUOTE_(x)
extern const Variant NAME;
const Variant NAME{QUOTE(NAME), variant_launch<TilingOf<VARIANT>::type, TAG>};
#endif

#ifdef VARIANT_MAIN
#include "variants.inc"  // extern const Variant v0, v1, ...; then kVariants[] = {&v0, &v1, ...};

#define CK(x)                                                                      \
    do {                                                                           \
        const cudaError_t e_ = (x);                                                \
        if (e_ != cudaSuccess) {                                                   \
            std::printf("CUDA %s at line %d\n", cudaGetErrorString(e_), __LINE__); \
            std::exit(1);                                                          \
        }                                                                          \
    } while (0)

namespace tutorial {
[[noreturn]] void throw_hip_error(hipError_t status, const char* expression, const char* file,
                                  int line) {
    std::printf("HIP error %s: %s at %s:%d\n", hipGetErrorString(status), expression, file, line);
    std::exit(1);
}
}  // namespace tutorial

// Values in [-1, 1) from a hash of the index: different in A and B, the same in every run.
__global__ void fill(float* p, size_t n, unsigned seed) {
    for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n;
         i += size_t{gridDim.x} * blockDim.x) {
        unsigned x = static_cast<unsigned>(i * 2654435761u) ^ seed;
        x ^= x >> 13;
        x *= 0x5bd1e995u;
        x ^= x >> 15;
        p[i] = (x & 0xffffff) / 8388608.0f - 1.0f;
    }
}

__global__ void poison(float* p, size_t n) {
    for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n;
         i += size_t{gridDim.x} * blockDim.x)
        p[i] = NAN;
}

// The largest |x - y|, infinite where either is NaN (a C the kernel never wrote).
__global__ void max_difference(const float* x, const float* y, size_t n, float* out) {
    float largest = 0;
    for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n;
         i += size_t{gridDim.x} * blockDim.x) {
        const float d = fabsf(x[i] - y[i]);
        largest = isnan(d) ? INFINITY : fmaxf(largest, d);
        if (isinf(largest))
            break;
    }
    atomicMax(reinterpret_cast<int*>(out), __float_as_int(largest));
}

int main(int argc, char** argv) {
    // TIMED_RUNS=1 for the profiler, which needs no median.
    const int kRepetitions = std::getenv("TIMED_RUNS") ? std::atoi(std::getenv("TIMED_RUNS")) : 10;
    std::vector<std::array<int, 3>> shapes;
    for (int i = 1; i < argc; ++i) {
        int m, n, k;
        if (std::sscanf(argv[i], "%dx%dx%d", &m, &n, &k) == 3)
            shapes.push_back({m, n, k});
    }
    size_t most_a = 0, most_b = 0, most_c = 0;
    for (const auto& s : shapes) {
        most_a = std::max(most_a, size_t(s[0]) * s[2]);
        most_b = std::max(most_b, size_t(s[2]) * s[1]);
        most_c = std::max(most_c, size_t(s[0]) * s[1]);
    }
    float *a, *b, *c, *reference, *difference;
    CK(cudaMalloc(&a, most_a * 4));
    CK(cudaMalloc(&b, most_b * 4));
    CK(cudaMalloc(&c, most_c * 4));
    CK(cudaMalloc(&reference, most_c * 4));
    CK(cudaMalloc(&difference, 4));
    fill<<<1024, 256>>>(a, most_a, 1);
    fill<<<1024, 256>>>(b, most_b, 2);
    cublasHandle_t handle;
    cublasCreate(&handle);
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    const int count = sizeof(kVariants) / sizeof(kVariants[0]);
    for (const auto& s : shapes) {
        const int m = s[0], n = s[1], k = s[2];
        const double flops = 2.0 * m * n * k;
        // Row-major C = A B is column-major C^T = B^T A^T.
        const auto blas = [&](float* out) {
            const float one = 1, zero = 0;
            cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k, &zero, out, n);
        };
        const auto median_ms = [&](auto&& run) {
            for (int i = 0; i < 3; ++i)
                run();
            std::vector<float> times;
            for (int i = 0; i < kRepetitions; ++i) {
                cudaEventRecord(start);
                run();
                cudaEventRecord(stop);
                cudaEventSynchronize(stop);
                float ms;
                cudaEventElapsedTime(&ms, start, stop);
                times.push_back(ms);
            }
            std::sort(times.begin(), times.end());
            return times[times.size() / 2];
        };
        blas(reference);
        CK(cudaDeviceSynchronize());
        const float blas_before = median_ms([&] { blas(c); });
        std::vector<float> times(count);
        for (int v = 0; v < count; ++v) {
            poison<<<1024, 256>>>(c, size_t(m) * n);
            CK(cudaMemset(difference, 0, 4));
            kVariants[v]->launch(a, b, c, m, n, k, 0);
            CK(cudaGetLastError());
            max_difference<<<1024, 256>>>(c, reference, size_t(m) * n, difference);
            float largest;
            CK(cudaMemcpy(&largest, difference, 4, cudaMemcpyDeviceToHost));
            if (!(largest < 1e-5f * k)) {
                std::printf("%dx%dx%d %s WRONG maxdiff %g\n", m, n, k, kVariants[v]->name, largest);
                times[v] = NAN;
                continue;
            }
            times[v] = median_ms([&] { kVariants[v]->launch(a, b, c, m, n, k, 0); });
        }
        const float blas_after = median_ms([&] { blas(c); });
        const float blas_ms = std::min(blas_before, blas_after);
        std::printf("shape %dx%dx%d cublas %.4f ms (%.4f/%.4f) %.0f GFLOPS\n", m, n, k, blas_ms,
                    blas_before, blas_after, flops / blas_ms / 1e6);
        for (int v = 0; v < count; ++v)
            std::printf("  %-32s %9.4f ms %7.0f GFLOPS  %.3f of cuBLAS\n", kVariants[v]->name,
                        times[v], flops / times[v] / 1e6, blas_ms / times[v]);
        std::fflush(stdout);
    }
}
#endif
