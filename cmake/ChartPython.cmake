# TUTORIAL_CHART_PYTHON: the first python3 in PATH that has matplotlib, which
# docs/results/make_results.py needs for the results charts. The Python that find_package(Python3)
# finds may lack it (a pyenv or virtual environment ahead of the system's in PATH). Empty
# (TUTORIAL_CHART_PYTHON-NOTFOUND) when no python3 has it.
include_guard(GLOBAL)
function(tutorial_has_matplotlib result python)
    execute_process(COMMAND "${python}" -c "import matplotlib" RESULT_VARIABLE failed
                    OUTPUT_QUIET ERROR_QUIET)
    if(failed)
        set(${result} FALSE PARENT_SCOPE)
    endif()
endfunction()
find_program(TUTORIAL_CHART_PYTHON NAMES python3 NAMES_PER_DIR
             VALIDATOR tutorial_has_matplotlib
             DOC "a Python with matplotlib, for the results charts (docs/results/*.svg)")
