/// \file
/// \brief `gpu_info`: lists the HIP devices this build can use, or says why there are none.
///
/// The tutorial runner asks it first, so that on a machine without a GPU the GPU steps are
/// reported as not run, with the reason, instead of failing one by one.
#include <hip/hip_runtime.h>

#include <iostream>

#include "common/byte_size.hpp"
#include "common/device.hpp"
#include "common/errors.hpp"

int main() {
    try {
        if (const auto reason = tutorial::gpu_unavailable_reason()) {
            std::cout << *reason << '\n';
            return tutorial::kExitRuntimeFailure;
        }
        const int count = tutorial::device_count();
        std::cout << "platform: " << tutorial::gpu_platform() << '\n';
        for (int id = 0; id < count; ++id) {
            const tutorial::DeviceInfo info = tutorial::select_device(id);
            std::cout << "device " << id << ": " << info.name << ", " << info.multiprocessors
                      << " compute units, " << tutorial::format_bytes(info.global_memory_bytes)
                      << '\n';
        }
        return tutorial::kExitVerified;
    } catch (const tutorial::RuntimeFailure& error) {
        std::cerr << "gpu_info: " << error.what() << '\n';
        return tutorial::kExitRuntimeFailure;
    }
}
