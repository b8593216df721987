#include "nccl_transport.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <vector>

#include "common/errors.hpp"
#include "common/hip_check.hpp"
#include "common/hip_handles.hpp"

#if TUTORIAL_HAS_NCCL
#if defined(__HIP_PLATFORM_AMD__)
#include <rccl/rccl.h>
#else
#include <nccl.h>
#endif
#endif

namespace step10 {

namespace {

#if TUTORIAL_HAS_NCCL

// Which GPU this rank uses, by node and PCI address: equal strings are one GPU.
std::string current_gpu() {
    int device = 0;
    HIP_CHECK(hipGetDevice(&device));
    hipDeviceProp_t properties;
    HIP_CHECK(hipGetDeviceProperties(&properties, device));
    char node[MPI_MAX_PROCESSOR_NAME] = {};
    int length = 0;
    MPI_Get_processor_name(node, &length);
    return std::string(node, static_cast<std::size_t>(length)) + " " +
           std::to_string(properties.pciDomainID) + ":" + std::to_string(properties.pciBusID) +
           ":" + std::to_string(properties.pciDeviceID);
}

// True on every rank when two ranks of `world` use one GPU.
bool ranks_share_a_gpu(MPI_Comm world) {
    constexpr int kWidth = MPI_MAX_PROCESSOR_NAME + 64;
    std::string mine = current_gpu();
    mine.resize(kWidth, '\0');
    int size = 0;
    MPI_Comm_size(world, &size);
    std::vector<char> all(static_cast<std::size_t>(size) * kWidth);
    MPI_Allgather(mine.data(), kWidth, MPI_CHAR, all.data(), kWidth, MPI_CHAR, world);
    std::set<std::string> gpus;
    for (int rank = 0; rank < size; ++rank)
        gpus.insert(std::string(all.data() + static_cast<std::size_t>(rank) * kWidth, kWidth));
    return static_cast<int>(gpus.size()) < size;
}

void nccl_check(ncclResult_t result, const char* call) {
    if (result != ncclSuccess) {
        throw tutorial::RuntimeFailure(std::string(call) +
                                       " failed: " + ncclGetErrorString(result));
    }
}
#define NCCL_CHECK(call) nccl_check((call), #call)

// [nccl communicator]
// One NCCL communicator over the ranks of an MPI communicator, in the same order: the first rank
// asks NCCL for an identifier, MPI carries it to the others, and all join with it.
ncclComm_t nccl_communicator(MPI_Comm mpi) {
    int place = 0, size = 0;
    MPI_Comm_rank(mpi, &place);
    MPI_Comm_size(mpi, &size);
    ncclUniqueId id;
    std::memset(&id, 0, sizeof id);
    if (place == 0)
        NCCL_CHECK(ncclGetUniqueId(&id));
    MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, mpi);
    ncclComm_t communicator = nullptr;
    NCCL_CHECK(ncclCommInitRank(&communicator, size, id, place));
    return communicator;
}
// [nccl communicator]

// A broadcast queued on the transport's stream: done when the event after it has happened.
class NcclBroadcast : public PendingBroadcast {
  public:
    explicit NcclBroadcast(hipStream_t stream) : done_(hipEventDisableTiming) {
        HIP_CHECK(hipEventRecord(done_.get(), stream));
    }
    bool test() override {
        const hipError_t status = hipEventQuery(done_.get());
        if (status != hipErrorNotReady)
            HIP_CHECK(status);
        return status == hipSuccess;
    }
    void finish() override { HIP_CHECK(hipEventSynchronize(done_.get())); }

  private:
    tutorial::Event done_;
};

class NcclTransport : public PanelTransport {
  public:
    NcclTransport(const ProcessGrid& grid, hipStream_t stream)
        : stream_(stream),
          // Every rank makes its row's communicator first, then its column's: NCCL's
          // initialisation is collective, and one order everywhere cannot deadlock.
          row_(nccl_communicator(grid.row_communicator())),
          col_(nccl_communicator(grid.col_communicator())) {
        MPI_Comm_rank(grid.row_communicator(), &row_place_);
        MPI_Comm_rank(grid.col_communicator(), &col_place_);
    }
    ~NcclTransport() override {
        ncclCommDestroy(row_);
        ncclCommDestroy(col_);
    }
    NcclTransport(const NcclTransport&) = delete;
    NcclTransport& operator=(const NcclTransport&) = delete;

    // [nccl broadcast]
    std::unique_ptr<PendingBroadcast> start(Direction direction, int root, DevicePanel source,
                                            float* destination) override {
        const bool along_row = direction == Direction::along_row;
        const int place = along_row ? row_place_ : col_place_;
        const void* send = destination;
        if (place == root && source.count() > 0) {
            if (source.pitch == source.height) {
                send = source.data;  // whole columns side by side: NCCL reads them where they are
            } else {
                // B's panel, a few rows of every column: packed into the root's own destination
                // first, then sent from there (in place).
                HIP_CHECK(hipMemcpy2DAsync(destination, sizeof(float) * source.height, source.data,
                                           sizeof(float) * source.pitch,
                                           sizeof(float) * source.height, source.width,
                                           hipMemcpyDeviceToDevice, stream_));
            }
        }
        if (source.count() > 0) {
            NCCL_CHECK(ncclBroadcast(send, destination, static_cast<std::size_t>(source.count()),
                                     ncclFloat, root, along_row ? row_ : col_, stream_));
        }
        return std::make_unique<NcclBroadcast>(stream_);
    }
    // [nccl broadcast]

  private:
    hipStream_t stream_;
    ncclComm_t row_, col_;
    int row_place_ = 0, col_place_ = 0;
};

#endif  // TUTORIAL_HAS_NCCL

}  // namespace

std::optional<std::string> nccl_unavailable_reason(const ProcessGrid& grid) {
#if TUTORIAL_HAS_NCCL
    if (ranks_share_a_gpu(grid.world())) {
        return std::string(
            "two ranks use the same GPU, and NCCL needs a GPU of its own for each "
            "rank of a communicator");
    }
    return std::nullopt;
#else
    (void)grid;
    return std::string(
        "this build has no NCCL (RCCL on AMD): CMake did not find it, or "
        "TUTORIAL_NCCL is OFF");
#endif
}

std::unique_ptr<PanelTransport> nccl_transport(const ProcessGrid& grid, hipStream_t stream) {
    if (const auto reason = nccl_unavailable_reason(grid))
        throw tutorial::RuntimeFailure("no NCCL transport: " + *reason);
#if TUTORIAL_HAS_NCCL
    return std::make_unique<NcclTransport>(grid, stream);
#else
    (void)stream;
    return nullptr;
#endif
}

}  // namespace step10
