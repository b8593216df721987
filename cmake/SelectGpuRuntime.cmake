# Chooses the GPU platform before project() runs, because the HIP route (AMD) needs hipcc as the
# C++ compiler and a compiler can only be chosen before the first project() call.
#
# GPU_RUNTIME = AUTO | HIP | CUDA | CPU | NONE
#   HIP   AMD GPUs through ROCm: .hip sources compiled as C++ by hipcc, linked to hip::device
#   CUDA  NVIDIA GPUs through nvcc: .hip sources compiled as the CUDA language
#   CPU   no GPU needed: the same .hip sources compiled as C++ by the host compiler against ROCm's
#         HIP CPU Runtime, kernels run on the CPU through TBB (for running and checking, not speed)
#   NONE  no HIP at all: step 01 and the CPU-side tests only
#   AUTO  the platform whose GPU is visible and whose compiler is present; when no GPU is usable,
#         CPU (and when the HIP CPU Runtime cannot be had either, NONE, with one line of advice).
set(GPU_RUNTIME "AUTO" CACHE STRING
    "GPU platform: AUTO, HIP (AMD via ROCm), CUDA (NVIDIA via nvcc), CPU (HIP CPU Runtime), NONE")
set_property(CACHE GPU_RUNTIME PROPERTY STRINGS AUTO HIP CUDA CPU NONE)
string(TOUPPER "${GPU_RUNTIME}" _requested_runtime)
if(NOT _requested_runtime MATCHES "^(AUTO|HIP|CUDA|CPU|NONE)$")
    message(FATAL_ERROR "GPU_RUNTIME is '${GPU_RUNTIME}'; it must be one of AUTO, HIP, CUDA, CPU, NONE.")
endif()
# TRUE when AUTO chose the CPU route: ConfigureGpuRuntime.cmake then falls back to NONE, instead of
# stopping, when the HIP CPU Runtime cannot be found.
set(TUTORIAL_GPU_RUNTIME_AUTO FALSE)

find_program(TUTORIAL_NVCC nvcc HINTS ENV CUDA_PATH PATHS /usr/local/cuda PATH_SUFFIXES bin
             DOC "nvcc, for GPU_RUNTIME=CUDA")
find_program(TUTORIAL_HIPCC hipcc HINTS ENV ROCM_PATH PATHS /opt/rocm PATH_SUFFIXES bin
             DOC "hipcc, for GPU_RUNTIME=HIP")

# Which GPUs can be seen: nvidia-smi lists NVIDIA GPUs, rocm_agent_enumerator AMD ones (it always
# prints gfx000 for the CPU agent, so only a real gfx name counts).
set(_nvidia_gpu_visible FALSE)
find_program(_nvidia_smi nvidia-smi)
if(_nvidia_smi)
    execute_process(COMMAND "${_nvidia_smi}" -L RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_QUIET)
    if(_rc EQUAL 0 AND _out MATCHES "GPU [0-9]+:")
        set(_nvidia_gpu_visible TRUE)
    endif()
endif()
set(TUTORIAL_AMD_GPUS_VISIBLE "")
find_program(_rocm_agent_enumerator rocm_agent_enumerator HINTS ENV ROCM_PATH PATHS /opt/rocm PATH_SUFFIXES bin)
if(_rocm_agent_enumerator)
    execute_process(COMMAND "${_rocm_agent_enumerator}" RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_QUIET)
    if(_rc EQUAL 0)
        string(REGEX MATCHALL "gfx[0-9a-f]+" _agents "${_out}")
        list(REMOVE_ITEM _agents gfx000)
        list(REMOVE_DUPLICATES _agents)
        set(TUTORIAL_AMD_GPUS_VISIBLE "${_agents}")
    endif()
endif()

if(_requested_runtime STREQUAL "AUTO")
    set(TUTORIAL_GPU_RUNTIME_AUTO TRUE)
    if(_nvidia_gpu_visible AND TUTORIAL_NVCC)
        set(_runtime CUDA)
        set(_why "an NVIDIA GPU is visible and nvcc was found (${TUTORIAL_NVCC})")
    elseif(TUTORIAL_AMD_GPUS_VISIBLE AND TUTORIAL_HIPCC)
        set(_runtime HIP)
        set(_why "an AMD GPU (${TUTORIAL_AMD_GPUS_VISIBLE}) is visible and hipcc was found (${TUTORIAL_HIPCC})")
    else()
        set(_runtime CPU)
        if(_nvidia_gpu_visible)
            set(_why "an NVIDIA GPU is visible but nvcc was not found")
        elseif(TUTORIAL_AMD_GPUS_VISIBLE)
            set(_why "an AMD GPU is visible but hipcc was not found")
        else()
            set(_why "no GPU is visible, so HIP runs on the CPU; GPU_RUNTIME=CUDA or HIP builds for a GPU elsewhere")
        endif()
    endif()
else()
    set(_runtime "${_requested_runtime}")
    set(_why "GPU_RUNTIME=${_requested_runtime} was requested")
endif()
set(TUTORIAL_GPU_RUNTIME "${_runtime}")
set(TUTORIAL_GPU_RUNTIME_REASON "${_why}")

# tutorial_use_gpu_compiler(<language> <compiler> <path_var> <install_advice> <targets_var>
#                           <targets_doc> <visible_targets> <default_targets>)
#   The HIP and CUDA routes alike: stops with <install_advice> when <compiler> was not found (its
#   path in <path_var>), makes it CMAKE_<language>_COMPILER unless one was given, and caches the GPU
#   targets <targets_var> unless given: those visible, otherwise the documented default.
function(tutorial_use_gpu_compiler language compiler path_var advice targets_var targets_doc visible default)
    if(NOT ${path_var})
        message(FATAL_ERROR "GPU_RUNTIME=${TUTORIAL_GPU_RUNTIME} needs ${compiler}, which was not found. ${advice}")
    endif()
    if(NOT DEFINED CMAKE_${language}_COMPILER)
        set(CMAKE_${language}_COMPILER "${${path_var}}" PARENT_SCOPE)
    endif()
    if(NOT DEFINED ${targets_var})
        if(visible)
            set(${targets_var} "${visible}" CACHE STRING "${targets_doc} (the visible GPUs)")
        else()
            set(${targets_var} "${default}" CACHE STRING "${targets_doc} (default: no GPU visible)")
        endif()
    endif()
endfunction()

if(TUTORIAL_GPU_RUNTIME STREQUAL "HIP")
    # hip-config.cmake reads GPU_TARGETS; without an AMD GPU to ask, build for a documented default.
    tutorial_use_gpu_compiler(CXX hipcc TUTORIAL_HIPCC
        "On Debian/Ubuntu: apt-get install hipcc libamdhip64-dev; or set ROCM_PATH."
        GPU_TARGETS "AMD GPU targets" "${TUTORIAL_AMD_GPUS_VISIBLE}" "gfx90a;gfx1030")
elseif(TUTORIAL_GPU_RUNTIME STREQUAL "CUDA")
    # Architectures: the visible GPU's, otherwise Turing, Ampere and Hopper (each with PTX, so
    # newer GPUs can JIT-compile it).
    set(_visible_architectures "")
    if(_nvidia_gpu_visible)
        set(_visible_architectures native)
    endif()
    tutorial_use_gpu_compiler(CUDA nvcc TUTORIAL_NVCC
        "Install the CUDA toolkit (Debian: nvidia-cuda-toolkit) or put its bin/ on PATH."
        CMAKE_CUDA_ARCHITECTURES "CUDA architectures" "${_visible_architectures}" "75;80;90")
endif()
