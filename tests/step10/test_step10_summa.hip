// Step 10 under mpirun with 1, 2, 3 or 4 ranks, on every grid those ranks make (1x4, 2x2, 4x1,
// 3x1, ...): the process grid, the gather, the panel broadcasts, and SUMMA against the serial
// reference and against ScaLAPACK's PSGEMM on the same ranks and layout, all exact on small
// integers (every partial sum is an integer below 2^24, so float adds it without rounding).
#include <gtest/gtest.h>
#include <hip/hip_runtime.h>
#include <mpi.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "common/device_buffer.hpp"
#include "common/hip_check.hpp"
#include "common/hip_handles.hpp"
#include "distributed_matrix.hpp"
#include "nccl_transport.hpp"
#include "panel_broadcast.hpp"
#include "process_grid.hpp"
#include "scalapack_reference.hpp"
#include "summa.hpp"
#include "tests/support/gpu_test.hpp"

using step10::DistributedLayout;
using step10::GridShape;
using step10::ProcessGrid;

namespace {

int world_size() {
    int size = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    return size;
}

// Every pr x pc grid of the ranks of this run: 4 ranks give 1x4, 2x2 and 4x1.
std::vector<GridShape> every_grid() {
    std::vector<GridShape> grids;
    for (int rows = 1; rows <= world_size(); ++rows)
        if (world_size() % rows == 0)
            grids.push_back({rows, world_size() / rows});
    return grids;
}

// A small integer from -4 to 4 that depends on the place and the matrix, not a pattern.
float small_integer(int which, int row, int col) {
    std::uint64_t x = (static_cast<std::uint64_t>(which) << 48) ^
                      (static_cast<std::uint64_t>(row) << 24) ^ static_cast<std::uint64_t>(col);
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    x ^= x >> 31;
    return static_cast<float>(static_cast<int>(x % 9) - 4);
}

struct Shape {
    int m, n, k, block;
};

std::string describe(const Shape& s, const GridShape& grid) {
    std::ostringstream text;
    text << s.m << " x " << s.n << " x " << s.k << " in blocks of " << s.block << " on a "
         << step10::to_string(grid) << " grid";
    return text.str();
}

// 1x1x1; 7 rows over 3 process rows in blocks of 4 (4, 3 and none); blocks larger than the whole
// matrix; sizes no grid divides; K of one panel and of many; a long K.
const std::vector<Shape> kShapes = {{1, 1, 1, 1},    {1, 1, 1, 64},    {7, 5, 9, 4},
                                    {7, 7, 7, 2},    {13, 29, 31, 5},  {33, 1, 200, 100},
                                    {1, 40, 3, 7},   {64, 48, 80, 16}, {17, 19, 23, 64},
                                    {50, 30, 70, 8}, {9, 11, 130, 3}};

// The global product, exact in double.
std::vector<double> serial_product(const Shape& s) {
    std::vector<double> c(static_cast<std::size_t>(s.m) * s.n, 0.0);
    for (int i = 0; i < s.m; ++i)
        for (int j = 0; j < s.n; ++j)
            for (int p = 0; p < s.k; ++p)
                c[static_cast<std::size_t>(i) * s.n + j] +=
                    double(small_integer(0, i, p)) * small_integer(1, p, j);
    return c;
}

struct LocalProblem {
    DistributedLayout a, b, c;
    std::vector<float> a_local, b_local;
};

LocalProblem local_problem(const ProcessGrid& grid, const Shape& s) {
    LocalProblem problem{DistributedLayout::on(grid, s.m, s.k, s.block),
                         DistributedLayout::on(grid, s.k, s.n, s.block),
                         DistributedLayout::on(grid, s.m, s.n, s.block),
                         {},
                         {}};
    problem.a_local =
        step10::local_part(problem.a, [](int i, int j) { return small_integer(0, i, j); });
    problem.b_local =
        step10::local_part(problem.b, [](int i, int j) { return small_integer(1, i, j); });
    return problem;
}

tutorial::DeviceBuffer<float> on_device(const std::vector<float>& values) {
    tutorial::DeviceBuffer<float> buffer(values.empty() ? 1 : values.size());
    HIP_CHECK(hipMemcpy(buffer.get(), values.data(), sizeof(float) * values.size(),
                        hipMemcpyHostToDevice));
    // From pageable memory hipMemcpy may return before the copy has landed, and the transports
    // write on non-blocking streams: a fill landing late would overwrite a delivered panel.
    HIP_CHECK(hipDeviceSynchronize());
    return buffer;
}

std::vector<float> on_host(const tutorial::DeviceBuffer<float>& buffer, std::size_t count) {
    std::vector<float> values(count);
    HIP_CHECK(hipMemcpy(values.data(), buffer.get(), sizeof(float) * count, hipMemcpyDeviceToHost));
    return values;
}

// This rank's part of C from step10::gemm, with C filled with NaN first so that an element no
// panel writes fails the comparison.
std::vector<float> summa_local(const ProcessGrid& grid, const Shape& s, const LocalProblem& p) {
    const tutorial::DeviceBuffer<float> a = on_device(p.a_local);
    const tutorial::DeviceBuffer<float> b = on_device(p.b_local);
    tutorial::DeviceBuffer<float> c =
        on_device(std::vector<float>(p.c.local_size(), std::numeric_limits<float>::quiet_NaN()));
    const tutorial::Stream stream;
    step10::gemm(a.get(), b.get(), c.get(), s.m, s.n, s.k, s.block, grid, stream.get());
    return on_host(c, p.c.local_size());
}

// How many local elements differ from `expected(global row, global col)`, and the first of them.
template <class Expected>
std::string mismatches(const DistributedLayout& layout, const std::vector<float>& local,
                       Expected expected) {
    int count = 0;
    std::ostringstream first;
    for (int c = 0; c < layout.local_cols(); ++c)
        for (int r = 0; r < layout.local_rows(); ++r) {
            const int i = layout.row_layout().to_global(r, layout.row);
            const int j = layout.col_layout().to_global(c, layout.col);
            const float got = local[r + static_cast<std::size_t>(c) * layout.local_rows()];
            if (!(double(got) == expected(i, j)) && count++ == 0)
                first << "; first C(" << i << ", " << j << ") = " << got << ", expected "
                      << expected(i, j);
        }
    return count == 0 ? "" : std::to_string(count) + " elements differ" + first.str();
}

void select_node_device(const ProcessGrid& grid) {
    HIP_CHECK(hipSetDevice(grid.node_rank() % tutorial::device_count()));
}

// A second transport, around the host-staged one, that records what SUMMA asks of it: the seam
// through which a GPU-to-GPU transport (NCCL / RCCL) would come in.
class RecordingTransport : public step10::PanelTransport {
  public:
    struct Call {
        step10::Direction direction;
        int root, height, width;
        float* destination;
    };

    explicit RecordingTransport(step10::PanelTransport& inner) : inner_(inner) {}

    std::unique_ptr<step10::PendingBroadcast> start(step10::Direction direction, int root,
                                                    step10::DevicePanel source,
                                                    float* destination) override {
        calls.push_back({direction, root, source.height, source.width, destination});
        return inner_.start(direction, root, source, destination);
    }

    std::vector<Call> calls;

  private:
    step10::PanelTransport& inner_;
};

}  // namespace

TEST(ProcessGrid, PlacesRanksRowByRowWithRowAndColumnCommunicators) {
    for (const GridShape& shape : every_grid()) {
        const ProcessGrid grid(MPI_COMM_WORLD, shape);
        EXPECT_EQ(grid.row() * shape.cols + grid.col(), grid.rank());
        int place = -1, size = -1;
        MPI_Comm_rank(grid.row_communicator(), &place);
        MPI_Comm_size(grid.row_communicator(), &size);
        EXPECT_EQ(place, grid.col());
        EXPECT_EQ(size, shape.cols);
        MPI_Comm_rank(grid.col_communicator(), &place);
        MPI_Comm_size(grid.col_communicator(), &size);
        EXPECT_EQ(place, grid.row());
        EXPECT_EQ(size, shape.rows);
        // Everyone in my row communicator is in my process row, and in my column one in my column.
        int row = grid.row(), col = grid.col(), lowest = -1, highest = -1;
        MPI_Allreduce(&row, &lowest, 1, MPI_INT, MPI_MIN, grid.row_communicator());
        MPI_Allreduce(&row, &highest, 1, MPI_INT, MPI_MAX, grid.row_communicator());
        EXPECT_EQ(lowest, row);
        EXPECT_EQ(highest, row);
        MPI_Allreduce(&col, &lowest, 1, MPI_INT, MPI_MIN, grid.col_communicator());
        MPI_Allreduce(&col, &highest, 1, MPI_INT, MPI_MAX, grid.col_communicator());
        EXPECT_EQ(lowest, col);
        EXPECT_EQ(highest, col);
        // mpirun starts every rank of these tests on one node.
        EXPECT_EQ(grid.node_size(), world_size());
        EXPECT_EQ(grid.node_rank(), grid.rank());
    }
    EXPECT_THROW(ProcessGrid(MPI_COMM_WORLD, GridShape{world_size() + 1, 1}),
                 std::invalid_argument);
}

TEST(DistributedMatrix, GatherOnRootRebuildsTheWholeMatrix) {
    for (const GridShape& shape : every_grid())
        for (const Shape& s : kShapes) {
            const ProcessGrid grid(MPI_COMM_WORLD, shape);
            const auto layout = DistributedLayout::on(grid, s.m, s.k, s.block);
            const auto local =
                step10::local_part(layout, [](int i, int j) { return small_integer(2, i, j); });
            EXPECT_EQ(local.size(), layout.local_size());
            const tutorial::Matrix<float> whole = step10::gather_on_root(layout, local, grid);
            if (grid.rank() != 0) {
                EXPECT_EQ(whole.size(), 0u);
                continue;
            }
            // Checked without ASSERT: a rank leaving the loop early would leave the others waiting
            // in the next gather.
            EXPECT_EQ(whole.rows(), s.m);
            EXPECT_EQ(whole.cols(), s.k);
            if (whole.rows() != s.m || whole.cols() != s.k)
                continue;
            int wrong = 0;
            for (int i = 0; i < s.m; ++i)
                for (int j = 0; j < s.k; ++j)
                    wrong += whole(i, j) != small_integer(2, i, j);
            EXPECT_EQ(wrong, 0) << describe(s, shape);
        }
}

namespace {

// Each root in turn sends a panel whose columns lie apart in its array (pitch > height), and then
// one whose columns lie side by side (pitch = height); every rank of the row or column must
// receive exactly the root's values, packed. `make` gives the transport under test for a grid.
template <class MakeTransport>
void check_panel_delivery(MakeTransport make) {
    for (const GridShape& shape : every_grid()) {
        const ProcessGrid grid(MPI_COMM_WORLD, shape);
        select_node_device(grid);
        const tutorial::Stream copy_stream;
        const std::unique_ptr<step10::PanelTransport> transport = make(grid, copy_stream.get());
        for (const int pitch : {7, 5}) {
            const int height = 5, width = 3;
            for (const auto direction :
                 {step10::Direction::along_row, step10::Direction::along_col}) {
                const bool along_row = direction == step10::Direction::along_row;
                const int places = along_row ? shape.cols : shape.rows;
                const int my_place = along_row ? grid.col() : grid.row();
                for (int root = 0; root < places; ++root) {
                    std::vector<float> source(static_cast<std::size_t>(pitch) * width);
                    for (std::size_t i = 0; i < source.size(); ++i)
                        source[i] = static_cast<float>(1000 * grid.rank() + i);
                    const tutorial::DeviceBuffer<float> device_source = on_device(source);
                    tutorial::DeviceBuffer<float> destination =
                        on_device(std::vector<float>(height * width, -1.0f));
                    const step10::DevicePanel panel{
                        my_place == root ? device_source.get() : nullptr, height, width, pitch};
                    transport->start(direction, root, panel, destination.get())->finish();
                    const std::vector<float> got = on_host(destination, height * width);
                    const int root_rank =
                        along_row ? grid.row() * shape.cols + root : root * shape.cols + grid.col();
                    int wrong = 0;
                    for (int c = 0; c < width; ++c)
                        for (int r = 0; r < height; ++r)
                            wrong += got[r + c * height] !=
                                     static_cast<float>(1000 * root_rank + r + c * pitch);
                    EXPECT_EQ(wrong, 0)
                        << "pitch " << pitch << ", root " << root
                        << (along_row ? " along the row" : " along the column") << " on a "
                        << step10::to_string(shape) << " grid, rank " << grid.rank();
                }
            }
        }
    }
}

// Skips the current test, with the reason, where NCCL cannot carry the panels on these ranks
// (not built, or ranks sharing a GPU). Collective: every rank skips alike.
#define STEP10_REQUIRE_NCCL()                                                             \
    do {                                                                                  \
        const ProcessGrid any_grid_(MPI_COMM_WORLD, step10::squarest_grid(world_size())); \
        select_node_device(any_grid_);                                                    \
        if (const auto step10_no_nccl_ = step10::nccl_unavailable_reason(any_grid_)) {    \
            GTEST_SKIP() << *step10_no_nccl_;                                             \
        }                                                                                 \
    } while (false)

}  // namespace

TEST(PanelBroadcast, HostStagedDeliversTheRootsPanelPackedToEveryRank) {
    TUTORIAL_REQUIRE_GPU();
    check_panel_delivery([](const ProcessGrid& grid, hipStream_t stream) {
        return step10::host_staged_transport(grid, stream);
    });
}

TEST(NcclTransport, DeliversTheRootsPanelPackedToEveryRank) {
    TUTORIAL_REQUIRE_GPU();
    STEP10_REQUIRE_NCCL();
    check_panel_delivery([](const ProcessGrid& grid, hipStream_t stream) {
        return step10::nccl_transport(grid, stream);
    });
}

TEST(Summa, MatchesTheSerialProductExactly) {
    TUTORIAL_REQUIRE_GPU();
    for (const Shape& s : kShapes) {
        const std::vector<double> expected = serial_product(s);
        for (const GridShape& shape : every_grid()) {
            const ProcessGrid grid(MPI_COMM_WORLD, shape);
            select_node_device(grid);
            const LocalProblem problem = local_problem(grid, s);
            const std::vector<float> c = summa_local(grid, s, problem);
            EXPECT_EQ(mismatches(problem.c, c,
                                 [&](int i, int j) {
                                     return expected[static_cast<std::size_t>(i) * s.n + j];
                                 }),
                      "")
                << describe(s, shape) << ", rank " << grid.rank();
        }
    }
}

// For each block of K, in order: A's panel along the rows from the process column that holds it,
// B's along the columns from the process row that holds it, each as wide as the block, into two
// buffers taken in turn. And the product is still right through another transport.
TEST(Summa, UsesOnlyThePanelTransportOneBlockOfKAtATime) {
    TUTORIAL_REQUIRE_GPU();
    const Shape s{13, 29, 31, 5};
    const std::vector<double> expected = serial_product(s);
    for (const GridShape& shape : every_grid()) {
        const ProcessGrid grid(MPI_COMM_WORLD, shape);
        select_node_device(grid);
        const LocalProblem problem = local_problem(grid, s);
        const tutorial::DeviceBuffer<float> a = on_device(problem.a_local);
        const tutorial::DeviceBuffer<float> b = on_device(problem.b_local);
        tutorial::DeviceBuffer<float> c = on_device(std::vector<float>(problem.c.local_size()));
        const tutorial::Stream stream, copy_stream;
        const auto host_staged = step10::host_staged_transport(grid, copy_stream.get());
        RecordingTransport recording(*host_staged);
        step10::gemm(a.get(), b.get(), c.get(), s.m, s.n, s.k, s.block, grid, recording,
                     stream.get());
        EXPECT_EQ(mismatches(problem.c, on_host(c, problem.c.local_size()),
                             [&](int i, int j) {
                                 return expected[static_cast<std::size_t>(i) * s.n + j];
                             }),
                  "")
            << describe(s, shape);
        const int panels = (s.k + s.block - 1) / s.block;  // 7: the last one 1 wide
        EXPECT_EQ(recording.calls.size(), 2u * panels) << describe(s, shape);
        if (recording.calls.size() != 2u * panels)
            continue;
        for (int p = 0; p < panels; ++p) {
            const auto& along_row = recording.calls[2 * p];
            const auto& along_col = recording.calls[2 * p + 1];
            const int width = p + 1 < panels ? s.block : s.k - p * s.block;
            EXPECT_EQ(along_row.direction, step10::Direction::along_row) << p;
            EXPECT_EQ(along_row.root, p % shape.cols) << p;
            EXPECT_EQ(along_row.height, problem.c.local_rows()) << p;
            EXPECT_EQ(along_row.width, width) << p;
            EXPECT_EQ(along_col.direction, step10::Direction::along_col) << p;
            EXPECT_EQ(along_col.root, p % shape.rows) << p;
            EXPECT_EQ(along_col.height, width) << p;
            EXPECT_EQ(along_col.width, problem.c.local_cols()) << p;
            if (p >= 1) {
                EXPECT_NE(along_row.destination, recording.calls[2 * p - 2].destination) << p;
                EXPECT_NE(along_col.destination, recording.calls[2 * p - 1].destination) << p;
            }
            if (p >= 2) {
                EXPECT_EQ(along_row.destination, recording.calls[2 * p - 4].destination) << p;
                EXPECT_EQ(along_col.destination, recording.calls[2 * p - 3].destination) << p;
            }
        }
    }
}

// SUMMA with its panels GPU to GPU: the same exact products on every shape and grid, and in a
// second multiply through the same communicators (the transport outlives one gemm call).
TEST(NcclTransport, SummaMatchesTheSerialProductExactly) {
    TUTORIAL_REQUIRE_GPU();
    STEP10_REQUIRE_NCCL();
    for (const GridShape& shape : every_grid()) {
        const ProcessGrid grid(MPI_COMM_WORLD, shape);
        select_node_device(grid);
        const tutorial::Stream stream, copy_stream;
        const auto transport = step10::nccl_transport(grid, copy_stream.get());
        for (const Shape& s : kShapes) {
            const std::vector<double> expected = serial_product(s);
            const LocalProblem problem = local_problem(grid, s);
            const tutorial::DeviceBuffer<float> a = on_device(problem.a_local);
            const tutorial::DeviceBuffer<float> b = on_device(problem.b_local);
            for (int run = 0; run < 2; ++run) {
                tutorial::DeviceBuffer<float> c = on_device(std::vector<float>(
                    problem.c.local_size(), std::numeric_limits<float>::quiet_NaN()));
                step10::gemm(a.get(), b.get(), c.get(), s.m, s.n, s.k, s.block, grid, *transport,
                             stream.get());
                EXPECT_EQ(mismatches(problem.c, on_host(c, problem.c.local_size()),
                                     [&](int i, int j) {
                                         return expected[static_cast<std::size_t>(i) * s.n + j];
                                     }),
                          "")
                    << describe(s, shape) << ", run " << run << ", rank " << grid.rank();
            }
        }
    }
}

TEST(Summa, RefusesSizesAndBlocksBelowOneOnEveryRank) {
    TUTORIAL_REQUIRE_GPU();
    const ProcessGrid grid(MPI_COMM_WORLD, step10::squarest_grid(world_size()));
    select_node_device(grid);
    const tutorial::Stream stream;
    tutorial::DeviceBuffer<float> any(1);
    EXPECT_THROW(step10::gemm(any.get(), any.get(), any.get(), 0, 1, 1, 1, grid, stream.get()),
                 std::invalid_argument);
    EXPECT_THROW(step10::gemm(any.get(), any.get(), any.get(), 1, 1, 1, 0, grid, stream.get()),
                 std::invalid_argument);
}

TEST(Scalapack, PsgemmOnTheSameRanksAndLayoutAgreesWithSumma) {
    if (const auto reason = step10_test::scalapack_unavailable_reason())
        GTEST_SKIP() << *reason;
    TUTORIAL_REQUIRE_GPU();
    for (const Shape& s : kShapes) {
        const std::vector<double> expected = serial_product(s);
        for (const GridShape& shape : every_grid()) {
            const ProcessGrid grid(MPI_COMM_WORLD, shape);
            select_node_device(grid);
            const LocalProblem problem = local_problem(grid, s);
            const std::vector<float> reference = step10_test::psgemm_local(
                grid, problem.a, problem.a_local, problem.b, problem.b_local, problem.c);
            EXPECT_EQ(reference.size(), problem.c.local_size());
            if (reference.size() != problem.c.local_size())
                continue;
            // PSGEMM itself is right on these inputs, so agreeing with it means something.
            EXPECT_EQ(mismatches(problem.c, reference,
                                 [&](int i, int j) {
                                     return expected[static_cast<std::size_t>(i) * s.n + j];
                                 }),
                      "")
                << "PSGEMM, " << describe(s, shape);
            const std::vector<float> c = summa_local(grid, s, problem);
            EXPECT_EQ(
                mismatches(
                    problem.c, c,
                    [&](int i, int j) {
                        return double(
                            reference[problem.c.row_layout().to_local(i) +
                                      static_cast<std::size_t>(problem.c.col_layout().to_local(j)) *
                                          problem.c.local_rows()]);
                    }),
                "")
                << "SUMMA against PSGEMM, " << describe(s, shape) << ", rank " << grid.rank();
        }
    }
}

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    ::testing::InitGoogleTest(&argc, argv);
    const int result = RUN_ALL_TESTS();
    MPI_Finalize();
    return result;
}
