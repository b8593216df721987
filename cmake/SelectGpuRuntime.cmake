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

if(TUTORIAL_GPU_RUNTIME STREQUAL "HIP")
    if(NOT TUTORIAL_HIPCC)
        message(FATAL_ERROR "GPU_RUNTIME=HIP needs hipcc, which was not found. On Debian/Ubuntu: "
                            "apt-get install hipcc libamdhip64-dev; or set ROCM_PATH.")
    endif()
    if(NOT DEFINED CMAKE_CXX_COMPILER)
        set(CMAKE_CXX_COMPILER "${TUTORIAL_HIPCC}")
    endif()
    # hip-config.cmake reads GPU_TARGETS; without an AMD GPU to ask, build for a documented default.
    if(NOT DEFINED GPU_TARGETS)
        if(TUTORIAL_AMD_GPUS_VISIBLE)
            set(GPU_TARGETS "${TUTORIAL_AMD_GPUS_VISIBLE}" CACHE STRING "AMD GPU targets (the visible GPUs)")
        else()
            set(GPU_TARGETS "gfx90a;gfx1030" CACHE STRING "AMD GPU targets (default: no AMD GPU visible)")
        endif()
    endif()
elseif(TUTORIAL_GPU_RUNTIME STREQUAL "CUDA")
    if(NOT TUTORIAL_NVCC)
        message(FATAL_ERROR "GPU_RUNTIME=CUDA needs nvcc, which was not found. Install the CUDA "
                            "toolkit (Debian: nvidia-cuda-toolkit) or put its bin/ on PATH.")
    endif()
    if(NOT DEFINED CMAKE_CUDA_COMPILER)
        set(CMAKE_CUDA_COMPILER "${TUTORIAL_NVCC}")
    endif()
    # Architectures: the visible GPU's, otherwise Turing, Ampere and Hopper (each with PTX, so
    # newer GPUs can JIT-compile it).
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
        if(_nvidia_gpu_visible)
            set(CMAKE_CUDA_ARCHITECTURES native CACHE STRING "CUDA architectures (the visible GPU's)")
        else()
            set(CMAKE_CUDA_ARCHITECTURES "75;80;90" CACHE STRING "CUDA architectures (default: no NVIDIA GPU visible)")
        endif()
    endif()
endif()
