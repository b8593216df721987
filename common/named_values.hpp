/// \file
/// \brief Names for the values of an enum, kept in one table per enum: the table's rows give each
/// value and its name (and whatever else the step needs of it), and these functions name a
/// value, parse a name and list the names, so that no enum spells its names twice.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/command_line.hpp"

namespace tutorial {

/// The name of `value` in `table`, an array of rows with members `value` and `name`. Throws
/// std::invalid_argument when the table has no row for it.
template <class Row, std::size_t kRows, class Value>
const char* name_of(const Row (&table)[kRows], Value value) {
    for (const Row& row : table) {
        if (row.value == value)
            return row.name;
    }
    throw std::invalid_argument("name_of: a value that its table does not list");
}

/// The row of `table` whose value is `value`. Throws std::invalid_argument when there is none.
template <class Row, std::size_t kRows, class Value>
const Row& row_of(const Row (&table)[kRows], Value value) {
    for (const Row& row : table) {
        if (row.value == value)
            return row;
    }
    throw std::invalid_argument("row_of: a value that its table does not list");
}

/// Every name of `table`, as a list in words: "a, b or c".
template <class Row, std::size_t kRows>
std::string names_in_words(const Row (&table)[kRows]) {
    std::vector<std::string> names;
    for (const Row& row : table)
        names.push_back(row.name);
    return list_in_words(names);
}

/// The value called `text` in `table`. Throws std::invalid_argument "'text' is not <what>;
/// choose a, b or c" when no row has that name.
template <class Row, std::size_t kRows>
auto parse_name(const Row (&table)[kRows], const std::string& text, const std::string& what) {
    for (const Row& row : table) {
        if (text == row.name)
            return row.value;
    }
    throw std::invalid_argument("'" + text + "' is not " + what + "; choose " +
                                names_in_words(table));
}

}  // namespace tutorial
