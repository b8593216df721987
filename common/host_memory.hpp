/// \file
/// \brief Whether the host matrices fit in the host's memory, asked before anything is allocated,
/// so that a size too large for the machine ends with a message (exit 3) instead of the kernel's
/// out-of-memory killer: every step's program asks it. Host code, no HIP.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace tutorial {

/// The bytes of host memory a program can still allocate: the kernel's estimate (MemAvailable in
/// /proc/meminfo), capped by the memory limit of the control group the process runs in (cgroup
/// v2 memory.max less memory.current), or nothing where neither can be read.
std::optional<std::uint64_t> available_host_memory();

/// Why `needed` bytes for `what` do not fit in `available` bytes, in words, or nothing when they
/// fit (or when `available` is unknown: then the allocation itself decides).
std::optional<std::string> host_memory_shortfall(std::uint64_t needed,
                                                 std::optional<std::uint64_t> available,
                                                 const std::string& what);

/// Why `copies` copies of A (m x k), B (k x n) and C (m x n) in float do not fit in
/// available_host_memory(), in words, or nothing: what the programs and the benchmark ask before
/// they allocate the matrices (one copy for the matrices, one more for pinned copies of them, one
/// more where HIP runs on the CPU and device memory is host memory).
std::optional<std::string> gemm_host_memory_shortfall(int m, int n, int k, int copies = 1);

/// Throws RuntimeFailure (exit 3) with gemm_host_memory_shortfall()'s words when the matrices do
/// not fit: what a program calls before it allocates them.
void require_host_memory(int m, int n, int k, int copies = 1);

}  // namespace tutorial
