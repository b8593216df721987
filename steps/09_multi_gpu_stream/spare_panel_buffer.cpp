#include "spare_panel_buffer.hpp"

#include <cstddef>

namespace step09 {

// [spare panel buffer]
void add_spare_panel_buffers(Plan& plan) {
    BufferSet& set = plan.buffers;
    while (plan.panels.size() > static_cast<std::size_t>(set.b_buffers) &&
           set.b_buffers < kPanelBuffers + kSparePanelBuffers &&
           set.total_bytes() + set.b_bytes <= plan.budget_bytes) {
        ++set.b_buffers;
    }
}
// [spare panel buffer]

}  // namespace step09
