# tutorial_add_gtest(<target> SOURCES <files...> LIBRARIES <targets...> [GPU])
#   A GoogleTest executable whose tests CTest discovers when it runs. GPU suites compile their .hip
#   files for the chosen platform and get the label 'gpu'; without a GPU their tests call
#   GTEST_SKIP() with the reason, which CTest reports as skipped.
function(tutorial_add_gtest target)
    cmake_parse_arguments(PARSE_ARGV 1 TEST "GPU" "" "SOURCES;LIBRARIES")
    add_executable(${target} ${TEST_SOURCES})
    target_include_directories(${target} PRIVATE "${PROJECT_SOURCE_DIR}")
    target_link_libraries(${target} PRIVATE ${TEST_LIBRARIES} GTest::gtest_main)
    set(properties "")
    if(TEST_GPU)
        tutorial_use_hip(${target})
        set(properties PROPERTIES LABELS gpu)
    endif()
    # Listing the tests loads the GPU runtime's libraries; on a busy two-core machine that took
    # longer than the default 5 s once, and a discovery timeout fails the whole ctest run.
    gtest_discover_tests(${target} DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 120 ${properties})
endfunction()

# One run of a step program: tests/support/expect_exit.cmake checks exit code and output.
# The program's arguments come last, each one as it would be typed.
function(tutorial_add_program_case program name exit_code regex)
    string(REPLACE ";" "|" arguments "${ARGN}")
    add_test(NAME ${program}.${name}
             COMMAND "${CMAKE_COMMAND}" "-DPROGRAM=$<TARGET_FILE:${program}>" "-DARGS=${arguments}"
                     "-DEXIT_CODE=${exit_code}" "-DREGEX=${regex}"
                     -P "${PROJECT_SOURCE_DIR}/tests/support/expect_exit.cmake")
endfunction()

# tutorial_add_program_tests(<program> [GPU] [EXAMPLE_REGEX <regex>])
#   Runs a step program the way a learner would and checks its exit code and message:
#   --help (0), each kind of bad size and an unknown option (2, the message names the option),
#   for GPU programs no visible device (3, "no HIP device was found"; on the CPU route the device is
#   hidden through HIP_VISIBLE_DEVICES, which common/hip_on_cpu honours), and with EXAMPLE_REGEX the
#   printed worked example.
function(tutorial_add_program_tests program)
    cmake_parse_arguments(PARSE_ARGV 1 PROG "GPU" "EXAMPLE_REGEX" "")
    tutorial_add_program_case(${program} help 0 "Usage:.*-m INT.*--seed" --help)
    tutorial_add_program_case(${program} size_zero 2 "-m: 0 is out of range" -m 0)
    tutorial_add_program_case(${program} size_negative 2 "-n: -5 is out of range" -n -5)
    tutorial_add_program_case(${program} size_not_a_number 2 "-k: 'abc' is not a whole number" -k abc)
    tutorial_add_program_case(${program} size_overflow 2 "-m: 99999999999999 is out of range" -m 99999999999999)
    tutorial_add_program_case(${program} matrix_too_large 2 "A \\(m x k\\) would be" -m 65536 -k 65536)
    tutorial_add_program_case(${program} unknown_option 2 "--bogus" --bogus)
    if(PROG_GPU)
        tutorial_add_program_case(${program} no_gpu 3 "no HIP device was found" -s 64)
        # Hides every device from the CUDA and HIP runtimes, as on a machine without a GPU.
        set_tests_properties(${program}.no_gpu PROPERTIES
                             ENVIRONMENT "CUDA_VISIBLE_DEVICES=-1;HIP_VISIBLE_DEVICES=-1")
    endif()
    if(PROG_EXAMPLE_REGEX)
        tutorial_add_program_case(${program} worked_example 0 "${PROG_EXAMPLE_REGEX}" --example-only)
        if(PROG_GPU)
            # Without a GPU the program rightly stops with exit 3 before the example: not run.
            set_tests_properties(${program}.worked_example PROPERTIES
                                 SKIP_REGULAR_EXPRESSION "no HIP device was found")
        endif()
    endif()
endfunction()

# tutorial_add_sanitizer_tests(<program> [EXPECT_RACE] [SUFFIX <text>] [ARGS <args...>])
#   Label 'sanitize': runs <program> under NVIDIA's compute-sanitizer, once with memcheck and once
#   with racecheck, at an awkward size by default (67 x 45 x 33, no timing). Both must report zero
#   errors. With EXPECT_RACE only racecheck runs, and it must report a shared-memory hazard (the
#   step 03 demonstration, whose result may well be wrong). Skipped, with the reason, when compute-sanitizer is not installed, when the
#   build targets AMD, or when no GPU is visible. SUFFIX tells apart a second set of runs of the
#   same program (tests <program>.memcheck<SUFFIX>), for example with other sizes or -b.
find_program(TUTORIAL_COMPUTE_SANITIZER compute-sanitizer
             HINTS ENV CUDA_PATH PATHS /usr/local/cuda PATH_SUFFIXES bin
             DOC "NVIDIA compute-sanitizer, for the 'sanitize' tests")
function(tutorial_add_sanitizer_tests program)
    cmake_parse_arguments(PARSE_ARGV 1 SAN "EXPECT_RACE" "SUFFIX" "ARGS")
    if(NOT SAN_ARGS)
        set(SAN_ARGS -m 67 -n 45 -k 33 --no-timing)
    endif()
    string(REPLACE ";" "|" arguments "${SAN_ARGS}")
    set(skip_reason "")
    if(TUTORIAL_HIP_ON_CPU)
        set(skip_reason "compute-sanitizer checks NVIDIA GPUs; on the CPU route the kernels' memory accesses are checked by AddressSanitizer instead (preset cpu-sanitize, run by CI)")
    elseif(NOT TUTORIAL_GPU_RUNTIME STREQUAL "CUDA")
        set(skip_reason "compute-sanitizer checks NVIDIA GPUs; this build targets ${TUTORIAL_GPU_PLATFORM}")
    elseif(NOT TUTORIAL_COMPUTE_SANITIZER)
        set(skip_reason "compute-sanitizer was not found (it ships with the CUDA toolkit)")
    endif()
    set(expect_racecheck clean)
    if(SAN_EXPECT_RACE)
        set(expect_racecheck race)
    endif()
    set(tools memcheck racecheck)
    if(SAN_EXPECT_RACE)
        set(tools racecheck)
    endif()
    foreach(tool IN LISTS tools)
        set(expect clean)
        if(tool STREQUAL "racecheck")
            set(expect ${expect_racecheck})
        endif()
        add_test(NAME ${program}.${tool}${SAN_SUFFIX}
                 COMMAND "${CMAKE_COMMAND}" "-DSANITIZER=${TUTORIAL_COMPUTE_SANITIZER}" "-DTOOL=${tool}"
                         "-DEXPECT=${expect}" "-DSKIP_REASON=${skip_reason}"
                         "-DPROGRAM=$<TARGET_FILE:${program}>" "-DARGS=${arguments}"
                         "-DGPU_INFO=$<TARGET_FILE:gpu_info>"
                         -P "${PROJECT_SOURCE_DIR}/tests/support/sanitize.cmake")
        set_tests_properties(${program}.${tool}${SAN_SUFFIX} PROPERTIES LABELS "sanitize" SKIP_REGULAR_EXPRESSION "SKIPPED:")
    endforeach()
endfunction()
