# tutorial_add_gtest(<target> SOURCES <files...> LIBRARIES <targets...> [GPU | MULTI_GPU] [RUN_SERIAL])
#   A GoogleTest executable whose tests CTest discovers when it runs. GPU suites compile their .hip
#   files for the chosen platform and get the label 'gpu' (MULTI_GPU: 'multi_gpu', the suites that
#   need two GPUs); without a GPU their tests call GTEST_SKIP() with the reason, which CTest reports
#   as skipped. RUN_SERIAL: the suite measures a whole device's free memory, so it runs alone.
function(tutorial_add_gtest target)
    cmake_parse_arguments(PARSE_ARGV 1 TEST "GPU;MULTI_GPU;RUN_SERIAL" "" "SOURCES;LIBRARIES")
    add_executable(${target} ${TEST_SOURCES})
    target_include_directories(${target} PRIVATE "${PROJECT_SOURCE_DIR}")
    target_link_libraries(${target} PRIVATE ${TEST_LIBRARIES} GTest::gtest_main)
    set(properties "")
    if(TEST_GPU OR TEST_MULTI_GPU)
        tutorial_use_hip(${target})
        set(label gpu)
        if(TEST_MULTI_GPU)
            set(label multi_gpu)
        endif()
        list(APPEND properties LABELS ${label})
    endif()
    if(TEST_RUN_SERIAL)
        list(APPEND properties RUN_SERIAL TRUE)
    endif()
    if(properties)
        list(PREPEND properties PROPERTIES)
    endif()
    # Listing the tests loads the GPU runtime's libraries; on a busy two-core machine that took
    # longer than the default 5 s once, and a discovery timeout fails the whole ctest run.
    gtest_discover_tests(${target} DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 120 ${properties})
endfunction()

# TRUE in <result> when add_tutorial_step left <program> out (GPU_RUNTIME=NONE): the functions below
# then add none of its tests.
function(tutorial_program_left_out program result)
    get_property(left_out GLOBAL PROPERTY TUTORIAL_STEPS_LEFT_OUT)
    set(${result} FALSE PARENT_SCOPE)
    if(program IN_LIST left_out)
        set(${result} TRUE PARENT_SCOPE)
    endif()
endfunction()

# tutorial_add_kernel_step_tests(<step> [HOST_TEST <source> HOST_LIBRARY <target>]
#                                [GPU_TESTS <sources...>] [SERIAL_GPU_TESTS <sources...>]
#                                [MULTI_GPU_TESTS <sources...>]
#                                PROGRAM <program> [EXAMPLE_REGEX <regex>] [INDEX64])
#   The tests of a kernel step, all labelled <step> (this folder's LABELS): one GoogleTest program
#   per source, named after it. HOST_TEST links the step's host library and runs on every route, GPU
#   or not. The GPU suites link the library <step>; SERIAL_GPU_TESTS run alone (RUN_SERIAL),
#   MULTI_GPU_TESTS too, labelled 'multi_gpu'. Then the program's command-line tests
#   (tutorial_add_program_tests, INDEX64 passed on). Without a GPU runtime only HOST_TEST is added.
function(tutorial_add_kernel_step_tests step)
    cmake_parse_arguments(PARSE_ARGV 1 STEP "INDEX64" "HOST_TEST;HOST_LIBRARY;PROGRAM;EXAMPLE_REGEX"
                          "GPU_TESTS;SERIAL_GPU_TESTS;MULTI_GPU_TESTS")
    set_property(DIRECTORY PROPERTY LABELS ${step})
    if(STEP_HOST_TEST)
        get_filename_component(target ${STEP_HOST_TEST} NAME_WE)
        tutorial_add_gtest(${target} SOURCES ${STEP_HOST_TEST} LIBRARIES ${STEP_HOST_LIBRARY})
    endif()
    tutorial_program_left_out(${STEP_PROGRAM} left_out)
    if(left_out)
        return()
    endif()
    set(options_GPU GPU)
    set(options_SERIAL_GPU GPU RUN_SERIAL)
    set(options_MULTI_GPU MULTI_GPU RUN_SERIAL)
    foreach(kind IN ITEMS GPU SERIAL_GPU MULTI_GPU)
        foreach(source IN LISTS STEP_${kind}_TESTS)
            get_filename_component(target ${source} NAME_WE)
            tutorial_add_gtest(${target} SOURCES ${source} LIBRARIES ${step} ${options_${kind}})
        endforeach()
    endforeach()
    set(index64 "")
    if(STEP_INDEX64)
        set(index64 INDEX64)
    endif()
    tutorial_add_program_tests(${STEP_PROGRAM} GPU ${index64} EXAMPLE_REGEX "${STEP_EXAMPLE_REGEX}")
endfunction()

# One run of a step program: tests/support/expect_exit.cmake checks exit code and output.
# The program's arguments come last, each one as it would be typed.
function(tutorial_add_program_case program name exit_code regex)
    tutorial_program_left_out(${program} left_out)
    if(left_out)
        return()
    endif()
    string(REPLACE ";" "|" arguments "${ARGN}")
    add_test(NAME ${program}.${name}
             COMMAND "${CMAKE_COMMAND}" "-DPROGRAM=$<TARGET_FILE:${program}>" "-DARGS=${arguments}"
                     "-DEXIT_CODE=${exit_code}" "-DREGEX=${regex}"
                     -P "${PROJECT_SOURCE_DIR}/tests/support/expect_exit.cmake")
endfunction()

# A case that needs a GPU: without one the program rightly stops first with exit 3 and the case is
# reported as skipped. Arguments as tutorial_add_program_case's.
function(tutorial_add_gpu_program_case program name exit_code regex)
    tutorial_add_program_case(${program} ${name} ${exit_code} "${regex}" ${ARGN})
    if(TEST ${program}.${name})
        set_tests_properties(${program}.${name} PROPERTIES SKIP_REGULAR_EXPRESSION "no HIP device was found")
    endif()
endfunction()

# tutorial_add_big_case(<program> <name> <regex> <args...>)
#   A run of <program> with matrices past 2^31 elements, label 'big': gigabytes of host and device
#   memory and a minute or so on a GPU, so only where the kernels run on one (not the CPU route).
#   It must exit 0 and print what matches <regex>.
function(tutorial_add_big_case program name regex)
    if(TUTORIAL_HIP_ON_CPU)
        return()
    endif()
    tutorial_add_gpu_program_case(${program} ${name} 0 "${regex}" ${ARGN})
    if(TEST ${program}.${name})
        set_property(TEST ${program}.${name} APPEND PROPERTY LABELS big)
        set_tests_properties(${program}.${name} PROPERTIES RUN_SERIAL TRUE TIMEOUT 600)
    endif()
endfunction()

# The options --splits and --stream-k of step 07, which step 08 keeps: bad text is refused before
# any GPU is looked for.
function(tutorial_add_split_option_cases program)
    tutorial_add_program_case(${program} splits_zero 2
        "--splits: '0' is not a split factor; choose a whole number from 1 to 256" --splits 0)
    tutorial_add_program_case(${program} splits_not_a_number 2 "--splits: '2x' is not a split factor" --splits 2x)
    tutorial_add_program_case(${program} stream_k_too_many 2
        "--stream-k: '1025' is not a number of stream-K workers; choose a whole number from 0 \\(no stream-K\\) to 1024 \\(or auto\\)" --stream-k 1025)
    tutorial_add_program_case(${program} stream_k_with_split_k 2
        "--splits and --stream-k: split-K or stream-K, not both: got split 3 with 2 stream-K workers" --splits 3 --stream-k 2)
endfunction()

# tutorial_add_program_tests(<program> [GPU] [INDEX64] [EXAMPLE_REGEX <regex>])
#   Runs a step program the way a learner would and checks its exit code and message:
#   --help (0), each kind of bad size and an unknown option (2, the message names the option): a
#   matrix past 2^31 - 1 elements, or with INDEX64 (steps that address matrices in 64 bits) a side
#   past 2^31 - 2^16,
#   for GPU programs no visible device (3, "no HIP device was found"; on the CPU route the device is
#   hidden through HIP_VISIBLE_DEVICES, which common/hip_on_cpu honours), and with EXAMPLE_REGEX the
#   printed worked example.
function(tutorial_add_program_tests program)
    cmake_parse_arguments(PARSE_ARGV 1 PROG "GPU;INDEX64" "EXAMPLE_REGEX" "")
    tutorial_program_left_out(${program} left_out)
    if(left_out)
        return()
    endif()
    tutorial_add_program_case(${program} help 0 "Usage:.*-m INT.*--seed" --help)
    tutorial_add_program_case(${program} size_zero 2 "-m: 0 is out of range" -m 0)
    tutorial_add_program_case(${program} size_negative 2 "-n: -5 is out of range" -n -5)
    tutorial_add_program_case(${program} size_not_a_number 2 "-k: 'abc' is not a whole number" -k abc)
    tutorial_add_program_case(${program} size_overflow 2 "-m: 99999999999999 is out of range" -m 99999999999999)
    if(PROG_INDEX64)
        tutorial_add_program_case(${program} size_past_the_step 2 "-m: 2147418113 is out of range"
                                  -m 2147418113)
    else()
        tutorial_add_program_case(${program} matrix_too_large 2 "A \\(m x k\\) would be" -m 65536 -k 65536)
    endif()
    tutorial_add_program_case(${program} unknown_option 2 "--bogus" --bogus)
    if(PROG_GPU)
        tutorial_add_program_case(${program} no_gpu 3 "no HIP device was found" -s 64)
        # Hides every device from the CUDA and HIP runtimes, as on a machine without a GPU.
        set_tests_properties(${program}.no_gpu PROPERTIES
                             ENVIRONMENT "CUDA_VISIBLE_DEVICES=-1;HIP_VISIBLE_DEVICES=-1")
    endif()
    if(PROG_EXAMPLE_REGEX AND PROG_GPU)
        tutorial_add_gpu_program_case(${program} worked_example 0 "${PROG_EXAMPLE_REGEX}" --example-only)
    elseif(PROG_EXAMPLE_REGEX)
        tutorial_add_program_case(${program} worked_example 0 "${PROG_EXAMPLE_REGEX}" --example-only)
    endif()
endfunction()

# tutorial_add_sanitizer_tests(<program> [EXPECT_RACE] [ARGS <args...>] [RUN <suffix> <args...>]...)
#   Label 'sanitize': runs <program> under NVIDIA's compute-sanitizer, once with memcheck and once
#   with racecheck, with ARGS, by default at an awkward size (67 x 45 x 33, no timing). Both must
#   report zero errors. With EXPECT_RACE only racecheck runs, and it must report a shared-memory
#   hazard (the step 03 demonstration, whose result may well be wrong). Each RUN adds a set of runs
#   with other arguments (other sizes, -b, --tile), the tests <program>.memcheck<suffix> and
#   <program>.racecheck<suffix>. Skipped, with the reason, when compute-sanitizer is not installed,
#   when the build targets AMD, or when no GPU is visible.
find_program(TUTORIAL_COMPUTE_SANITIZER compute-sanitizer
             HINTS ENV CUDA_PATH PATHS /usr/local/cuda PATH_SUFFIXES bin
             DOC "NVIDIA compute-sanitizer, for the 'sanitize' tests")
function(tutorial_add_sanitizer_tests program)
    tutorial_program_left_out(${program} left_out)
    if(left_out)
        return()
    endif()
    # ARGN up to the first RUN: the options of the first set of runs; after it, the other sets.
    set(options ${ARGN})
    set(runs "")
    list(FIND ARGN RUN first_run)
    if(first_run GREATER_EQUAL 0)
        list(SUBLIST ARGN 0 ${first_run} options)
        list(SUBLIST ARGN ${first_run} -1 runs)
    endif()
    cmake_parse_arguments(SAN "EXPECT_RACE" "" "ARGS" ${options})
    if(NOT SAN_ARGS)
        set(SAN_ARGS -m 67 -n 45 -k 33 --no-timing)
    endif()
    set(tools memcheck racecheck)
    set(expect_racecheck clean)
    if(SAN_EXPECT_RACE)
        set(tools racecheck)
        set(expect_racecheck race)
    endif()
    tutorial_add_sanitizer_runs(${program} "" "${tools}" ${expect_racecheck} ${SAN_ARGS})
    # Each RUN <suffix> <args...>, the list closed by one more RUN.
    set(suffix "")
    set(arguments "")
    foreach(item IN LISTS runs ITEMS RUN)
        if(item STREQUAL "RUN")
            if(suffix)
                tutorial_add_sanitizer_runs(${program} ${suffix} "${tools}" ${expect_racecheck} ${arguments})
            endif()
            set(suffix "")
            set(arguments "")
        elseif(NOT suffix)
            set(suffix ${item})
        else()
            list(APPEND arguments ${item})
        endif()
    endforeach()
endfunction()

# One set of runs of tutorial_add_sanitizer_tests: one test per tool, named <program>.<tool><suffix>.
function(tutorial_add_sanitizer_runs program suffix tools expect_racecheck)
    string(REPLACE ";" "|" arguments "${ARGN}")
    set(skip_reason "")
    if(TUTORIAL_HIP_ON_CPU)
        set(skip_reason "compute-sanitizer checks NVIDIA GPUs; on the CPU route the kernels' memory accesses are checked by AddressSanitizer instead (preset cpu-sanitize, run by CI)")
    elseif(NOT TUTORIAL_GPU_RUNTIME STREQUAL "CUDA")
        set(skip_reason "compute-sanitizer checks NVIDIA GPUs; this build targets ${TUTORIAL_GPU_PLATFORM}")
    elseif(NOT TUTORIAL_COMPUTE_SANITIZER)
        set(skip_reason "compute-sanitizer was not found (it ships with the CUDA toolkit)")
    endif()
    foreach(tool IN LISTS tools)
        set(expect clean)
        if(tool STREQUAL "racecheck")
            set(expect ${expect_racecheck})
        endif()
        add_test(NAME ${program}.${tool}${suffix}
                 COMMAND "${CMAKE_COMMAND}" "-DSANITIZER=${TUTORIAL_COMPUTE_SANITIZER}" "-DTOOL=${tool}"
                         "-DEXPECT=${expect}" "-DSKIP_REASON=${skip_reason}"
                         "-DPROGRAM=$<TARGET_FILE:${program}>" "-DARGS=${arguments}"
                         "-DGPU_INFO=$<TARGET_FILE:gpu_info>"
                         -P "${PROJECT_SOURCE_DIR}/tests/support/sanitize.cmake")
        set_tests_properties(${program}.${tool}${suffix} PROPERTIES LABELS "sanitize" SKIP_REGULAR_EXPRESSION "SKIPPED:")
    endforeach()
endfunction()
