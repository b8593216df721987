/// \file
/// \brief A fault that step 10's tests inject into step10::gemm, kept out of the program's
/// options: the program sets it only from the environment variable STEP10_TEST_FAIL_RANK, which
/// the tests set.
#pragma once

namespace step10::test_hooks {

/// Makes the rank `rank` of the grid throw tutorial::RuntimeFailure in step10::gemm, once the
/// first panels' broadcasts have started, so that the other ranks are waiting for it inside MPI:
/// the test that a failing rank ends the whole run, rather than leaving the others waiting.
/// -1 (the default) turns it off.
void fail_on_rank(int rank);

/// Whether `rank` is to fail now.
bool fails_on(int rank);

}  // namespace step10::test_hooks
