#include "bench/kernels.hpp"

#include "steps/01_serial_cpu/serial_gemm.hpp"
#include "steps/02_naive_kernel/naive_gemm.hpp"
#include "steps/03_tiled_2x2/tiled_gemm.hpp"
#include "steps/04_tiled_16x16/tiled_gemm.hpp"
#include "steps/05_lds_float4/lds_float4_gemm.hpp"
#include "steps/06_every_shape/every_shape_gemm.hpp"

namespace bench {
namespace {

// Step 06 with the rule's configuration for each shape, one setting of it changed by `change`.
tutorial::GemmLauncher<float> rule_with(void (*change)(step06::Config&)) {
    return [change](const float* a, const float* b, float* c, int m, int n, int k, hipStream_t s) {
        step06::Config config = step06::choose_config(m, n, k, step06::device_slots());
        change(config);
        step06::gemm(a, b, c, m, n, k, s, config);
    };
}

}  // namespace

std::vector<Kernel> step_kernels() {
    using Launch = tutorial::GemmLauncher<float>;
    std::vector<Kernel> kernels;
    kernels.push_back({"01", "serial", nullptr, step01::gemm<float>});
    for (const int edge : {8, 16, 32}) {
        kernels.push_back(
            {"02", "naive_b" + std::to_string(edge),
             Launch([edge](const float* a, const float* b, float* c, int m, int n, int k,
                           hipStream_t s) { step02::gemm(a, b, c, m, n, k, s, edge); })});
        kernels.push_back({"02", "swapped_b" + std::to_string(edge),
                           Launch([edge](const float* a, const float* b, float* c, int m, int n,
                                         int k, hipStream_t s) {
                               step02::gemm_swapped_mapping(a, b, c, m, n, k, s, edge);
                           })});
    }
    kernels.push_back({"03", "tiled2", Launch(step03::gemm<float>)});
    for (const int tile : {8, 16, 32}) {
        kernels.push_back(
            {"04", "tiled" + std::to_string(tile),
             Launch([tile](const float* a, const float* b, float* c, int m, int n, int k,
                           hipStream_t s) { step04::gemm(a, b, c, m, n, k, s, tile); })});
    }
    for (const step05::Variant variant : step05::kAllVariants) {
        kernels.push_back(
            {"05", step05::variant_name(variant),
             Launch([variant](const float* a, const float* b, float* c, int m, int n, int k,
                              hipStream_t s) { step05::gemm(a, b, c, m, n, k, s, variant); })});
    }
    // Step 06: the rule's choice for each shape (the step's default), the same unpacked, packed,
    // without stream-K, and each tile shape alone (whole tiles, K not split).
    kernels.push_back({"06", "rule",
                       Launch([](const float* a, const float* b, float* c, int m, int n, int k,
                                 hipStream_t s) { step06::gemm(a, b, c, m, n, k, s); })});
    // The rule's choice with packing off: what packing gains where n or k is not a multiple of 4.
    kernels.push_back({"06", "unpacked", rule_with([](step06::Config& config) {
                           config.packing = step06::Packing::off;
                       })});
    // The rule's choice with packing on: what packing costs or gains beside `unpacked`.
    kernels.push_back({"06", "packed", rule_with([](step06::Config& config) {
                           config.packing = step06::Packing::on;
                       })});
    // The rule's choice with stream-K off: where the rule shares out the last wave, its tile with
    // every tile whole, the last wave partly empty.
    kernels.push_back(
        {"06", "no-stream-k", rule_with([](step06::Config& config) { config.workers = 0; })});
    // The rule's choice without the 8 x 4 tile: what that tile gains where C has 1 to 4 columns.
    kernels.push_back(
        {"06", "no-8x4",
         Launch([](const float* a, const float* b, float* c, int m, int n, int k, hipStream_t s) {
             step06::gemm(
                 a, b, c, m, n, k, s,
                 step06::choose_config(m, n, k, step06::device_slots(), step06::kMaxSplits, false));
         })});
    for (const step06::TileShape tile : step06::kAllTileShapes) {
        // The 8 x 4 tile shows in `rule` where the rule takes it (C of 1 to 4 columns): alone, on
        // the suite's wide shapes, it would read A once for every 4 columns of C.
        if (tile == step06::TileShape::t8x4)
            continue;
        kernels.push_back({"06", step06::tile_name(tile),
                           Launch([tile](const float* a, const float* b, float* c, int m, int n,
                                         int k, hipStream_t s) {
                               step06::gemm(a, b, c, m, n, k, s, {tile, 1});
                           })});
    }
    return kernels;
}

}  // namespace bench
