#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>

#include "common/byte_size.hpp"

namespace {
constexpr std::uint64_t kMiB = 1ull << 20;
constexpr std::uint64_t kGiB = 1ull << 30;
}  // namespace

TEST(ByteSize, FormatsInTheLargestBinaryUnitBelowTheSize) {
    EXPECT_EQ(tutorial::format_bytes(0), "0 bytes");
    EXPECT_EQ(tutorial::format_bytes(1), "1 byte");
    EXPECT_EQ(tutorial::format_bytes(176), "176 bytes");
    EXPECT_EQ(tutorial::format_bytes(1023), "1023 bytes");
    EXPECT_EQ(tutorial::format_bytes(1024), "1.00 KiB");
    EXPECT_EQ(tutorial::format_bytes(3 * kGiB / 2), "1.50 GiB");
    EXPECT_EQ(tutorial::format_bytes(700 * kMiB), "700.00 MiB");
    EXPECT_EQ(tutorial::format_bytes(2048 * kGiB), "2.00 TiB");
    EXPECT_EQ(tutorial::format_bytes(4096 * 1024 * kGiB), "4096.00 TiB");  // no unit above TiB
    // With the exact count where it says more, and once where it would repeat the same words.
    EXPECT_EQ(tutorial::format_bytes_exactly(1), "1 byte");
    EXPECT_EQ(tutorial::format_bytes_exactly(12), "12 bytes");
    EXPECT_EQ(tutorial::format_bytes_exactly(1023), "1023 bytes");
    EXPECT_EQ(tutorial::format_bytes_exactly(1536), "1.50 KiB (1536 bytes)");
}

TEST(ByteSize, ReadsBinaryAndDecimalUnits) {
    EXPECT_EQ(tutorial::parse_byte_size("2GiB"), 2 * kGiB);
    EXPECT_EQ(tutorial::parse_byte_size("512MiB"), 512 * kMiB);
    EXPECT_EQ(tutorial::parse_byte_size("1.5 GiB"), 3 * kGiB / 2);
    EXPECT_EQ(tutorial::parse_byte_size("64kib"), 64u * 1024u);
    EXPECT_EQ(tutorial::parse_byte_size("3GB"), 3000000000u);
    EXPECT_EQ(tutorial::parse_byte_size("2tb"), 2000000000000u);
    EXPECT_EQ(tutorial::parse_byte_size("1048576"), 1048576u);
    EXPECT_EQ(tutorial::parse_byte_size("7B"), 7u);
}

TEST(ByteSize, RejectsWhatIsNotASize) {
    for (const char* text : {"", "lots", "1.2.3GiB", "-1", "0", "0.1", "2 GiBs", "GiB", "1e9",
                             "99999999999TiB", ".", " 2GiB"}) {
        EXPECT_THROW(tutorial::parse_byte_size(text), std::invalid_argument) << "'" << text << "'";
    }
}

TEST(ByteSize, WhatIsFormattedReadsBack) {
    EXPECT_EQ(tutorial::parse_byte_size(tutorial::format_bytes(3 * kGiB / 2)), 3 * kGiB / 2);
}
