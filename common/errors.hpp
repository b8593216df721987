/// \file
/// \brief Exit codes of the step programs and the two kinds of failure that map onto them.
#pragma once

#include <stdexcept>
#include <string>

namespace tutorial {

/// What every step program returns, so scripts and tests can tell the outcomes apart.
enum ExitCode : int {
    kExitVerified = 0,            ///< the result matched the reference (or verification was off)
    kExitVerificationFailed = 1,  ///< the result differs from the reference beyond the bound
    kExitBadUsage = 2,        ///< the command line was wrong: bad size, unknown option, bad device
    kExitRuntimeFailure = 3,  ///< no device, out of memory, or a driver or runtime error
};

/// A mistake on the command line. Its message names the option and says what was expected.
class UsageError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

/// The machine could not do what was asked: no GPU, not enough memory, a failing HIP call.
class RuntimeFailure : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

}  // namespace tutorial
