/// \file
/// \brief Whether a device id names a device of this machine, with the sentence a learner reads
/// when it does not.
///
/// Host code only: the device count comes from the caller (tutorial::device_count() on the GPU
/// side), so the check and its message are tested without a GPU.
#pragma once

#include <optional>
#include <string>

namespace tutorial {

/// Why `id` names no device on a machine with `count` devices, e.g. "there is no device 4; this
/// machine has 2 (ids 0 to 1)"; nothing when `id` is one of them. The caller adds the option's
/// name, --device or --devices.
std::optional<std::string> missing_device_reason(int id, int count);

}  // namespace tutorial
