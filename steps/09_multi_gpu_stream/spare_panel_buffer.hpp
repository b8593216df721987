/// \file
/// \brief The planner's spare buffer of B: one more panel buffer where the budget has room, so
/// that the next panel's copy need not wait for the kernels of the step just before. Pure host
/// code.
#pragma once

#include "planner.hpp"

namespace step09 {

/// Buffers of B the planner adds to kPanelBuffers where the budget has room for them: the copy
/// of panel s + 1 then goes into the buffer that step s - 2 read, whose kernels are long done.
constexpr int kSparePanelBuffers = 1;

/// Adds up to kSparePanelBuffers buffers of B to `plan`'s BufferSet while they fit in its budget
/// next to the buffers it has, and only while B has more panels than buffers. Chunk heights and
/// panel widths stay as they are.
void add_spare_panel_buffers(Plan& plan);

}  // namespace step09
