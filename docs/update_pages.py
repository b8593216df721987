#!/usr/bin/env python3
"""Writes, or checks, the generated blocks of the tutorial's pages, so that no page drifts.

A page marks a block it does not write by hand with two HTML comments, which GitHub and Doxygen
both hide:

    <!-- generated: help step02_naive_kernel -->
    ...
    <!-- end generated -->

and this script rewrites what lies between them. The kinds of block:

    help PROGRAM               the program's real `--help` output (in this and the next kind, a
                               line wider than 100 columns is wrapped at spaces, as a terminal
                               of 100 columns shows it, so that it fits the pages' code boxes)
    example PROGRAM [ARGS]     the program's real `--example-only [ARGS]` output (its worked
                               example), for instance `--devices 0` where the output would
                               otherwise depend on how many GPUs the machine has
    snippet 'FILE#TAG'         the lines of FILE between its two `// [TAG]` marker comments,
                               dedented, as a C++ code block: the code a page walks through,
                               shown on GitHub and in Doxygen alike (where `\\snippet` would
                               show on GitHub as text)
    navigation                 the footer of a step's page: links to the previous and the next
                               step and back to the list of steps, in the order and with the
                               titles of docs/pages/steps.md
    diff 'OLD' 'NEW'           `diff -u -b`-style difference between \\snippet regions of the
                               sources, each side written FILE#TAG, several joined with '+'
                               (quoted, because tags may contain spaces)
    performance STEP RESULTS   the step's rows of docs/results/RESULTS.json
    multi-gpu RESULTS [MORE]   the table of docs/results/RESULTS.json written by
                               multi_gpu_benchmark (step 09 against cuBLASXt and Tiled-MM),
                               and its ratios;
                               with MORE, other processes of the same measurement: how the
                               step and cuBLASXt ranged, and the step against cuBLASXt's
                               fastest run
    results-chart RESULTS      the chart and a summary of docs/results/RESULTS.json (main page)
    packing RESULTS            step 08's packing table: each shape of docs/results/RESULTS.json
                               whose n or k is not a multiple of 4, with the rule's configuration
                               unpacked and packed, the vendor BLAS, and the rule's decision
    dot RESULTS                step 08's one-column table: each shape of docs/results/RESULTS.json
                               with n = 1, the rule (the 8 x 4 tile), the rule without that tile,
                               and the vendor BLAS

    python3 docs/update_pages.py --program step01_serial_cpu=build/.../step01_serial_cpu ...
    python3 docs/update_pages.py --check [--kind help] [--program NAME=PATH ...]

With --check nothing is written; a block that differs from what its source gives is reported with
its page, line and kind, and the exit code is 1. A block of a program that is not given is left
alone; an example of a GPU program on a machine without a GPU is reported as SKIPPED (and left
alone when writing), because the program cannot run there. The CMake targets 'update-pages' and
the CTest tests with the label 'docs' (docs/CMakeLists.txt) call this script.
"""

import argparse
import difflib
import glob
import json
import math
import os
import re
import shlex
import subprocess
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "docs", "results"))
import make_results  # noqa: E402  (the same figures as the results page)

BLOCK = re.compile(r"(?P<open><!-- generated: (?P<spec>[^>]*?) -->\n)(?P<body>.*?)"
                   r"(?P<close><!-- end generated -->)", re.S)
NO_GPU = "no HIP device was found"
KINDS = ("help", "example", "snippet", "navigation", "diff", "performance", "results-chart",
         "multi-gpu", "packing", "dot", "mpi-runs", "broadcasts", "summa-model")


class Skip(Exception):
    """The block cannot be produced on this machine; the message says why."""


def pages():
    """The main page, each step's lesson and lab notes (README.md, NOTES.md), the other pages."""
    found = [os.path.join(ROOT, "README.md")]
    for lesson in sorted(glob.glob(os.path.join(ROOT, "steps", "*", "README.md"))):
        found.append(lesson)
        notes = os.path.join(os.path.dirname(lesson), "NOTES.md")
        if os.path.exists(notes):
            found.append(notes)
    found += sorted(glob.glob(os.path.join(ROOT, "docs", "pages", "*.md")))
    return found


def fenced(text, language=""):
    text = "\n".join(line.rstrip() for line in text.rstrip("\n").split("\n"))
    return f"```{language}\n{text}\n```\n"


# ---- help and example: the programs' own output ----------------------------------------------
def run_program(path, *arguments):
    completed = subprocess.run([path, *arguments], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, timeout=120, env=dict(os.environ, LC_ALL="C"))
    return completed.returncode, completed.stdout, completed.stderr


OPTION_LINE = re.compile(r"^(  \S.*?\s{2,})\S")


def wrapped(text):
    """Each line wider than CODE_WIDTH broken at spaces; the continuation lines of an option in a
    --help text start under its description, those of other lines two columns further in."""
    lines = []
    for line in text.split("\n"):
        if len(line) <= CODE_WIDTH:
            lines.append(line)
            continue
        option = OPTION_LINE.match(line)
        indent = len(option[1]) if option else len(line) - len(line.lstrip()) + 2
        lines += textwrap.wrap(line, CODE_WIDTH, subsequent_indent=" " * indent,
                               break_long_words=False, break_on_hyphens=False)
    return "\n".join(lines)


def help_block(programs, name):
    code, out, err = run_program(programs[name], "--help")
    if code != 0:
        raise RuntimeError(f"{name} --help exited with {code}: {err.strip()}")
    return fenced(wrapped(out))


def example_block(programs, name, extra=()):
    code, out, err = run_program(programs[name], "--example-only", *extra)
    if code == 3 and NO_GPU in err:
        raise Skip(f"{name} needs a GPU: {err.strip()}")
    if code != 0:
        raise RuntimeError(f"{name} --example-only exited with {code}: {err.strip()}")
    return fenced(wrapped(out))


# ---- snippet and diff: regions of the sources ------------------------------------------------
MARKER = re.compile(r"^\s*// \[[^\]]+\]\s*$")
CODE_WIDTH = 100  # the column limit of .clang-format: wider lines would not fit the pages' boxes


def snippet(reference, comments=False):
    """The lines between the two '// [tag]' markers of FILE#TAG, dedented (preprocessor lines in
    column 0 aside), without the marker lines of regions nested inside, and without comment lines
    unless comments is true."""
    path, tag = reference.split("#", 1)
    with open(os.path.join(ROOT, path), encoding="utf-8") as file:
        lines = file.read().split("\n")
    markers = [i for i, line in enumerate(lines) if line.strip() == f"// [{tag}]"]
    if len(markers) != 2:
        raise RuntimeError(f"{path} has no snippet region [{tag}] (two lines '// [{tag}]')")
    body = [line for line in lines[markers[0] + 1:markers[1]] if not MARKER.match(line)
            and (comments or not line.strip().startswith("//"))]
    while body and not body[0].strip():
        body.pop(0)
    while body and not body[-1].strip():
        body.pop()
    # Preprocessor lines (#pragma unroll) stay in column 0 wherever the code is: they set no indent.
    indent = min((len(line) - len(line.lstrip()) for line in body
                  if line.strip() and not line.startswith("#")), default=0)
    return [line.rstrip() if line.startswith("#") else line[indent:].rstrip() for line in body]


def snippet_block(reference):
    lines = snippet(reference, comments=True)
    wide = [i for i, line in enumerate(lines) if len(line) > CODE_WIDTH]
    if wide:
        path, tag = reference.split("#", 1)
        raise RuntimeError(f"{path} [{tag}]: {len(wide)} lines wider than {CODE_WIDTH} "
                           f"characters (the first: '{lines[wide[0]][:40]}...')")
    return fenced("\n".join(lines), "cpp")


def side(spec):
    lines = []
    for reference in spec.split("+"):
        if lines:
            lines.append("")
        lines += snippet(reference)
    return lines


def diff_block(old_spec, new_spec):
    old, new = side(old_spec), side(new_spec)
    # Compared with the indentation and the spacing ignored (like diff -b), shown as the new
    # side is written.
    key = [" ".join(line.split()) for line in old], [" ".join(line.split()) for line in new]
    matcher = difflib.SequenceMatcher(None, key[0], key[1], autojunk=False)
    def label(spec):
        # "file [tag] + [tag]" when the regions share a file.
        parts, previous = [], None
        for reference in spec.split("+"):
            path, tag = reference.split("#", 1)
            parts.append(f"[{tag}]" if path == previous else f"{path} [{tag}]")
            previous = path
        return " + ".join(parts)

    out = [f"--- {label(old_spec)}", f"+++ {label(new_spec)}"]
    for operation, i1, i2, j1, j2 in matcher.get_opcodes():
        if operation == "equal":
            out += [" " + line for line in new[j1:j2]]
        else:
            out += ["-" + line for line in old[i1:i2]]
            out += ["+" + line for line in new[j1:j2]]
    return fenced("\n".join(out), "diff")


# ---- navigation: previous, next and the list of steps -----------------------------------------
STEPS_PAGE = os.path.join(ROOT, "docs", "pages", "steps.md")
STEP_LINK = re.compile(r"^- \[(?P<title>[^]]+)\]\((?P<target>[^)]+/README\.md)\)$", re.M)


def navigation_block(page):
    with open(STEPS_PAGE, encoding="utf-8") as file:
        listed = [(m["title"], os.path.normpath(os.path.join(os.path.dirname(STEPS_PAGE),
                                                              m["target"])))
                  for m in STEP_LINK.finditer(file.read())]
    paths = [path for _, path in listed]
    if page not in paths:
        raise RuntimeError("the page is not in the list of docs/pages/steps.md")
    here = paths.index(page)

    def link(index):
        title, path = listed[index]
        return f"[{title}]({os.path.relpath(path, os.path.dirname(page))})"
    parts = []
    if here > 0:
        parts.append(f"Previous: {link(here - 1)}")
    if here + 1 < len(listed):
        parts.append(f"Next: {link(here + 1)}")
    parts.append(f"Back to [the list of steps]({os.path.relpath(STEPS_PAGE, os.path.dirname(page))})")
    # The blank line first: Doxygen would read a rule right under the comment as a heading.
    return "\n---\n\n" + ".<br>\n".join(parts) + ".\n"


# ---- performance and the chart: the committed results ----------------------------------------
def load_results(name):
    path = os.path.join(ROOT, "docs", "results", f"{name}.json")
    if not os.path.exists(path):
        raise RuntimeError(f"docs/results/{name}.json does not exist")
    return make_results.load([path])


def stamp_paragraph(results, name, page_depth):
    up = "../" * page_depth
    runs = [f"commit `{run['commit']}` on {run['date']}" for run in results.runs]
    when = (f"at {runs[0]}" if len(runs) == 1 else
            f"in {len(runs)} runs merged into one file ({', '.join(runs)}), each kernel compared "
            f"with the vendor BLAS of its own run")
    return (f"Measured on an {results.gpu} ({results.driver_text()}) with {results.vendor_blas} "
            f"on the same inputs, by the tutorial's benchmark {when}. Every kernel was verified "
            f"against the double-precision reference before it was timed, and the median of its "
            f"timed runs counts. All figures: [{make_results.page_title(results, name)}]"
            f"({up}docs/results/{name}.md), from `docs/results/{name}.json`.")


def kernel_label(step, variant, own_step):
    """The name the chart's legend, the results page and the main page's table give the kernel,
    then what it is in words: `naive_b16` (step 02's default): x → column (coalesced), ..."""
    label = f"`{variant}`"
    default = (step, variant) in make_results.DEFAULT_VARIANTS
    if step != own_step:
        label += f" (step {step}'s default)" if default else f" (step {step})"
    elif default:
        label += " (the default)"
    words = make_results.variant_label(step, variant)
    return label + (f": {words}" if words != variant else "")


def performance_block(step, name, compare):
    results = load_results(name)
    own = [(s, v) for s, v in results.kernels() if s == step]
    if not own:
        return (f"Step {step} is not in `docs/results/{name}.json` yet: run the benchmark "
                f"(see [the benchmark page](../../docs/pages/benchmark.md)).\n")
    others = [tuple(item.split(":", 1)) for item in compare]
    kernels = others + own
    sizes = results.square_sizes()
    vendor = results.vendor_name or "the vendor BLAS"
    peak, _ = results.peak()
    parts = [stamp_paragraph(results, name, 2), ""]

    # GFLOPS at every square size: the step's rows of the results table.
    header = ["kernel"] + [str(size) for size in sizes]
    lines = ["| " + " | ".join(header) + " |", "|---|" + "---:|" * len(sizes)]
    if results.vendor_name:
        lines.append("| " + " | ".join([vendor] + [make_results.cell(results, "blas", "vendor",
                                                                     (s, s, s)) for s in sizes])
                     + " |")
    for s, v in kernels:
        cells = [make_results.cell(results, s, v, (size,) * 3) for size in sizes]
        lines.append("| " + " | ".join([kernel_label(s, v, step)] + cells) + " |")
    parts += ["GFLOPS at m = n = k:", "", "\n".join(lines), ""]

    # The reference size: time, GFLOPS and the two shares.
    candidates = [size for size in sizes if all(results.find(s, v, (size,) * 3)
                                                for s, v in kernels)]
    if candidates:
        size = candidates[-1]
        shape = (size,) * 3
        vendor_row = results.find("blas", "vendor", shape)
        intro = f"At {size} x {size} x {size}"
        if vendor_row:
            intro += (f", {vendor} took {make_results.format_ms(vendor_row['median_ms'])} ms "
                      f"({make_results.thousands(vendor_row['gflops'])} GFLOPS)")
        parts += [intro + ":", ""]
        # The unit in the header: "24.82 ms" in a narrow column would break between its words.
        header = ["kernel", "median (min) ms", "GFLOPS", f"share of {vendor}", "share of FP32 peak"]
        lines = ["| " + " | ".join(header) + " |", "|---|" + "---:|" * 4]
        for s, v in kernels:
            row = results.find(s, v, shape)
            percent = results.percent_of_vendor(row)
            cells = [kernel_label(s, v, step), median_and_min(row),
                     make_results.format_gflops(row["gflops"]),
                     make_results.format_percent(percent) if percent is not None else "-",
                     make_results.format_percent(100 * row["gflops"] / peak) if peak else "-"]
            lines.append("| " + " | ".join(cells) + " |")
        parts += ["\n".join(lines), ""]

    # Shapes that are neither square nor tile multiples.
    shapes = results.other_shapes()
    if shapes:
        parts += [f"Shapes m x n x k that are neither square nor tile multiples, GFLOPS (share "
                  f"of {vendor}):", ""]
        for group in make_results.shape_groups(shapes):
            header = ["kernel"] + [make_results.shape_label(s) for s in group]
            lines = ["| " + " | ".join(header) + " |", "|---|" + "---:|" * len(group)]
            for s, v in own:
                cells = [make_results.cell(results, s, v, shape, with_percent=True)
                         for shape in group]
                lines.append("| " + " | ".join([kernel_label(s, v, step)] + cells) + " |")
            parts += ["\n".join(lines), ""]
    return "\n".join(parts)


def pack_threshold():
    """kPackMinIntensity, as steps/08_every_shape/choose_config.hpp sets it."""
    path = os.path.join(ROOT, "steps", "08_every_shape", "choose_config.hpp")
    with open(path, encoding="utf-8") as header:
        match = re.search(r"constexpr double kPackMinIntensity = ([0-9.]+);", header.read())
    if not match:
        raise RuntimeError(f"no kPackMinIntensity in {path}")
    return float(match[1])


def packing_block(name):
    results = load_results(name)
    vendor = results.vendor_name or "the vendor BLAS"
    threshold = pack_threshold()
    rows = []
    for shape in results.other_shapes() + [(s, s, s) for s in results.square_sizes()]:
        m, n, k = shape
        unpacked = results.find("08", "unpacked", shape)
        packed = results.find("08", "packed", shape)
        if (n % 4 == 0 and k % 4 == 0) or not (unpacked and packed):
            continue
        # Packing copies B in and C out, (k + m) n floats; it is for n not a multiple of 4 only.
        intensity = m * k / (m + k)
        blas = results.vendor(shape, unpacked["run"])
        faster = "packed" if packed["median_ms"] < unpacked["median_ms"] else "unpacked"
        rule = "packs" if n % 4 != 0 and intensity >= threshold else "does not pack"
        rows.append((intensity, [make_results.shape_label(shape), f"{intensity:,.0f}",
                                 make_results.format_ms(unpacked["median_ms"]),
                                 make_results.format_ms(packed["median_ms"]),
                                 make_results.format_ms(blas["median_ms"]) if blas else "-",
                                 faster, rule]))
    if not rows:
        return (f"`docs/results/{name}.json` has no shape with n or k not a multiple of 4 "
                f"measured both unpacked and packed.\n")
    # Milliseconds; short headers, so that the shapes keep to one line on a narrow page.
    header = ["m x n x k", "per float", "unpacked", "packed", vendor, "faster",
              f"rule (from {threshold:,.0f})"]
    lines = ["| " + " | ".join(header) + " |", "|---|" + "---:|" * 4 + "---|---|"]
    lines += ["| " + " | ".join(cells) + " |" for _, cells in sorted(rows, key=lambda r: r[0])]
    return "\n".join([stamp_paragraph(results, name, 2), "", "\n".join(lines), ""])


def dot_block(name):
    results = load_results(name)
    vendor = results.vendor_name or "the vendor BLAS"
    rows = []
    for shape in results.other_shapes() + [(s, s, s) for s in results.square_sizes()]:
        rule = results.find("08", "rule", shape)
        without = results.find("08", "no-8x4", shape)
        if shape[1] != 1 or not (rule and without):
            continue
        blas = results.vendor(shape, rule["run"])
        shares = [f"{blas['median_ms'] / r['median_ms']:.2f}" if blas else "-"
                  for r in (rule, without)]
        rows.append((shape, [make_results.shape_label(shape),
                             make_results.format_ms(rule["median_ms"]),
                             make_results.format_ms(without["median_ms"]),
                             make_results.format_ms(blas["median_ms"]) if blas else "-"] + shares))
    if not rows:
        return f"`docs/results/{name}.json` has no shape with n = 1 measured with and without.\n"
    header = ["m x n x k", "rule (8x4)", "without 8x4", vendor, "share", "share without"]
    lines = ["| " + " | ".join(header) + " |", "|---|" + "---:|" * 5]
    lines += ["| " + " | ".join(cells) + " |"
              for _, cells in sorted(rows, key=lambda r: r[0][0] * r[0][2])]
    return "\n".join([stamp_paragraph(results, name, 2), "", "\n".join(lines), ""])


def results_chart_block(name):
    results = load_results(name)
    vendor = results.vendor_name or "the vendor BLAS"
    size = results.reference_size()
    peak, _ = results.peak()
    # The blank line first: an image right under the comment would be, for Doxygen, an inline
    # image inside a paragraph, which on a phone-wide window widens the whole page; alone in its
    # paragraph it is a figure, which scrolls in its own box (docs/tutorial.css).
    lines = ["", f"![GFLOPS against size on the {results.gpu}: each step's fastest kernel, {vendor} "
             f"and the FP32 peak](docs/results/{name}.svg)", "",
             stamp_paragraph(results, name, 0), "",
             f"Each step's fastest kernel at {size} x {size} x {size}:", "",
             f"| step | kernel | GFLOPS | share of {vendor} | share of FP32 peak |",
             "|---|---|---:|---:|---:|"]
    headline = make_results.headline_kernels(results)
    if results.vendor_name:
        headline.append(("blas", "vendor"))
    for step, variant in headline:
        # A step skipped at the reference size (the CPU loop) shows its largest size measured.
        measured = [s for s in results.square_sizes() if results.find(step, variant, (s,) * 3)]
        if not measured:
            continue
        at = size if size in measured else measured[-1]
        row = results.find(step, variant, (at,) * 3)
        percent = results.percent_of_vendor(row)
        title = f"{step} {make_results.STEP_TITLES.get(step, '')}" if step != "blas" else "-"
        label = kernel_label(step, variant, step) if step != "blas" else vendor
        if at != size:
            label += f" (at {at} x {at} x {at})"
        lines.append(f"| {title} | {label} | "
                     f"{make_results.format_gflops(row['gflops'])} | "
                     f"{make_results.format_percent(percent) if percent is not None else '-'} | "
                     f"{make_results.format_percent(100 * row['gflops'] / peak) if peak else '-'}"
                     f" |")
    return "\n".join(lines) + "\n"


# Step 09's inner kernels (its --inner values) by the names the chart and the other pages' tables
# give them: step 08's rule never splits K there, step 05's kernel is reg8x8_db, step 04's the
# 32 x 32 tiles.
INNER_KERNELS = {"step08": ("08", "rule"), "step05": ("05", "reg8x8_db"),
                 "step04": ("04", "tiled32")}
# Runs made before the every-shape step was split (commit b638e82) name the same kernels, step 08's
# rule today, "step06".
INNER_KERNELS["step06"] = INNER_KERNELS["step08"]


def inner_kernel(inner, vendor, short=False):
    """`rule` (step 08's default): ..., or the vendor BLAS; short: without the words."""
    if inner == "vendor":
        return vendor
    if inner not in INNER_KERNELS:
        raise RuntimeError(f"inner kernel '{inner}' has no name in update_pages.py")
    step, variant = INNER_KERNELS[inner]
    if short:
        return f"`{variant}` (step {step})"
    label = kernel_label(step, variant, "09")
    return label + ", K not split" if INNER_KERNELS[inner] == INNER_KERNELS["step08"] else label


def multi_gpu_row_names(row, vendor):
    """The kernel and the run of one row of the multi-GPU table."""
    if row["measurement"] == "cublasxt":
        return "cuBLASXt", f"block dim {row['block_dim']}"
    if row["measurement"] == "tiledmm":
        # A row without a tile could not be measured (its status says why).
        if "tile" not in row:
            return "Tiled-MM", "-"
        return "Tiled-MM", f"tile {row['tile']}, {row['streams']} stream" + (
            "s" if row["streams"] != 1 else "")
    kernel = inner_kernel(row["inner"], vendor)
    if row["measurement"] == "resident":
        # A resident row of its own size: the run's n did not fit in the device's memory.
        return kernel, "resident" + (f", n = {row['n']}" if "n" in row else "")
    if row.get("budget_from") == "cublasxt":
        return kernel, "streamed at cuBLASXt's memory"
    return kernel, "streamed"


def multi_gpu_ratio_name(name, vendor):
    """A ratio's name in the benchmark ('stream step08 on 1 device / resident step08') in the
    table's words ('streamed `rule` (step 08) on 1 device / resident `rule` (step 08)')."""
    name = re.sub(r"\bstream\b", "streamed", name)
    name = re.sub(r"\bvendor\b", vendor, name)
    return re.sub(r"\bstep0\d\b", lambda found: inner_kernel(found[0], vendor, short=True), name)


# Where the multi-GPU runs' JSON files are read from (a test points it at files of its own).
RESULTS_DIR = os.path.join(ROOT, "docs", "results")


def load_multi_gpu_run(name):
    path = os.path.join(RESULTS_DIR, f"{name}.json")
    if not os.path.exists(path):
        raise RuntimeError(f"docs/results/{name}.json does not exist")
    with open(path, encoding="utf-8") as file:
        return json.load(file)


def processes_block(names, vendor):
    """How the step and cuBLASXt at its best block dim ranged over several benchmark processes of
    the same measurement, and the step against cuBLASXt's fastest run among them."""
    step_medians, xt_medians, xt_fastest = [], [], None
    for name in names:
        run = load_multi_gpu_run(name)
        # The comparison on every device of the run (rows on fewer devices are there for scaling).
        devices = max(len(row["devices"]) for row in run["results"])
        rows = [row for row in run["results"] if len(row["devices"]) == devices]
        swept = [row for row in rows if row["measurement"] == "cublasxt" and "block_dim" in row]
        streamed = [row for row in rows if row["measurement"] == "stream"
                    and row.get("budget_from") != "cublasxt" and row["inner"] != "vendor"]
        if not swept or len(streamed) != 1:
            raise RuntimeError(f"docs/results/{name}.json has no block-dim sweep or no streamed row")
        best = min(swept, key=lambda row: row["median_ms"])
        xt_medians.append((best["median_ms"], best["block_dim"]))
        if xt_fastest is None or best["min_ms"] < xt_fastest[0]:
            xt_fastest = (best["min_ms"], best["block_dim"], name)
        step_medians.append(streamed[0]["median_ms"])
    kernel = inner_kernel(streamed[0]["inner"], vendor, short=True)
    dims = sorted({dim for _, dim in xt_medians})
    fmt = make_results.format_ms
    return "\n".join([
        f"Over {len(names)} benchmark processes of this measurement, on {devices} "
        f"device{'s' if devices > 1 else ''} "
        f"({', '.join(f'`docs/results/{name}.json`' for name in names)}), cuBLASXt at its best "
        f"block dim ({', '.join(str(dim) for dim in dims)}) took a median of "
        f"{fmt(min(m for m, _ in xt_medians))} to {fmt(max(m for m, _ in xt_medians))} ms, and its "
        f"fastest run {fmt(xt_fastest[0])} ms (block dim {xt_fastest[1]}). The streamed step with "
        f"{kernel} took a median of {fmt(min(step_medians))} to {fmt(max(step_medians))} ms: "
        f"{xt_fastest[0] / max(step_medians):.3f} to {xt_fastest[0] / min(step_medians):.3f} times "
        f"the throughput of cuBLASXt's fastest run.", ""])


def median_and_min(row):
    """'23.03 (22.98)': a row's median time and, in parentheses, its fastest run, in ms."""
    return f"{make_results.format_ms(row['median_ms'])} ({make_results.format_ms(row['min_ms'])})"


def mib_or_dash(row, key):
    return make_results.thousands(row[key] / (1 << 20)) if key in row else "-"


def multi_gpu_block(name, *others):
    """The rows and ratios of one run of multi_gpu_benchmark, as its JSON file records them; with
    `others`, further processes of the same measurement, the spread over all of them."""
    run = load_multi_gpu_run(name)
    vendor = run["vendor_blas"].split(" ")[0]
    gpus = ", ".join(run["gpus"])
    budget = make_results.thousands(run["budget_bytes"] / (1 << 20))
    # Runs before the option existed brought every panel by the copy engine.
    panels = {"first-by-kernel": "each entry's first two panels of B by a kernel, the rest by the "
                                 "copy engine",
              "copy-engine": "every panel of B by the copy engine",
              "kernel": "every panel of B by a kernel"}[run.get("panel_copy", "copy-engine")]
    # Runs before panels were shared between devices do not say.
    if run.get("share_panels") == "on" and len(run.get("devices", [])) > 1:
        panels += (", panels shared between devices where they can read each other's memory "
                   "(each brings its share of a panel's rows from the host)")
    if run.get("budget_option") == "all":
        budget_text = (f"no budget option (the device's free memory less 512 MiB: {budget} MiB per "
                       f"device entry)")
    else:
        budget_text = f"a budget of {budget} MiB per device entry"
    # Runs before Tiled-MM joined the benchmark do not name it.
    libraries = "; ".join([run["platform"], run["vendor_blas"], run["host_blas"]]
                          + ([run["tiledmm"]] if "tiledmm" in run else []))
    parts = [f"Measured by `multi_gpu_benchmark` at commit `{run['commit']}` on {run['date']} "
             f"(GPUs {gpus}; {libraries}): "
             f"n = {run['n']}, {budget_text}, {panels}, from `docs/results/{name}.json`"
             + ("" if run.get("complete", True) else " (stopped before its last rows)") + "."]
    if "device_memory_bytes" in run:
        matrices = 3 * run["n"] ** 2 * 4
        device = run["device_memory_bytes"]
        parts[-1] += (f" A + B + C take {matrices / (1 << 30):,.1f} GiB, one device has "
                      f"{device / (1 << 30):,.1f} GiB: "
                      + ("out of core." if matrices > device else "they would fit."))
    if run.get("warmup", 1) == 0:
        parts[-1] += " No warm-up run: each row is the median of its runs, the first included."
    parts.append("")
    lines = ["| kernel | run | devices | chunks x panels (rows x columns) | median (min) ms | GFLOPS | "
             "planned (MiB) | used (MiB) | kernels busy |",
             "|---|---|---|---|---:|---:|---:|---:|---:|"]
    runs = set()
    unswept = 0
    unmeasured = []
    for row in run["results"]:
        if row["measurement"] == "cublasxt" and "block_dim" not in row:
            unswept += 1
            continue
        kernel, how = multi_gpu_row_names(row, vendor)
        devices = ", ".join(str(device) for device in row["devices"])
        if "status" in row:
            # A peer that could not be measured: not built, or not run at this n.
            lines.append(f"| {kernel} | {how} | {devices} | - | {row['status']} | - | - | - | "
                         f"- |")
            unmeasured.append(f"{kernel} was {row['status']}: {row['why_not']}.")
            continue
        runs.add(how.replace(",", " ").split(" ")[0])
        plan = (f"{row['chunks']} x {row['panels']} ({row['chunk_rows']} x {row['panel_cols']})"
                if "chunks" in row else "-")
        busy = (make_results.format_percent(row["kernel_busy_percent"])
                if "kernel_busy_percent" in row else "-")
        time = median_and_min(row)
        if not row["verified"]:
            time += " (not verified)"
        lines.append(f"| {kernel} | {how} | {devices} | {plan} | {time} | "
                     f"{make_results.format_gflops(row['gflops'])} | "
                     f"{mib_or_dash(row, 'plan_bytes')} | "
                     f"{mib_or_dash(row, 'device_memory_used_bytes')} | {busy} |")
    words = {"resident": "*resident* is the kernel alone on matrices already in the first "
                         "device's memory",
             "streamed": "*streamed* is step 09 with the kernel inside, from host memory to host "
                         "memory (*at cuBLASXt's memory*: with the memory cuBLASXt used at its "
                         "best block dim as the budget)",
             "block": "*block dim* is cuBLASXt's tile edge",
             "tile": "*tile* is Tiled-MM's tile edge (for m, n and k alike) with its number of "
                     "streams, on the first device only (Tiled-MM is a one-GPU library)"}
    parts += ["Runs: " + "; ".join(words[how] for how in words if how in runs) + ".", ""]
    parts += ["\n".join(lines), ""]
    if unmeasured:
        parts += [" ".join(unmeasured), ""]
    if unswept:
        parts += ["This run predates the block-dim sweep: cuBLASXt ran at its default block dim "
                  "only, which is not a comparison, so its rows are left out here. The comparison "
                  "with cuBLASXt at its best is measured by the benchmark's sweep.", ""]
    ratios = [ratio for ratio in run.get("ratios", [])
              if "cuBLASXt" not in ratio["name"] or "best cuBLASXt" in ratio["name"]]
    if ratios:
        parts += ["Throughput ratios from this run (above 1: the first is faster):", ""]
        parts += [f"- {multi_gpu_ratio_name(ratio['name'], vendor)}: {ratio['value']:.3f}"
                  for ratio in ratios]
        parts.append("")
    if others:
        parts.append(processes_block((name,) + others, vendor))
    return "\n".join(parts)


# ---- step 10: runs of the program under mpirun, and the broadcast probe -------------------------
MPI_RUN = {
    "ranks": re.compile(r"General multiply on (\d+) ranks?, grid (\d+x\d+), blocks of (\d+) x"),
    "transport": re.compile(r"Panels travel (GPU to GPU through NCCL|through host memory and MPI)"),
    "timing": re.compile(r"slowest rank: median ([0-9.]+) ms, min ([0-9.]+) ms over (\d+) runs"),
    "result": re.compile(r"^RESULT (\{.*\})$", re.M),
}


def load_mpi_run(name):
    """One run of step10_many_nodes, from its log (docs/results/<name>.log)."""
    path = os.path.join(RESULTS_DIR, f"{name}.log")
    if not os.path.exists(path):
        raise RuntimeError(f"docs/results/{name}.log does not exist")
    with open(path, encoding="utf-8") as file:
        text = file.read()
    found = {key: pattern.search(text) for key, pattern in MPI_RUN.items()}
    missing = [key for key, match in found.items() if not match]
    if missing:
        raise RuntimeError(f"docs/results/{name}.log has no {', '.join(missing)} line")
    result = json.loads(found["result"][1])
    return {"name": name, "ranks": int(found["ranks"][1]), "grid": found["ranks"][2],
            "block": int(found["ranks"][3]),
            "transport": "NCCL" if "NCCL" in found["transport"][1] else "host memory and MPI",
            "median_ms": float(found["timing"][1]), "min_ms": float(found["timing"][2]),
            "runs": int(found["timing"][3]), "result": result}


def mpi_runs_block(*arguments):
    """A table of step 10's runs: the first is the baseline of the speed-ups; `compare=NAME` adds
    the ratio to step 09's streamed run on the same devices, from its benchmark file."""
    names = [a for a in arguments if not a.startswith("compare=")]
    compare = [a.split("=", 1)[1] for a in arguments if a.startswith("compare=")]
    runs = [load_mpi_run(name) for name in names]
    first = runs[0]
    result = first["result"]
    shape = f"{result['m']} x {result['n']} x {result['k']}"
    same_transport = len({run["transport"] for run in runs}) == 1
    header = ["ranks", "grid", "block", "panels through", "median (min) ms", "timed runs",
              "GFLOPS", "verification",
              (f"over {first['ranks']} rank" + ("s" if first["ranks"] > 1 else ""))
              if same_transport else "against the first row"]
    lines = ["| " + " | ".join(header) + " |", "|---:|---|---:|---|---:|---:|---:|---|---:|"]
    for run in runs:
        r = run["result"]
        lines.append("| " + " | ".join([
            str(run["ranks"]), run["grid"], str(run["block"]), run["transport"],
            f"{run['median_ms']:,.2f} ({run['min_ms']:,.2f})", str(run["runs"]),
            f"{r['end_to_end_gflops']:,.0f}", r["verification"],
            f"{first['median_ms'] / run['median_ms']:.3f}"]) + " |")
    sources = ", ".join(f"`docs/results/{run['name']}.log`" for run in runs)
    parts = [f"C = A·B at {shape}, each rank on its own {result['device'].split(' x ')[0]}, "
             f"the slowest rank's median (from {sources}):", "", "\n".join(lines), ""]
    for other in compare:
        data = load_multi_gpu_run(other)
        rows = [row for row in data["results"] if row.get("measurement") == "stream" and
                len(row.get("devices", [])) == max(run["ranks"] for run in runs)]
        if not rows:
            raise RuntimeError(f"docs/results/{other}.json has no streamed row on "
                               f"{max(run['ranks'] for run in runs)} devices")
        row = rows[0]
        widest = max(runs, key=lambda run: run["ranks"])
        parts.append(f"Step 09 in one process on the same {len(row['devices'])} devices, at commit "
                     f"`{data['commit']}` on {data['date']}, took a median of "
                     f"{row['median_ms']:,.2f} ms for the same multiply, from host memory to host "
                     f"memory (`docs/results/{other}.json`): step 10 on {widest['ranks']} ranks, "
                     f"its parts already in device memory, runs at "
                     f"{row['median_ms'] / widest['median_ms']:.3f} times its throughput.")
        parts.append("")
    return "\n".join(parts)


def broadcasts_block(*names):
    """One broadcast from rank 0 to every rank, by size and transport, from the probe's files,
    with the latency (smallest message) and bandwidth (two largest) the lesson's model uses."""
    runs = []
    for name in names:
        data = load_multi_gpu_run(name)
        runs.append((name, data))
    columns = []  # (label, {bytes: median_us})
    for name, data in runs:
        for transport in ("nccl", "host"):
            times = {b["bytes"]: b["median_us"] for b in data["broadcasts"]
                     if b["transport"] == transport}
            if times:
                label = ("NCCL" if transport == "nccl" else "host") + f", {data['ranks']} ranks"
                columns.append((label, times))
    sizes = sorted({size for _, times in columns for size in times})
    lines = ["| bytes | " + " | ".join(label + " (us)" for label, _ in columns) + " |",
             "|---:|" + "---:|" * len(columns)]
    for size in sizes:
        lines.append(f"| {size:,} | " + " | ".join(
            f"{times[size]:,.1f}" if size in times else "-" for _, times in columns) + " |")
    fits = []
    for label, times in columns:
        ordered = sorted(times.items())
        (b1, t1), (b2, t2) = ordered[-2], ordered[-1]
        bandwidth = (b2 - b1) / (t2 - t1) / 1e3
        fits.append(f"{label}: α {ordered[0][1]:.1f} us, 1/β {bandwidth:,.1f} GB/s")
    device = runs[0][1]["device"]
    sources = ", ".join(f"`docs/results/{name}.json`" for name, _ in runs)
    return "\n".join([
        f"The slowest rank's median of {runs[0][1]['iterations']} broadcasts on {device}s "
        f"(from {sources}):", "", "\n".join(lines), "",
        "Fitted (α: the 4-byte broadcast; 1/β: from the two largest sizes): " +
        "; ".join(fits) + ".", ""])


def summa_model_block(*arguments):
    """The lesson's alpha-beta-gamma model of SUMMA at 4 to 1024 GPUs: gamma from a one-rank run,
    alpha and beta within a node from the probe, and the network's `link_gbs` and `link_us`
    (assumptions, named in the block's spec) for grids wider than one node of `node` GPUs."""
    names = [a for a in arguments if "=" not in a]
    options = dict(a.split("=", 1) for a in arguments if "=" in a)
    probe = load_multi_gpu_run(names[0])
    one_rank = load_mpi_run(names[1])
    link_gbs, link_us = float(options["link_gbs"]), float(options["link_us"])
    node = int(options["node"])
    result = one_rank["result"]
    gamma = 1.0 / (result["end_to_end_gflops"] * 1e9)  # seconds per flop, one GPU, SUMMA's GEMMs
    nccl = sorted((b["bytes"], b["median_us"]) for b in probe["broadcasts"]
                  if b["transport"] == "nccl")
    alpha_in = nccl[0][1] * 1e-6
    beta_in = (nccl[-1][1] - nccl[-2][1]) * 1e-6 / (nccl[-1][0] - nccl[-2][0])  # s per byte
    alpha_out, beta_out = link_us * 1e-6, 1.0 / (link_gbs * 1e9)

    def broadcast(q, words, inside):
        # Long messages: scatter then allgather, alpha (log2 q + q - 1) + 2 beta w (q - 1) / q.
        if q == 1:
            return 0.0
        alpha, beta = (alpha_in, beta_in) if inside else (alpha_out, beta_out)
        return alpha * (math.log2(q) + q - 1) + 2 * beta * 4 * words * (q - 1) / q

    def row(p, n):
        side = int(round(math.sqrt(p)))
        local = n // side
        block = min(4096, local)
        panels = n // block
        inside = p <= node
        comm = (broadcast(side, local * block, inside) * 2)
        compute = 2.0 * local * local * block * gamma
        total = panels * max(comm, compute) + comm
        ideal = 2.0 * n ** 3 / p * gamma
        return [f"{p:,}", f"{side}x{side}", f"{n:,}", f"{local:,}", f"{block:,}",
                f"{compute * 1e3:,.2f}", f"{comm * 1e3:,.2f}", f"{total * 1e3:,.1f}",
                f"{ideal / total:.2f}"]

    header = ["GPUs", "grid", "n", "local rows", "block", "multiply per panel (ms)",
              "broadcasts per panel (ms)", "time (ms)", "efficiency"]
    table = ["| " + " | ".join(header) + " |", "|---:|---|---:|---:|---:|---:|---:|---:|---:|"]
    strong = int(one_rank["result"]["m"])
    rows = [row(p, strong) for p in (4, 16, 64, 256, 1024)]
    weak = [row(p, 16384 * int(round(math.sqrt(p)))) for p in (4, 16, 64, 256, 1024)]
    lines = table + ["| " + " | ".join(r) + " |" for r in rows]
    weak_lines = table + ["| " + " | ".join(r) + " |" for r in weak]
    return "\n".join([
        f"*A model, not a measurement.* γ = 1 / {result['end_to_end_gflops']:,.0f} GFLOPS, SUMMA on "
        f"one rank (`docs/results/{names[1]}.log`); inside a node of {node} GPUs α = "
        f"{alpha_in * 1e6:.1f} us and 1/β = {1e-9 / beta_in:,.0f} GB/s, NCCL's broadcast "
        f"(`docs/results/{names[0]}.json`); between nodes, **assumed**, α = {link_us:g} us and "
        f"1/β = {link_gbs:g} GB/s per GPU. Square grids, blocks of min(4096, n / √P), each "
        f"broadcast as a scatter and an allgather, A's and B's one after the other, hidden behind "
        f"the multiply when shorter.", "",
        f"The same n = {strong:,} on more GPUs (strong scaling):", "", "\n".join(lines), "",
        "The same 16,384 x 16,384 part of C on each GPU (weak scaling):", "",
        "\n".join(weak_lines), ""])


# ---- blocks ----------------------------------------------------------------------------------
def produce(spec, programs, page):
    """The body of a block, or None when the block's program was not given."""
    words = shlex.split(spec)
    kind, arguments = words[0], words[1:]
    if kind == "navigation":
        return navigation_block(page)
    if kind in ("help", "example"):
        if arguments[0] not in programs:
            return None
        if kind == "help":
            return help_block(programs, arguments[0])
        return example_block(programs, arguments[0], arguments[1:])
    if kind == "snippet":
        return snippet_block(arguments[0])
    if kind == "diff":
        return diff_block(arguments[0], arguments[1])
    if kind == "performance":
        compare = [a.split("=", 1)[1] for a in arguments[2:] if a.startswith("compare=")]
        return performance_block(arguments[0], arguments[1], compare)
    if kind == "results-chart":
        return results_chart_block(arguments[0])
    if kind == "packing":
        return packing_block(arguments[0])
    if kind == "dot":
        return dot_block(arguments[0])
    if kind == "multi-gpu":
        return multi_gpu_block(*arguments)
    if kind == "mpi-runs":
        return mpi_runs_block(*arguments)
    if kind == "broadcasts":
        return broadcasts_block(*arguments)
    if kind == "summa-model":
        return summa_model_block(*arguments)
    raise RuntimeError(f"unknown kind of generated block '{kind}'")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing, report differences")
    parser.add_argument("--kind", action="append", choices=KINDS,
                        help="only blocks of this kind (repeatable; default: all)")
    parser.add_argument("--program", action="append", default=[], metavar="NAME=PATH",
                        help="where a program named by help and example blocks was built")
    parser.add_argument("--require", action="store_true",
                        help="fail when no block of the selected kinds was found")
    arguments = parser.parse_args()
    programs = dict(item.split("=", 1) for item in arguments.program)
    kinds = arguments.kind or KINDS

    checked = differs = skipped = errors = 0
    for page in pages():
        with open(page, encoding="utf-8") as file:
            text = file.read()
        relative = os.path.relpath(page, ROOT)
        pieces, position = [], 0
        for match in BLOCK.finditer(text):
            spec = match["spec"].strip()
            line = text.count("\n", 0, match.start()) + 1
            body = match["body"]
            if spec.split()[0] in kinds:
                where = f"{relative}:{line}: block '{spec}'"
                try:
                    produced = produce(spec, programs, page)
                except Skip as reason:
                    produced = None
                    skipped += 1
                    print(f"SKIPPED: {where}: {reason}")
                except (RuntimeError, OSError, subprocess.SubprocessError) as error:
                    produced = None
                    errors += 1
                    print(f"ERROR: {where}: {error}")
                if produced is not None:
                    checked += 1
                    if produced == body:
                        print(f"ok: {where}")
                    elif arguments.check:
                        differs += 1
                        print(f"DIFFERS: {where} is not what its source gives now:")
                        sys.stdout.writelines(difflib.unified_diff(
                            body.splitlines(True), produced.splitlines(True),
                            f"{relative} (the page)", f"{relative} (generated)"))
                    else:
                        print(f"updated: {where}")
                        body = produced
            pieces += [text[position:match.start()], match["open"], body, match["close"]]
            position = match.end()
        pieces.append(text[position:])
        updated = "".join(pieces)
        if updated != text and not arguments.check:
            with open(page, "w", encoding="utf-8") as file:
                file.write(updated)

    print(f"{checked} blocks checked, {differs} differ, {skipped} skipped, {errors} failed")
    if errors:
        return 1
    if differs:
        print("The pages must show what the programs, sources and results give: run "
              "'cmake --build <build> --target update-pages' and commit the pages.")
        return 1
    if arguments.require and checked + skipped == 0:
        print(f"no generated block of kind {', '.join(kinds)} for the programs given was found")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
