# Tiled-MM (ETH Zürich / CSCS, github.com/eth-cscs/Tiled-MM, the GPU back end of COSMA): a GEMM from
# host memory on one GPU, a peer of step 09 in bench/multi_gpu_benchmark. Built on the CUDA route
# only (its cuBLAS back end), and found the ecosystem's way:
#   1. an installed package: find_package(Tiled-MM CONFIG), e.g. installed under CMAKE_PREFIX_PATH;
#   2. otherwise FetchContent at the pinned commit below; an offline machine points
#      FETCHCONTENT_SOURCE_DIR_TILED-MM at an unmodified copy of that commit (see the README).
#
# tutorial_find_tiled_mm(<found_var> <why_var> <version_var>)
#   Sets <found_var> TRUE when the target Tiled-MM::Tiled-MM exists, and <version_var> to its
#   version; otherwise FALSE, and <why_var> says in one sentence what is missing and both ways to
#   provide it. It never stops the configure step: without Tiled-MM the benchmark is built without
#   it and its rows say "not built".
set(TUTORIAL_TILED_MM_COMMIT 0eb75179e670a04c649b50ae5e91bb71b43e4d06)
set(TUTORIAL_TILED_MM_GIT https://github.com/eth-cscs/Tiled-MM.git)

function(tutorial_find_tiled_mm found_var why_var version_var)
    set(${found_var} FALSE PARENT_SCOPE)
    string(CONCAT advice "install Tiled-MM with its CUDA back end (find_package(Tiled-MM), e.g. with "
           "CMAKE_PREFIX_PATH), or point FETCHCONTENT_SOURCE_DIR_TILED-MM at a copy of "
           "github.com/eth-cscs/Tiled-MM at commit ${TUTORIAL_TILED_MM_COMMIT}")

    find_package(Tiled-MM CONFIG QUIET)
    if(Tiled-MM_FOUND AND TARGET Tiled-MM::Tiled-MM)
        set(${version_var} "${Tiled-MM_VERSION}" PARENT_SCOPE)
        message(STATUS "Tiled-MM: found ${Tiled-MM_VERSION} (${Tiled-MM_DIR})")
        set(${found_var} TRUE PARENT_SCOPE)
        return()
    endif()

    include(FetchContent)
    # FetchContent derives the variable's name from the name declared below: TILED-MM.
    set(copy "${FETCHCONTENT_SOURCE_DIR_TILED-MM}")
    if(copy)
        if(NOT EXISTS "${copy}/src/Tiled-MM/tiled_mm.hpp")
            set(${why_var} "FETCHCONTENT_SOURCE_DIR_TILED-MM (${copy}) holds no src/Tiled-MM/tiled_mm.hpp: ${advice}"
                PARENT_SCOPE)
            return()
        endif()
        set(origin "${copy}")
    else()
        # Asked here rather than left to FetchContent, whose failed clone would stop the configure
        # step: a machine without internet access gets one sentence of advice instead.
        if(FETCHCONTENT_FULLY_DISCONNECTED)
            set(${why_var} "it is not installed and FETCHCONTENT_FULLY_DISCONNECTED is on: ${advice}"
                PARENT_SCOPE)
            return()
        endif()
        find_package(Git QUIET)
        if(NOT GIT_FOUND)
            set(${why_var} "it is not installed and git, which fetches it, was not found: ${advice}"
                PARENT_SCOPE)
            return()
        endif()
        execute_process(COMMAND "${GIT_EXECUTABLE}" ls-remote "${TUTORIAL_TILED_MM_GIT}" HEAD
                        RESULT_VARIABLE unreachable OUTPUT_QUIET ERROR_QUIET TIMEOUT 30)
        if(unreachable)
            set(${why_var} "it is not installed and ${TUTORIAL_TILED_MM_GIT} cannot be reached: ${advice}"
                PARENT_SCOPE)
            return()
        endif()
        message(STATUS "Tiled-MM: not installed, fetching commit ${TUTORIAL_TILED_MM_COMMIT}")
        set(origin "commit ${TUTORIAL_TILED_MM_COMMIT}")
    endif()
    FetchContent_Declare(Tiled-MM
        GIT_REPOSITORY "${TUTORIAL_TILED_MM_GIT}"
        GIT_TAG ${TUTORIAL_TILED_MM_COMMIT})
    # Its cuBLAS back end, and neither its tests nor its examples (they would fetch cxxopts).
    set(TILEDMM_GPU_BACKEND CUDA CACHE STRING "" FORCE)
    set(TILEDMM_WITH_TESTS OFF CACHE BOOL "" FORCE)
    set(TILEDMM_WITH_EXAMPLES OFF CACHE BOOL "" FORCE)
    FetchContent_MakeAvailable(Tiled-MM)
    if(NOT TARGET Tiled-MM::Tiled-MM)
        set(${why_var} "${origin} defines no target Tiled-MM::Tiled-MM: ${advice}" PARENT_SCOPE)
        return()
    endif()
    get_directory_property(version DIRECTORY "${tiled-mm_SOURCE_DIR}" DEFINITION PROJECT_VERSION)
    set(${version_var} "${version}" PARENT_SCOPE)
    message(STATUS "Tiled-MM: ${version} from ${origin}")
    set(${found_var} TRUE PARENT_SCOPE)
endfunction()
