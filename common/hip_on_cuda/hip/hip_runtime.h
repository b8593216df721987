/// \file
/// \brief The tutorial's own, minimal HIP-on-CUDA header.
///
/// HIP ships NVIDIA headers of its own (`hip/nvidia_detail/...`). The build uses them when they
/// compile against the CUDA toolkit that was found; when they do not (Debian 12's HIP 5.2 headers
/// against CUDA 13: removed `cudaDeviceProp` fields, texture references, changed signatures), the
/// build puts this folder first on the include path instead. It maps exactly the HIP runtime subset
/// the tutorial uses onto the CUDA runtime, one inline function or alias per HIP name, and nothing
/// more: if a step needs a new HIP call, it is added here and to tests/common_gpu.
///
/// Device-side code needs almost no mapping: nvcc already knows `__global__`, `__shared__`,
/// `threadIdx`, `blockIdx`, `__syncthreads()` and `float4`. Only HIP's warp shuffle is spelled
/// differently (see the end of this file).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#ifndef __HIP_PLATFORM_NVIDIA__
#define __HIP_PLATFORM_NVIDIA__ 1
#endif

// ---- errors ----------------------------------------------------------------------------------
using hipError_t = cudaError_t;
constexpr hipError_t hipSuccess = cudaSuccess;
constexpr hipError_t hipErrorInvalidValue = cudaErrorInvalidValue;
constexpr hipError_t hipErrorOutOfMemory = cudaErrorMemoryAllocation;
constexpr hipError_t hipErrorNoDevice = cudaErrorNoDevice;
constexpr hipError_t hipErrorInvalidDevice = cudaErrorInvalidDevice;
constexpr hipError_t hipErrorPeerAccessAlreadyEnabled = cudaErrorPeerAccessAlreadyEnabled;
constexpr hipError_t hipErrorNotReady = cudaErrorNotReady;

inline const char* hipGetErrorName(hipError_t error) {
    return cudaGetErrorName(error);
}
inline const char* hipGetErrorString(hipError_t error) {
    return cudaGetErrorString(error);
}
inline hipError_t hipGetLastError() {
    return cudaGetLastError();
}
inline hipError_t hipPeekAtLastError() {
    return cudaPeekAtLastError();
}

// ---- devices ---------------------------------------------------------------------------------
/// The fields of `hipDeviceProp_t` the tutorial reads have the same names in `cudaDeviceProp`.
using hipDeviceProp_t = cudaDeviceProp;

inline hipError_t hipGetDeviceCount(int* count) {
    return cudaGetDeviceCount(count);
}
inline hipError_t hipSetDevice(int device) {
    return cudaSetDevice(device);
}
inline hipError_t hipGetDevice(int* device) {
    return cudaGetDevice(device);
}
inline hipError_t hipGetDeviceProperties(hipDeviceProp_t* prop, int device) {
    return cudaGetDeviceProperties(prop, device);
}
/// The device attributes the tutorial reads; CUDA 13 removed `clockRate` from `cudaDeviceProp`.
using hipDeviceAttribute_t = cudaDeviceAttr;
constexpr hipDeviceAttribute_t hipDeviceAttributeClockRate = cudaDevAttrClockRate;
constexpr hipDeviceAttribute_t hipDeviceAttributeMultiprocessorCount =
    cudaDevAttrMultiProcessorCount;
inline hipError_t hipDeviceGetAttribute(int* value, hipDeviceAttribute_t attribute, int device) {
    return cudaDeviceGetAttribute(value, attribute, device);
}
inline hipError_t hipDeviceSynchronize() {
    return cudaDeviceSynchronize();
}
inline hipError_t hipDriverGetVersion(int* version) {
    return cudaDriverGetVersion(version);
}
inline hipError_t hipRuntimeGetVersion(int* version) {
    return cudaRuntimeGetVersion(version);
}
inline hipError_t hipMemGetInfo(size_t* free_bytes, size_t* total_bytes) {
    return cudaMemGetInfo(free_bytes, total_bytes);
}
inline hipError_t hipDeviceCanAccessPeer(int* can_access, int device, int peer) {
    return cudaDeviceCanAccessPeer(can_access, device, peer);
}
inline hipError_t hipDeviceEnablePeerAccess(int peer, unsigned int flags) {
    return cudaDeviceEnablePeerAccess(peer, flags);
}

// ---- memory ----------------------------------------------------------------------------------
using hipMemcpyKind = cudaMemcpyKind;
constexpr hipMemcpyKind hipMemcpyHostToDevice = cudaMemcpyHostToDevice;
constexpr hipMemcpyKind hipMemcpyDeviceToHost = cudaMemcpyDeviceToHost;
constexpr hipMemcpyKind hipMemcpyDeviceToDevice = cudaMemcpyDeviceToDevice;
constexpr hipMemcpyKind hipMemcpyDefault = cudaMemcpyDefault;
constexpr unsigned int hipHostMallocDefault = cudaHostAllocDefault;
constexpr unsigned int hipHostMallocPortable = cudaHostAllocPortable;
constexpr unsigned int hipHostRegisterDefault = cudaHostRegisterDefault;
constexpr unsigned int hipHostRegisterPortable = cudaHostRegisterPortable;
constexpr unsigned int hipHostRegisterMapped = cudaHostRegisterMapped;

inline hipError_t hipMalloc(void** pointer, size_t bytes) {
    return cudaMalloc(pointer, bytes);
}
template <typename T>
hipError_t hipMalloc(T** pointer, size_t bytes) {
    return cudaMalloc(reinterpret_cast<void**>(pointer), bytes);
}
inline hipError_t hipFree(void* pointer) {
    return cudaFree(pointer);
}
inline hipError_t hipHostMalloc(void** pointer, size_t bytes, unsigned int flags) {
    return cudaHostAlloc(pointer, bytes, flags);
}
template <typename T>
hipError_t hipHostMalloc(T** pointer, size_t bytes, unsigned int flags) {
    return cudaHostAlloc(reinterpret_cast<void**>(pointer), bytes, flags);
}
inline hipError_t hipHostFree(void* pointer) {
    return cudaFreeHost(pointer);
}
inline hipError_t hipHostRegister(void* pointer, size_t bytes, unsigned int flags) {
    return cudaHostRegister(pointer, bytes, flags);
}
inline hipError_t hipHostUnregister(void* pointer) {
    return cudaHostUnregister(pointer);
}
inline hipError_t hipHostGetDevicePointer(void** device_pointer, void* host_pointer,
                                          unsigned int flags) {
    return cudaHostGetDevicePointer(device_pointer, host_pointer, flags);
}

inline hipError_t hipMemcpy(void* dst, const void* src, size_t bytes, hipMemcpyKind kind) {
    return cudaMemcpy(dst, src, bytes, kind);
}
inline hipError_t hipMemset(void* dst, int value, size_t bytes) {
    return cudaMemset(dst, value, bytes);
}

// ---- streams and events ----------------------------------------------------------------------
using hipStream_t = cudaStream_t;
using hipEvent_t = cudaEvent_t;
constexpr unsigned int hipStreamNonBlocking = cudaStreamNonBlocking;
constexpr unsigned int hipEventDefault = cudaEventDefault;
constexpr unsigned int hipEventDisableTiming = cudaEventDisableTiming;

// Where HIP's signature is CUDA's, the HIP name is a reference to the CUDA function itself.
inline constexpr hipError_t (&hipStreamCreate)(hipStream_t*) = cudaStreamCreate;
inline constexpr hipError_t (&hipStreamCreateWithFlags)(hipStream_t*,
                                                        unsigned int) = cudaStreamCreateWithFlags;
inline constexpr hipError_t (&hipStreamDestroy)(hipStream_t) = cudaStreamDestroy;
inline constexpr hipError_t (&hipStreamSynchronize)(hipStream_t) = cudaStreamSynchronize;
inline constexpr hipError_t (&hipStreamQuery)(hipStream_t) = cudaStreamQuery;
inline constexpr hipError_t (&hipStreamWaitEvent)(hipStream_t, hipEvent_t,
                                                  unsigned int) = cudaStreamWaitEvent;

inline constexpr hipError_t (&hipEventCreate)(hipEvent_t*) = cudaEventCreate;
inline constexpr hipError_t (&hipEventCreateWithFlags)(hipEvent_t*,
                                                       unsigned int) = cudaEventCreateWithFlags;
inline constexpr hipError_t (&hipEventDestroy)(hipEvent_t) = cudaEventDestroy;
inline hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream = nullptr) {
    return cudaEventRecord(event, stream);
}
inline hipError_t hipEventSynchronize(hipEvent_t event) {
    return cudaEventSynchronize(event);
}
inline hipError_t hipEventQuery(hipEvent_t event) {
    return cudaEventQuery(event);
}
inline hipError_t hipEventElapsedTime(float* milliseconds, hipEvent_t start, hipEvent_t stop) {
    return cudaEventElapsedTime(milliseconds, start, stop);
}

inline hipError_t hipMemcpyAsync(void* dst, const void* src, size_t bytes, hipMemcpyKind kind,
                                 hipStream_t stream = nullptr) {
    return cudaMemcpyAsync(dst, src, bytes, kind, stream);
}
inline hipError_t hipMemcpy2DAsync(void* dst, size_t dst_pitch, const void* src, size_t src_pitch,
                                   size_t width_bytes, size_t height, hipMemcpyKind kind,
                                   hipStream_t stream = nullptr) {
    return cudaMemcpy2DAsync(dst, dst_pitch, src, src_pitch, width_bytes, height, kind, stream);
}
inline hipError_t hipMemsetAsync(void* dst, int value, size_t bytes, hipStream_t stream = nullptr) {
    return cudaMemsetAsync(dst, value, bytes, stream);
}
inline hipError_t hipMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device,
                                     size_t bytes, hipStream_t stream = nullptr) {
    return cudaMemcpyPeerAsync(dst, dst_device, src, src_device, bytes, stream);
}

// ---- kernel launch ---------------------------------------------------------------------------
/// How many blocks of `kernel`, `block_size` threads each, fit on one multiprocessor at once.
template <class Kernel>
hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, Kernel kernel, int block_size,
                                                        size_t dynamic_shared_bytes) {
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, kernel, block_size,
                                                         dynamic_shared_bytes);
}

/// A kernel that needs more dynamic shared memory than the default limit asks for it first.
enum hipFuncAttribute {
    hipFuncAttributeMaxDynamicSharedMemorySize = cudaFuncAttributeMaxDynamicSharedMemorySize,
};
inline hipError_t hipFuncSetAttribute(const void* kernel, hipFuncAttribute attribute, int value) {
    return cudaFuncSetAttribute(kernel, static_cast<cudaFuncAttribute>(attribute), value);
}

/// The block's dynamic shared memory, sized by the launch, as an array of `type`.
#define HIP_DYNAMIC_SHARED(type, variable) extern __shared__ type variable[];

/// HIP's portable launch macro; `<<<grid, block, shared_bytes, stream>>>` works as well.
#define hipLaunchKernelGGL(kernel, grid, block, shared_bytes, stream, ...) \
    kernel<<<(grid), (block), (shared_bytes), (stream)>>>(__VA_ARGS__)

// ---- warp shuffles ---------------------------------------------------------------------------
/// HIP's `__shfl_xor`: the `value` of lane `lane ^ lane_mask` within each group of `width` lanes.
/// CUDA 9 and later name the lanes that take part (the pre-Volta `__shfl_xor` without them is gone
/// from device code for sm_70 and up); the tutorial's shuffles always involve the whole warp,
/// as HIP's do, so the mask names all 32 lanes. A template, not a macro, so that CUDA's own
/// headers (cuda_fp16.h declares a `__shfl_xor` too) still compile after this one.
template <typename T>
__device__ inline T __shfl_xor(T value, int lane_mask, int width = 32) {  // warpSize on NVIDIA
    return __shfl_xor_sync(0xffffffffu, value, lane_mask, width);
}
