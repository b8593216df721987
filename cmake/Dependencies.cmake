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
