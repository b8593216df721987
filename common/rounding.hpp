/// \file
/// \brief Whole-number helpers that launchers and planners share: division rounded up, rounding
/// up to a multiple, and the 16-byte alignment that float4 accesses need.
#pragma once

#include <cstdint>
#include <type_traits>

namespace tutorial {

/// value / divisor rounded up, for value >= 0 and divisor > 0, in the wider of the two types:
/// the number of blocks or tiles that cover `value` items, `divisor` at a time.
template <class Value, class Divisor>
constexpr std::common_type_t<Value, Divisor> ceil_div(Value value, Divisor divisor) {
    using Wide = std::common_type_t<Value, Divisor>;
    return (static_cast<Wide>(value) + static_cast<Wide>(divisor) - 1) / static_cast<Wide>(divisor);
}

/// The smallest multiple of `multiple` that is at least `value` (value >= 0, multiple > 0).
template <class Value, class Multiple>
constexpr std::common_type_t<Value, Multiple> round_up(Value value, Multiple multiple) {
    return ceil_div(value, multiple) * multiple;
}

/// Whether `pointer` lies on a 16-byte boundary, as a float4 load or store needs.
inline bool aligned_16(const void* pointer) {
    return reinterpret_cast<std::uintptr_t>(pointer) % 16 == 0;
}

}  // namespace tutorial
