#include "bench/shapes.hpp"

#include <iterator>
#include <sstream>

#include "common/command_line.hpp"
#include "common/errors.hpp"
#include "common/index_limits.hpp"
#include "common/named_values.hpp"

namespace bench {

std::string shape_text(const Shape& shape) {
    return std::to_string(shape.m) + "x" + std::to_string(shape.n) + "x" + std::to_string(shape.k);
}

Shape parse_shape(const std::string& text, const std::string& option) {
    char x1 = 0, x2 = 0;
    std::istringstream in(text);
    long long m = 0, n = 0, k = 0;
    in >> m >> x1 >> n >> x2 >> k;
    const bool parsed = in && (in >> std::ws).eof() && x1 == 'x' && x2 == 'x';
    if (!parsed || m < 1 || n < 1 || k < 1 || m > tutorial::kMaxDimension ||
        n > tutorial::kMaxDimension || k > tutorial::kMaxDimension) {
        throw tutorial::UsageError(option + ": '" + text +
                                   "' is not MxNxK with each of m, n, k from 1 to " +
                                   std::to_string(tutorial::kMaxDimension));
    }
    if (m * k > tutorial::kMaxMatrixElements || k * n > tutorial::kMaxMatrixElements ||
        m * n > tutorial::kMaxMatrixElements) {
        throw tutorial::UsageError(option + ": '" + text +
                                   "' has a matrix of more than 2^31 - 1 elements");
    }
    return Shape{static_cast<int>(m), static_cast<int>(n), static_cast<int>(k)};
}

namespace {

// [every-shape suite]
// Shapes of every kind that step 08's rule must serve, each named by its kind, and the big squares
// where a GEMM is usually judged. Transformer layers
// are m tokens by a hidden size h: the projection to queries, keys and values (m x 3h x h), the
// feed-forward layer's two products (m x 4h x h and m x h x 4h).
constexpr SuiteShape kEveryShape[] = {
    {"1x4096x4096", "one row"},
    {"1x8192x8192", "one row"},
    {"1x3000x1000", "one row"},
    {"2x4096x4096", "a few rows"},
    {"4x8192x4096", "a few rows"},
    {"8x4096x8192", "a few rows"},
    {"16x8192x8192", "a few rows"},
    {"33x4096x4096", "a few rows"},
    {"64x8192x8192", "a few rows, a big B"},
    {"128x8192x8192", "a few rows, a big B"},
    {"4096x1x4096", "one column"},
    {"3001x1x3001", "one column"},
    {"65536x1x128", "one column"},
    {"8192x16x8192", "a few columns"},
    {"4096x64x4096", "a few columns"},
    {"64x64x65536", "tiny C, long K"},
    {"100x100x10000", "tiny C, long K"},
    {"256x256x16384", "tiny C, long K"},
    {"1024x1024x16384", "small C, long K"},
    {"8192x8192x128", "short K"},
    {"4096x4096x16", "short K"},
    {"2048x12288x4096", "transformer, h = 4096"},
    {"2048x16384x4096", "transformer, h = 4096"},
    {"2048x4096x16384", "transformer, h = 4096"},
    {"512x3072x1024", "transformer, h = 1024"},
    {"512x1024x4096", "transformer, h = 1024"},
    {"8192x2304x768", "transformer, h = 768"},
    {"1000x1000x1000", "odd sizes"},
    {"4097x4097x4097", "odd sizes"},
    {"1023x1025x1027", "odd sizes"},
    {"777x5555x333", "odd sizes"},
    {"2000x6000x800", "odd sizes"},
    {"128x8191x8191", "odd sizes, packed"},
    {"1024x1024x16383", "odd sizes, packed"},
    {"4096x4096x4096", "big square"},
    {"8192x8192x8192", "big square"},
    {"16384x16384x16384", "big square"},
};
// [every-shape suite]

const ShapeSuite kSuites[] = {
    {"every-shape",
     "shapes of every kind: one row, a few rows, one or a few columns, tiny C with long K, "
     "short K, transformer layers, odd sizes, big squares",
     kEveryShape, std::size(kEveryShape)},
};

}  // namespace

const ShapeSuite* shape_suites_begin() {
    return std::begin(kSuites);
}

const ShapeSuite* shape_suites_end() {
    return std::end(kSuites);
}

const ShapeSuite* find_suite(const std::string& name) {
    for (const ShapeSuite& suite : kSuites) {
        if (name == suite.name)
            return &suite;
    }
    return nullptr;
}

std::string suite_names() {
    return tutorial::names_in_words(kSuites);
}

}  // namespace bench
