#include "inner_kernel.hpp"

#include <algorithm>
#include <stdexcept>

#include "common/command_line.hpp"
#include "common/errors.hpp"
#include "steps/04_tiled_16x16/tiled_gemm.hpp"
#include "steps/05_lds_float4/lds_float4_gemm.hpp"
#include "steps/08_every_shape/every_shape_gemm.hpp"

namespace step09 {

std::vector<InnerKernel> all_inner_kernels() {
    std::vector<InnerKernel> kernels;
    for (const InnerKernelInfo& info : kInnerKernels)
        kernels.push_back(info.kernel);
    return kernels;
}

const char* inner_kernel_name(InnerKernel inner) {
    for (const InnerKernelInfo& info : kInnerKernels) {
        if (info.kernel == inner)
            return info.name;
    }
    throw std::invalid_argument("step09::inner_kernel_name: not an InnerKernel");
}

std::string inner_kernel_choices() {
    std::vector<std::string> choices;
    for (const InnerKernelInfo& info : kInnerKernels)
        choices.push_back(std::string(info.name) + " (" + info.description + ")");
    return tutorial::list_in_words(choices);
}

InnerKernel parse_inner_kernel(const std::string& text) {
    for (const InnerKernelInfo& info : kInnerKernels) {
        if (text == info.name)
            return info.kernel;
    }
    throw std::invalid_argument("'" + text + "' is not an inner kernel; choose " +
                                inner_kernel_choices());
}

std::optional<std::string> inner_kernel_unavailable(InnerKernel inner) {
    if (inner != InnerKernel::vendor)
        return std::nullopt;
    std::string why_not;
    if (tutorial::make_vendor_blas(why_not) == nullptr)
        return why_not;
    return std::nullopt;
}

InnerMultiply::InnerMultiply(InnerKernel kernel, std::size_t lanes)
    : kernel_(kernel), lanes_(lanes) {
    if (kernel_ != InnerKernel::vendor)
        return;
    for (std::size_t lane = 0; lane < lanes; ++lane) {
        std::string why_not;
        vendor_.push_back(tutorial::make_vendor_blas(why_not));
        if (!vendor_.back())
            throw tutorial::RuntimeFailure("inner kernel 'vendor': " + why_not);
    }
}

// [inner kernels]
void InnerMultiply::operator()(std::size_t lane, const float* a, const float* b, float* c, int rows,
                               int cols, int k, hipStream_t stream) const {
    switch (kernel_) {
        case InnerKernel::step08: {
            // K is not split: split-K would need a workspace outside the plan's memory budget.
            // The rule is asked for this lane's share of the multiprocessors: the kernels of the
            // two lanes run side by side, so a tile of 2048 x 3072 (192 blocks of 128 x 256) fills
            // three waves together with its partner rather than leaving 1.45 waves alone, and the
            // rule keeps the fast 128 x 256 tile instead of switching to a smaller one.
            step08::Occupancy occupancy = step08::occupancy();
            occupancy.multiprocessors =
                std::max(1, occupancy.multiprocessors / static_cast<int>(lanes_));
            step08::RuleScope whole_k;
            whole_k.max_splits = 1;
            const step08::Config config = step08::choose_config(rows, cols, k, occupancy, whole_k);
            step08::gemm(a, b, c, rows, cols, k, stream, config);
            return;
        }
        case InnerKernel::step05:
            step05::gemm(a, b, c, rows, cols, k, stream, step05::Variant::reg8x8_db);
            return;
        case InnerKernel::step04:
            step04::gemm<float>(a, b, c, rows, cols, k, stream, 32);
            return;
        case InnerKernel::vendor:
            vendor_.at(lane)->sgemm(a, b, c, rows, cols, k, stream);
            return;
    }
}
// [inner kernels]

}  // namespace step09
