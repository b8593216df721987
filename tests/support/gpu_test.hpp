/// \file
/// \brief For GPU tests: skip, with the reason, when no GPU is present.
#pragma once

#include <gtest/gtest.h>

#include "common/device.hpp"

/// Skips the current test when no HIP device can be used; CTest then reports it as skipped and the
/// output says why. Passing without a GPU would hide that nothing was checked.
#define TUTORIAL_REQUIRE_GPU()                                                    \
    do {                                                                          \
        if (const auto tutorial_no_gpu_ = ::tutorial::gpu_unavailable_reason()) { \
            GTEST_SKIP() << *tutorial_no_gpu_;                                    \
        }                                                                         \
    } while (false)
