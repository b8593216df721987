#include "common/index_limits.hpp"

#include <stdexcept>

namespace tutorial {

std::string too_many_elements(const std::string& name, long long rows, long long cols) {
    if (rows * cols <= kMaxMatrixElements)
        return "";
    return name + " would be " + std::to_string(rows) + " x " + std::to_string(cols) + " = " +
           std::to_string(rows * cols) +
           " elements; the kernels index with 32-bit ints, so at most " +
           std::to_string(kMaxMatrixElements) + " elements per matrix";
}

void check_32bit_indexing(const std::string& who, int m, int n, int k) {
    for (const std::string& problem :
         {too_many_elements("A (m x k)", m, k), too_many_elements("B (k x n)", k, n),
          too_many_elements("C (m x n)", m, n)}) {
        if (!problem.empty())
            throw std::invalid_argument(who + ": " + problem);
    }
}

void check_grid_y(const std::string& who, const std::string& what, long long extent,
                  int per_block) {
    const long long blocks = (extent + per_block - 1) / per_block;
    if (blocks > kMaxGridY) {
        throw std::invalid_argument(
            who + ": " + what + " = " + std::to_string(extent) + " needs " +
            std::to_string(blocks) + " blocks of " + std::to_string(per_block) +
            " along the grid's y, and a grid has at most " + std::to_string(kMaxGridY));
    }
}

}  // namespace tutorial
