# The 'bench.results_json' test: the JSON that the benchmark writes (here with made-up figures,
# from results_json_sample) must be read by docs/results/make_results.py, which must write the
# results page and the chart from it.
#   SAMPLE   the results_json_sample program
#   PYTHON   the Python 3 interpreter
#   SCRIPT   docs/results/make_results.py
#   WORK     a scratch folder
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
execute_process(COMMAND "${SAMPLE}" "${WORK}/sample.json" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "results_json_sample failed (exit ${rc})")
endif()
execute_process(COMMAND "${PYTHON}" "${SCRIPT}" "${WORK}/sample.json" --out "${WORK}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0 AND "${out}${err}" MATCHES "needs matplotlib")
    message("SKIPPED: make_results.py draws the chart with matplotlib, which ${PYTHON} lacks")
    return()
endif()
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "make_results.py could not read the benchmark's JSON (exit ${rc})")
endif()
foreach(written nvidia-h100-80gb-hbm3.md nvidia-h100-80gb-hbm3.svg nvidia-h100-80gb-hbm3.json)
    if(NOT EXISTS "${WORK}/${written}")
        message(FATAL_ERROR "make_results.py did not write ${written}")
    endif()
endforeach()
file(READ "${WORK}/nvidia-h100-80gb-hbm3.md" page)
foreach(expected "580.159.04" "FAILED" "skipped" "1000 x 3000 x 500" "66.9 TFLOPS" "`0000000`"
                 "## The sample suite" "| 05 | `reg8x8_db` | 1 of 2 |" "| 02 | `naive_b16` (default) | 2 of 2 |")
    string(FIND "${page}" "${expected}" at)
    if(at EQUAL -1)
        message(FATAL_ERROR "the results page lacks '${expected}':\n${page}")
    endif()
endforeach()
