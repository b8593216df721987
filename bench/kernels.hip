#include "bench/kernels.hpp"

#include <array>

#include "common/per_device.hpp"

#include "steps/01_serial_cpu/serial_gemm.hpp"
#include "steps/02_naive_kernel/naive_gemm.hpp"
#include "steps/03_tiled_2x2/tiled_gemm.hpp"
#include "steps/04_tiled_16x16/tiled_gemm.hpp"
#include "steps/05_lds_float4/lds_float4_gemm.hpp"
#include "steps/06_warp_tiles/warp_tiled_gemm.hpp"
#include "steps/07_split_k/split_k_gemm.hpp"
#include "steps/08_every_shape/every_shape_gemm.hpp"

namespace bench {
namespace {

// Step 08 with the rule's configuration for each shape, one setting of it changed by `change`.
tutorial::GemmLauncher<float> rule_with(void (*change)(step08::Config&)) {
    return [change](const float* a, const float* b, float* c, int m, int n, int k, hipStream_t s) {
        step08::Config config = step08::chosen_config(m, n, k);
        change(config);
        step08::gemm(a, b, c, m, n, k, s, config);
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
    // Step 06: its choice of tile for each C (the step's default), and each tile alone.
    kernels.push_back({"06", "choice",
                       Launch([](const float* a, const float* b, float* c, int m, int n, int k,
                                 hipStream_t s) { step06::gemm(a, b, c, m, n, k, s); })});
    for (const step06::TileShapeRow& row : step06::kTileShapes) {
        kernels.push_back({"06", row.name,
                           Launch([tile = row.value](const float* a, const float* b, float* c,
                                                     int m, int n, int k, hipStream_t s) {
                               step06::gemm(a, b, c, m, n, k, s, tile);
                           })});
    }
    // Step 07: its choice of split-K or stream-K (the step's default), and the same without
    // stream-K, where the choice shares out the last wave.
    kernels.push_back({"07", "choice",
                       Launch([](const float* a, const float* b, float* c, int m, int n, int k,
                                 hipStream_t s) { step07::gemm(a, b, c, m, n, k, s); })});
    kernels.push_back(
        {"07", "no-stream-k",
         Launch([](const float* a, const float* b, float* c, int m, int n, int k, hipStream_t s) {
             step07::Config config = step07::choose_config(m, n, k, step06::occupancy());
             config.workers = 0;
             step07::gemm(a, b, c, m, n, k, s, config);
         })});
    // Step 08: the rule's choice for each shape (the step's default), the same unpacked, packed,
    // without stream-K and without the 8 x 4 tile, and each of its new tiles alone (whole tiles,
    // K not split).
    kernels.push_back({"08", "rule",
                       Launch([](const float* a, const float* b, float* c, int m, int n, int k,
                                 hipStream_t s) { step08::gemm(a, b, c, m, n, k, s); })});
    // The rule's choice with packing off: what packing gains where n or k is not a multiple of 4.
    kernels.push_back({"08", "unpacked", rule_with([](step08::Config& config) {
                           config.packing = step08::Packing::off;
                       })});
    // The rule's choice with packing on: what packing costs or gains beside `unpacked`.
    kernels.push_back({"08", "packed", rule_with([](step08::Config& config) {
                           config.packing = step08::Packing::on;
                       })});
    // The rule's choice with stream-K off: where the rule shares out the last wave, its tile with
    // every tile whole, the last wave partly empty.
    kernels.push_back(
        {"08", "no-stream-k", rule_with([](step08::Config& config) { config.workers = 0; })});
    // The rule's choice without the 8 x 4 tile: what that tile gains where C has 1 to 4 columns.
    kernels.push_back(
        {"08", "no-8x4",
         Launch([](const float* a, const float* b, float* c, int m, int n, int k, hipStream_t s) {
             // Chosen once per shape, as step08::gemm() chooses.
             const step08::Config config =
                 tutorial::once_per_device_and_key(std::array<int, 3>{m, n, k}, [&] {
                     step08::RuleScope scope;
                     scope.leave_out(step08::TileShape::t8x4);
                     return step08::choose_config(m, n, k, step08::occupancy(), scope);
                 });
             step08::gemm(a, b, c, m, n, k, s, config);
         })});
    for (const step08::TileShape tile :
         {step08::TileShape::t256x128, step08::TileShape::t64x128, step08::TileShape::t64x64,
          step08::TileShape::t16x128, step08::TileShape::t128x32, step08::TileShape::t128x16}) {
        kernels.push_back({"08", step08::tile_name(tile),
                           Launch([tile](const float* a, const float* b, float* c, int m, int n,
                                         int k, hipStream_t s) {
                               step08::gemm(a, b, c, m, n, k, s, {tile, 1});
                           })});
    }
    return kernels;
}

}  // namespace bench
