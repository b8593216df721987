# Runs every step program in order at its default size; called by the 'run_tutorial' target.
#   PROGRAMS   the programs, separated by |
#   NEEDS_GPU  ON/OFF for each program, separated by |
#   GPU_INFO   the gpu_info program, empty when the build has no GPU runtime
#   HIP_ON_CPU ON when the kernels run on the CPU (GPU_RUNTIME=CPU): the summary says what that means
# On a machine without a GPU the GPU steps are reported as not run, with the reason, and the run
# still succeeds; any other failure of a step fails the run.
string(REPLACE "|" ";" programs "${PROGRAMS}")
string(REPLACE "|" ";" needs_gpu "${NEEDS_GPU}")

set(gpu_missing_reason "")
if(GPU_INFO)
    execute_process(COMMAND "${GPU_INFO}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    string(STRIP "${out}${err}" gpu_text)
    if(rc EQUAL 0)
        message("${gpu_text}")
    else()
        set(gpu_missing_reason "${gpu_text}")
    endif()
endif()

set(failed "")
set(not_run "")
foreach(program needs IN ZIP_LISTS programs needs_gpu)
    get_filename_component(name "${program}" NAME_WE)
    message("\n========== ${name} ==========")
    if(needs AND gpu_missing_reason)
        message("not run: ${gpu_missing_reason}")
        list(APPEND not_run ${name})
        continue()
    endif()
    execute_process(COMMAND "${program}" RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
        list(APPEND failed "${name} (exit ${rc})")
    endif()
endforeach()

message("\n========== summary ==========")
if(not_run)
    list(JOIN not_run ", " not_run_text)
    message("not run, no GPU: ${not_run_text}")
endif()
if(failed)
    list(JOIN failed ", " failed_text)
    message(FATAL_ERROR "failed: ${failed_text}")
endif()
message("every step that ran was verified")
if(HIP_ON_CPU)
    message("HIP ran on the CPU (GPU_RUNTIME=CPU): the results were checked against the reference, and "
            "the timings are the CPU's at small sizes, for checking, not speed; a GPU needs "
            "GPU_RUNTIME=CUDA or HIP")
endif()
