/// \file
/// \brief Memory sizes as a learner reads and types them: "1.50 GiB" out, "2GiB" or "1.5GB" in.
///
/// Host code only, so that host-only code (step 09's planner, say) uses it without a GPU runtime.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace tutorial {

/// `bytes` as a short human-readable size such as "1.50 GiB" (binary units, two decimals) or
/// "176 bytes".
std::string format_bytes(std::size_t bytes);

/// format_bytes() with the exact count after it where the two differ: "1.50 KiB (1536 bytes)",
/// but "12 bytes" once.
std::string format_bytes_exactly(std::size_t bytes);

/// Reads a memory size such as "2GiB", "512MiB", "1.5 GiB", "64KiB", "3GB" or "1048576" (bytes):
/// binary units KiB, MiB, GiB, TiB (powers of 1024), decimal units kB, MB, GB, TB (powers of 1000),
/// B or no unit for bytes; case does not matter. Throws std::invalid_argument for anything else,
/// for zero and for sizes beyond 2^62 bytes.
std::uint64_t parse_byte_size(const std::string& text);

}  // namespace tutorial
