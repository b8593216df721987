/// \file
/// \brief For tests of refused input: the message a call throws.
#pragma once

#include <stdexcept>
#include <string>

namespace tutorial_test {

/// What `call` threw as an `Exception` (by default std::invalid_argument), or "(no exception)"
/// when it returned. Any other exception passes through, and fails the test that called it.
template <class Exception = std::invalid_argument, class Call>
std::string message_of(Call&& call) {
    try {
        call();
    } catch (const Exception& error) {
        return error.what();
    }
    return "(no exception)";
}

}  // namespace tutorial_test
