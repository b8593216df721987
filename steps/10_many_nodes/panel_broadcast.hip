#include "panel_broadcast.hpp"

#include <mpi.h>

#include <limits>
#include <memory>
#include <stdexcept>
#include <vector>

#include "common/hip_check.hpp"

namespace step10 {

namespace {

// [host staged]
class HostStagedBroadcast : public PendingBroadcast {
  public:
    // [ibcast]
    HostStagedBroadcast(MPI_Comm communicator, int root, DevicePanel source, float* destination,
                        hipStream_t copy_stream)
        : staging_(std::make_unique<std::vector<float>>(message_count(source))),
          destination_(destination),
          copy_stream_(copy_stream) {
        int place = 0;
        MPI_Comm_rank(communicator, &place);
        if (place == root && !staging_->empty()) {
            // The panel's columns may lie apart in the local array (B's rows): the 2D copy packs
            // them into one block of host memory on the way.
            HIP_CHECK(hipMemcpy2DAsync(staging_->data(), sizeof(float) * source.height, source.data,
                                       sizeof(float) * source.pitch, sizeof(float) * source.height,
                                       source.width, hipMemcpyDeviceToHost, copy_stream_));
            HIP_CHECK(hipStreamSynchronize(copy_stream_));
        }
        MPI_Ibcast(staging_->data(), static_cast<int>(staging_->size()), MPI_FLOAT, root,
                   communicator, &request_);
    }

    bool test() override {
        int done = 0;
        MPI_Test(&request_, &done, MPI_STATUS_IGNORE);
        return done != 0;
    }

    void finish() override {
        MPI_Wait(&request_, MPI_STATUS_IGNORE);
        if (staging_->empty())
            return;
        HIP_CHECK(hipMemcpyAsync(destination_, staging_->data(), sizeof(float) * staging_->size(),
                                 hipMemcpyHostToDevice, copy_stream_));
        HIP_CHECK(hipStreamSynchronize(copy_stream_));
    }
    // [ibcast]

    // A broadcast still under way when its owner goes (an exception on this rank) may yet write
    // into its host buffer, so the buffer is left allocated: after such a failure the program
    // ends every rank with MPI_Abort anyway.
    ~HostStagedBroadcast() override {
        if (request_ != MPI_REQUEST_NULL)
            (void)staging_.release();
    }
    HostStagedBroadcast(const HostStagedBroadcast&) = delete;
    HostStagedBroadcast& operator=(const HostStagedBroadcast&) = delete;

  private:
    // MPI counts in int: one panel is at most 2^31 - 1 floats.
    static std::size_t message_count(const DevicePanel& source) {
        if (source.count() > std::numeric_limits<int>::max())
            throw std::invalid_argument("a panel of more than 2^31 - 1 floats");
        return static_cast<std::size_t>(source.count());
    }

    std::unique_ptr<std::vector<float>> staging_;
    float* destination_;
    hipStream_t copy_stream_;
    MPI_Request request_ = MPI_REQUEST_NULL;
};
// [host staged]

class HostStagedTransport : public PanelTransport {
  public:
    HostStagedTransport(const ProcessGrid& grid, hipStream_t copy_stream)
        : grid_(grid), copy_stream_(copy_stream) {}

    std::unique_ptr<PendingBroadcast> start(Direction direction, int root, DevicePanel source,
                                            float* destination) override {
        const MPI_Comm communicator =
            direction == Direction::along_row ? grid_.row_communicator() : grid_.col_communicator();
        return std::make_unique<HostStagedBroadcast>(communicator, root, source, destination,
                                                     copy_stream_);
    }

  private:
    const ProcessGrid& grid_;
    hipStream_t copy_stream_;
};

}  // namespace

std::unique_ptr<PanelTransport> host_staged_transport(const ProcessGrid& grid,
                                                      hipStream_t copy_stream) {
    return std::make_unique<HostStagedTransport>(grid, copy_stream);
}

}  // namespace step10
