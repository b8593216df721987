/// \file
/// \brief Freivalds' check of a product: all of C against A·B in O(n^2) per trial, for products
/// too large for the O(n^3) reference, and a sample of C's elements against their own bounds.
///
/// Each trial draws a vector x of random signs (+1 or -1) and compares C·x with A·(B·x), both
/// computed in double. Row i differs by d_i = sum_j (c_ij - (AB)_ij) x_j. For floats the check
/// accepts |d_i| <= 2 gamma_K (|A|·|B|·1)_i, the sum over the row of the element-wise bound of
/// verify.hpp, so a C that passes the element-wise check passes this one; a small slack for the
/// double arithmetic of the check itself is added. Integer results must give d_i = 0, which double
/// computes exactly while (|A|·|B|·1)_i stays below 2^53. So must floats that hold integers only,
/// where every row's sum of |a| times the largest |b| stays below 2^24 (2^53 for double): every
/// partial sum of a right C is then an integer the format holds, so C is exact.
///
/// The float bound is the sum of a row's element-wise bounds, so it lets a wrong element through
/// that the element-wise check would catch: at 1500 x 1700 x 48 in [-1, 1] a row's bound is about
/// 0.1. Integer-valued inputs make the check exact at any size.
///
/// What it catches: one wrong element c_ij in a row changes d_i by exactly its error times
/// x_j = +-1, so it is found in every trial once the error is larger than the row's bound. Several
/// wrong elements in one row can cancel, but for one draw of signs with probability at most 1/2,
/// so t trials all miss them with probability at most 2^-t.
///
/// What hides from it: whole wrong blocks, not only single elements. At 15001 x 15001 x 15001 in
/// [-1, 1] a row's bound is about 1e5, more than a tile's worth of elements each tens off, with
/// random signs, adds up to. So the check also computes a sample of elements in double, O(K) each,
/// and holds each to the element-wise bound of verify.hpp (equality where the product is exact):
/// one element drawn at random in each cell of a grid of about square cells over C, at most
/// `samples` cells (4096: cells of 234 x 234 at 15001 x 15001), every element when C has no more.
/// A wrong region at least two cells tall and two cells wide holds a whole cell, so it is sampled.
#pragma once

#include <cstdint>
#include <string>

#include "common/matrix.hpp"

namespace tutorial {

/// Settings of `freivalds_check`.
struct FreivaldsOptions {
    int trials = 20;         ///< random sign vectors tried; misses are at most 2^-trials likely
    std::uint64_t seed = 1;  ///< seed of the sign vectors and of the sample
    int samples = 4096;      ///< cells of the grid, one element checked in each; 0: no sample
};

/// What Freivalds' check found; `summary()` is the sentence the programs print.
struct FreivaldsReport {
    bool passed = true;       ///< both the rows and the sample passed
    bool rows_passed = true;  ///< the rows' check alone
    /// The product is exact (integers, or floats holding integers): no tolerance.
    bool exact = false;
    /// false where 2 gamma_K >= 1 and the product is not exact: no useful bound, nothing checked,
    /// not passed.
    bool bounded = true;
    int trials = 0;  ///< trials run, all in one pass over A, B and C
    int rows = 0;    ///< rows of C, all of them checked in every trial
    int cols = 0;
    int k = 0;
    // The worst row: the largest |d_i| relative to its bound, over all trials.
    int worst_trial = -1;
    int worst_row = -1;
    double worst_difference = 0.0;
    double worst_bound = 0.0;
    // The sample: one element in each cell of a grid_rows x grid_cols grid over C.
    int grid_rows = 0;
    int grid_cols = 0;
    int sampled = 0;          ///< elements checked, grid_rows * grid_cols
    int sample_failures = 0;  ///< of them outside the element-wise bound
    // The worst sampled element: the largest |c_ij - (AB)_ij| relative to its bound.
    int sample_worst_row = -1;
    int sample_worst_col = -1;
    double sample_worst_difference = 0.0;
    double sample_worst_bound = 0.0;

    /// One line: passed or FAILED, the trials and the worst row, then the sample.
    std::string summary() const;
};

/// Freivalds' check of C = A·B (A m x k, B k x n, C m x n), and the sample. Throws
/// std::invalid_argument when the shapes do not fit together, `options.trials` is not positive,
/// `options.samples` is negative, or integer operands are so large that (|A|·|B|·1)_i reaches 2^53.
template <typename T>
FreivaldsReport freivalds_check(ConstMatrixView<T> a, ConstMatrixView<T> b, ConstMatrixView<T> c,
                                const FreivaldsOptions& options = {});

/// The same check of matrices held in Matrix objects.
template <typename T>
FreivaldsReport freivalds_check(const Matrix<T>& a, const Matrix<T>& b, const Matrix<T>& c,
                                const FreivaldsOptions& options = {}) {
    return freivalds_check(ConstMatrixView<T>(a), ConstMatrixView<T>(b), ConstMatrixView<T>(c),
                           options);
}

}  // namespace tutorial
