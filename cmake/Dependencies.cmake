# Third-party dependencies, found the ecosystem's way: an installed package first (Debian:
# libgtest-dev, libcli11-dev), otherwise FetchContent at a pinned release. Offline builds point
# FETCHCONTENT_SOURCE_DIR_GOOGLETEST / FETCHCONTENT_SOURCE_DIR_CLI11 or CMAKE_PREFIX_PATH at local copies.
include(FetchContent)

find_package(CLI11 2.1 CONFIG QUIET)
if(CLI11_FOUND)
    message(STATUS "CLI11: found ${CLI11_VERSION} (${CLI11_DIR})")
else()
    message(STATUS "CLI11: not installed, fetching v2.4.2")
    FetchContent_Declare(CLI11
        URL https://github.com/CLIUtils/CLI11/archive/refs/tags/v2.4.2.tar.gz)
    FetchContent_MakeAvailable(CLI11)
endif()

if(TUTORIAL_BUILD_TESTS)
    find_package(GTest 1.10 CONFIG QUIET)
    if(GTest_FOUND)
        message(STATUS "GoogleTest: found ${GTest_VERSION} (${GTest_DIR})")
    else()
        if(FETCHCONTENT_SOURCE_DIR_GOOGLETEST)
            message(STATUS "GoogleTest: building from ${FETCHCONTENT_SOURCE_DIR_GOOGLETEST}")
        else()
            message(STATUS "GoogleTest: not installed, fetching v1.14.0")
        endif()
        FetchContent_Declare(googletest
            URL https://github.com/google/googletest/archive/refs/tags/v1.14.0.tar.gz)
        set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
        set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
        FetchContent_MakeAvailable(googletest)
    endif()
    include(GoogleTest)
endif()

# Tiled-MM, step 09's second peer in bench/multi_gpu_benchmark (cmake/TiledMm.cmake): on the CUDA
# route only, where its cuBLAS back end builds. Without it the benchmark's Tiled-MM rows say
# "not built".
include(CMakeDependentOption)
cmake_dependent_option(TUTORIAL_TILED_MM
    "Build Tiled-MM (found, or fetched at a pinned commit) as a peer of step 09 in multi_gpu_benchmark"
    ON "TUTORIAL_GPU_RUNTIME STREQUAL CUDA" OFF)
set(TUTORIAL_HAS_TILED_MM FALSE)
set(TUTORIAL_TILED_MM_WHY_NOT "")
if(TUTORIAL_TILED_MM)
    include(TiledMm)
    tutorial_find_tiled_mm(TUTORIAL_HAS_TILED_MM _tiled_mm_missing TUTORIAL_TILED_MM_VERSION)
    if(NOT TUTORIAL_HAS_TILED_MM)
        message(STATUS "Tiled-MM: not built, because ${_tiled_mm_missing}")
        set(TUTORIAL_TILED_MM_WHY_NOT "${_tiled_mm_missing}")
    endif()
elseif(TUTORIAL_GPU_RUNTIME STREQUAL "CUDA")
    set(TUTORIAL_TILED_MM_WHY_NOT "TUTORIAL_TILED_MM is OFF")
    message(STATUS "Tiled-MM: not built (TUTORIAL_TILED_MM is OFF)")
else()
    set(TUTORIAL_TILED_MM_WHY_NOT "its cuBLAS back end is built on the CUDA route only")
endif()

# MPI, for step 10 (Debian: libopenmpi-dev). The step uses MPI's C API from C++, so the deprecated
# C++ bindings are left out. Without MPI the step is left out with a message (steps/10_many_nodes).
option(TUTORIAL_MPI "Build step 10 (SUMMA over MPI) when MPI is found" ON)
set(TUTORIAL_HAS_MPI FALSE)
set(TUTORIAL_MPI_WHY_NOT "TUTORIAL_MPI is OFF")
if(TUTORIAL_MPI)
    set(MPI_CXX_SKIP_MPICXX ON)
    find_package(MPI COMPONENTS CXX QUIET)
    if(MPI_CXX_FOUND AND MPIEXEC_EXECUTABLE)
        set(TUTORIAL_HAS_MPI TRUE)
        message(STATUS "MPI: found MPI ${MPI_CXX_VERSION} (${MPIEXEC_EXECUTABLE})")
    else()
        set(TUTORIAL_MPI_WHY_NOT
            "find_package(MPI) found no MPI for C++ with an mpiexec (install libopenmpi-dev)")
        message(STATUS "MPI: not found")
    endif()
endif()
