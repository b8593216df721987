/// \file
/// \brief The tutorial's small additions to ROCm's HIP CPU Runtime, for the CPU route.
///
/// On the CPU route (`GPU_RUNTIME=CPU`) the build puts this folder first on the include path. The
/// header includes the HIP CPU Runtime's own `hip/hip_runtime.h` and adds only what the tutorial
/// uses and that runtime spells differently from HIP on a GPU, one small inline function per
/// difference, each tested in tests/common_gpu. The step sources never know which header they got.
///
/// One thing cannot be added: kernels launched with `<<< >>>`, which is not C++. The HIP CPU
/// Runtime compiles `hipLaunchKernelGGL`, and every source of the tutorial launches that way.
///
/// One thing is taken away, in unoptimized builds only: the runtime's vector-clone mark on
/// `__device__` functions (the comment below the runtime's include says why).
#pragma once

#include_next <hip/hip_runtime.h>

// The runtime marks every __device__ function __attribute__((simd)) for GCC, asking for vector
// clones. Without optimization GCC cannot clone one that returns a struct (float4, a slice's
// fragment) and warns once per such function, a warning no switch turns off. Unoptimized builds
// (Debug, the sanitizer build at -O0) drop the mark: it serves vectorization, which they skip.
#if defined(__GNUC__) && !defined(__clang__) && !defined(__OPTIMIZE__)
#undef __device__
#define __device__
#endif

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <future>
#include <mutex>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

/// HIP declares the flags as `unsigned int`; the HIP CPU Runtime takes its `hipEventFlags` enum,
/// to which an `unsigned int` does not convert implicitly.
inline hipError_t hipEventCreateWithFlags(hipEvent_t* event, unsigned int flags) {
    return hipEventCreateWithFlags(event, static_cast<hipEventFlags>(flags));
}

/// Whether the work before `event` in its stream has finished. The runtime lacks this query; its
/// event holds a future that is ready once the stream reaches the event. An event never recorded
/// counts as complete, as HIP documents.
inline hipError_t hipEventQuery(hipEvent_t event) {
    if (event == nullptr)
        return hipErrorInvalidHandle;
    const auto& done = is_done(*event);  // the runtime's own accessor, found through the Event type
    if (!done.valid())
        return hipSuccess;
    return done.wait_for(std::chrono::seconds(0)) == std::future_status::ready ? hipSuccess
                                                                               : hipErrorNotReady;
}

/// A copy between devices. The CPU route has one device, whose memory is host memory, so the only
/// peer copy there is (device 0 to device 0) is an ordinary copy in the stream's order.
inline hipError_t hipMemcpyPeerAsync(void* destination, int destination_device, const void* source,
                                     int source_device, std::size_t bytes,
                                     hipStream_t stream = nullptr) {
    if (destination_device != 0 || source_device != 0)
        return hipErrorInvalidDevice;
    return hipMemcpyAsync(destination, source, bytes, hipMemcpyDeviceToDevice, stream);
}

/// The device attributes the tutorial reads, taken from the device's properties (the runtime has
/// the properties but no attribute query).
enum hipDeviceAttribute_t {
    hipDeviceAttributeClockRate,            ///< kHz, hipDeviceProp_t::clockRate
    hipDeviceAttributeMultiprocessorCount,  ///< hipDeviceProp_t::multiProcessorCount
};

inline hipError_t hipDeviceGetAttribute(int* value, hipDeviceAttribute_t attribute, int device) {
    if (value == nullptr)
        return hipErrorInvalidValue;
    hipDeviceProp_t properties;
    const hipError_t status = hipGetDeviceProperties(&properties, device);
    if (status != hipSuccess)
        return status;
    switch (attribute) {
        case hipDeviceAttributeClockRate:
            *value = properties.clockRate;
            return hipSuccess;
        case hipDeviceAttributeMultiprocessorCount:
            *value = properties.multiProcessorCount;
            return hipSuccess;
    }
    return hipErrorInvalidValue;
}

/// Makes later work in `stream` wait for `event`. The runtime's own version queues a task that
/// blocks until the event completes; all streams are run by one processor thread, in turn, so when
/// the waiting stream's turn comes before the stream that completes the event, that thread waits
/// for itself forever (step 09's copy and compute streams did). Waiting here, on the calling
/// thread, gives the same order (nothing queued afterwards in `stream` starts before the event's
/// work has finished) without blocking the processor. As in HIP, an event that was never recorded
/// has nothing to wait for.
inline hipError_t tutorial_hip_cpu_stream_wait_event(hipStream_t stream, hipEvent_t event,
                                                     unsigned int flags) {
    (void)stream;
    (void)flags;
    if (event == nullptr)
        return hipErrorInvalidHandle;
    if (!is_done(*event).valid())
        return hipSuccess;
    return hipEventSynchronize(event);
}
#define hipStreamWaitEvent tutorial_hip_cpu_stream_wait_event

// ---- streams -----------------------------------------------------------------------------------
// The runtime's own threads (the one that runs the streams, and the pool it hands them to) keep a
// slot for every stream they have served, 255 at most per thread, and never give a slot back, even
// when the stream is destroyed. A program that makes and destroys streams all its life ran out of
// them, at a moment that depended on where the allocator put each new stream, and aborted with
// "Overflowed combiner request array". So a destroyed stream is finished, kept and handed out again
// by the next create: the runtime only ever sees as many streams as were alive at once. The
// runtime ignores a stream's flags, so any kept stream serves any request. More than kMostStreams
// alive at once would still overflow those slots (step 09 with 64 devices listed, four streams
// each), so a create beyond them is refused as a GPU refuses what it has no memory for.
namespace tutorial_hip_cpu {

/// The most streams alive at once: the runtime's 255 slots per thread, less a margin for its own.
constexpr int kMostStreams = 240;

/// Streams destroyed by the program, ready to be handed out again. Never freed: a stream destroyed
/// while the program exits stays valid for any thread still finishing.
struct StreamPool {
    std::mutex mutex;
    std::vector<hipStream_t> idle;
    int made = 0;  ///< streams the runtime made: those alive and those idle
};

inline StreamPool& stream_pool() {
    static StreamPool* const pool = new StreamPool;
    return *pool;
}

}  // namespace tutorial_hip_cpu

inline hipError_t tutorial_hip_cpu_stream_create_with_flags(hipStream_t* stream,
                                                            unsigned int flags) {
    if (stream == nullptr)
        return hipErrorInvalidValue;
    tutorial_hip_cpu::StreamPool& pool = tutorial_hip_cpu::stream_pool();
    {
        const std::lock_guard<std::mutex> lock(pool.mutex);
        if (!pool.idle.empty()) {
            *stream = pool.idle.back();
            pool.idle.pop_back();
            return hipSuccess;
        }
        if (pool.made >= tutorial_hip_cpu::kMostStreams)
            return hipErrorOutOfMemory;
        const hipError_t status =
            hipStreamCreateWithFlags(stream, static_cast<hipStreamFlags>(flags));
        if (status == hipSuccess)
            ++pool.made;
        return status;
    }
}

inline hipError_t tutorial_hip_cpu_stream_create(hipStream_t* stream) {
    return tutorial_hip_cpu_stream_create_with_flags(stream, hipStreamDefault);
}

/// Waits for the stream's work, as destroying a stream on a GPU lets it finish, then keeps it.
inline hipError_t tutorial_hip_cpu_stream_destroy(hipStream_t stream) {
    if (stream == nullptr)
        return hipErrorInvalidHandle;
    const hipError_t status = hipStreamSynchronize(stream);
    if (status != hipSuccess)
        return status;
    tutorial_hip_cpu::StreamPool& pool = tutorial_hip_cpu::stream_pool();
    const std::lock_guard<std::mutex> lock(pool.mutex);
    pool.idle.push_back(stream);
    return hipSuccess;
}
#define hipStreamCreateWithFlags tutorial_hip_cpu_stream_create_with_flags
#define hipStreamCreate tutorial_hip_cpu_stream_create
#define hipStreamDestroy tutorial_hip_cpu_stream_destroy

/// The number of devices, after HIP_VISIBLE_DEVICES. HIP on a GPU shows only the devices that this
/// comma-separated list names (the ids up to the first one that is not a device; "-1" hides them
/// all, and so does an id named twice, as with CUDA_VISIBLE_DEVICES); the HIP CPU Runtime ignores
/// the variable. Honouring it here lets a test hide the CPU's one device, as it hides a GPU, and
/// check what a program says when there is none.
inline hipError_t tutorial_hip_cpu_get_device_count(int* count) {
    const hipError_t status = hipGetDeviceCount(count);
    const char* visible = std::getenv("HIP_VISIBLE_DEVICES");
    if (status != hipSuccess || visible == nullptr)
        return status;
    std::istringstream list(visible);
    std::string id;
    std::vector<long> shown;
    while (std::getline(list, id, ',')) {
        char* end = nullptr;
        const long value = std::strtol(id.c_str(), &end, 10);
        if (id.empty() || *end != '\0' || value < 0 || value >= *count)
            break;
        if (std::find(shown.begin(), shown.end(), value) != shown.end()) {
            shown.clear();
            break;
        }
        shown.push_back(value);
    }
    *count = static_cast<int>(shown.size());
    return shown.empty() ? hipErrorNoDevice : hipSuccess;
}
#define hipGetDeviceCount tutorial_hip_cpu_get_device_count

// ---- device memory ---------------------------------------------------------------------------
// The runtime allocates device memory with a plain malloc, reports a failed one as success (with a
// null pointer), and answers hipMemGetInfo with the whole machine's memory, which other programs
// change all the time; Linux's malloc even promises more memory than there is. A GPU behaves
// otherwise, and the tutorial's tests rely on it: an allocation beyond the free memory fails with
// hipErrorOutOfMemory, and free memory comes back exactly when the buffers are freed. So the CPU's
// device is given a fixed capacity, the memory available when the program first allocates or asks,
// and every allocation is counted against it.
namespace tutorial_hip_cpu {

/// Device allocations are aligned to 256 bytes, as a GPU's are.
constexpr std::size_t kAlignment = 256;

/// The device's capacity, and every live allocation with its size. The sizes are kept here rather
/// than next to the blocks, so that each block is exactly the bytes asked for and AddressSanitizer
/// (the CPU route's memcheck) catches a kernel that reads or writes one element past either end.
struct Ledger {
    std::mutex mutex;
    std::size_t capacity = 0;
    std::size_t total = 0;
    std::size_t allocated = 0;
    std::unordered_map<void*, std::size_t> sizes;
};

inline Ledger& ledger() {
    static Ledger* const instance = [] {
        auto* created = new Ledger;  // never destroyed: buffers may be freed during exit
        if (hipMemGetInfo(&created->capacity, &created->total) != hipSuccess)
            created->capacity = created->total = 0;
        return created;
    }();
    return *instance;
}

}  // namespace tutorial_hip_cpu

/// Free and total device memory: the capacity less what is allocated now, and the machine's memory.
inline hipError_t tutorial_hip_cpu_mem_get_info(std::size_t* free_bytes, std::size_t* total_bytes) {
    if (free_bytes == nullptr || total_bytes == nullptr)
        return hipErrorInvalidValue;
    tutorial_hip_cpu::Ledger& ledger = tutorial_hip_cpu::ledger();
    const std::lock_guard<std::mutex> lock(ledger.mutex);
    *free_bytes = ledger.capacity - ledger.allocated;
    *total_bytes = ledger.total;
    return hipSuccess;
}

/// Device memory, counted; hipErrorOutOfMemory, and a null pointer, when it does not fit.
inline hipError_t tutorial_hip_cpu_malloc(void** pointer, std::size_t bytes) {
    if (pointer == nullptr)
        return hipErrorInvalidValue;
    *pointer = nullptr;
    if (bytes == 0)
        return hipSuccess;
    tutorial_hip_cpu::Ledger& ledger = tutorial_hip_cpu::ledger();
    const std::lock_guard<std::mutex> lock(ledger.mutex);
    void* block = nullptr;
    if (bytes > ledger.capacity - ledger.allocated ||
        posix_memalign(&block, tutorial_hip_cpu::kAlignment, bytes) != 0) {
        return hipErrorOutOfMemory;
    }
    ledger.sizes.emplace(block, bytes);
    ledger.allocated += bytes;
    *pointer = block;
    return hipSuccess;
}

template <typename T>
hipError_t tutorial_hip_cpu_malloc(T** pointer, std::size_t bytes) {
    return tutorial_hip_cpu_malloc(reinterpret_cast<void**>(pointer), bytes);
}

/// Frees what tutorial_hip_cpu_malloc gave, after the device's work, as hipFree does; a pointer it
/// did not give is hipErrorInvalidValue.
inline hipError_t tutorial_hip_cpu_free(void* pointer) {
    const hipError_t status = hipDeviceSynchronize();
    if (pointer == nullptr || status != hipSuccess)
        return status;
    tutorial_hip_cpu::Ledger& ledger = tutorial_hip_cpu::ledger();
    {
        const std::lock_guard<std::mutex> lock(ledger.mutex);
        const auto found = ledger.sizes.find(pointer);
        if (found == ledger.sizes.end())
            return hipErrorInvalidValue;
        ledger.allocated -= found->second;
        ledger.sizes.erase(found);
    }
    std::free(pointer);
    return hipSuccess;
}

/// Stream-ordered allocation. The runtime queues the malloc in the stream, so the pointer is not
/// set when the call returns and a kernel launched right after it captures garbage. Allocating at
/// once is within HIP's rules: the memory is usable by the stream's later work, and sooner.
inline hipError_t tutorial_hip_cpu_malloc_async(void** pointer, std::size_t bytes,
                                                hipStream_t stream = nullptr) {
    (void)stream;
    return tutorial_hip_cpu_malloc(pointer, bytes);
}

template <typename T>
hipError_t tutorial_hip_cpu_malloc_async(T** pointer, std::size_t bytes,
                                         hipStream_t stream = nullptr) {
    return tutorial_hip_cpu_malloc_async(reinterpret_cast<void**>(pointer), bytes, stream);
}

/// Stream-ordered free: once the stream's earlier work is done (the host waits for it here).
inline hipError_t tutorial_hip_cpu_free_async(void* pointer, hipStream_t stream = nullptr) {
    const hipError_t status = hipStreamSynchronize(stream);
    return status != hipSuccess ? status : tutorial_hip_cpu_free(pointer);
}

#define hipMemGetInfo tutorial_hip_cpu_mem_get_info
#define hipMalloc tutorial_hip_cpu_malloc
#define hipFree tutorial_hip_cpu_free
#define hipMallocAsync tutorial_hip_cpu_malloc_async
#define hipFreeAsync tutorial_hip_cpu_free_async

/// HIP lets a kernel ask for more dynamic shared memory than the default limit. The HIP CPU Runtime
/// keeps a block's shared memory in ordinary memory, with no limit to raise, and lacks the call:
/// every request is granted.
enum hipFuncAttribute {
    hipFuncAttributeMaxDynamicSharedMemorySize,
};
inline hipError_t hipFuncSetAttribute(const void* kernel, hipFuncAttribute, int value) {
    return kernel != nullptr && value >= 0 ? hipSuccess : hipErrorInvalidValue;
}

/// A kernel starts only after the earlier work of its stream has finished, as HIP promises. The HIP
/// CPU Runtime did not always keep that promise: once in several hundred runs under load, step 06's
/// split-K reduction read its partial tiles before the kernel that writes them had finished
/// (C came out 0). Waiting for the stream before each launch restores the order; on this route only
/// speed is lost, which is not what the route is for.
#undef hipLaunchKernelGGL
#define hipLaunchKernelGGL(kernel_name, num_blocks, dim_blocks, group_mem_bytes, stream, ...) \
    if (true) {                                                                               \
        (void)hipStreamSynchronize(stream);                                                   \
        ::hip::detail::launch(                                                                \
            num_blocks, dim_blocks, group_mem_bytes, stream,                                  \
            [=](auto&&... xs) noexcept { kernel_name(std::forward<decltype(xs)>(xs)...); },   \
            std::make_tuple(__VA_ARGS__));                                                    \
    } else                                                                                    \
        ((void)0)
