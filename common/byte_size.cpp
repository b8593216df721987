#include "common/byte_size.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace tutorial {

std::string format_bytes(std::size_t bytes) {
    const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    double value = static_cast<double>(bytes);
    int unit = 0;
    while (value >= 1024.0 && unit < 4) {
        value /= 1024.0;
        ++unit;
    }
    char text[64];
    std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.2f %s", value,
                  bytes == 1 ? "byte" : units[unit]);
    return text;
}

std::string format_bytes_exactly(std::size_t bytes) {
    if (bytes < 1024)
        return format_bytes(bytes);
    return format_bytes(bytes) + " (" + std::to_string(bytes) + " bytes)";
}

std::uint64_t parse_byte_size(const std::string& text) {
    std::size_t position = 0;
    while (position < text.size() &&
           (std::isdigit(static_cast<unsigned char>(text[position])) || text[position] == '.'))
        ++position;
    const std::string number = text.substr(0, position);
    std::string unit;
    for (std::size_t i = position; i < text.size(); ++i) {
        if (text[i] != ' ')
            unit += static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
    }
    const std::string expected = "expected a size such as 2GiB, 512MiB, 1.5GB or a number of bytes";
    if (number.empty() || std::count(number.begin(), number.end(), '.') > 1 || number == ".") {
        throw std::invalid_argument("'" + text + "' is not a memory size; " + expected);
    }
    struct Unit {
        const char* name;
        double bytes;
    };
    const Unit units[] = {{"", 1.0},
                          {"b", 1.0},
                          {"kib", 1024.0},
                          {"mib", 1024.0 * 1024.0},
                          {"gib", 1024.0 * 1024.0 * 1024.0},
                          {"tib", 1024.0 * 1024.0 * 1024.0 * 1024.0},
                          {"kb", 1.0e3},
                          {"mb", 1.0e6},
                          {"gb", 1.0e9},
                          {"tb", 1.0e12}};
    const Unit* found = nullptr;
    for (const Unit& candidate : units) {
        if (unit == candidate.name)
            found = &candidate;
    }
    if (found == nullptr) {
        throw std::invalid_argument("'" + text + "' has an unknown unit '" + unit + "'; " +
                                    expected);
    }
    const double limit = 4611686018427387904.0;  // 2^62
    const double bytes = std::floor(std::strtod(number.c_str(), nullptr) * found->bytes);
    if (bytes < 1.0)
        throw std::invalid_argument("'" + text + "' is less than one byte; " + expected);
    if (bytes > limit) {
        throw std::invalid_argument("'" + text + "' is too large (more than 2^62 bytes); " +
                                    expected);
    }
    return static_cast<std::uint64_t>(bytes);
}

}  // namespace tutorial
