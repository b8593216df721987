# The CPU route's dependency: ROCm's header-only HIP CPU Runtime (github.com/ROCm/HIP-CPU) and the
# TBB it runs kernels on. Found the ecosystem's way:
#   1. an installed package: find_package(hip_cpu_rt CONFIG), e.g. installed under CMAKE_PREFIX_PATH;
#   2. otherwise FetchContent at the pinned commit below; an offline machine points
#      FETCHCONTENT_SOURCE_DIR_HIP_CPU at a copy of that commit (see the README).
#
# tutorial_find_hip_cpu(<found_var> <why_var>)
#   Sets <found_var> TRUE and creates tutorial_hip_cpu (an interface target: headers, TBB, threads)
#   when the runtime is usable; otherwise FALSE, and <why_var> says in one sentence what is missing
#   and both ways to provide it. It never stops the configure step itself, so GPU_RUNTIME=AUTO can
#   fall back to NONE.
set(TUTORIAL_HIP_CPU_COMMIT e112c935057434897bb12d9ab3910380a8bd5f58)
set(TUTORIAL_HIP_CPU_URL "https://github.com/ROCm/HIP-CPU/archive/${TUTORIAL_HIP_CPU_COMMIT}.tar.gz")

function(tutorial_find_hip_cpu found_var why_var)
    set(${found_var} FALSE PARENT_SCOPE)
    string(CONCAT advice "install the HIP CPU Runtime package (find_package(hip_cpu_rt), e.g. with "
           "CMAKE_PREFIX_PATH), or point FETCHCONTENT_SOURCE_DIR_HIP_CPU at a copy of "
           "github.com/ROCm/HIP-CPU at commit ${TUTORIAL_HIP_CPU_COMMIT}")

    find_package(Threads QUIET)
    find_package(TBB CONFIG QUIET)
    if(NOT TBB_FOUND OR NOT TARGET TBB::tbb)
        set(${why_var} "TBB was not found (Debian/Ubuntu: apt-get install libtbb-dev)" PARENT_SCOPE)
        return()
    endif()

    find_package(hip_cpu_rt CONFIG QUIET)
    if(hip_cpu_rt_FOUND AND TARGET hip_cpu_rt::hip_cpu_rt)
        set(origin "installed package ${hip_cpu_rt_DIR}")
    else()
        include(FetchContent)
        # The archive is downloaded here rather than by FetchContent, so that a machine without
        # internet access gets one sentence of advice instead of a failed sub-build.
        if(NOT FETCHCONTENT_SOURCE_DIR_HIP_CPU)
            set(archive "${CMAKE_BINARY_DIR}/_deps/hip-cpu-${TUTORIAL_HIP_CPU_COMMIT}.tar.gz")
            if(NOT EXISTS "${archive}")
                if(FETCHCONTENT_FULLY_DISCONNECTED)
                    set(${why_var} "it is not installed and FETCHCONTENT_FULLY_DISCONNECTED is on: ${advice}"
                        PARENT_SCOPE)
                    return()
                endif()
                message(STATUS "HIP CPU Runtime: not installed, downloading commit ${TUTORIAL_HIP_CPU_COMMIT}")
                file(DOWNLOAD "${TUTORIAL_HIP_CPU_URL}" "${archive}.part"
                     STATUS status INACTIVITY_TIMEOUT 30 TIMEOUT 300)
                list(GET status 0 status_code)
                if(NOT status_code EQUAL 0)
                    file(REMOVE "${archive}.part")
                    list(GET status 1 status_text)
                    set(${why_var} "it is not installed and the download failed (${status_text}): ${advice}"
                        PARENT_SCOPE)
                    return()
                endif()
                file(RENAME "${archive}.part" "${archive}")
            endif()
            set(origin "downloaded commit ${TUTORIAL_HIP_CPU_COMMIT}")
        else()
            if(NOT EXISTS "${FETCHCONTENT_SOURCE_DIR_HIP_CPU}/include/hip/hip_runtime.h")
                set(${why_var} "FETCHCONTENT_SOURCE_DIR_HIP_CPU (${FETCHCONTENT_SOURCE_DIR_HIP_CPU}) holds no include/hip/hip_runtime.h: ${advice}"
                    PARENT_SCOPE)
                return()
            endif()
            set(archive "${TUTORIAL_HIP_CPU_URL}")  # not used: FetchContent takes the copy
            set(origin "${FETCHCONTENT_SOURCE_DIR_HIP_CPU}")
        endif()
        FetchContent_Declare(hip_cpu URL "${archive}")
        # The runtime's own examples and tests are not needed (they are off when it is not the top
        # project, said here so that a newer snapshot keeps them off as well).
        set(hip_cpu_rt_BUILD_EXAMPLES OFF CACHE BOOL "" FORCE)
        set(hip_cpu_rt_BUILD_TESTING OFF CACHE BOOL "" FORCE)
        set(hip_cpu_rt_INSTALL_LIBRARY OFF CACHE BOOL "" FORCE)
        FetchContent_MakeAvailable(hip_cpu)
    endif()

    add_library(tutorial_hip_cpu INTERFACE)
    # TBB is linked directly: HIP-CPU links it only when it detects libstdc++'s TBB backend.
    target_link_libraries(tutorial_hip_cpu INTERFACE hip_cpu_rt::hip_cpu_rt TBB::tbb Threads::Threads)
    message(STATUS "HIP CPU Runtime: ${origin}; TBB ${TBB_VERSION}")
    set(${found_var} TRUE PARENT_SCOPE)
endfunction()
