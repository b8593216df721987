/// \file
/// \brief HIP_CHECK: every HIP call is checked, and a failure names the call, the error, the file
/// and the line.
#pragma once

#include <hip/hip_runtime.h>

namespace tutorial {

/// Throws a RuntimeFailure describing a failed HIP call. Used by HIP_CHECK.
[[noreturn]] void throw_hip_error(hipError_t status, const char* expression, const char* file,
                                  int line);

}  // namespace tutorial

/// Evaluates `expression` (a HIP runtime call) and throws tutorial::RuntimeFailure when it does not
/// return hipSuccess. The message reads, for example:
/// `HIP call 'hipMalloc(&pointer, bytes)' failed with hipErrorOutOfMemory (out of memory) at
/// file:line`.
#define HIP_CHECK(expression)                                                                \
    do {                                                                                     \
        const hipError_t hip_check_status_ = (expression);                                   \
        if (hip_check_status_ != hipSuccess) {                                               \
            ::tutorial::throw_hip_error(hip_check_status_, #expression, __FILE__, __LINE__); \
        }                                                                                    \
    } while (false)

/// Checks the kernel launch just made: a launch returns nothing, so a bad configuration (too many
/// threads per block, too much shared memory) only shows up in hipGetLastError().
#define HIP_CHECK_LAUNCH() HIP_CHECK(hipGetLastError())
