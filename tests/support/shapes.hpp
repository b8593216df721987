/// \file
/// \brief The shape of one product, the parameter of every step's shape tests.
#pragma once

#include <ostream>
#include <string>

namespace tutorial_test {

/// C (m x n) = A (m x k) · B (k x n).
struct Shape {
    int m, n, k;
};

/// "17x31x13" (m x n x k): in test names and failure messages.
inline std::string shape_name(const Shape& shape) {
    return std::to_string(shape.m) + "x" + std::to_string(shape.n) + "x" + std::to_string(shape.k);
}

/// Lets GoogleTest print a shape by its name instead of its bytes.
inline void PrintTo(const Shape& shape, std::ostream* out) {
    *out << shape_name(shape);
}

}  // namespace tutorial_test
