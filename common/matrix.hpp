/// \file
/// \brief A row-major host matrix and seeded random fills.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <random>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace tutorial {

/// A rows x cols matrix stored row by row: element (r, c) lives at `data()[r * cols + c]`,
/// the same layout the kernels use, so `data()` can be copied to the GPU as it is.
template <typename T>
class Matrix {
  public:
    Matrix() = default;
    Matrix(int rows, int cols) : rows_(rows), cols_(cols), values_(element_count(rows, cols)) {}

    /// Builds a matrix from nested lists, one inner list per row: `{{1, 4}, {2, 5}, {3, 6}}`.
    Matrix(std::initializer_list<std::initializer_list<T>> rows)
        : rows_(static_cast<int>(rows.size())),
          cols_(rows.size() ? static_cast<int>(rows.begin()->size()) : 0) {
        values_.reserve(element_count(rows_, cols_));
        for (const auto& row : rows) {
            if (static_cast<int>(row.size()) != cols_) {
                throw std::invalid_argument(
                    "Matrix: every row must have the same number of columns");
            }
            values_.insert(values_.end(), row.begin(), row.end());
        }
    }

    int rows() const { return rows_; }
    int cols() const { return cols_; }
    std::size_t size() const { return values_.size(); }
    std::size_t bytes() const { return values_.size() * sizeof(T); }

    T& operator()(int row, int col) { return values_[index(row, col)]; }
    const T& operator()(int row, int col) const { return values_[index(row, col)]; }

    T* data() { return values_.data(); }
    const T* data() const { return values_.data(); }

  private:
    static std::size_t element_count(int rows, int cols) {
        if (rows < 0 || cols < 0) {
            throw std::invalid_argument("Matrix: dimensions must not be negative");
        }
        return static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
    }
    std::size_t index(int row, int col) const {
        return static_cast<std::size_t>(row) * static_cast<std::size_t>(cols_) +
               static_cast<std::size_t>(col);
    }

    int rows_ = 0;
    int cols_ = 0;
    std::vector<T> values_;
};

/// A rows x cols matrix stored row by row in memory the view does not own (pinned host memory, or
/// a Matrix): what the checks read when the matrices are too large to copy.
template <typename T>
class ConstMatrixView {
  public:
    ConstMatrixView(const T* data, int rows, int cols) : data_(data), rows_(rows), cols_(cols) {
        if (rows < 0 || cols < 0)
            throw std::invalid_argument("ConstMatrixView: dimensions must not be negative");
    }
    ConstMatrixView(const Matrix<T>& matrix)  // NOLINT: a Matrix is viewed where a view is asked
        : ConstMatrixView(matrix.data(), matrix.rows(), matrix.cols()) {}

    int rows() const { return rows_; }
    int cols() const { return cols_; }
    std::size_t size() const {
        return static_cast<std::size_t>(rows_) * static_cast<std::size_t>(cols_);
    }
    const T* data() const { return data_; }
    const T& operator()(int row, int col) const {
        return data_[static_cast<std::size_t>(row) * static_cast<std::size_t>(cols_) +
                     static_cast<std::size_t>(col)];
    }

  private:
    const T* data_;
    int rows_;
    int cols_;
};

/// Fills `matrix` with values drawn uniformly from [low, high] by a std::mt19937 seeded with
/// `seed`. The same seed gives the same matrix, so a failure can be reproduced with `--seed`.
template <typename T>
void fill_random(Matrix<T>& matrix, std::uint64_t seed, T low, T high) {
    std::mt19937 generator(static_cast<std::mt19937::result_type>(seed));
    if constexpr (std::is_integral_v<T>) {
        std::uniform_int_distribution<T> distribution(low, high);
        for (std::size_t i = 0; i < matrix.size(); ++i)
            matrix.data()[i] = distribution(generator);
    } else {
        std::uniform_real_distribution<T> distribution(low, high);
        for (std::size_t i = 0; i < matrix.size(); ++i)
            matrix.data()[i] = distribution(generator);
    }
}

/// Random values in [-1, 1]: signs mixed, so cancellation is exercised as in real data.
template <typename T>
void fill_random(Matrix<T>& matrix, std::uint64_t seed) {
    fill_random(matrix, seed, T(-1), T(1));
}

}  // namespace tutorial
