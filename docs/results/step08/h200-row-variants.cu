// Written to measure variants of step 08's 4 x 128 tile against cuBLAS on the H200; not part of the
// tutorial and not built by it (docs/results/step08/h200-row-loads.txt has its runs).
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#define CK(x)                                                                              \
    do {                                                                                   \
        cudaError_t e_ = (x);                                                              \
        if (e_ != cudaSuccess) {                                                           \
            std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
            std::exit(1);                                                                  \
        }                                                                                  \
    } while (0)

template <int LANES, int STEPS, int U, int R>
__global__ void __launch_bounds__(LANES* STEPS)
    rowk(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ out, int m,
         int n, int k, int depth, int* counters, float* __restrict__ c) {
    __shared__ float4 sums[STEPS][R][LANES];
    __shared__ int last;
    const int lane = threadIdx.x % LANES;
    const int step = threadIdx.x / LANES;
    const int row = blockIdx.y * R;
    const int col = (blockIdx.x * LANES + lane) * 4;
    const bool colok = col < n;
    const int k_begin = blockIdx.z * depth;
    const int k_end = min(k_begin + depth, k);
    float4 sum[R];
#pragma unroll
    for (int r = 0; r < R; ++r) sum[r] = make_float4(0.f, 0.f, 0.f, 0.f);
    int kk = k_begin + step;
    for (; kk + (U - 1) * STEPS < k_end; kk += U * STEPS) {
        float4 y[U];
#pragma unroll
        for (int u = 0; u < U; ++u)
            y[u] = colok ? __ldg(reinterpret_cast<const float4*>(b + (size_t)(kk + u * STEPS) * n + col))
                         : make_float4(0.f, 0.f, 0.f, 0.f);
        float x[R][U];
#pragma unroll
        for (int r = 0; r < R; ++r)
#pragma unroll
            for (int u = 0; u < U; ++u)
                x[r][u] = row + r < m ? __ldg(a + (size_t)(row + r) * k + kk + u * STEPS) : 0.f;
#pragma unroll
        for (int u = 0; u < U; ++u)
#pragma unroll
            for (int r = 0; r < R; ++r) {
                sum[r].x += x[r][u] * y[u].x;
                sum[r].y += x[r][u] * y[u].y;
                sum[r].z += x[r][u] * y[u].z;
                sum[r].w += x[r][u] * y[u].w;
            }
    }
    for (; kk < k_end; kk += STEPS) {
        const float4 y = colok ? __ldg(reinterpret_cast<const float4*>(b + (size_t)kk * n + col))
                               : make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll
        for (int r = 0; r < R; ++r) {
            const float x = row + r < m ? a[(size_t)(row + r) * k + kk] : 0.f;
            sum[r].x += x * y.x;
            sum[r].y += x * y.y;
            sum[r].z += x * y.z;
            sum[r].w += x * y.w;
        }
    }
    const bool whole = gridDim.z == 1;
    float* partial = whole ? c : out + (size_t)blockIdx.z * m * n;
    if (STEPS == 1) {
#pragma unroll
        for (int r = 0; r < R; ++r)
            if (row + r < m && colok) *reinterpret_cast<float4*>(partial + (size_t)(row + r) * n + col) = sum[r];
    } else {
#pragma unroll
        for (int r = 0; r < R; ++r) sums[step][r][lane] = sum[r];
        __syncthreads();
        for (int r = step; r < R; r += STEPS) {
            float4 t = sums[0][r][lane];
#pragma unroll
            for (int s = 1; s < STEPS; ++s) {
                const float4 o = sums[s][r][lane];
                t.x += o.x; t.y += o.y; t.z += o.z; t.w += o.w;
            }
            if (row + r < m && colok) *reinterpret_cast<float4*>(partial + (size_t)(row + r) * n + col) = t;
        }
    }
    if (whole || counters == nullptr) return;
    // Fused: the last block of this tile to arrive adds the partials, z = 0 first.
    __threadfence();
    __syncthreads();
    const int tile = blockIdx.y * gridDim.x + blockIdx.x;
    if (threadIdx.x == 0) last = atomicAdd(counters + tile, 1) == (int)gridDim.z - 1;
    __syncthreads();
    if (!last) return;
    __threadfence();
    const int outputs = R * LANES;
    const int count = gridDim.z;
    for (int o = threadIdx.x; o < outputs; o += LANES * STEPS) {
        const int r = o / LANES, l = o % LANES;
        const int cc = (blockIdx.x * LANES + l) * 4;
        if (row + r >= m || cc >= n) continue;
        const float* p = out + (size_t)(row + r) * n + cc;
        const size_t stride = (size_t)m * n;
        float4 t = __ldcg(reinterpret_cast<const float4*>(p));
        int z = 1;
        for (; z + 3 < count; z += 4) {
            const float4 q0 = __ldcg(reinterpret_cast<const float4*>(p + z * stride));
            const float4 q1 = __ldcg(reinterpret_cast<const float4*>(p + (z + 1) * stride));
            const float4 q2 = __ldcg(reinterpret_cast<const float4*>(p + (z + 2) * stride));
            const float4 q3 = __ldcg(reinterpret_cast<const float4*>(p + (z + 3) * stride));
            t.x += q0.x; t.y += q0.y; t.z += q0.z; t.w += q0.w;
            t.x += q1.x; t.y += q1.y; t.z += q1.z; t.w += q1.w;
            t.x += q2.x; t.y += q2.y; t.z += q2.z; t.w += q2.w;
            t.x += q3.x; t.y += q3.y; t.z += q3.z; t.w += q3.w;
        }
        for (; z < count; ++z) {
            const float4 q = __ldcg(reinterpret_cast<const float4*>(p + z * stride));
            t.x += q.x; t.y += q.y; t.z += q.z; t.w += q.w;
        }
        *reinterpret_cast<float4*>(c + (size_t)(row + r) * n + cc) = t;
    }
    if (threadIdx.x == 0) counters[tile] = 0;
}

__global__ void reduce(const float* __restrict__ parts, int count, float* __restrict__ c, int total4) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total4) return;
    const float4* p = reinterpret_cast<const float4*>(parts);
    float4 t = p[i];
    for (int z = 1; z < count; ++z) {
        const float4 q = p[(size_t)z * total4 + i];
        t.x += q.x; t.y += q.y; t.z += q.z; t.w += q.w;
    }
    reinterpret_cast<float4*>(c)[i] = t;
}

struct Variant {
    std::string name;
    int lanes, steps, u, r;
    std::function<void(dim3, const float*, const float*, float*, int, int, int, int, int*, float*)> launch;
};

template <int LANES, int STEPS, int U, int R>
Variant make() {
    char buf[64];
    std::snprintf(buf, sizeof buf, "L%d S%d U%d R%d", LANES, STEPS, U, R);
    return {buf, LANES, STEPS, U, R,
            [](dim3 g, const float* a, const float* b, float* out, int m, int n, int k, int depth,
               int* cnt, float* c) { rowk<LANES, STEPS, U, R><<<g, LANES * STEPS>>>(a, b, out, m, n, k, depth, cnt, c); }};
}


// ---- the tutorial's kernel with the batched loads and load4's bounds check on every row of B, and
// the same reading the batch's rows without it (as row_kernel.hip does from commit a8aa363)
template <bool kVectorized>
__device__ inline float4 load4(const float* __restrict__ matrix, int rows, int cols, int row, int col) {
    float4 value = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (row >= rows) return value;
    const float* line = matrix + static_cast<std::size_t>(row) * cols;
    if constexpr (kVectorized) {
        if (col < cols) value = *reinterpret_cast<const float4*>(line + col);
    }
    return value;
}
constexpr int kRowRows = 4, kRowLanes = 32, kRowSteps = 8, kRowLoads = 4, kRowCols = 128;
__device__ inline float a_at(const float* __restrict__ a, int m, int k, int row, int kk) {
    return row < m ? a[static_cast<std::size_t>(row) * k + kk] : 0.0f;
}
__device__ inline void multiply_add(float4 (&sum)[kRowRows], const float (&x)[kRowRows], float4 y) {
#pragma unroll
    for (int r = 0; r < kRowRows; ++r) {
        sum[r].x += x[r] * y.x; sum[r].y += x[r] * y.y; sum[r].z += x[r] * y.z; sum[r].w += x[r] * y.w;
    }
}
template <bool kUnchecked>
__global__ void __launch_bounds__(256)
    tut_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ out,
               int m, int n, int k, int depth, int*, float* __restrict__ c) {
    __shared__ float4 sums[kRowSteps][kRowRows][kRowLanes];
    const int lane = threadIdx.x % kRowLanes;
    const int step = threadIdx.x / kRowLanes;
    const int row = blockIdx.y * kRowRows;
    const int col = blockIdx.x * kRowCols + 4 * lane;
    const int k_begin = blockIdx.z * depth;
    const int k_end = k_begin + depth < k ? k_begin + depth : k;
    float4 sum[kRowRows] = {};
    int kk = k_begin + step;
    for (; kk + (kRowLoads - 1) * kRowSteps < k_end; kk += kRowLoads * kRowSteps) {
        float4 y[kRowLoads];
        float x[kRowLoads][kRowRows];
#pragma unroll
        for (int u = 0; u < kRowLoads; ++u) {
            if (kUnchecked)
                y[u] = load4<true>(b + static_cast<std::size_t>(kk + u * kRowSteps) * n, 1, n, 0, col);
            else
                y[u] = load4<true>(b, k, n, kk + u * kRowSteps, col);
#pragma unroll
            for (int r = 0; r < kRowRows; ++r) x[u][r] = a_at(a, m, k, row + r, kk + u * kRowSteps);
        }
#pragma unroll
        for (int u = 0; u < kRowLoads; ++u) multiply_add(sum, x[u], y[u]);
    }
    for (; kk < k_end; kk += kRowSteps) {
        float x[kRowRows];
#pragma unroll
        for (int r = 0; r < kRowRows; ++r) x[r] = a_at(a, m, k, row + r, kk);
        multiply_add(sum, x, load4<true>(b, k, n, kk, col));
    }
#pragma unroll
    for (int r = 0; r < kRowRows; ++r) sums[step][r][lane] = sum[r];
    __syncthreads();
    if (step >= kRowRows) return;
    float4 total = sums[0][step][lane];
#pragma unroll
    for (int s = 1; s < kRowSteps; ++s) {
        const float4 more = sums[s][step][lane];
        total.x += more.x; total.y += more.y; total.z += more.z; total.w += more.w;
    }
    float* partial = gridDim.z == 1 ? c : out + static_cast<std::size_t>(blockIdx.z) * m * n;
    if (row + step < m && col < n) *reinterpret_cast<float4*>(partial + (size_t)(row + step) * n + col) = total;
}
template <bool kUnchecked>
Variant make_tut() {
    return {kUnchecked ? "tut-unchecked" : "tut", 32, 8, 4, 4,
            [](dim3 g, const float* a, const float* b, float* out, int m, int n, int k, int depth,
               int* cnt, float* c) { if (cnt) return; tut_kernel<kUnchecked><<<g, 256>>>(a, b, out, m, n, k, depth, cnt, c); }};
}

static float median(std::vector<float> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int main(int argc, char** argv) {
    std::vector<Variant> vs = {
        make_tut<false>(), make_tut<true>(),
        make<32, 8, 1, 4>(),  make<32, 8, 4, 4>(),  make<32, 8, 8, 4>(),  make<32, 4, 4, 4>(),
        make<32, 4, 8, 4>(),  make<32, 16, 4, 4>(), make<64, 4, 4, 4>(),  make<64, 4, 8, 4>(),
        make<64, 2, 8, 4>(),  make<64, 8, 4, 4>(),  make<128, 2, 4, 4>(), make<128, 2, 8, 4>(),
        make<128, 1, 8, 4>(), make<128, 4, 4, 4>(), make<256, 1, 8, 4>(), make<256, 2, 4, 4>(),
        make<32, 8, 4, 1>(),  make<32, 8, 8, 1>(),  make<64, 4, 8, 1>(),  make<128, 2, 8, 1>(),
        make<128, 1, 8, 1>(), make<256, 1, 8, 1>(), make<256, 1, 16, 1>(), make<128, 2, 16, 1>(),
        make<32, 16, 8, 1>(), make<64, 8, 8, 1>(),
    };
    std::vector<std::array<int, 3>> shapes;
    for (int i = 1; i < argc; ++i) {
        int m, n, k;
        if (std::sscanf(argv[i], "%dx%dx%d", &m, &n, &k) == 3) shapes.push_back({m, n, k});
    }
    cublasHandle_t h;
    cublasCreate(&h);
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    int* counters;
    CK(cudaMalloc(&counters, 1 << 20));
    CK(cudaMemset(counters, 0, 1 << 20));
    const int counts[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128};
    for (auto [m, n, k] : shapes) {
        std::vector<float> ha((size_t)m * k), hb((size_t)k * n);
        std::mt19937 g(42);
        std::uniform_real_distribution<float> d(-1, 1);
        for (auto& x : ha) x = d(g);
        for (auto& x : hb) x = d(g);
        std::vector<double> ref((size_t)m * n, 0.0);
        for (int i = 0; i < m; ++i)
            for (int p = 0; p < k; ++p) {
                const double x = ha[(size_t)i * k + p];
                const float* br = hb.data() + (size_t)p * n;
                double* rr = ref.data() + (size_t)i * n;
                for (int j = 0; j < n; ++j) rr[j] += x * br[j];
            }
        float *a, *b, *c, *parts;
        CK(cudaMalloc(&a, ha.size() * 4));
        CK(cudaMalloc(&b, hb.size() * 4));
        CK(cudaMalloc(&c, (size_t)m * n * 4));
        CK(cudaMalloc(&parts, (size_t)128 * m * n * 4));
        CK(cudaMemcpy(a, ha.data(), ha.size() * 4, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(b, hb.data(), hb.size() * 4, cudaMemcpyHostToDevice));
        std::vector<float> hc((size_t)m * n);
        auto check = [&](const char* what) {
            CK(cudaMemcpy(hc.data(), c, hc.size() * 4, cudaMemcpyDeviceToHost));
            for (size_t i = 0; i < hc.size(); ++i)
                if (!(std::fabs(hc[i] - ref[i]) <= 1e-6 * k)) {
                    std::printf("  WRONG %s at %zu: %g vs %g\n", what, i, hc[i], ref[i]);
                    return false;
                }
            return true;
        };
        auto time = [&](const std::function<void()>& f) {
            for (int i = 0; i < 3; ++i) f();
            std::vector<float> t;
            for (int i = 0; i < 15; ++i) {
                CK(cudaEventRecord(e0));
                f();
                CK(cudaEventRecord(e1));
                CK(cudaEventSynchronize(e1));
                float ms;
                CK(cudaEventElapsedTime(&ms, e0, e1));
                t.push_back(ms);
            }
            return median(t);
        };
        const float one = 1, zero = 0;
        auto blas = [&] { cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k, &zero, c, n); };
        CK(cudaMemset(c, 0xff, (size_t)m * n * 4));
        blas();
        CK(cudaDeviceSynchronize());
        check("cublas");
        const float tb = time(blas);
        std::printf("== %dx%dx%d cublas %.4f ms (%.2f TB/s of B)\n", m, n, k, tb, (double)n * k * 4 / tb / 1e9);
        struct Res { float t; std::string what; };
        std::vector<Res> res;
        for (const Variant& v : vs) {
            if (v.r == 1 && m != 1) continue;
            if (std::getenv("FOCUS") && v.name.rfind("tut", 0) != 0 && v.name != "L32 S8 U4 R4" && v.name != "L32 S8 U8 R4" && v.name != "L32 S16 U4 R4") continue;
            for (int cnt : counts) {
                int depth = (k + cnt - 1) / cnt;
                depth = (depth + v.steps * v.u - 1) / (v.steps * v.u) * (v.steps * v.u);
                const int real = (k + depth - 1) / depth;
                if (real != cnt) continue;
                dim3 grid((n + 4 * v.lanes - 1) / (4 * v.lanes), (m + v.r - 1) / v.r, real);
                for (int fused = 0; fused < 2; ++fused) {
                    if (real == 1 && fused) continue;
                    if (fused && v.name.rfind("tut", 0) == 0) continue;
                    auto run = [&] {
                        v.launch(grid, a, b, parts, m, n, k, depth, fused ? counters : nullptr, c);
                        if (real > 1 && !fused) {
                            const int total4 = m * n / 4;
                            reduce<<<(total4 + 255) / 256, 256>>>(parts, real, c, total4);
                        }
                    };
                    CK(cudaMemset(c, 0xff, (size_t)m * n * 4));
                    run();
                    CK(cudaDeviceSynchronize());
                    char w[128];
                    std::snprintf(w, sizeof w, "%s split %d %s", v.name.c_str(), real, fused ? "fused" : "separate");
                    if (!check(w)) continue;
                    res.push_back({time(run), w});
                }
            }
        }
        std::sort(res.begin(), res.end(), [](const Res& x, const Res& y) { return x.t < y.t; });
        for (size_t i = 0; i < res.size() && i < 12; ++i)
            std::printf("  %.4f ms  %.3f of cublas  %s\n", res[i].t, tb / res[i].t, res[i].what.c_str());
        for (const Res& r : res)
            if (std::getenv("FOCUS") ? r.what.find("separate") != std::string::npos : (r.what.rfind("L32 S8 U1 R4", 0) == 0 && r.what.find("separate") != std::string::npos))
                std::printf("    base %.4f ms %.3f  %s\n", r.t, tb / r.t, r.what.c_str());
        std::fflush(stdout);
        cudaFree(a); cudaFree(b); cudaFree(c); cudaFree(parts);
    }
}
