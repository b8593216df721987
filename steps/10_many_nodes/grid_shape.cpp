#include "grid_shape.hpp"

#include <charconv>
#include <stdexcept>

namespace step10 {

GridShape squarest_grid(int processes) {
    if (processes < 1)
        throw std::invalid_argument("a process grid needs at least 1 process, got " +
                                    std::to_string(processes));
    int rows = 1;
    for (int candidate = 1; candidate * candidate <= processes; ++candidate) {
        if (processes % candidate == 0)
            rows = candidate;
    }
    return {rows, processes / rows};
}

namespace {

// A whole number from 1 up, all of `text`; nothing otherwise.
bool read_positive(const std::string& text, int& value) {
    const char* last = text.data() + text.size();
    const auto [end, error] = std::from_chars(text.data(), last, value);
    return !text.empty() && error == std::errc() && end == last && value >= 1;
}

}  // namespace

GridShape parse_grid(const std::string& text, int processes) {
    if (text == "auto")
        return squarest_grid(processes);
    const std::size_t cross = text.find('x');
    GridShape shape;
    if (cross == std::string::npos || !read_positive(text.substr(0, cross), shape.rows) ||
        !read_positive(text.substr(cross + 1), shape.cols)) {
        throw std::invalid_argument("'" + text +
                                    "' is not a grid; write PRxPC with two whole numbers from 1 "
                                    "up, e.g. 2x3, or auto");
    }
    if (static_cast<long long>(shape.rows) * shape.cols != processes) {
        throw std::invalid_argument(
            to_string(shape) + " has " +
            std::to_string(static_cast<long long>(shape.rows) * shape.cols) +
            " processes, but the run has " + std::to_string(processes) +
            " (mpirun -np); choose PRxPC with PR * PC = " + std::to_string(processes));
    }
    return shape;
}

std::string to_string(const GridShape& shape) {
    return std::to_string(shape.rows) + "x" + std::to_string(shape.cols);
}

}  // namespace step10
