# add_tutorial_step(<program>
#                   [HOST_LIBRARY <target> HOST_SOURCES <files...> HOST_LINK_LIBRARIES <targets...>]
#                   LIBRARY <target> LIBRARY_SOURCES <files...> [LINK_LIBRARIES <targets...>]
#                   PROGRAM_SOURCES <files...>
#                   [GPU])
#
# Builds a step as two targets: the library <target> with the step's documented entry point (tests,
# the benchmark and later steps link it) and the demo program <program>. GPU steps compile their
# .hip sources for the chosen platform and are left out, with a message, when GPU_RUNTIME=NONE.
# HOST_LIBRARY: the step's plain host code (tile tables, plans, the choice among them), a library of
# its own that is built and tested on every route, GPU or not, and that the step's library links.
# LINK_LIBRARIES: the earlier steps whose kernels the step's library uses.
# Every program is registered, in order, for the tutorial runner (tutorial_add_runner).
function(add_tutorial_step program)
    cmake_parse_arguments(PARSE_ARGV 1 STEP "GPU" "LIBRARY;HOST_LIBRARY"
                          "LIBRARY_SOURCES;LINK_LIBRARIES;PROGRAM_SOURCES;HOST_SOURCES;HOST_LINK_LIBRARIES")
    if(STEP_HOST_LIBRARY)
        add_library(${STEP_HOST_LIBRARY} STATIC ${STEP_HOST_SOURCES})
        target_include_directories(${STEP_HOST_LIBRARY} PUBLIC "${CMAKE_CURRENT_SOURCE_DIR}")
        target_link_libraries(${STEP_HOST_LIBRARY} PUBLIC ${STEP_HOST_LINK_LIBRARIES})
    endif()
    if(STEP_GPU AND NOT TUTORIAL_HAS_GPU_RUNTIME)
        message(STATUS "Skipping ${program}: it needs a GPU runtime (GPU_RUNTIME is NONE)")
        # The tests of the program are left out too (tests/support/TestHelpers.cmake).
        set_property(GLOBAL APPEND PROPERTY TUTORIAL_STEPS_LEFT_OUT ${program})
        return()
    endif()

    add_library(${STEP_LIBRARY} STATIC ${STEP_LIBRARY_SOURCES})
    target_include_directories(${STEP_LIBRARY} PUBLIC "${CMAKE_CURRENT_SOURCE_DIR}")
    add_executable(${program} ${STEP_PROGRAM_SOURCES})
    target_link_libraries(${program} PRIVATE ${STEP_LIBRARY})
    if(STEP_GPU)
        target_link_libraries(${STEP_LIBRARY} PUBLIC tutorial_gpu)
        tutorial_use_hip(${STEP_LIBRARY})
        tutorial_use_hip(${program})
    else()
        target_link_libraries(${STEP_LIBRARY} PUBLIC tutorial_common)
    endif()
    target_link_libraries(${STEP_LIBRARY} PUBLIC ${STEP_HOST_LIBRARY} ${STEP_LINK_LIBRARIES})

    set_property(GLOBAL APPEND PROPERTY TUTORIAL_STEP_PROGRAMS "$<TARGET_FILE:${program}>")
    set_property(GLOBAL APPEND PROPERTY TUTORIAL_STEP_TARGETS ${program})
    if(STEP_GPU)
        set_property(GLOBAL APPEND PROPERTY TUTORIAL_STEP_NEEDS_GPU ON)
    else()
        set_property(GLOBAL APPEND PROPERTY TUTORIAL_STEP_NEEDS_GPU OFF)
    endif()
endfunction()

# The 'run_tutorial' target: runs every step program in order at its default size (see
# cmake/RunTutorial.cmake). The 'tutorial' workflow preset builds it.
function(tutorial_add_runner)
    get_property(programs GLOBAL PROPERTY TUTORIAL_STEP_PROGRAMS)
    get_property(targets GLOBAL PROPERTY TUTORIAL_STEP_TARGETS)
    get_property(needs_gpu GLOBAL PROPERTY TUTORIAL_STEP_NEEDS_GPU)
    set(gpu_info "")
    if(TARGET gpu_info)
        set(gpu_info "$<TARGET_FILE:gpu_info>")
        list(APPEND targets gpu_info)
    endif()
    string(REPLACE ";" "|" programs "${programs}")
    string(REPLACE ";" "|" needs_gpu "${needs_gpu}")
    add_custom_target(run_tutorial
        COMMAND "${CMAKE_COMMAND}" "-DPROGRAMS=${programs}" "-DNEEDS_GPU=${needs_gpu}"
                "-DGPU_INFO=${gpu_info}" "-DHIP_ON_CPU=${TUTORIAL_HIP_ON_CPU}" -P "${PROJECT_SOURCE_DIR}/cmake/RunTutorial.cmake"
        DEPENDS ${targets}
        USES_TERMINAL
        VERBATIM
        COMMENT "Running every step of the tutorial")
endfunction()
