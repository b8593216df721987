// A kernel that writes one element past the end of its buffer, for the CPU route's sanitizer build:
// the test 'sanitizer.catches_out_of_bounds' passes only when AddressSanitizer reports the write,
// which shows that the sanitizer run of CI would catch the same mistake in any kernel.
#include <hip/hip_runtime.h>

#include <cstdio>

namespace {
__global__ void write_one_past_the_end(float* values, int count) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= count)  // the mistake: <= instead of <
        values[i] = 1.0f;
}
}  // namespace

int main() {
    const int count = 100;
    float* values = nullptr;
    if (hipMalloc(&values, count * sizeof(float)) != hipSuccess)
        return 3;
    hipLaunchKernelGGL(write_one_past_the_end, dim3(1), dim3(128), 0, nullptr, values, count);
    (void)hipDeviceSynchronize();
    (void)hipFree(values);
    std::puts("the kernel wrote past the end and nothing noticed");
    return 0;
}
