/// \file
/// \brief The kernel that multiplies one chunk of A by one panel of B on a device: a small table
/// of choices, so that adding one is one entry here and one case in inner_kernel.hip.
#pragma once

#include <hip/hip_runtime.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/vendor_blas.hpp"

namespace step09 {

/// The kernel for each tile. The orchestration is the same for all of them, so comparing them
/// separates what the streaming costs from what the kernel costs.
enum class InnerKernel {
    step08,  ///< step 08's kernels, the configuration chosen per tile by its rule, K not split
             ///< (the default)
    step05,  ///< step 05's fastest kernel, reg8x8_db
    step04,  ///< step 04's kernel with its best tile, 32 x 32
    vendor,  ///< the vendor BLAS (cuBLAS on NVIDIA), where the build has one
};

/// One choice of inner kernel: its name on the command line and in reports, and what it is.
struct InnerKernelInfo {
    InnerKernel kernel;
    const char* name;
    const char* description;
};

/// Every inner kernel, the default first.
constexpr InnerKernelInfo kInnerKernels[] = {
    {InnerKernel::step08, "step08", "the rule's tile shape, K not split"},
    {InnerKernel::step05, "step05", "reg8x8_db"},
    {InnerKernel::step04, "step04", "32 x 32 tiles"},
    {InnerKernel::vendor, "vendor", "the vendor BLAS"},
};

/// Every inner kernel, in the order of kInnerKernels.
std::vector<InnerKernel> all_inner_kernels();

/// The name reports and the command line use, e.g. "step05".
const char* inner_kernel_name(InnerKernel inner);

/// The choices in words for --help: "step05 (reg8x8_db), step04 (32 x 32 tiles) or vendor (...)".
std::string inner_kernel_choices();

/// The inner kernel called `text`; throws std::invalid_argument naming the choices otherwise.
InnerKernel parse_inner_kernel(const std::string& text);

/// Why `inner` cannot run in this build (the vendor BLAS on a build without one), or nothing. Makes
/// and drops a vendor BLAS handle on the current device to find out.
std::optional<std::string> inner_kernel_unavailable(InnerKernel inner);

/// Multiplies a chunk of A (rows x k) by a panel of B (k x cols) into a tile of C (rows x cols),
/// all three contiguous, row-major and in the current device's memory, on one of `lanes` streams
/// that may run at the same time. Made on the device it is used on.
class InnerMultiply {
  public:
    /// Throws tutorial::RuntimeFailure when `kernel` is the vendor BLAS and the build has none.
    InnerMultiply(InnerKernel kernel, std::size_t lanes);

    /// Queues the multiply on `stream`, which belongs to lane `lane` (< lanes).
    void operator()(std::size_t lane, const float* a, const float* b, float* c, int rows, int cols,
                    int k, hipStream_t stream) const;

  private:
    InnerKernel kernel_;
    std::size_t lanes_;
    // One vendor handle per lane: a BLAS handle's workspace must not be shared by kernels that
    // run at the same time on two streams.
    std::vector<std::unique_ptr<tutorial::VendorBlas>> vendor_;
};

}  // namespace step09
