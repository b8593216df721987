// cuBLASXt on the NVIDIA route: NVIDIA's own out-of-core, multi-GPU GEMM from host memory, the
// reference step 09 is measured against.
#include "bench/cublasxt_sgemm.hpp"

#include <cublasXt.h>

#include "common/errors.hpp"

namespace bench {
namespace {

void check(cublasStatus_t status, const char* what) {
    if (status != CUBLAS_STATUS_SUCCESS) {
        throw tutorial::RuntimeFailure(std::string("cuBLASXt call ") + what + " failed with " +
                                       cublasGetStatusName(status));
    }
}

class CublasXt final : public HostBlas {
  public:
    explicit CublasXt(std::vector<int> devices) {
        check(cublasXtCreate(&handle_), "cublasXtCreate");
        check(cublasXtDeviceSelect(handle_, static_cast<int>(devices.size()), devices.data()),
              "cublasXtDeviceSelect");
        // The benchmark's host matrices are page-locked already, so cuBLASXt's own pinning stays
        // off (CUBLASXT_PINNING_DISABLED, the default); the benchmark sweeps the block size.
        int major = 0, minor = 0;
        check(cublasGetProperty(MAJOR_VERSION, &major), "cublasGetProperty");
        check(cublasGetProperty(MINOR_VERSION, &minor), "cublasGetProperty");
        name_ = "cuBLASXt " + std::to_string(major) + "." + std::to_string(minor) +
                " SGEMM on devices ";
        for (std::size_t i = 0; i < devices.size(); ++i)
            name_ += (i ? ", " : "") + std::to_string(devices[i]);
    }
    ~CublasXt() override { cublasXtDestroy(handle_); }

    std::string name() const override { return name_; }

    void set_block_dim(int block_dim) override {
        check(cublasXtSetBlockDim(handle_, block_dim), "cublasXtSetBlockDim");
    }

    void sgemm(const float* a, const float* b, float* c, int m, int n, int k) override {
        const float one = 1.0f, zero = 0.0f;
        // Column-major like cuBLAS: C^T = B^T A^T computed column-major is C row-major.
        check(cublasXtSgemm(handle_, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<std::size_t>(n),
                            static_cast<std::size_t>(m), static_cast<std::size_t>(k), &one, b,
                            static_cast<std::size_t>(n), a, static_cast<std::size_t>(k), &zero, c,
                            static_cast<std::size_t>(n)),
              "cublasXtSgemm");
    }

  private:
    cublasXtHandle_t handle_ = nullptr;
    std::string name_;
};

}  // namespace

std::unique_ptr<HostBlas> make_cublasxt(const std::vector<int>& devices, std::string&) {
    return std::make_unique<CublasXt>(devices);
}

}  // namespace bench
