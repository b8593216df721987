#include "first_chunk_halves.hpp"

#include "common/hip_check.hpp"
#include "schedule.hpp"

namespace step09 {

// [halves]
void ChunkArrival::copy(int rows, bool first_chunk, const RowAction& copy_rows,
                        hipStream_t stream) {
    rows_ = rows;
    started_.record(stream);
    top_rows_ = first_chunk ? first_chunk_top_rows(rows) : 0;
    if (top_rows_ > 0) {
        copy_rows(0, top_rows_);
        top_arrived_.record(stream);
    } else {
        copy_rows(0, rows);
        arrived_.record(stream);
    }
}

void ChunkArrival::copy_rest(const RowAction& copy_rows, hipStream_t stream) {
    if (top_rows_ == 0)
        return;
    copy_rows(top_rows_, rows_ - top_rows_);
    arrived_.record(stream);
}

void ChunkArrival::wait_for_rows(bool first_tile, hipStream_t stream) const {
    const bool top_only = first_tile && top_rows_ > 0;
    HIP_CHECK(hipStreamWaitEvent(stream, (top_only ? top_arrived_ : arrived_).get(), 0));
}

void ChunkArrival::multiply(bool first_tile, const RowAction& multiply_rows,
                            hipStream_t stream) const {
    const int top_rows = first_tile ? top_rows_ : 0;
    if (top_rows > 0) {
        multiply_rows(0, top_rows);
        HIP_CHECK(hipStreamWaitEvent(stream, arrived_.get(), 0));
    }
    multiply_rows(top_rows, rows_ - top_rows);
}
// [halves]

}  // namespace step09
