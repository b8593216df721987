#include "common/device_ids.hpp"

namespace tutorial {

std::optional<std::string> missing_device_reason(int id, int count) {
    if (id >= 0 && id < count)
        return std::nullopt;
    const std::string ids =
        count == 0 ? "none"
                   : std::to_string(count) + " (ids 0 to " + std::to_string(count - 1) + ")";
    return "there is no device " + std::to_string(id) + "; this machine has " + ids;
}

}  // namespace tutorial
