/// \file
/// \brief The shapes `gemm_benchmark` measures: "MxNxK" read and checked, and the named suites of
/// shapes that `--suite` runs. Plain C++, no HIP: tested on every build.
#pragma once

#include <cstddef>
#include <string>

namespace bench {

/// An m x n x k product: C is m x n, A is m x k, B is k x n.
struct Shape {
    int m = 0;
    int n = 0;
    int k = 0;
};

/// "MxNxK", as the command line spells a shape.
std::string shape_text(const Shape& shape);

/// The shape "MxNxK" with each of m, n and k from 1 to tutorial::kMaxDimension and each matrix
/// within tutorial::kMaxMatrixElements. Throws tutorial::UsageError naming `option` otherwise.
Shape parse_shape(const std::string& text, const std::string& option = "--shapes");

/// One shape of a suite, with the kind of shape it stands for ("one row", "tiny C, long K"...).
struct SuiteShape {
    const char* shape;
    const char* kind;
};

/// A named list of shapes, run together with `gemm_benchmark --suite NAME`.
struct ShapeSuite {
    const char* name;
    const char* purpose;  ///< one line for --help and the results page
    const SuiteShape* shapes;
    std::size_t count;
};

/// Every suite, in the order --help lists them.
const ShapeSuite* shape_suites_begin();
const ShapeSuite* shape_suites_end();

/// The suite called `name`, or nullptr.
const ShapeSuite* find_suite(const std::string& name);

/// Every suite's name, as a list in words: "a, b or c".
std::string suite_names();

}  // namespace bench
