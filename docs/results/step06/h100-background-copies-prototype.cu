// Prototype: a 128 x 256 tile with a multistage cp.async main loop (A 4-byte copies transposed into
// shared memory, B 4-byte or 16-byte copies), the K remainder in the first slice, fragments
// double-buffered in registers. Compared with cuBLAS in the same process.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)

__device__ __forceinline__ void cp4(unsigned dst, const float* src, bool valid) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(src), "r"(valid ? 4 : 0));
}
__device__ __forceinline__ void cp16(unsigned dst, const float* src, bool valid) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(valid ? 16 : 0));
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> __device__ __forceinline__ void wait_pending() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }

constexpr int BM = 128, BN = 256, PAD = 4, AST = BM + PAD, THREADS = 256;

template <int BK, int S, bool B16, int SPREAD>
__global__ __launch_bounds__(THREADS, 1) void proto(const float* __restrict__ A, const float* __restrict__ B,
                                                    float* __restrict__ C, int m, int n, int k) {
    constexpr int STAGE = BK * AST + BK * BN;  // floats
    extern __shared__ __align__(16) float smem[];
    const int t = threadIdx.x;
    const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
    const int nslices = (k + BK - 1) / BK;
    const int k0 = k - nslices * BK;  // first slice starts here (<= 0)

    // A: thread t copies column t % BK of rows t / BK + i AR.
    constexpr int AR = THREADS / BK, AN = BM / AR;
    const int a_kk = t % BK;
    const float* a_ptr[AN];
#pragma unroll
    for (int i = 0; i < AN; ++i) {
        const int row = min(block_row + t / BK + i * AR, m - 1);
        a_ptr[i] = A + (size_t)row * k + k0 + a_kk;
    }
    const unsigned s_base = (unsigned)__cvta_generic_to_shared(smem);
    const unsigned a_dst = s_base + 4u * (a_kk * AST + t / BK);
    // B
    constexpr int BR = B16 ? THREADS / (BN / 4) : 1;  // rows per round
    constexpr int BNR = B16 ? BK / BR : BK;             // rounds
    int b_col = B16 ? block_col + 4 * (t % (BN / 4)) : block_col + t;
    b_col = B16 ? min(b_col, n - 4) : min(b_col, n - 1);
    const int b_row0 = B16 ? t / (BN / 4) : 0;
    const float* b_ptr = B + (long long)(k0 + b_row0) * n + b_col;
    const size_t b_round = (size_t)BR * n;
    const unsigned b_dst = s_base + 4u * (BK * AST + b_row0 * BN + (B16 ? 4 * (t % (BN / 4)) : t));

    const auto copy_a = [&](int stage, bool first) {
#pragma unroll
        for (int i = 0; i < AN; ++i) {
            const bool valid = !first || k0 + a_kk >= 0;
            cp4(a_dst + 4u * (stage * STAGE + i * AR), valid ? a_ptr[i] : A, valid);
            a_ptr[i] += BK;
        }
    };
    const auto copy_b = [&](int stage, bool first, int lo, int hi) {
#pragma unroll
        for (int i = lo; i < hi; ++i) {
            const bool valid = !first || k0 + b_row0 + i * BR >= 0;
            const float* p = b_ptr + i * b_round;
            if constexpr (B16) cp16(b_dst + 4u * (stage * STAGE + i * BR * BN), valid ? p : B, valid);
            else cp4(b_dst + 4u * (stage * STAGE + i * BN), valid ? p : B, valid);
        }
    };
    const auto advance_b = [&] { b_ptr += (size_t)BK * n; };

    // prologue
#pragma unroll
    for (int s = 0; s < S - 1; ++s) {
        if (s < nslices) { copy_a(s, s == 0); copy_b(s, s == 0, 0, BNR); advance_b(); }
        commit();
    }
    const int warp = t / 32, lane = t % 32;
    const int row0 = (warp / 2) * 32 + 4 * (lane / 8);
    const int col0 = (warp % 2) * 128 + 4 * (lane % 8);
    float acc[8][16];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 16; ++j) acc[i][j] = 0.f;
    float fa[2][8], fb[2][16];
    const auto load_frag = [&](int stage, int kk, float (&a)[8], float (&b)[16]) {
        const float* as = smem + stage * STAGE + kk * AST + row0;
        const float* bs = smem + stage * STAGE + BK * AST + kk * BN + col0;
#pragma unroll
        for (int p = 0; p < 2; ++p) {
            const float4 v = *reinterpret_cast<const float4*>(as + 16 * p);
            a[4 * p] = v.x; a[4 * p + 1] = v.y; a[4 * p + 2] = v.z; a[4 * p + 3] = v.w;
        }
#pragma unroll
        for (int p = 0; p < 4; ++p) {
            const float4 v = *reinterpret_cast<const float4*>(bs + 32 * p);
            b[4 * p] = v.x; b[4 * p + 1] = v.y; b[4 * p + 2] = v.z; b[4 * p + 3] = v.w;
        }
    };
    wait_pending<S - 2>();
    __syncthreads();
    load_frag(0, 0, fa[0], fb[0]);
    int read_stage = 0, write_stage = S - 1;
    for (int it = 0; it < nslices; ++it) {
        const bool more = it + S - 1 < nslices;
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            if (kk == BK - 1) {
                wait_pending<S - 2>();
                __syncthreads();
                read_stage = read_stage + 1 == S ? 0 : read_stage + 1;
            }
            load_frag(read_stage, (kk + 1) % BK, fa[(kk + 1) % 2], fb[(kk + 1) % 2]);
            if (SPREAD == 0) {
                if (kk == 0) {
                    if (more) { copy_a(write_stage, false); copy_b(write_stage, false, 0, BNR); advance_b(); }
                    commit();
                    write_stage = write_stage + 1 == S ? 0 : write_stage + 1;
                }
            } else {
                // A at kk 0, B's rounds spread over the next kk, the group committed at BK - 2
                if (kk == 0 && more) copy_a(write_stage, false);
                constexpr int per = (BNR + BK - 3) / (BK - 2);
                if (kk >= 1 && kk <= BK - 2 && more) {
                    const int lo = (kk - 1) * per;
                    if (lo < BNR) copy_b(write_stage, false, lo, min(lo + per, BNR));
                }
                if (kk == BK - 2) {
                    if (more) advance_b();
                    commit();
                    write_stage = write_stage + 1 == S ? 0 : write_stage + 1;
                }
            }
#pragma unroll
            for (int i = 0; i < 8; ++i)
#pragma unroll
                for (int j = 0; j < 16; ++j) acc[i][j] += fa[kk % 2][i] * fb[kk % 2][j];
        }
    }
    // epilogue
    const bool vec = (n % 4 == 0);
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const int row = block_row + row0 + (i / 4) * 16 + i % 4;
        if (row >= m) continue;
        float* crow = C + (size_t)row * n;
#pragma unroll
        for (int p = 0; p < 4; ++p) {
            const int col = block_col + col0 + 32 * p;
            if (vec) {
                if (col < n) *reinterpret_cast<float4*>(crow + col) = make_float4(acc[i][4 * p], acc[i][4 * p + 1], acc[i][4 * p + 2], acc[i][4 * p + 3]);
            } else {
#pragma unroll
                for (int c = 0; c < 4; ++c) if (col + c < n) crow[col + c] = acc[i][4 * p + c];
            }
        }
    }
}

template <int BK, int S, bool B16, int SPREAD>
void launch(const float* a, const float* b, float* c, int m, int n, int k) {
    constexpr int STAGE = BK * AST + BK * BN;
    const int bytes = S * STAGE * 4;
    static bool once = false;
    if (!once) { CK(cudaFuncSetAttribute(proto<BK, S, B16, SPREAD>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes)); once = true; }
    dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);
    proto<BK, S, B16, SPREAD><<<grid, THREADS, bytes>>>(a, b, c, m, n, k);
}

struct Variant { const char* name; bool b16; void (*fn)(const float*, const float*, float*, int, int, int); };

int main(int argc, char** argv) {
    std::vector<std::array<int, 3>> shapes;
    const char* spec = argc > 1 ? argv[1] : "4096x4096x4096";
    for (std::string s = spec; !s.empty();) {
        size_t comma = s.find(','); std::string one = s.substr(0, comma);
        int m, n, k; sscanf(one.c_str(), "%dx%dx%d", &m, &n, &k); shapes.push_back({m, n, k});
        s = comma == std::string::npos ? "" : s.substr(comma + 1);
    }
    const int iters = argc > 2 ? atoi(argv[2]) : 10;
    Variant variants[] = {
        {"bk16 s3 b16", true, launch<16, 3, true, 0>},
        {"bk16 s2 b16", true, launch<16, 2, true, 0>},
        {"bk16 s2 b4", false, launch<16, 2, false, 0>},
        {"bk16 s3 b4", false, launch<16, 3, false, 0>},
        {"bk16 s4 b4", false, launch<16, 4, false, 0>},
        {"bk32 s2 b4", false, launch<32, 2, false, 0>},
        {"bk8 s3 b4 spread", false, launch<8, 3, false, 1>},
    };
    cublasHandle_t h; cublasCreate(&h);
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    for (auto sh : shapes) { const int m = sh[0], n = sh[1], k = sh[2];
        std::vector<float> ha((size_t)m * k), hb((size_t)k * n);
        std::mt19937 g(42); std::uniform_real_distribution<float> u(-1, 1);
        for (auto& x : ha) x = u(g); for (auto& x : hb) x = u(g);
        float *a, *b, *c, *ref;
        CK(cudaMalloc(&a, ha.size() * 4)); CK(cudaMalloc(&b, hb.size() * 4));
        CK(cudaMalloc(&c, (size_t)m * n * 4)); CK(cudaMalloc(&ref, (size_t)m * n * 4));
        CK(cudaMemcpy(a, ha.data(), ha.size() * 4, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(b, hb.data(), hb.size() * 4, cudaMemcpyHostToDevice));
        const float one = 1, zero = 0;
        auto blas = [&] { cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k, &zero, ref, n); };
        auto time = [&](auto f) {
            for (int i = 0; i < 3; ++i) f();
            std::vector<float> ts;
            for (int i = 0; i < iters; ++i) { cudaEventRecord(e0); f(); cudaEventRecord(e1); cudaEventSynchronize(e1); float ms; cudaEventElapsedTime(&ms, e0, e1); ts.push_back(ms); }
            std::sort(ts.begin(), ts.end()); return ts[ts.size() / 2];
        };
        const double tb = time(blas);
        CK(cudaDeviceSynchronize());
        std::vector<float> hr((size_t)m * n), hc((size_t)m * n);
        CK(cudaMemcpy(hr.data(), ref, hr.size() * 4, cudaMemcpyDeviceToHost));
        printf("== %dx%dx%d cuBLAS %.4f ms (%.1f TFLOPS)\n", m, n, k, tb, 2.0 * m * n * k / tb / 1e9);
        for (auto& v : variants) {
            if (v.b16 && n % 4 != 0) continue;
            CK(cudaMemset(c, 0xff, (size_t)m * n * 4));
            v.fn(a, b, c, m, n, k); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(hc.data(), c, hc.size() * 4, cudaMemcpyDeviceToHost));
            double worst = 0; for (size_t i = 0; i < hc.size(); ++i) { double d = std::fabs(hc[i] - hr[i]); if (!(d <= worst)) worst = d; }
            const double tv = time([&] { v.fn(a, b, c, m, n, k); });
            printf("   %-20s %.4f ms  %.3f of cuBLAS  maxdiff %.3g %s\n", v.name, tv, tb / tv, worst, worst < 1e-2 * std::sqrt((double)k) ? "" : "WRONG");
        }
        cudaFree(a); cudaFree(b); cudaFree(c); cudaFree(ref);
    }
}
