# After project(): sets up the platform chosen in SelectGpuRuntime.cmake and provides
#   tutorial::hip_runtime       interface target: the HIP headers and runtime for this platform
#   tutorial_use_hip(<target>)  compiles the target's .hip sources for this platform and links HIP
#   TUTORIAL_HAS_GPU_RUNTIME    TRUE unless GPU_RUNTIME is NONE
#   TUTORIAL_HIP_ON_CPU         TRUE on the CPU route (HIP kernels run on the CPU)
#   TUTORIAL_GPU_PLATFORM       one line naming the platform, used in messages such as "no device"
add_library(tutorial_hip_runtime INTERFACE)
add_library(tutorial::hip_runtime ALIAS tutorial_hip_runtime)

# The CPU route is settled first: when AUTO chose it and the HIP CPU Runtime cannot be had, the
# build falls back to NONE with one line that says what to install; when CPU was asked for, it stops
# with that line.
set(TUTORIAL_HIP_ON_CPU FALSE)
if(TUTORIAL_GPU_RUNTIME STREQUAL "CPU")
    include(HipCpuRuntime)
    tutorial_find_hip_cpu(_hip_cpu_found _hip_cpu_missing)
    if(_hip_cpu_found)
        set(TUTORIAL_HIP_ON_CPU TRUE)
    elseif(TUTORIAL_GPU_RUNTIME_AUTO)
        set(TUTORIAL_GPU_RUNTIME NONE)
        string(CONCAT TUTORIAL_GPU_RUNTIME_REASON "no GPU is visible and HIP cannot run on the CPU: "
               "the HIP CPU Runtime cannot be used because ${_hip_cpu_missing}")
    else()
        message(FATAL_ERROR "GPU_RUNTIME=CPU needs the HIP CPU Runtime and TBB, and ${_hip_cpu_missing}.")
    endif()
endif()

if(TUTORIAL_GPU_RUNTIME STREQUAL "CUDA")
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    set(CMAKE_CUDA_STANDARD 17)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    target_link_libraries(tutorial_hip_runtime INTERFACE CUDA::cudart)

    # Use HIP's own NVIDIA headers when they are installed and compile against this CUDA; the probe
    # touches the same API families the tutorial uses.
    find_path(TUTORIAL_HIP_INCLUDE_DIR hip/hip_runtime.h HINTS ENV ROCM_PATH ENV HIP_PATH
              PATHS /opt/rocm PATH_SUFFIXES include DOC "HIP headers for the NVIDIA platform")
    set(_hip_header_choice "")
    if(TUTORIAL_HIP_INCLUDE_DIR)
        try_compile(TUTORIAL_HIP_NVIDIA_HEADERS_COMPILE
            SOURCE_FROM_CONTENT probe.cu [=[
#include <hip/hip_runtime.h>
__global__ void probe_kernel(float* x) { x[threadIdx.x] += 1.0f; }
int main() {
    float* device = nullptr;
    hipStream_t stream;
    hipEvent_t event;
    hipDeviceProp_t prop;
    (void)hipGetDeviceProperties(&prop, 0);
    (void)hipMalloc(&device, 64);
    (void)hipStreamCreate(&stream);
    (void)hipEventCreate(&event);
    hipLaunchKernelGGL(probe_kernel, dim3(1), dim3(16), 0, stream, device);
    (void)hipMemcpyAsync(device, device, 64, hipMemcpyDeviceToDevice, stream);
    (void)hipEventRecord(event, stream);
    (void)hipFree(device);
    return prop.multiProcessorCount;
}
]=]
            COMPILE_DEFINITIONS -D__HIP_PLATFORM_NVIDIA__
            CMAKE_FLAGS "-DINCLUDE_DIRECTORIES=${TUTORIAL_HIP_INCLUDE_DIR}"
            LINK_LIBRARIES CUDA::cudart
            OUTPUT_VARIABLE _probe_log)
        if(TUTORIAL_HIP_NVIDIA_HEADERS_COMPILE)
            set(_hip_header_choice "HIP's own NVIDIA headers (${TUTORIAL_HIP_INCLUDE_DIR})")
            target_include_directories(tutorial_hip_runtime INTERFACE "${TUTORIAL_HIP_INCLUDE_DIR}")
            target_compile_definitions(tutorial_hip_runtime INTERFACE __HIP_PLATFORM_NVIDIA__)
        else()
            set(_error_count "some")
            if(_probe_log MATCHES "([0-9]+) errors? detected")
                set(_error_count "${CMAKE_MATCH_1}")
            endif()
            string(CONCAT _why_fallback "HIP's NVIDIA headers in ${TUTORIAL_HIP_INCLUDE_DIR} do not "
                   "compile against CUDA ${CUDAToolkit_VERSION} (${_error_count} errors)")
        endif()
    else()
        set(_why_fallback "no HIP headers were found (set ROCM_PATH to use HIP's own)")
    endif()
    if(NOT _hip_header_choice)
        set(_hip_header_choice "the tutorial's common/hip_on_cuda header, because ${_why_fallback}")
        # BEFORE, so it wins over a HIP install in a system include directory.
        target_include_directories(tutorial_hip_runtime BEFORE INTERFACE
                                   "${PROJECT_SOURCE_DIR}/common/hip_on_cuda")
    endif()
    message(STATUS "HIP on NVIDIA: using ${_hip_header_choice}")
    message(STATUS "CUDA architectures: ${CMAKE_CUDA_ARCHITECTURES}")
    set(TUTORIAL_GPU_PLATFORM "NVIDIA GPUs through CUDA ${CUDAToolkit_VERSION} (nvcc)")
elseif(TUTORIAL_GPU_RUNTIME STREQUAL "HIP")
    find_package(hip REQUIRED CONFIG)
    target_link_libraries(tutorial_hip_runtime INTERFACE hip::device)
    # hipcc compiles and links the host-only sources too; given no target it would ask
    # rocm_agent_enumerator, which fails loudly on a machine without an AMD GPU.
    foreach(_target IN LISTS GPU_TARGETS)
        add_compile_options(--offload-arch=${_target})
        add_link_options(--offload-arch=${_target})
    endforeach()
    message(STATUS "HIP on AMD: hipcc ${CMAKE_CXX_COMPILER}, HIP ${hip_VERSION}, GPU_TARGETS=${GPU_TARGETS}")
    set(TUTORIAL_GPU_PLATFORM "AMD GPUs through ROCm HIP ${hip_VERSION} (hipcc)")
elseif(TUTORIAL_HIP_ON_CPU)
    # The kernels become ordinary C++ run by TBB worker threads; the headers say so themselves.
    target_link_libraries(tutorial_hip_runtime INTERFACE tutorial_hip_cpu)
    # BEFORE: common/hip_on_cpu adds the few spellings the runtime lacks, then includes it.
    target_include_directories(tutorial_hip_runtime BEFORE INTERFACE
                               "${PROJECT_SOURCE_DIR}/common/hip_on_cpu")
    set(TUTORIAL_GPU_PLATFORM "the CPU running HIP (HIP CPU Runtime with TBB, for checking, not for speed)")
    # -O2, not Release's -O3: on the CPU the kernels are there to be checked, and -O3's unrolling
    # and vectorizing of their fully unrolled loops made the build three times longer (steps 07 and
    # 08 took 10 of its 12 minutes on two cores) for tests no faster. The sanitizer build sets -O0.
    if(NOT TUTORIAL_SANITIZE)
        target_compile_options(tutorial_hip_runtime INTERFACE
                               "$<$<AND:$<CONFIG:Release>,$<COMPILE_LANGUAGE:CXX>>:-O2>")
    endif()
    # The runtime asks for every kernel loop to be vectorized (omp simd); Clang warns at each
    # one it cannot vectorize, some 300 times in a build, about the runtime's code, not ours.
    target_compile_options(tutorial_hip_runtime INTERFACE
                           "$<$<CXX_COMPILER_ID:Clang>:-Wno-pass-failed>")
    # Every .hip source starts with hip/hip_runtime.h, which on this route brings in the runtime,
    # TBB and the standard library's threads, futures and parallel algorithms: a source of that one
    # line took 4.5 s to compile at -O2 and 8.8 s at the sanitizer build's -O0. This target compiles
    # the header once and tutorial_use_hip() has every .hip source read that copy (2.4 s and 5.5 s
    # for the same source): on two cores the CPU build took 866 CPU seconds against 983, and the
    # sanitizer build's .hip sources 819 s against 945.
    file(CONFIGURE OUTPUT "${PROJECT_BINARY_DIR}/hip_runtime_pch.cpp"
         CONTENT "// Compiled only for the precompiled hip/hip_runtime.h it comes with.\n")
    add_library(tutorial_hip_pch OBJECT "${PROJECT_BINARY_DIR}/hip_runtime_pch.cpp")
    target_link_libraries(tutorial_hip_pch PRIVATE tutorial_hip_runtime)
    target_precompile_headers(tutorial_hip_pch PRIVATE <hip/hip_runtime.h>)
else()
    set(TUTORIAL_GPU_PLATFORM "no GPU platform (GPU_RUNTIME=NONE)")
endif()

if(TUTORIAL_GPU_RUNTIME STREQUAL "NONE")
    set(TUTORIAL_HAS_GPU_RUNTIME FALSE)
    message(STATUS "GPU runtime: NONE (${TUTORIAL_GPU_RUNTIME_REASON}): building step 01 and the "
                   "CPU-side tests only; steps 02-07 and the GPU tests need GPU_RUNTIME=CPU, CUDA or HIP")
else()
    set(TUTORIAL_HAS_GPU_RUNTIME TRUE)
    message(STATUS "GPU runtime: ${TUTORIAL_GPU_RUNTIME} (${TUTORIAL_GPU_RUNTIME_REASON})")
endif()
target_compile_definitions(tutorial_hip_runtime INTERFACE
                           "TUTORIAL_GPU_PLATFORM=\"${TUTORIAL_GPU_PLATFORM}\"")

# Compiles every .hip source of <target> for the chosen platform and links the HIP runtime. On the
# CPU route those sources read the precompiled hip/hip_runtime.h of tutorial_hip_pch; the others
# do not need it.
function(tutorial_use_hip target)
    get_target_property(_sources ${target} SOURCES)
    foreach(_source IN LISTS _sources)
        if(_source MATCHES "\\.hip$")
            if(TUTORIAL_GPU_RUNTIME STREQUAL "CUDA")
                set_source_files_properties(${_source} PROPERTIES LANGUAGE CUDA)
            else()
                set_source_files_properties(${_source} PROPERTIES LANGUAGE CXX)
            endif()
        else()
            set_source_files_properties(${_source} PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
        endif()
    endforeach()
    target_link_libraries(${target} PUBLIC tutorial::hip_runtime)
    if(TARGET tutorial_hip_pch)
        target_precompile_headers(${target} REUSE_FROM tutorial_hip_pch)
    endif()
endfunction()
