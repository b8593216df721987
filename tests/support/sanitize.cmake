# Runs PROGRAM (arguments in ARGS, separated by |) under compute-sanitizer --tool TOOL.
#   EXPECT=clean  the tool must report 0 errors and the program must exit 0
#   EXPECT=race   racecheck must report a hazard (the broken variant of step 03)
# Prints "SKIPPED: <reason>" (which CTest reports as skipped) when SKIP_REASON is set or no GPU
# is visible. Used by tutorial_add_sanitizer_tests().
if(SKIP_REASON)
    message("SKIPPED: ${SKIP_REASON}")
    return()
endif()
# A build of chosen targets may have left out gpu_info or the program: without gpu_info there is no
# telling whether a GPU is visible, so that fails and names what to build instead of skipping with
# no reason.
foreach(needed GPU_INFO PROGRAM)
    if(NOT EXISTS "${${needed}}")
        get_filename_component(target "${${needed}}" NAME_WE)
        message(FATAL_ERROR "${${needed}} does not exist: build it first "
                            "(cmake --build <build dir> --target ${target}, or the whole project)")
    endif()
endforeach()
execute_process(COMMAND "${GPU_INFO}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    string(STRIP "${out}${err}" reason)
    if(reason STREQUAL "")
        set(reason "${GPU_INFO} exited with ${rc} and said nothing")
    endif()
    message("SKIPPED: ${reason}")
    return()
endif()

string(REPLACE "|" ";" arguments "${ARGS}")
set(options --tool ${TOOL} --error-exitcode 97)
if(TOOL STREQUAL "racecheck")
    list(APPEND options --racecheck-report hazard)
endif()
execute_process(COMMAND "${SANITIZER}" ${options} "${PROGRAM}" ${arguments}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(output "${out}${err}")
message("${output}")
if(EXPECT STREQUAL "race")
    if(NOT output MATCHES "Race reported|[Hh]azard detected|RACECHECK SUMMARY: [1-9]")
        message(FATAL_ERROR "expected racecheck to report a shared-memory race, got exit ${rc}")
    endif()
else()
    if(NOT rc EQUAL 0 OR NOT output MATCHES "ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards")
        message(FATAL_ERROR "expected a clean ${TOOL} run (exit 0, 0 errors), got exit ${rc}")
    endif()
endif()
