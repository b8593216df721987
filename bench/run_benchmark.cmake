# Runs gemm_benchmark for the 'benchmark' target, with --commit set to the commit of the source
# tree ("-dirty" appended when tracked files differ from it), so the JSON says what was measured.
#   BENCHMARK   the gemm_benchmark program
#   JSON        the file to write
#   SOURCE_DIR  the repository
#   ARGS        more arguments, separated by |
#   COMMIT      the commit to record instead of asking git (a copy of the tree without .git)
set(commit "unknown")
find_package(Git QUIET)
if(COMMIT)
    set(commit "${COMMIT}")
elseif(GIT_FOUND)
    execute_process(COMMAND "${GIT_EXECUTABLE}" rev-parse --short HEAD
                    WORKING_DIRECTORY "${SOURCE_DIR}" RESULT_VARIABLE rc OUTPUT_VARIABLE head
                    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(rc EQUAL 0)
        set(commit "${head}")
        execute_process(COMMAND "${GIT_EXECUTABLE}" diff --quiet HEAD --
                        WORKING_DIRECTORY "${SOURCE_DIR}" RESULT_VARIABLE dirty)
        if(NOT dirty EQUAL 0)
            string(APPEND commit "-dirty")
        endif()
    endif()
endif()
string(REPLACE "|" ";" arguments "${ARGS}")
message("gemm_benchmark --json ${JSON} --commit ${commit} ${arguments}")
execute_process(COMMAND "${BENCHMARK}" --json "${JSON}" --commit "${commit}" ${arguments}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gemm_benchmark failed (exit ${rc})")
endif()
