// Replays step 08's rule over committed rule_sweep files with other tile speeds (2026-12-07, commit
// b7794da; step 08 notes, "Rounded up to 4"). Not built by the project. To build it, copy
// steps/08_every_shape/choose_config.cpp to cc.cpp and every_shape_tiles.cpp to tiles.cpp, replace
// `row.speed` in cc.cpp with `replay_speed(row.value)` and declare `double replay_speed(TileShape
// t);` at the top of its namespace step08, then compile this file with both against the CPU build's
// libstep07_plans.a, libstep06_tiles.a and libtutorial_common.a (-I the repository root and
// steps/06, 07 and 08). Usage: rule-replay [TILE=SPEED ...] [none:TILE=SPEED ...] [-v] SWEEP...; a
// speed prefixed none: is used only for shapes whose n is not a multiple of 4 (B and C without
// float4; added 2026-12-07 at 3108d69). For each file, over the shapes whose pick under those
// speeds the sweep timed: the geometric means of fastest over pick and of vendor over pick, the
// picks below 0.90 of the vendor BLAS, the picks the sweep did not time, and the picks that differ
// from the sweep's own (marked *, made by the rule of the sweep's commit). The H100's occupancy is
// assumed.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>
#include "common/named_values.hpp"
#include "steps/08_every_shape/choose_config.hpp"
#include "steps/08_every_shape/every_shape_tiles.hpp"
using namespace step08;
static std::map<int, double> g_speed, g_speed_none;
static bool g_none = false;
namespace step08 {
double replay_speed(TileShape t) {
    if (g_none) {
        auto jt = g_speed_none.find(static_cast<int>(t));
        if (jt != g_speed_none.end())
            return jt->second;
    }
    auto it = g_speed.find(static_cast<int>(t));
    if (it != g_speed.end())
        return it->second;
    return tutorial::row_of(kTileShapes, t).speed;
}
}  // namespace step08
struct Shape {
    int m, n, k;
    double vendor;
    std::map<std::string, double> ms;
    std::string star;
};
int main(int argc, char** argv) {
    const Occupancy h100{{132, {1, 1, 2, 3, 6, 8, 4, 8, 8, 4, 2}}, 50LL << 20};
    std::vector<std::string> files;
    bool verbose = false;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto eq = a.find('=');
        if (a == "-v")
            verbose = true;
        else if (eq != std::string::npos) {
            std::string name = a.substr(0, eq);
            bool none = name.rfind("none:", 0) == 0;
            if (none)
                name = name.substr(5);
            for (const auto& row : kTileShapes)
                if (name == row.name)
                    (none ? g_speed_none : g_speed)[static_cast<int>(row.value)] = std::stod(a.substr(eq + 1));
        } else
            files.push_back(a);
    }
    std::regex head(R"(^== (\d+)x(\d+)x(\d+): vendor BLAS ([0-9.]+) ms)");
    std::regex line(
        R"(^  ([* ]) +(\S.*?\S)\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.e+]+)\s+(\d+)\s+([0-9.]+)\s*$)");
    for (const auto& f : files) {
        std::ifstream in(f);
        std::string s;
        std::vector<Shape> shapes;
        while (std::getline(in, s)) {
            std::smatch mm;
            if (s.rfind("#### run", 0) == 0 || s.rfind("GPU:", 0) == 0)
                continue;
            if (std::regex_search(s, mm, head)) {
                shapes.push_back({std::stoi(mm[1]),
                                  std::stoi(mm[2]),
                                  std::stoi(mm[3]),
                                  std::stod(mm[4]),
                                  {},
                                  ""});
                continue;
            }
            if (!shapes.empty() && std::regex_match(s, mm, line)) {
                std::string name = mm[2];
                auto& sh = shapes.back();
                if (!sh.ms.count(name))
                    sh.ms[name] = std::stod(mm[3]);
                if (mm[1] == "*")
                    sh.star = name;
            }
        }
        int n = 0, untimed = 0, below = 0, starmismatch = 0, moved = 0;
        double lf = 0, lv = 0;
        for (auto& sh : shapes) {
            if (sh.ms.empty())
                continue;
            g_none = sh.n % 4 != 0;
            Config c = choose_config(sh.m, sh.n, sh.k, h100);
            std::string name = config_name(c);
            if (name != sh.star)
                ++starmismatch;
            auto it = sh.ms.find(name);
            if (it == sh.ms.end()) {
                ++untimed;
                if (verbose)
                    printf("  untimed %dx%dx%d %s\n", sh.m, sh.n, sh.k, name.c_str());
                continue;
            }
            double fastest = 1e30;
            for (auto& [k2, v] : sh.ms)
                fastest = std::min(fastest, v);
            ++n;
            lf += std::log(fastest / it->second);
            lv += std::log(sh.vendor / it->second);
            if (sh.vendor / it->second < 0.9)
                ++below;
            if (name != sh.star && !sh.star.empty()) {
                ++moved;
                if (verbose)
                    printf("  moved %dx%dx%d %s(%.3f) -> %s(%.3f)\n", sh.m, sh.n, sh.k,
                           sh.star.c_str(), sh.ms.count(sh.star) ? sh.vendor / sh.ms[sh.star] : 0,
                           name.c_str(), sh.vendor / it->second);
            }
        }
        printf(
            "%-60s shapes %3d pick/fastest %.4f vendor/pick %.4f below0.9 %2d untimed %d moved "
            "%d\n",
            f.c_str(), n, std::exp(lf / n), std::exp(lv / n), below, untimed, moved);
    }
}
