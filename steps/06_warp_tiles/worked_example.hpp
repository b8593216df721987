/// \file
/// \brief The operands of step 06's worked example, which step 07 multiplies again with K split in
/// two.
#pragma once

#include "common/matrix.hpp"

namespace step06 {

/// A (2 x 32) and B (32 x 2) of the worked example.
struct WorkedOperands {
    tutorial::Matrix<float> a;
    tutorial::Matrix<float> b;
};

/// Row 0 of A is all ones, row 1 counts 1..32; column 0 of B is all ones, column 1 counts 1..32.
/// K = 32 is two K-slices of 16, and every product is a small integer, exact in float.
inline WorkedOperands worked_operands() {
    WorkedOperands operands{tutorial::Matrix<float>(2, 32), tutorial::Matrix<float>(32, 2)};
    for (int p = 0; p < 32; ++p) {
        operands.a(0, p) = 1.0f;
        operands.a(1, p) = static_cast<float>(p + 1);
        operands.b(p, 0) = 1.0f;
        operands.b(p, 1) = static_cast<float>(p + 1);
    }
    return operands;
}

}  // namespace step06
