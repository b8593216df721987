#include "bench/tiledmm_sweep.hpp"

#include <algorithm>

#include "bench/tiledmm_gemm.hpp"
#include "common/command_line.hpp"
#include "common/device.hpp"
#include "common/errors.hpp"

namespace bench::multi_gpu {

std::vector<int> default_tiledmm_tiles(int n) {
    std::vector<int> tiles{4096, 5000, 8192};
    for (int& tile : tiles)
        tile = std::min(tile, n);
    tiles.erase(std::unique(tiles.begin(), tiles.end()), tiles.end());
    return tiles;
}

TiledMmSweep tiledmm_sweep(const Settings& settings) {
    TiledMmSweep sweep;
    sweep.streams = tutorial::parse_number_list("--tiledmm-streams", settings.tiledmm_streams, 1,
                                                bench::kTiledMmMaxStreams);
    if (settings.tiledmm_tiles.empty()) {
        sweep.tiles = default_tiledmm_tiles(settings.n);
    } else if (settings.tiledmm_tiles != "none") {
        try {
            sweep.tiles = tutorial::parse_number_list("--tiledmm-tiles", settings.tiledmm_tiles, 1,
                                                      bench::kTiledMmMaxTile);
        } catch (const tutorial::UsageError& error) {
            throw tutorial::UsageError(std::string(error.what()) + " (or none)");
        }
    }
    return sweep;
}

Measurement measure_tiledmm(int device, int tile, int streams, const Settings& settings,
                            Inputs& inputs) {
    Measurement result;
    result.what = "tiledmm";
    result.inner = "Tiled-MM";
    result.n = inputs.n;
    result.devices = {device};
    result.tile = tile;
    result.streams = streams;
    tutorial::select_device(device);
    FreeMemoryWatch watch(result.devices);
    bench::TiledMmContext context(tile, streams);
    const int n = inputs.n;
    time_from_host(result, inputs, settings, watch, [&] {
        bench::tiledmm_sgemm_row_major(context, n, n, n, inputs.host_a.get(), inputs.host_b.get(),
                                       inputs.host_c.get());
    });
    return result;
}

void sweep_tiledmm(int device, const TiledMmSweep& sweep, const Settings& settings, Inputs& inputs,
                   const Record& record) {
    if (sweep.tiles.empty())
        return;
    Measurement unmeasured;
    unmeasured.what = "tiledmm";
    unmeasured.inner = "Tiled-MM";
    unmeasured.n = inputs.n;
    unmeasured.devices = {device};
    if (const auto why_not = bench::tiledmm_unavailable()) {
        unmeasured.status = "not built";
        unmeasured.why_not = *why_not;
    } else if (const auto refused = bench::tiledmm_size_refused(inputs.n, inputs.n, inputs.n)) {
        unmeasured.status = "not run";
        unmeasured.why_not = *refused;
    }
    if (!unmeasured.status.empty()) {
        record(unmeasured);
        return;
    }
    for (const int tile : sweep.tiles) {
        for (const int streams : sweep.streams)
            record(measure_tiledmm(device, tile, streams, settings, inputs));
    }
}

}  // namespace bench::multi_gpu
