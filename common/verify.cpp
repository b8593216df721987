#include "common/verify.hpp"

#include <algorithm>
#include <sstream>

namespace tutorial {

double gamma_k(int k, double unit_roundoff) {
    const double k_u = static_cast<double>(k) * unit_roundoff;
    if (k_u >= 1.0)
        return std::numeric_limits<double>::infinity();
    return k_u / (1.0 - k_u);
}

std::string no_bound_summary(int k) {
    return "verification impossible: K = " + std::to_string(k) +
           " makes 2 gamma_K >= 1 (in float, K of at most " + std::to_string(kLongestCheckableK) +
           " can be checked), so the rounding bound is at least |A||B| and even a C of zeros "
           "would pass it; nothing was checked";
}

std::vector<int> rows_to_verify(int m, int n, int k, const VerifyOptions& options) {
    const double work_per_row = static_cast<double>(n) * static_cast<double>(k);
    int count = m;
    if (work_per_row * m > options.max_reference_work) {
        const int affordable = static_cast<int>(options.max_reference_work / work_per_row);
        count = std::min(m, std::max(2, affordable));
    }
    std::vector<int> rows(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
        // Evenly spaced from the first row to the last; exact when count == m.
        rows[static_cast<std::size_t>(i)] =
            count == 1 ? 0 : static_cast<int>(static_cast<long long>(i) * (m - 1) / (count - 1));
    }
    return rows;
}

std::string VerifyReport::summary() const {
    if (!bounded)
        return no_bound_summary(k);
    std::ostringstream out;
    out.precision(9);
    const bool sampled = rows_checked < rows_total;
    if (passed) {
        out << "verification passed: " << checked << " elements";
    } else {
        out << "verification FAILED: " << failures << " of " << checked << " elements";
    }
    if (sampled)
        out << " (" << rows_checked << " sampled rows of " << rows_total << ")";
    if (exact) {
        out << (passed ? " match exactly" : " differ");
    } else {
        out << (passed ? " within" : " outside")
            << " |c - ref| <= 2 gamma_K (|A||B|)_ij, K = " << k;
    }
    if (worst_row >= 0 && !(passed && exact)) {
        out << "; worst C(" << worst_row << ", " << worst_col << ") = " << worst_got
            << ", expected " << worst_expected;
        if (!exact) {
            out.precision(3);
            out << ", error " << worst_error << ", bound " << worst_bound;
        }
    }
    return out.str();
}

}  // namespace tutorial
