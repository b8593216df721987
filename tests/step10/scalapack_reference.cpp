#include "scalapack_reference.hpp"

#include <gtest/gtest.h>

#if TUTORIAL_HAS_SCALAPACK
// BLACS and ScaLAPACK have no C++ header in Debian's package: their C and Fortran entry points,
// declared as the ScaLAPACK users' guide gives them.
extern "C" {
void Cblacs_get(int context, int what, int* value);
void Cblacs_gridinit(int* context, const char* order, int process_rows, int process_cols);
void Cblacs_gridinfo(int context, int* process_rows, int* process_cols, int* row, int* col);
void Cblacs_gridexit(int context);
void descinit_(int* descriptor, const int* m, const int* n, const int* mb, const int* nb,
               const int* row_source, const int* col_source, const int* context,
               const int* leading_dimension, int* info);
void psgemm_(const char* trans_a, const char* trans_b, const int* m, const int* n, const int* k,
             const float* alpha, const float* a, const int* ia, const int* ja, const int* desc_a,
             const float* b, const int* ib, const int* jb, const int* desc_b, const float* beta,
             float* c, const int* ic, const int* jc, const int* desc_c);
}
#endif

namespace step10_test {

std::optional<std::string> scalapack_unavailable_reason() {
#if TUTORIAL_HAS_SCALAPACK
    return std::nullopt;
#else
    return std::string(
        "ScaLAPACK was not found or not used when the build was configured (Debian: "
        "libscalapack-openmpi-dev; option TUTORIAL_SCALAPACK), so PSGEMM cannot be compared");
#endif
}

#if TUTORIAL_HAS_SCALAPACK
namespace {

// ScaLAPACK's descriptor of `layout` in `context`.
std::vector<int> descriptor(const step10::DistributedLayout& layout, int context) {
    std::vector<int> desc(9);
    const int zero = 0, leading = layout.leading_dimension();
    int info = 0;
    descinit_(desc.data(), &layout.rows, &layout.cols, &layout.block, &layout.block, &zero, &zero,
              &context, &leading, &info);
    EXPECT_EQ(info, 0) << "descinit_ refused a " << layout.rows << " x " << layout.cols
                       << " matrix in blocks of " << layout.block;
    return desc;
}

// At least one element, so that a rank without any still passes a valid pointer.
std::vector<float> at_least_one(std::vector<float> values) {
    if (values.empty())
        values.push_back(0.0f);
    return values;
}

}  // namespace
#endif

std::vector<float> psgemm_local(const step10::ProcessGrid& grid,
                                const step10::DistributedLayout& a_layout,
                                const std::vector<float>& a_local,
                                const step10::DistributedLayout& b_layout,
                                const std::vector<float>& b_local,
                                const step10::DistributedLayout& c_layout) {
#if TUTORIAL_HAS_SCALAPACK
    int context = 0;
    Cblacs_get(-1, 0, &context);  // the system context: MPI_COMM_WORLD
    Cblacs_gridinit(&context, "Row", grid.shape().rows, grid.shape().cols);
    int rows = 0, cols = 0, row = 0, col = 0;
    Cblacs_gridinfo(context, &rows, &cols, &row, &col);
    EXPECT_EQ(row, grid.row()) << "BLACS put rank " << grid.rank() << " in another process row";
    EXPECT_EQ(col, grid.col()) << "BLACS put rank " << grid.rank() << " in another process column";
    const std::vector<int> desc_a = descriptor(a_layout, context);
    const std::vector<int> desc_b = descriptor(b_layout, context);
    const std::vector<int> desc_c = descriptor(c_layout, context);
    const std::vector<float> a = at_least_one(a_local);
    const std::vector<float> b = at_least_one(b_local);
    std::vector<float> c = at_least_one(std::vector<float>(c_layout.local_size()));
    const int one = 1;
    const float alpha = 1.0f, beta = 0.0f;
    psgemm_("N", "N", &c_layout.rows, &c_layout.cols, &a_layout.cols, &alpha, a.data(), &one, &one,
            desc_a.data(), b.data(), &one, &one, desc_b.data(), &beta, c.data(), &one, &one,
            desc_c.data());
    Cblacs_gridexit(context);
    c.resize(c_layout.local_size());
    return c;
#else
    (void)grid;
    (void)a_layout;
    (void)a_local;
    (void)b_layout;
    (void)b_local;
    (void)c_layout;
    return {};
#endif
}

}  // namespace step10_test
