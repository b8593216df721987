#include "summa.hpp"

#include <hip/hip_runtime.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

#include "block_cyclic.hpp"
#include "common/device_buffer.hpp"
#include "common/errors.hpp"
#include "common/hip_check.hpp"
#include "common/hip_handles.hpp"
#include "every_shape_gemm.hpp"
#include "test_hooks.hpp"

namespace step10 {

namespace {

// C += product, element by element: step 08's GEMM overwrites its C, so every panel after the
// first is multiplied into a scratch array and added here, m_loc * n_loc additions against
// m_loc * n_loc * block multiply-adds.
__global__ void add_into(float* c, const float* product, std::size_t count) {
    const std::size_t stride = static_cast<std::size_t>(blockDim.x) * gridDim.x;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
         i += stride)
        c[i] += product[i];
}

void launch_add_into(float* c, const float* product, std::size_t count, hipStream_t stream) {
    constexpr unsigned kThreads = 256;
    const std::size_t blocks = std::min<std::size_t>((count + kThreads - 1) / kThreads, 4096);
    hipLaunchKernelGGL(add_into, dim3(static_cast<unsigned>(blocks)), dim3(kThreads), 0, stream, c,
                       product, count);
    HIP_CHECK_LAUNCH();
}

// Device memory for `count` floats; one float for none, so that every rank holds a valid pointer.
tutorial::DeviceBuffer<float> device_floats(std::size_t count) {
    return tutorial::DeviceBuffer<float>(std::max<std::size_t>(count, 1));
}

// The two broadcasts that bring one block of K to every rank.
struct PanelPair {
    std::unique_ptr<PendingBroadcast> a;
    std::unique_ptr<PendingBroadcast> b;
};

// What one rank needs to start the broadcasts of K block `index`.
struct Summa {
    const float* a;
    const float* b;
    int local_m, local_n, local_k_of_b;
    BlockCyclic k_over_cols;  // A's columns over the process columns
    BlockCyclic k_over_rows;  // B's rows over the process rows
    const ProcessGrid& grid;
    PanelTransport& transport;

    // [panel broadcasts]
    PanelPair start(int index, float* a_panel, float* b_panel) const {
        const int first = index * k_over_cols.block;
        const int width = k_over_cols.block_extent(index);
        // A's panel: `width` whole local columns of the owner's A, side by side in its array.
        const int a_owner = k_over_cols.owner(first);
        DevicePanel a_source{nullptr, local_m, width, local_m};
        if (grid.col() == a_owner)
            a_source.data = a + static_cast<std::size_t>(k_over_cols.to_local(first)) * local_m;
        // B's panel: `width` local rows of the owner's B, one piece from each of its columns.
        const int b_owner = k_over_rows.owner(first);
        DevicePanel b_source{nullptr, width, local_n, local_k_of_b};
        if (grid.row() == b_owner)
            b_source.data = b + k_over_rows.to_local(first);
        return {transport.start(Direction::along_row, a_owner, a_source, a_panel),
                transport.start(Direction::along_col, b_owner, b_source, b_panel)};
    }
    // [panel broadcasts]
};

// Waits for `stream` while letting `next`'s broadcasts advance: MPI moves a message on only
// inside its calls, so a host that merely waited would leave the next panels where they were.
void wait_progressing(hipStream_t stream, PanelPair* next) {
    for (;;) {
        const hipError_t status = hipStreamQuery(stream);
        if (status == hipSuccess)
            return;
        if (status != hipErrorNotReady)
            HIP_CHECK(status);
        if (next != nullptr) {
            next->a->test();
            next->b->test();
        }
        std::this_thread::yield();
    }
}

}  // namespace

void gemm(const float* a, const float* b, float* c, int m, int n, int k, int block,
          const ProcessGrid& grid, PanelTransport& transport, hipStream_t stream) {
    if (m < 1 || n < 1 || k < 1 || block < 1) {
        throw std::invalid_argument("step10::gemm: sizes and block must be at least 1; got m " +
                                    std::to_string(m) + ", n " + std::to_string(n) + ", k " +
                                    std::to_string(k) + ", block " + std::to_string(block));
    }
    const GridShape shape = grid.shape();
    const BlockCyclic m_over_rows{m, block, shape.rows, 0};
    const BlockCyclic n_over_cols{n, block, shape.cols, 0};
    const Summa summa{a,
                      b,
                      m_over_rows.local_count(grid.row()),
                      n_over_cols.local_count(grid.col()),
                      BlockCyclic{k, block, shape.rows, 0}.local_count(grid.row()),
                      BlockCyclic{k, block, shape.cols, 0},
                      BlockCyclic{k, block, shape.rows, 0},
                      grid,
                      transport};
    const int local_m = summa.local_m, local_n = summa.local_n;
    const std::size_t c_count = static_cast<std::size_t>(local_m) * local_n;
    // Two panels of each, so that the next ones arrive while the current ones are multiplied; a
    // panel is `block` wide, or k where the whole of K is one block.
    const int widest = std::min(block, k);
    const std::size_t a_panel_count = static_cast<std::size_t>(local_m) * widest;
    const std::size_t b_panel_count = static_cast<std::size_t>(widest) * local_n;
    tutorial::DeviceBuffer<float> a_panels[2] = {device_floats(a_panel_count),
                                                 device_floats(a_panel_count)};
    tutorial::DeviceBuffer<float> b_panels[2] = {device_floats(b_panel_count),
                                                 device_floats(b_panel_count)};
    tutorial::DeviceBuffer<float> product = device_floats(c_count);

    // The broadcasts read A and B on their own stream, so everything queued on this device goes
    // first: work on `stream`, and also a hipMemcpy from pageable memory, which may return before
    // its copy has landed and is not ordered with a non-blocking stream.
    HIP_CHECK(hipDeviceSynchronize());
    // [summa loop]
    const int panels = summa.k_over_cols.block_count();
    PanelPair current = summa.start(0, a_panels[0].get(), b_panels[0].get());
    if (test_hooks::fails_on(grid.rank())) {
        throw tutorial::RuntimeFailure("rank " + std::to_string(grid.rank()) +
                                       " fails on purpose (test hook STEP10_TEST_FAIL_RANK)");
    }
    for (int index = 0; index < panels; ++index) {
        current.a->finish();
        current.b->finish();
        PanelPair next;
        if (index + 1 < panels) {
            const int slot = (index + 1) % 2;
            next = summa.start(index + 1, a_panels[slot].get(), b_panels[slot].get());
        }
        if (c_count > 0) {
            // Column-major C (local_m x local_n) is row-major C^T, and C^T = B^T A^T: step 08's
            // row-major GEMM of the B panel by the A panel gives this rank's C as ScaLAPACK
            // stores it.
            const int width = summa.k_over_cols.block_extent(index);
            float* target = index == 0 ? c : product.get();
            step08::gemm(b_panels[index % 2].get(), a_panels[index % 2].get(), target, local_n,
                         local_m, width, stream);
            if (index > 0)
                launch_add_into(c, product.get(), c_count, stream);
        }
        wait_progressing(stream, next.a ? &next : nullptr);
        current = std::move(next);
    }
    // [summa loop]
    HIP_CHECK(hipStreamSynchronize(stream));
}

void gemm(const float* a, const float* b, float* c, int m, int n, int k, int block,
          const ProcessGrid& grid, hipStream_t stream) {
    const tutorial::Stream copy_stream;
    const std::unique_ptr<PanelTransport> transport =
        host_staged_transport(grid, copy_stream.get());
    gemm(a, b, c, m, n, k, block, grid, *transport, stream);
}

}  // namespace step10
