#include <gtest/gtest.h>

#include <stdexcept>

#include "common/matrix.hpp"

using tutorial::Matrix;

TEST(Matrix, NestedListsAreStoredRowByRow) {
    const Matrix<int> a{{1, 4}, {2, 5}, {3, 6}};
    ASSERT_EQ(a.rows(), 3);
    ASSERT_EQ(a.cols(), 2);
    const int expected[] = {1, 4, 2, 5, 3, 6};
    for (int i = 0; i < 6; ++i)
        EXPECT_EQ(a.data()[i], expected[i]) << "index " << i;
    EXPECT_EQ(a(2, 1), 6);
    EXPECT_EQ(a(1, 0), 2);
}

TEST(Matrix, RaggedRowsAreRejected) {
    EXPECT_THROW((Matrix<int>{{1, 2}, {3}}), std::invalid_argument);
}

TEST(Matrix, SizeAndBytesFollowTheShape) {
    const Matrix<float> a(7, 3);
    EXPECT_EQ(a.size(), 21u);
    EXPECT_EQ(a.bytes(), 21u * sizeof(float));
}

TEST(FillRandom, SameSeedSameValuesOtherSeedOtherValues) {
    Matrix<float> a(16, 16), b(16, 16), c(16, 16);
    tutorial::fill_random(a, 7);
    tutorial::fill_random(b, 7);
    tutorial::fill_random(c, 8);
    int differing = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a.data()[i], b.data()[i]);
        differing += a.data()[i] != c.data()[i];
    }
    EXPECT_GT(differing, 200);
}

TEST(FillRandom, ValuesStayInRangeAndAreNotConstant) {
    Matrix<float> a(32, 32);
    tutorial::fill_random(a, 1);
    float low = 1.0f, high = -1.0f;
    for (std::size_t i = 0; i < a.size(); ++i) {
        low = std::min(low, a.data()[i]);
        high = std::max(high, a.data()[i]);
    }
    EXPECT_GE(low, -1.0f);
    EXPECT_LE(high, 1.0f);
    EXPECT_LT(low, -0.9f);  // both signs appear
    EXPECT_GT(high, 0.9f);

    Matrix<int> b(32, 32);
    tutorial::fill_random(b, 1, -3, 3);
    int seen_low = 0, seen_high = 0;
    for (std::size_t i = 0; i < b.size(); ++i) {
        ASSERT_GE(b.data()[i], -3);
        ASSERT_LE(b.data()[i], 3);
        seen_low += b.data()[i] == -3;
        seen_high += b.data()[i] == 3;
    }
    EXPECT_GT(seen_low, 0);
    EXPECT_GT(seen_high, 0);
}
