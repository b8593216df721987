#include "common/host_memory.hpp"

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "common/byte_size.hpp"
#include "common/errors.hpp"

namespace tutorial {
namespace {

// A cgroup v2 file that holds one number of bytes ("max" for no limit).
std::optional<std::uint64_t> read_cgroup_bytes(const char* path) {
    std::ifstream file(path);
    std::uint64_t value = 0;
    if (file >> value)
        return value;
    return std::nullopt;
}

// Bytes in decimal gigabytes with one decimal, as a learner compares them with a machine's size.
std::string gigabytes(std::uint64_t bytes) {
    std::ostringstream text;
    text << std::fixed << std::setprecision(1) << static_cast<double>(bytes) / 1e9 << " GB";
    return text.str();
}

}  // namespace

std::optional<std::uint64_t> available_host_memory() {
    std::optional<std::uint64_t> available;
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    std::uint64_t kib = 0;
    std::string unit;
    while (meminfo >> key >> kib >> unit) {
        if (key == "MemAvailable:") {
            available = kib * 1024;
            break;
        }
    }
    const auto limit = read_cgroup_bytes("/sys/fs/cgroup/memory.max");
    const auto used = read_cgroup_bytes("/sys/fs/cgroup/memory.current");
    if (limit && used) {
        const std::uint64_t left = *limit > *used ? *limit - *used : 0;
        available = available ? std::min(*available, left) : left;
    }
    return available;
}

std::optional<std::string> host_memory_shortfall(std::uint64_t needed,
                                                 std::optional<std::uint64_t> available,
                                                 const std::string& what) {
    if (!available || needed <= *available)
        return std::nullopt;
    return what + " need " + gigabytes(needed) + " (" + format_bytes(needed) +
           ") of host memory, and this machine has " + gigabytes(*available) + " (" +
           format_bytes(*available) + ") available; choose smaller sizes";
}

std::optional<std::string> gemm_host_memory_shortfall(int m, int n, int k, int copies) {
    const std::uint64_t needed =
        (static_cast<std::uint64_t>(m) * k + static_cast<std::uint64_t>(k) * n +
         static_cast<std::uint64_t>(m) * n) *
        sizeof(float) * static_cast<std::uint64_t>(copies);
    const std::string what = std::string(copies > 1 ? std::to_string(copies) + " copies of " : "") +
                             "A (" + std::to_string(m) + " x " + std::to_string(k) + "), B (" +
                             std::to_string(k) + " x " + std::to_string(n) + ") and C (" +
                             std::to_string(m) + " x " + std::to_string(n) + ") in float";
    return host_memory_shortfall(needed, available_host_memory(), what);
}

void require_host_memory(int m, int n, int k, int copies) {
    if (const auto shortfall = gemm_host_memory_shortfall(m, n, k, copies))
        throw RuntimeFailure(*shortfall);
}

}  // namespace tutorial
