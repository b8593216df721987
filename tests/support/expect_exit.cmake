# Runs PROGRAM with ARGS (separated by |) and fails unless it exits with EXIT_CODE and its output
# (stdout and stderr together) matches REGEX. Used by tutorial_add_program_tests().
string(REPLACE "|" ";" arguments "${ARGS}")
execute_process(COMMAND "${PROGRAM}" ${arguments} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(output "${out}${err}")
if(NOT rc STREQUAL "${EXIT_CODE}")
    message(FATAL_ERROR "expected exit code ${EXIT_CODE}, got ${rc}; output:\n${output}")
endif()
if(NOT output MATCHES "${REGEX}")
    message(FATAL_ERROR "output does not match '${REGEX}':\n${output}")
endif()
message("exit ${rc} as expected; output:\n${output}")
