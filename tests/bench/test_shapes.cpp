// The benchmark's shapes: "MxNxK" read and refused as the command line needs, and the named suites
// valid, without repeats, and covering the kinds of shape they promise.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "bench/shapes.hpp"
#include "common/errors.hpp"

namespace {

TEST(ParseShape, ReadsMxNxKAndWritesItBack) {
    const bench::Shape shape = bench::parse_shape("3x5x7");
    EXPECT_EQ(shape.m, 3);
    EXPECT_EQ(shape.n, 5);
    EXPECT_EQ(shape.k, 7);
    EXPECT_EQ(bench::shape_text(shape), "3x5x7");
    EXPECT_EQ(bench::shape_text(bench::parse_shape("65536x1x128")), "65536x1x128");
}

TEST(ParseShape, RefusesMalformedShapesAndMatricesPast2To31Elements) {
    for (const char* text : {"3x5", "3x5x7x", "3x5x7 9", "0x5x7", "3x-5x7", "3x5x65537", "axbxc",
                             "", "65536x65536x1", "1x65536x65536"}) {
        try {
            bench::parse_shape(text, "--suite test");
            ADD_FAILURE() << "'" << text << "' was accepted";
        } catch (const tutorial::UsageError& error) {
            EXPECT_NE(std::string(error.what()).find("--suite test"), std::string::npos)
                << error.what();
        }
    }
}

TEST(ShapeSuites, EveryShapeOfEverySuiteIsValidNamedAndListedOnce) {
    ASSERT_NE(bench::shape_suites_begin(), bench::shape_suites_end());
    for (const bench::ShapeSuite* suite = bench::shape_suites_begin();
         suite != bench::shape_suites_end(); ++suite) {
        EXPECT_EQ(bench::find_suite(suite->name), suite);
        EXPECT_NE(bench::suite_names().find(suite->name), std::string::npos);
        EXPECT_GT(std::string(suite->purpose).size(), 10u);
        std::set<std::string> seen;
        for (std::size_t i = 0; i < suite->count; ++i) {
            const bench::SuiteShape& entry = suite->shapes[i];
            const bench::Shape shape = bench::parse_shape(entry.shape, suite->name);
            EXPECT_EQ(bench::shape_text(shape), entry.shape) << "not written as the benchmark does";
            EXPECT_TRUE(seen.insert(entry.shape).second)
                << entry.shape << " twice in " << suite->name;
            EXPECT_FALSE(std::string(entry.kind).empty()) << entry.shape;
        }
    }
    EXPECT_EQ(bench::find_suite("no-such-suite"), nullptr);
}

// The every-shape suite holds each kind of shape issue 33 names: a single row, a few rows (2 to
// 64), a few rows times a big matrix, one column, tiny C with long K, transformer layers and sizes
// that are no multiple of 4, and the big squares 4096^3, 8192^3 and 16384^3.
TEST(ShapeSuites, EveryShapeCoversEachKindOfShape) {
    const bench::ShapeSuite* suite = bench::find_suite("every-shape");
    ASSERT_NE(suite, nullptr);
    bool one_row = false, few_rows = false, few_rows_big = false, one_column = false;
    bool tiny_long = false, transformer = false, odd = false;
    int big_squares = 0;
    for (std::size_t i = 0; i < suite->count; ++i) {
        const bench::Shape s = bench::parse_shape(suite->shapes[i].shape);
        one_row = one_row || s.m == 1;
        few_rows = few_rows || (s.m >= 2 && s.m <= 64);
        few_rows_big = few_rows_big || (s.m <= 64 && s.n >= 8192 && s.k >= 8192);
        one_column = one_column || s.n == 1;
        tiny_long = tiny_long || (s.m <= 256 && s.n <= 256 && s.k >= 10000);
        transformer = transformer || (s.n == 3 * s.k || s.n == 4 * s.k || s.k == 4 * s.n);
        odd = odd || (s.m % 4 != 0 && s.n % 4 != 0 && s.k % 4 != 0);
        const bool square = s.m == s.n && s.n == s.k;
        big_squares += square && (s.m == 4096 || s.m == 8192 || s.m == 16384) ? 1 : 0;
    }
    EXPECT_TRUE(one_row);
    EXPECT_TRUE(few_rows);
    EXPECT_TRUE(few_rows_big);
    EXPECT_TRUE(one_column);
    EXPECT_TRUE(tiny_long);
    EXPECT_TRUE(transformer);
    EXPECT_TRUE(odd);
    EXPECT_EQ(big_squares, 3);
}

// The mid-size suite is what its purpose says: 80 shapes of 10^9 multiply-adds or more, sides up to
// 8192 and K from 16, each named by the alignment of its n and k, and most of them without float4
// for B (n not a multiple of 4), as in random shapes.
TEST(ShapeSuites, MidSizeIsLargeAndNamedByItsAlignment) {
    const bench::ShapeSuite* suite = bench::find_suite("mid-size");
    ASSERT_NE(suite, nullptr);
    EXPECT_EQ(suite->count, 80u);
    int n_unaligned = 0;
    for (std::size_t i = 0; i < suite->count; ++i) {
        const bench::Shape s = bench::parse_shape(suite->shapes[i].shape);
        EXPECT_GE(static_cast<double>(s.m) * s.n * s.k, 1e9) << suite->shapes[i].shape;
        EXPECT_LE(std::max(s.m, s.n), 8192) << suite->shapes[i].shape;
        EXPECT_LE(s.k, 8192) << suite->shapes[i].shape;
        EXPECT_GE(s.k, 16) << suite->shapes[i].shape;
        const char* expected =
            s.n % 4 == 0   ? (s.k % 4 == 0 ? "n and k multiples of 4" : "n a multiple of 4, k not")
            : s.k % 4 == 0 ? "k a multiple of 4, n not"
                           : "neither n nor k a multiple of 4";
        EXPECT_STREQ(suite->shapes[i].kind, expected) << suite->shapes[i].shape;
        n_unaligned += s.n % 4 != 0 ? 1 : 0;
    }
    EXPECT_GT(n_unaligned, 40);
}

}  // namespace
