#!/usr/bin/env python3
"""The 'bench.multi_gpu_json' test: what multi_gpu_benchmark writes of Tiled-MM (here with made-up
figures, from multi_gpu_json_sample) must read back as written, and docs/update_pages.py must show
it: each configuration of the sweep a row, the fastest verified one in the ratio, and a build
without Tiled-MM one row that says "not built" and why.

    check_multi_gpu_json.py SAMPLE WORK    (SAMPLE: the multi_gpu_json_sample program; WORK: a
                                            scratch folder)
"""

import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "docs"))
import update_pages  # noqa: E402

failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)


def expect_in(text, expected, where):
    expect(expected in text, f"{where} lacks {expected!r}:\n{text}")


def main():
    sample, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    subprocess.run([sample, work], check=True)
    with open(os.path.join(work, "tiledmm-built.json"), encoding="utf-8") as file:
        built = json.load(file)
    with open(os.path.join(work, "tiledmm-not-built.json"), encoding="utf-8") as file:
        not_built = json.load(file)

    # The JSON, read back: every field of a Tiled-MM row, and the ratio against the fastest
    # verified configuration (8192 with 2 streams; the faster 4096 with 3 failed its check).
    expect(built["tiledmm"] == "Tiled-MM 2.3.1 (cuBLAS back end)", f"header: {built['tiledmm']}")
    rows = [row for row in built["results"] if row["measurement"] == "tiledmm"]
    expect([(row["tile"], row["streams"]) for row in rows] == [(5000, 2), (8192, 2), (4096, 3)],
           f"Tiled-MM rows: {rows}")
    best = rows[1]
    expected = {"measurement": "tiledmm", "inner": "Tiled-MM", "devices": [0], "tile": 8192,
                "streams": 2, "median_ms": 220, "min_ms": 218.5, "repetitions": 5,
                "device_memory_used_bytes": 1536 << 20, "verified": True}
    expect({key: best.get(key) for key in expected} == expected, f"row: {best}")
    expect(abs(best["gflops"] - 2 * 16384 ** 3 / 0.220 / 1e9) < 1e-3 * best["gflops"],
           f"GFLOPS: {best['gflops']}")
    expect(rows[2]["verified"] is False, f"failed row: {rows[2]}")
    ratios = {ratio["name"]: ratio["value"] for ratio in built["ratios"]}
    name = "stream step08 / best Tiled-MM (tile 8192, 2 streams), 1 device"
    expect(abs(ratios.get(name, 0) - 220 / 200) < 1e-9, f"ratios: {ratios}")
    expect(abs(ratios.get("stream step08 / best cuBLASXt (block dim 8192), 1 device", 0)
               - 210 / 200) < 1e-9, f"ratios: {ratios}")

    [row] = [row for row in not_built["results"] if row["measurement"] == "tiledmm"]
    expect(row == {"measurement": "tiledmm", "inner": "Tiled-MM", "devices": [0],
                   "status": "not built",
                   "why_not": "its cuBLAS back end is built on the CUDA route only",
                   "verified": False}, f"not-built row: {row}")
    expect(not any("Tiled-MM" in ratio["name"] for ratio in not_built["ratios"]),
           f"ratios without Tiled-MM: {not_built['ratios']}")

    # The tables the pages show.
    update_pages.RESULTS_DIR = work
    page = update_pages.multi_gpu_block("tiledmm-built")
    for line in ["cuBLASXt 13.1 SGEMM on devices 0; Tiled-MM 2.3.1 (cuBLAS back end)): n = 16384",
                 "*tile* is Tiled-MM's tile edge",
                 "| Tiled-MM | tile 5000, 2 streams | 0 | - | 240.00 (238.50) | 36,650 | - | "
                 "1,024 | - |",
                 "| Tiled-MM | tile 8192, 2 streams | 0 | - | 220.00 (218.50) | 39,982 | - | "
                 "1,536 | - |",
                 "| Tiled-MM | tile 4096, 3 streams | 0 | - | 100.00 (98.50) (not verified) |",
                 "- streamed `rule` (step 08) / best Tiled-MM (tile 8192, 2 streams), 1 device: "
                 "1.100"]:
        expect_in(page, line, "the table of a run with Tiled-MM")
    page = update_pages.multi_gpu_block("tiledmm-not-built")
    for line in ["; Tiled-MM not built: its cuBLAS back end is built on the CUDA route only): ",
                 "| Tiled-MM | - | 0 | - | not built | - | - | - | - |",
                 "Tiled-MM was not built: its cuBLAS back end is built on the CUDA route only."]:
        expect_in(page, line, "the table of a run without Tiled-MM")
    expect("best Tiled-MM" not in page and "*tile*" not in page, f"without Tiled-MM:\n{page}")

    for failure in failures:
        print("FAILED:", failure)
    print(f"{'failed' if failures else 'passed'}: the Tiled-MM rows of multi_gpu_benchmark's JSON")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
