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

// [mid-size suite]
// 80 shapes drawn at random, as an outside check would draw them: m and n log-uniform from 1 to
// 8192, K from 16 to 8192, kept when the product has 10^9 multiply-adds or more (Python's
// random.Random(20261206), in the order drawn). Each is named by which of n and k are multiples of
// 4, which decides the float4 paths of steps 06 to 08.
constexpr SuiteShape kMidSize[] = {
    {"7076x643x380", "k a multiple of 4, n not"},
    {"1075x3390x1193", "neither n nor k a multiple of 4"},
    {"3406x568x1623", "n a multiple of 4, k not"},
    {"420x2947x1349", "neither n nor k a multiple of 4"},
    {"1257x747x3470", "neither n nor k a multiple of 4"},
    {"2153x4608x163", "n a multiple of 4, k not"},
    {"668x2353x1340", "k a multiple of 4, n not"},
    {"4865x1588x694", "n a multiple of 4, k not"},
    {"588x4925x2126", "neither n nor k a multiple of 4"},
    {"4221x2894x261", "neither n nor k a multiple of 4"},
    {"356x2273x7309", "neither n nor k a multiple of 4"},
    {"1969x4286x2906", "neither n nor k a multiple of 4"},
    {"5337x106x1815", "neither n nor k a multiple of 4"},
    {"30x6727x7705", "neither n nor k a multiple of 4"},
    {"3198x1175x520", "k a multiple of 4, n not"},
    {"245x4907x3218", "neither n nor k a multiple of 4"},
    {"654x2352x694", "n a multiple of 4, k not"},
    {"1146x6906x239", "neither n nor k a multiple of 4"},
    {"507x947x4083", "neither n nor k a multiple of 4"},
    {"6536x962x270", "neither n nor k a multiple of 4"},
    {"1123x5202x357", "neither n nor k a multiple of 4"},
    {"679x5866x570", "neither n nor k a multiple of 4"},
    {"3351x1041x3703", "neither n nor k a multiple of 4"},
    {"311x1786x2087", "neither n nor k a multiple of 4"},
    {"2152x3910x751", "neither n nor k a multiple of 4"},
    {"832x2927x458", "neither n nor k a multiple of 4"},
    {"352x4226x6707", "neither n nor k a multiple of 4"},
    {"7412x686x465", "neither n nor k a multiple of 4"},
    {"942x6483x4311", "neither n nor k a multiple of 4"},
    {"4614x122x4072", "k a multiple of 4, n not"},
    {"5040x833x4946", "neither n nor k a multiple of 4"},
    {"4929x2473x274", "neither n nor k a multiple of 4"},
    {"1773x2125x7820", "k a multiple of 4, n not"},
    {"648x1098x5707", "neither n nor k a multiple of 4"},
    {"511x2468x1495", "n a multiple of 4, k not"},
    {"6531x7126x80", "k a multiple of 4, n not"},
    {"6443x815x1504", "k a multiple of 4, n not"},
    {"2814x6966x6368", "k a multiple of 4, n not"},
    {"1233x4548x906", "n a multiple of 4, k not"},
    {"3068x630x1062", "neither n nor k a multiple of 4"},
    {"2299x545x3656", "k a multiple of 4, n not"},
    {"2228x5188x441", "n a multiple of 4, k not"},
    {"2990x456x5004", "n and k multiples of 4"},
    {"1392x2128x460", "n and k multiples of 4"},
    {"5609x6843x418", "neither n nor k a multiple of 4"},
    {"4810x557x832", "k a multiple of 4, n not"},
    {"1962x793x6805", "neither n nor k a multiple of 4"},
    {"3682x7423x520", "k a multiple of 4, n not"},
    {"421x7791x667", "neither n nor k a multiple of 4"},
    {"1283x4131x235", "neither n nor k a multiple of 4"},
    {"1194x3945x509", "neither n nor k a multiple of 4"},
    {"2665x6563x326", "neither n nor k a multiple of 4"},
    {"1814x4289x861", "neither n nor k a multiple of 4"},
    {"5800x2158x685", "neither n nor k a multiple of 4"},
    {"6942x4002x529", "neither n nor k a multiple of 4"},
    {"3120x1868x1031", "n a multiple of 4, k not"},
    {"7098x769x1920", "k a multiple of 4, n not"},
    {"6271x202x3379", "neither n nor k a multiple of 4"},
    {"2983x3834x260", "k a multiple of 4, n not"},
    {"507x1830x4892", "k a multiple of 4, n not"},
    {"2667x771x917", "neither n nor k a multiple of 4"},
    {"2112x950x3712", "k a multiple of 4, n not"},
    {"287x5271x2327", "neither n nor k a multiple of 4"},
    {"66x5261x6698", "neither n nor k a multiple of 4"},
    {"7039x4541x96", "k a multiple of 4, n not"},
    {"6221x2056x102", "n a multiple of 4, k not"},
    {"1626x2079x1608", "k a multiple of 4, n not"},
    {"1035x3061x5020", "k a multiple of 4, n not"},
    {"711x940x1937", "n a multiple of 4, k not"},
    {"902x2484x1959", "n a multiple of 4, k not"},
    {"1000x1307x2220", "k a multiple of 4, n not"},
    {"6470x2659x1128", "k a multiple of 4, n not"},
    {"6148x1387x3870", "neither n nor k a multiple of 4"},
    {"525x6202x6845", "neither n nor k a multiple of 4"},
    {"3263x528x2257", "n a multiple of 4, k not"},
    {"4287x2063x1939", "neither n nor k a multiple of 4"},
    {"1646x122x7389", "neither n nor k a multiple of 4"},
    {"6837x4115x90", "neither n nor k a multiple of 4"},
    {"4919x2743x816", "k a multiple of 4, n not"},
    {"4056x6101x415", "neither n nor k a multiple of 4"},
};
// [mid-size suite]

const ShapeSuite kSuites[] = {
    {"every-shape",
     "shapes of every kind: one row, a few rows, one or a few columns, tiny C with long K, "
     "short K, transformer layers, odd sizes, big squares",
     kEveryShape, std::size(kEveryShape)},
    {"mid-size",
     "80 random shapes of 10^9 multiply-adds or more, sides up to 8192, most of them with n or k "
     "not a multiple of 4: the kind an outside check brings",
     kMidSize, std::size(kMidSize)},
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
