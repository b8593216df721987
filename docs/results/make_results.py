#!/usr/bin/env python3
"""Turns gemm_benchmark's JSON into the results page and chart of the docs.

    python3 docs/results/make_results.py benchmark.json --out docs/results

writes, named after the GPU (for an "NVIDIA H100 80GB HBM3": nvidia-h100-80gb-hbm3):

    <gpu>.json  the measurements (a copy of the input, or the merge of several inputs)
    <gpu>.md    the results page: how it was measured, GFLOPS per size, % of the vendor BLAS and
                % of the FP32 peak, the shapes that are not square, and for a run of a suite of
                shapes (--suite) each kernel's geometric mean and lowest share of the vendor BLAS
    <gpu>.svg   the chart: GFLOPS against size, one line per step, the vendor BLAS and the FP32
                peak as reference lines

With --check nothing is written: the exit code is 1, with the file named, when a committed page or
chart differs from what the JSON gives. The chart is drawn with matplotlib (Debian:
python3-matplotlib), the rest with the Python standard library alone; nothing written has a
timestamp of its own, so the same JSON always gives the same files. docs/update_pages.py imports
this module to quote the same figures in the step pages.
"""

import argparse
import difflib
import io
import json
import math
import os
import re
import sys

try:
    import matplotlib
    from matplotlib.figure import Figure
    from matplotlib.ticker import (FixedFormatter, FixedLocator, FuncFormatter, LogLocator,
                                   NullLocator)
except ImportError:  # docs/update_pages.py quotes the tables, which need no chart
    Figure = None

# ---- FP32 peak -------------------------------------------------------------------------------
# FP32 operations per clock per multiprocessor (2 per fused multiply-add lane) and the datasheet
# peak, for the GPUs whose name contains the key. With the multiprocessors and the clock that the
# benchmark records, peak = multiprocessors x operations per clock x clock; without them (older
# JSON files) the datasheet figure is used.
#   H100 SXM5 ("NVIDIA H100 80GB HBM3"): 132 SMs x 128 FP32 lanes x 2 x 1.98 GHz = 66.9 TFLOPS;
#     NVIDIA H100 Tensor Core GPU datasheet: FP32 67 TFLOPS (SXM), 51 TFLOPS (PCIe).
#   H100 PCIe: 114 SMs x 128 x 2 x 1.755 GHz = 51.2 TFLOPS.
#   H200: the H100's GH100 chip, 132 SMs; NVIDIA H200 datasheet: FP32 67 TFLOPS (SXM).
#   A100: 108 SMs x 64 FP32 lanes x 2 x 1.41 GHz = 19.5 TFLOPS; NVIDIA A100 datasheet: 19.5.
FP32_PEAKS = [
    # (name contains, FP32 operations per clock per multiprocessor, datasheet TFLOPS, source)
    ("H100 80GB HBM3", 256, 67.0, "NVIDIA H100 datasheet: 67 TFLOPS FP32 (SXM5)"),
    ("H100 PCIe", 256, 51.0, "NVIDIA H100 datasheet: 51 TFLOPS FP32 (PCIe)"),
    ("H200", 256, 67.0, "NVIDIA H200 datasheet: 67 TFLOPS FP32 (SXM)"),
    ("A100", 128, 19.5, "NVIDIA A100 datasheet: 19.5 TFLOPS FP32"),
]
# Other GPUs with a known multiprocessor count and clock: 128 FP32 lanes per multiprocessor, true
# of NVIDIA GPUs since the GA102 (Ampere consumer chips), Ada, Hopper and Blackwell.
DEFAULT_OPERATIONS_PER_CLOCK = 256

# ---- names -----------------------------------------------------------------------------------
STEP_TITLES = {
    "01": "serial CPU",
    "02": "naive kernel",
    "03": "tiled 2x2",
    "04": "tiled 16x16",
    "05": "LDS float4",
    "06": "warp tiles",
    "07": "split-K",
    "08": "every shape",
    "09": "multi-GPU stream",
}
# Step pages, relative to the repository root, for links from the results page.
STEP_PAGES = {
    "01": "steps/01_serial_cpu/README.md",
    "02": "steps/02_naive_kernel/README.md",
    "03": "steps/03_tiled_2x2/README.md",
    "04": "steps/04_tiled_16x16/README.md",
    "05": "steps/05_lds_float4/README.md",
    "06": "steps/06_warp_tiles/README.md",
    "07": "steps/07_split_k/README.md",
    "08": "steps/08_every_shape/README.md",
    "09": "steps/09_multi_gpu_stream/README.md",
}
# What a suite measures, for the results page's title, by the end of its file's name after the
# GPU's ("nvidia-h100-80gb-hbm3-shapes": "shapes"); the GPU's name alone is the suite of every step.
SUITE_TITLES = {
    "": "every step",
    "shapes": "steps 05-08 shapes",
    "packing": "step 08 packing",
    "dot": "step 08 one column",
    "every-shape": "the every-shape suite",
    "mid-size": "the mid-size random shapes",
}
# The variant a step's program runs by default, marked in the tables.
DEFAULT_VARIANTS = {("02", "naive_b16"), ("04", "tiled16"), ("06", "choice"), ("07", "choice"),
                    ("08", "rule")}
# Kernels the chart never headlines: step 08's rule with packing off or on runs the same kernels as
# the rule wherever n and k are multiples of 4, as on every square size of the chart; with stream-K
# off it is there to show what stream-K changes; without the 8 x 4 tile, what that tile changes.
NOT_HEADLINED = {("07", "no-stream-k"), ("08", "unpacked"), ("08", "packed"), ("08", "no-stream-k"),
                 ("08", "no-8x4")}

# Chart colours (Tableau 10), on the chart's white ground, which it keeps in a dark theme too.
COLOURS = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1", "#76b7b2", "#edc948",
           "#9c755f", "#ff9da7"]
TEXT = "#222222"
TEXT_GREY = "#555555"  # the vendor BLAS, the peak and the notes: 7.5:1 on white
# 11 pt text: 15 px at the chart's own width (614 px), still 10 px where a phone shrinks it to 400.
CHART_STYLE = {
    "svg.fonttype": "none",
    "svg.hashsalt": "make_results",
    "font.family": "sans-serif",
    "font.size": 11,
    "text.color": TEXT,
    "axes.labelcolor": TEXT,
    "axes.edgecolor": TEXT_GREY,
    "xtick.color": TEXT,
    "ytick.color": TEXT,
}


def variant_label(step, variant):
    """What a kernel is, in words, for the tables (the variant's own name where none is known)."""
    match = re.fullmatch(r"naive_b(\d+)", variant)
    if match:
        return f"x → column (coalesced), {match[1]} x {match[1]} blocks"
    match = re.fullmatch(r"swapped_b(\d+)", variant)
    if match:
        return f"x → row (swapped), {match[1]} x {match[1]} blocks"
    match = re.fullmatch(r"tiled(\d+)", variant)
    if match:
        return f"{match[1]} x {match[1]} tiles"
    if variant == "serial":
        return "serial triple loop, on the CPU"
    if step == "05":
        # Step 05's table of variants, in short.
        words = {"seed": "4 x 4 outputs per thread, B read from global memory",
                 "lds_ab": "4 x 4 outputs per thread, A and B in shared memory",
                 "reg8x8": "128 x 128 tiles, 8 x 8 outputs per thread",
                 "reg8x8_db": "128 x 128 tiles, 8 x 8 outputs per thread, double-buffered"}
        return words.get(variant, variant)
    match = re.fullmatch(r"(\d+)x(\d+)", variant)
    if step in ("06", "08") and match:
        return f"{match[1]} x {match[2]} block tiles, K not split"
    if step == "06" and variant == "choice":
        return "128 x 256 tiles where they fill a wave, else 128 x 128"
    if step == "07":
        if variant == "choice":
            return "split-K or stream-K, chosen by counting waves"
        if variant == "no-stream-k":
            return "the choice, stream-K off"
    if step == "08":
        if variant == "rule":
            return "the rule's configuration for each shape"
        if variant == "unpacked":
            return "the rule's configuration, never packed"
        if variant == "packed":
            return "the rule's configuration, always packed"
        if variant == "no-stream-k":
            return "the rule's configuration, stream-K off"
        if variant == "no-8x4":
            return "the rule's configuration without the 8 x 4 tile"
    return variant


def slug(name):
    """'NVIDIA H100 80GB HBM3' -> 'nvidia-h100-80gb-hbm3'."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def short_gpu_name(name):
    """'NVIDIA H100 80GB HBM3' -> 'H100': without the vendor and the memory, for titles that the
    docs' navigation shows in a narrow column."""
    words = [word for word in name.split()
             if word not in ("NVIDIA", "AMD") and not re.fullmatch(r"\d+GB|HBM\d*e?", word)]
    return " ".join(words) or name


def page_title(results, name):
    """'H100 results: every step': short, and the suites of one GPU differ early. An earlier run
    kept beside the current one is named after its suite and commit ('...-every-shape-62e8a19')."""
    gpu = slug(results.gpu)
    suite = name[len(gpu):].strip("-") if name.startswith(gpu) else name
    earlier, _, commit = suite.rpartition("-")
    if suite not in SUITE_TITLES and commit in (run["commit"] for run in results.runs):
        suite_title = f"{SUITE_TITLES.get(earlier, earlier)} at {commit}"
    else:
        suite_title = SUITE_TITLES.get(suite, suite)
    return f"{short_gpu_name(results.gpu)} results: {suite_title}"


def page_id(name):
    """The Doxygen page name of a results page: 'results_' and its file name."""
    return "results_" + slug(name).replace("-", "_")


def thousands(value):
    return f"{value:,.0f}"


def format_gflops(value):
    return f"{value:,.0f}" if value >= 100 else f"{value:.3g}"


def format_ms(value):
    return f"{value:,.2f}" if value >= 1 else f"{value:.3g}"


def format_percent(value):
    if value < 0.095:
        return f"{value:.2g}%"
    return f"{value:.1f}%" if value < 99.95 else f"{value:.0f}%"


def shape_label(shape):
    m, n, k = shape
    return f"{m} x {n} x {k}"


def version_text(number, platform):
    """CUDA encodes 13.0 as 13000; HIP 5.2.21921 as 50221921."""
    if "CUDA" in platform:
        return f"{number // 1000}.{number % 1000 // 10}"
    if number >= 10000000:
        return f"{number // 10000000}.{number // 100000 % 100}.{number % 100000}"
    return str(number)


class Results:
    """One or more runs of gemm_benchmark on one GPU.

    `documents` are parsed JSON files: each is one run, or a merge written by this script, whose
    "merged_from" lists its runs and whose rows say which run they come from.
    """

    def __init__(self, documents, sources):
        names = {document["gpu"] for document in documents}
        if len(names) != 1:
            raise SystemExit(f"make_results: the files come from different GPUs: {sorted(names)}")
        self.header = documents[0]
        self.gpu = self.header["gpu"]
        self.platform = self.header.get("platform", "")
        self.vendor_blas = self.header.get("vendor_blas", "none")
        self.vendor_name = self.vendor_blas.split()[0] if self.vendor_blas != "none" else None
        self.runs = []  # what each run was: commit, date, command, source file
        self.rows = []
        self.skipped = []
        for document, source in zip(documents, sources):
            offset = len(self.runs)
            if "merged_from" in document:
                self.runs += [dict(run) for run in document["merged_from"]]
            else:
                self.runs.append({"file": source, "commit": document["commit"],
                                  "date": document["date"],
                                  "command": document.get("command", "")})
            for row in document["results"]:
                self.rows.append(dict(row, run=offset + row.get("run", 0)))
            for row in document.get("skipped", []):
                self.skipped.append(dict(row, run=offset + row.get("run", 0)))

    # -- lookups ---------------------------------------------------------------------------
    @staticmethod
    def shape_of(row):
        return (row["m"], row["n"], row["k"])

    def square_sizes(self):
        return sorted({r["m"] for r in self.rows if r["m"] == r["n"] == r["k"]})

    def other_shapes(self):
        shapes = []
        for r in self.rows:
            shape = self.shape_of(r)
            if not (r["m"] == r["n"] == r["k"]) and shape not in shapes:
                shapes.append(shape)
        return shapes

    def kernels(self):
        """(step, variant) of every kernel but the vendor BLAS, in tutorial order."""
        seen = []
        for r in self.rows:
            key = (r["step"], r["variant"])
            if r["step"] != "blas" and key not in seen:
                seen.append(key)
        return sorted(seen, key=lambda key: (key[0], seen.index(key)))

    def find(self, step, variant, shape):
        """The verified measurement, or None (not measured, skipped or failed)."""
        for r in self.rows:
            if (r["step"], r["variant"]) == (step, variant) and self.shape_of(r) == shape:
                return r if r["verified"] else None
        return None

    def status(self, step, variant, shape):
        """'FAILED', 'skipped' or None for a shape without a counted measurement."""
        for r in self.rows:
            if (r["step"], r["variant"]) == (step, variant) and self.shape_of(r) == shape:
                return None if r["verified"] else "FAILED"
        for s in self.skipped:
            if (s["step"], s["variant"]) == (step, variant) and self.shape_of(s) == shape:
                return "skipped"
        return None

    def vendor(self, shape, run):
        """The vendor BLAS measurement of the same run and shape."""
        for r in self.rows:
            if r["step"] == "blas" and r["run"] == run and self.shape_of(r) == shape:
                return r if r["verified"] else None
        return None

    def percent_of_vendor(self, row):
        vendor = self.vendor(self.shape_of(row), row["run"])
        return 100.0 * vendor["median_ms"] / row["median_ms"] if vendor else None

    def reference_size(self):
        """The largest square size at which every kernel was measured or deliberately skipped
        (else the largest)."""
        sizes = self.square_sizes()
        for size in reversed(sizes):
            if all(self.find(s, v, (size,) * 3) or self.status(s, v, (size,) * 3) == "skipped"
                   for s, v in self.kernels()):
                return size
        return sizes[-1] if sizes else None

    # -- the FP32 peak ---------------------------------------------------------------------
    def peak(self):
        """(GFLOPS, how it was worked out) or (None, why not)."""
        first = self.header
        known = next((entry for entry in FP32_PEAKS if entry[0] in self.gpu), None)
        multiprocessors = first.get("multiprocessors", 0)
        clock_mhz = first.get("clock_mhz", 0)
        if multiprocessors and clock_mhz:
            per_clock = known[1] if known else DEFAULT_OPERATIONS_PER_CLOCK
            gflops = multiprocessors * per_clock * clock_mhz / 1000.0
            how = (f"{multiprocessors} multiprocessors x {per_clock // 2} FP32 lanes x 2 x "
                   f"{clock_mhz / 1000:.3g} GHz")
            if known:
                how += f" ({known[3]})"
            else:
                how += " (assumed 128 FP32 lanes per multiprocessor)"
            return gflops, how
        if known:
            return known[2] * 1000.0, known[3]
        return None, "not known for this GPU"

    # -- provenance ------------------------------------------------------------------------
    def driver_text(self):
        first = self.header
        runtime = version_text(first.get("runtime_version", 0), self.platform)
        runtime_name = "CUDA runtime" if "CUDA" in self.platform else "HIP runtime"
        if first.get("driver"):
            driver = first["driver"]
            if re.fullmatch(r"[0-9.]+", driver):
                driver = ("NVIDIA driver " if "NVIDIA" in self.gpu else "driver ") + driver
        else:
            api = version_text(first.get("driver_version", 0), self.platform)
            driver = f"driver supporting CUDA {api}" if "CUDA" in self.platform else f"driver {api}"
        return f"{driver}, {runtime_name} {runtime}"


def load(paths):
    documents = []
    for path in paths:
        with open(path, encoding="utf-8") as file:
            documents.append(json.load(file))
    return Results(documents, [os.path.basename(p) for p in paths])


# ---- the results page ------------------------------------------------------------------------
def cell(results, step, variant, shape, with_percent=False):
    row = results.find(step, variant, shape)
    if row is None:
        return results.status(step, variant, shape) or "-"
    text = format_gflops(row["gflops"])
    if with_percent:
        percent = results.percent_of_vendor(row)
        if percent is not None:
            text += f" ({format_percent(percent)})"
    return text


def kernel_name(results, step, variant):
    if step == "blas":
        return results.vendor_name or "vendor BLAS"
    name = f"`{variant}`"
    if (step, variant) in DEFAULT_VARIANTS:
        name += " (default)"
    return name


def square_table(results):
    sizes = results.square_sizes()
    reference = results.reference_size()
    peak, _ = results.peak()
    vendor = results.vendor_name or "vendor BLAS"
    header = ["step", "kernel"] + [str(s) for s in sizes]
    header += [f"% of {vendor} at {reference}", f"% of FP32 peak at {reference}"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * 2 + "---:|" * (len(header) - 2)]
    keys = ([("blas", "vendor")] if results.vendor_name else []) + results.kernels()
    for step, variant in keys:
        cells = [step if step != "blas" else "-", kernel_name(results, step, variant)]
        cells += [cell(results, step, variant, (s, s, s)) for s in sizes]
        row = results.find(step, variant, (reference,) * 3)
        percent = results.percent_of_vendor(row) if row else None
        cells.append(format_percent(percent) if percent is not None else "-")
        cells.append(format_percent(100.0 * row["gflops"] / peak) if row and peak else "-")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


# The most shapes one table holds: more columns would not fit a page, so more shapes make more
# tables.
SHAPES_PER_TABLE = 6


def shape_groups(shapes):
    """The shapes in runs of at most SHAPES_PER_TABLE, one table each."""
    return [shapes[i:i + SHAPES_PER_TABLE] for i in range(0, len(shapes), SHAPES_PER_TABLE)]


def shapes_table(results):
    shapes = results.other_shapes()
    if not shapes:
        return None
    keys = ([("blas", "vendor")] if results.vendor_name else []) + results.kernels()
    tables = []
    for group in shape_groups(shapes):
        header = ["step", "kernel"] + [shape_label(s) for s in group]
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * 2 + "---:|" * len(group)]
        for step, variant in keys:
            cells = [step if step != "blas" else "-", kernel_name(results, step, variant)]
            cells += [cell(results, step, variant, s, with_percent=step != "blas") for s in group]
            lines.append("| " + " | ".join(cells) + " |")
        tables.append("\n".join(lines))
    return "\n\n".join(tables)


# The share of the vendor BLAS below which a shape is named in the suite's summary.
SUITE_FLOOR = 0.90


def suite_shares(results, step, variant, shapes):
    """[(share of the vendor BLAS, shape)] at the suite's shapes where the kernel and the vendor
    BLAS of the same run were both verified."""
    shares = []
    for shape in shapes:
        row = results.find(step, variant, shape)
        percent = results.percent_of_vendor(row) if row else None
        if percent is not None:
            shares.append((percent / 100.0, shape))
    return shares


def suite_section(results):
    """The suite's summary: per kernel, the geometric mean and the lowest of its shares of the
    vendor BLAS over the suite's shapes, and the shapes below SUITE_FLOOR; then every shape of the
    suite with its kind and the default kernels' shares. None without a suite or a vendor BLAS."""
    suite = results.header.get("suite")
    if not suite or not results.vendor_name:
        return None
    vendor = results.vendor_name
    entries = [(tuple(int(x) for x in text.split("x")), kind) for text, kind in suite["shapes"]]
    shapes = [shape for shape, _ in entries]
    lines = [f"## The {suite['name']} suite", "",
             f"`gemm_benchmark --suite {suite['name']}`: {suite['purpose']}. For each kernel, its "
             f"share of {vendor} (the time of {vendor} over the kernel's, both in the same run) "
             f"over the suite's shapes: the geometric mean, the lowest and where, and the shapes "
             f"below {SUITE_FLOOR:.2f}. A shape counts where the kernel and {vendor} were both "
             f"verified; the second column says at how many of the {len(shapes)} that was so.", "",
             "| step | kernel | shapes | geometric mean | lowest | below "
             f"{SUITE_FLOOR:.2f} |", "|---|---|---:|---:|---|---|"]
    defaults = []
    for step, variant in results.kernels():
        shares = suite_shares(results, step, variant, shapes)
        if not shares:
            continue
        if (step, variant) in DEFAULT_VARIANTS:
            defaults.append((step, variant))
        mean = math.exp(sum(math.log(share) for share, _ in shares) / len(shares))
        lowest, where = min(shares)
        below = [shape_label(shape) for share, shape in shares if share < SUITE_FLOOR]
        lines.append(f"| {step} | {kernel_name(results, step, variant)} | {len(shares)} of "
                     f"{len(shapes)} | {mean:.3f} | {lowest:.3f} ({shape_label(where)}) | "
                     f"{len(below)}{': ' + ', '.join(below) if below else ''} |")
    if defaults:
        names = [f"step {step} {kernel_name(results, step, variant)}" for step, variant in defaults]
        lines += ["", f"Each shape of the suite, with the share of {vendor} of "
                      f"{' and '.join(names)}:", "",
                  "| kind | m x n x k | " + " | ".join(names) + " |",
                  "|---|---|" + "---:|" * len(defaults)]
        for shape, kind in entries:
            cells = []
            for step, variant in defaults:
                share = suite_shares(results, step, variant, [shape])
                cells.append(f"{share[0][0]:.3f}" if share else
                             (results.status(step, variant, shape) or "-"))
            lines.append(f"| {kind} | {shape_label(shape)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def timing_text(results):
    timing = results.header.get("timing")
    if timing:
        return (f"each kernel is first run once into a C filled with NaNs and verified against the "
                f"double-precision reference, and only a verified kernel is timed: "
                f"{timing['warmup']} warm-up runs, then the median of up to "
                f"{timing['iterations']} runs timed with events (the CPU step with the host "
                f"clock), fewer (at least 3) for kernels slower than "
                f"{timing['seconds_per_kernel']:g} s in all; a kernel whose last time predicts more "
                f"than {timing['max_seconds_per_run']:g} s per run is skipped; inputs random in "
                f"[-1, 1], seed {timing['seed']}")
    return ("3 warm-up runs, then the median of the event-timed runs, every result verified "
            "against the double-precision reference")


def results_page(results, name):
    peak, peak_how = results.peak()
    vendor = results.vendor_name or "the vendor BLAS"
    first = results.header
    lines = [f"# {page_title(results, name)} <!-- {{#{page_id(name)}}} -->", "",
             "<!-- Written by docs/results/make_results.py from the JSON file named below; "
             "edit that script, not this page. -->", "",
             f"Every figure on this page, measured on the {results.gpu}, comes from "
             f"`docs/results/{name}.json`, written by the tutorial's benchmark "
             f"(`bench/benchmark.hip`), and was turned into this page and the chart by "
             f"`docs/results/make_results.py`. The step pages quote their rows from the same "
             f"file.", "",
             "| how it was measured | |", "|---|---|"]
    gpu = results.gpu
    if first.get("multiprocessors"):
        gpu += f", {first['multiprocessors']} multiprocessors"
        if first.get("clock_mhz"):
            gpu += f" at {first['clock_mhz']:g} MHz"
    lines.append(f"| GPU | {gpu} |")
    if peak:
        lines.append(f"| FP32 peak | {peak / 1000:.1f} TFLOPS: {peak_how} |")
    else:
        lines.append(f"| FP32 peak | {peak_how} |")
    lines.append(f"| driver and runtime | {results.driver_text()} |")
    lines.append(f"| platform | {results.platform} |")
    lines.append(f"| vendor BLAS | {results.vendor_blas} |")
    if first.get("host_cpu"):
        lines.append(f"| CPU (step 01) | {first['host_cpu']} |")
    commands = []
    for index, run in enumerate(results.runs):
        label = "run" if len(results.runs) == 1 else f"run {index + 1} ({run['file']})"
        lines.append(f"| {label} | {run['date']}, commit `{run['commit']}` |")
        if run.get("command"):
            commands += ([f"# {label}"] if len(results.runs) > 1 else []) + [run["command"]]
    lines.append(f"| timing | {timing_text(results)} |")
    if commands:
        # Below the table, in a code box that scrolls: in a cell, a long argument without a space
        # (a list of shapes) would widen the whole table past the page.
        lines += ["", "The benchmark's command line" + ("s:" if len(results.runs) > 1 else ":"),
                  "", "```", *commands, "```"]
    lines += ["", f"![GFLOPS against size: each step's fastest kernel, {vendor} and the FP32 peak"
                  f" on {results.gpu}]({name}.svg)", ""]
    lines += ["## GFLOPS at square sizes (m = n = k)", "",
              f"GFLOPS = 2·m·n·k / median time. The last two columns compare each kernel at "
              f"{results.reference_size()} with {vendor} in the same run and with the FP32 "
              f"peak. `-`: not measured; `skipped`: predicted to run too long; `FAILED`: "
              f"the result was wrong, so it was not timed.", "", square_table(results), ""]
    table = shapes_table(results)
    if table:
        lines += ["## Shapes that are neither square nor tile multiples", "",
                  f"GFLOPS, and in brackets the share of {vendor} at the same shape.", "",
                  table, ""]
    summary = suite_section(results)
    if summary:
        lines += [summary, ""]
    steps = sorted({step for step, _ in results.kernels() if step in STEP_PAGES})
    if steps:
        links = ", ".join(f"[step {s}](../../{STEP_PAGES[s]})" for s in steps)
        lines += ["## Where the steps discuss them", "", f"The performance sections of {links}.",
                  ""]
    return "\n".join(lines)


# ---- the chart -------------------------------------------------------------------------------
def headline_kernels(results):
    """For each step, its fastest kernel at the largest size where the step's kernels all ran."""
    chosen = []
    steps = []
    for step, _ in results.kernels():
        if step not in steps:
            steps.append(step)
    for step in steps:
        variants = [v for s, v in results.kernels() if s == step and (s, v) not in NOT_HEADLINED]
        sizes = [s for s in results.square_sizes()
                 if all(results.find(step, v, (s,) * 3) for v in variants)]
        sizes = sizes or results.square_sizes()
        best = None
        for size in reversed(sizes):
            measured = [(results.find(step, v, (size,) * 3), v) for v in variants]
            measured = [(row["gflops"], v) for row, v in measured if row]
            if measured:
                best = max(measured)[1]
                break
        if best:
            chosen.append((step, best))
    return chosen


def tick_sizes(sizes):
    """The sizes that get a label on the x axis: a size next to a power of two (1000 by 1024,
    4097 by 4096) keeps its point but not its label, which would print over the other one."""
    powers = [s for s in sizes if s & (s - 1) == 0]
    return [s for s in sizes
            if s in powers or not any(abs(math.log2(s / p)) < 0.2 for p in powers)]


def chart(results):
    """The chart as SVG text. The same JSON gives the same bytes: no date in the metadata, a
    fixed salt for the ids, and the text kept as text (not glyph outlines), drawn by the browser
    in the first of matplotlib's sans-serif fonts that it has."""
    sizes = results.square_sizes()
    peak, _ = results.peak()
    series = []  # (label, points, colour, line style)
    if results.vendor_name:
        points = [(s, results.find("blas", "vendor", (s,) * 3)) for s in sizes]
        series.append((results.vendor_name, [(s, r["gflops"]) for s, r in points if r],
                       TEXT_GREY, "--"))
    for index, (step, variant) in enumerate(headline_kernels(results)):
        points = [(s, results.find(step, variant, (s,) * 3)) for s in sizes]
        series.append((f"step {step}: {variant}", [(s, r["gflops"]) for s, r in points if r],
                       COLOURS[index % len(COLOURS)], "-"))
    values = [g for _, points, _, _ in series for _, g in points] + ([peak] if peak else [])
    low = 10 ** math.floor(math.log10(min(values) / 1.5))
    high = max(values) * 1.6

    with matplotlib.rc_context(CHART_STYLE):
        figure = Figure(figsize=(6.2, 4.8))
        axes = figure.add_subplot()
        for label, points, colour, style in series:
            if points:
                axes.plot([s for s, _ in points], [g for _, g in points], style, color=colour,
                          linewidth=2.2, marker="o", markersize=4.5, label=label)
        if peak:
            axes.axhline(peak, color=TEXT_GREY, linestyle=":", linewidth=2,
                         label=f"FP32 peak, {peak / 1000:.1f} TFLOPS")
        axes.set_xscale("log", base=2)
        axes.set_yscale("log")
        axes.set_ylim(low, high)
        ticks = tick_sizes(sizes)
        axes.xaxis.set_major_locator(FixedLocator(ticks))
        axes.xaxis.set_major_formatter(FixedFormatter([str(s) for s in ticks]))
        axes.xaxis.set_minor_locator(NullLocator())
        if high / low < 1000:
            # Less than three decades: label 2 and 5 within each decade as well.
            axes.yaxis.set_major_locator(LogLocator(subs=(1, 2, 5)))
        axes.yaxis.set_major_formatter(FuncFormatter(lambda value, _: thousands(value)
                                                     if value >= 1 else f"{value:g}"))
        axes.grid(True, which="major", color=TEXT_GREY, alpha=0.25, linewidth=0.8)
        axes.set_xlabel("matrix size m = n = k (log scale)")
        axes.set_ylabel("GFLOPS (log scale)")
        commits = (f"commit {results.runs[-1]['commit']}" if len(results.runs) == 1
                   else "commits " + ", ".join(run["commit"] for run in results.runs))
        axes.annotate(f"Square SGEMM, m = n = k, on {results.gpu}", (0, 1), (0, 26),
                      xycoords="axes fraction", textcoords="offset points", fontweight="bold")
        axes.annotate(f"each step: its fastest kernel at the largest size measured; {commits}",
                      (0, 1), (0, 8), xycoords="axes fraction", textcoords="offset points",
                      fontsize=10, color=TEXT_GREY)
        # Below the plot, in two columns, so that no name is cut at any width.
        axes.legend(loc="upper left", bbox_to_anchor=(0, -0.16), ncol=2, frameon=False,
                    handlelength=2.4, columnspacing=1.5, borderaxespad=0)
        figure.subplots_adjust(left=0.12, right=0.98)
        out = io.StringIO()
        figure.savefig(out, format="svg", facecolor="white", bbox_inches="tight",
                       pad_inches=0.1,
                       metadata={"Date": None,
                                 "Title": f"GFLOPS against matrix size on {results.gpu}"})
    return out.getvalue()


def dump_document(document):
    """JSON in the benchmark's layout: one key per line, one result per line."""
    lines = []
    for key, value in document.items():
        if isinstance(value, list):
            items = [f"    {json.dumps(item)}" for item in value]
            lines.append(f'  {json.dumps(key)}: [\n' + ",\n".join(items) + "\n  ]")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


# ---- the command line ------------------------------------------------------------------------
def outputs(paths, name=None):
    """{file name: content} of everything the JSON files give, named `name` (default: the GPU)."""
    results = load(paths)
    name = name or slug(results.gpu)
    files = {f"{name}.md": results_page(results, name),
             f"{name}.svg": chart(results) if Figure else None}
    if len(paths) == 1:
        with open(paths[0], encoding="utf-8") as file:
            files[f"{name}.json"] = file.read()
    else:
        merged = {key: value for key, value in results.header.items()
                  if key not in ("results", "skipped", "merged_from")}
        merged["commit"] = " + ".join(run["commit"] for run in results.runs)
        merged["date"] = " + ".join(sorted({run["date"] for run in results.runs}))
        merged["command"] = ""
        merged["merged_from"] = results.runs
        merged["results"] = results.rows
        merged["skipped"] = results.skipped
        files[f"{name}.json"] = dump_document(merged)
    return files


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("json", nargs="+", help="gemm_benchmark --json output (several: merged)")
    parser.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)),
                        help="where to write (default: this script's folder, docs/results)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; fail when a file in --out differs")
    parser.add_argument("--name", help="the files' name (default: the GPU's, e.g. "
                        "nvidia-h100-80gb-hbm3); another suite on the same GPU needs its own")
    arguments = parser.parse_args()
    files = outputs(arguments.json, arguments.name)
    undrawn = [os.path.join(arguments.out, name) for name, content in files.items()
               if content is None]
    if undrawn and not arguments.check:
        raise SystemExit(f"make_results: {', '.join(undrawn)} needs matplotlib "
                         f"(Debian: apt-get install python3-matplotlib)")
    stale = []
    other_version = []
    for file_name, content in files.items():
        path = os.path.join(arguments.out, file_name)
        if content is None:
            continue
        if file_name.endswith(".json") and len(arguments.json) == 1 and \
                os.path.abspath(arguments.json[0]) == os.path.abspath(path):
            continue
        current = None
        if os.path.exists(path):
            with open(path, encoding="utf-8") as file:
                current = file.read()
        drawn_by = re.search(r"Matplotlib v([^,<]+)", current or "")
        if arguments.check and file_name.endswith(".svg") and drawn_by and \
                drawn_by.group(1) != matplotlib.__version__:
            # Another matplotlib lays the same chart out a little differently: no byte comparison.
            other_version.append((path, drawn_by.group(1)))
            continue
        if current == content:
            print(f"up to date: {path}")
        elif arguments.check:
            stale.append(path)
            print(f"DIFFERS: {path} is not what make_results.py writes from "
                  f"{', '.join(arguments.json)}:")
            sys.stdout.writelines(difflib.unified_diff(
                (current or "").splitlines(True), content.splitlines(True),
                f"{file_name} (committed)", f"{file_name} (from the JSON)"))
        else:
            with open(path, "w", encoding="utf-8") as file:
                file.write(content)
            print(f"wrote {path}")
    if stale:
        print("run 'cmake --build <build> --target results' (or make_results.py without --check)")
        return 1
    for path, version in other_version:
        print(f"SKIPPED: {path} not checked, it was drawn by matplotlib {version} and this "
              f"machine has {matplotlib.__version__}")
    for path in undrawn:
        # After the checks that ran, and only when they passed: CTest reads it as a skip.
        print(f"SKIPPED: {path} not checked, it needs matplotlib "
              f"(Debian: apt-get install python3-matplotlib)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
