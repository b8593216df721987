// cuBLAS on the NVIDIA route. The HIP types of this build are the CUDA ones (hipStream_t is
// cudaStream_t), so device pointers and streams pass straight through.
#include <cublas_v2.h>

#include <string>

#include "common/errors.hpp"
#include "common/vendor_blas.hpp"

namespace tutorial {
namespace {

void check(cublasStatus_t status, const char* what) {
    if (status != CUBLAS_STATUS_SUCCESS) {
        throw RuntimeFailure(std::string("cuBLAS call ") + what + " failed with " +
                             cublasGetStatusName(status));
    }
}

class Cublas final : public VendorBlas {
  public:
    Cublas() {
        check(cublasCreate(&handle_), "cublasCreate");
        // FP32 SGEMM: CUBLAS_DEFAULT_MATH never uses TF32 tensor cores for single precision, and
        // disallowing reduced-precision reductions keeps every sum in FP32.
        check(cublasSetMathMode(handle_, static_cast<cublasMath_t>(
                                             CUBLAS_DEFAULT_MATH |
                                             CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION)),
              "cublasSetMathMode");
        int version = 0;
        check(cublasGetVersion(handle_, &version), "cublasGetVersion");
        name_ = "cuBLAS " + std::to_string(version / 10000) + "." +
                std::to_string(version / 100 % 100) + " SGEMM (FP32, TF32 off)";
    }
    ~Cublas() override { cublasDestroy(handle_); }

    std::string name() const override { return name_; }

    void sgemm(const float* a, const float* b, float* c, int m, int n, int k,
               hipStream_t stream) override {
        const float one = 1.0f, zero = 0.0f;
        check(cublasSetStream(handle_, stream), "cublasSetStream");
        // cuBLAS is column-major. A row-major matrix is its transpose in column-major, so computing
        // C^T = B^T A^T column-major leaves C row-major: swap the operands and m with n.
        check(
            cublasSgemm(handle_, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k, &zero, c, n),
            "cublasSgemm");
    }

  private:
    cublasHandle_t handle_ = nullptr;
    std::string name_;
};

}  // namespace

std::unique_ptr<VendorBlas> make_vendor_blas(std::string&) {
    return std::make_unique<Cublas>();
}

}  // namespace tutorial
