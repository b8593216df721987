#include "host_registration.hpp"

#include <hip/hip_runtime.h>

#include <algorithm>

namespace step09 {

HostRegistration::HostRegistration(bool enabled, std::initializer_list<Range> ranges) {
    if (!enabled) {
        note_ = "pinned by the caller";
        return;
    }
    std::string failure;
    for (const Range& range : ranges) {
        const bool seen = std::find(locked_.begin(), locked_.end(), range.pointer) != locked_.end();
        if (seen)
            continue;
        // hipHostRegister takes a non-const pointer but does not write through it. Mapped: a
        // kernel may read the memory directly (see panel_copy.hpp).
        void* pointer = const_cast<void*>(range.pointer);
        const hipError_t status =
            hipHostRegister(pointer, range.bytes, hipHostRegisterPortable | hipHostRegisterMapped);
        if (status == hipSuccess) {
            locked_.push_back(pointer);
        } else {
            (void)hipGetLastError();  // not sticky, but leave no error behind for later calls
            failure = hipGetErrorName(status);
        }
    }
    note_ = failure.empty()
                ? "page-locked (hipHostRegister)"
                : "hipHostRegister failed with " + failure +
                      " for some of them: memory that is pinned already fails this way, "
                      "ordinary memory is then copied through the runtime's staging buffers";
}

HostRegistration::~HostRegistration() {
    for (void* pointer : locked_)
        (void)hipHostUnregister(pointer);
}

}  // namespace step09
