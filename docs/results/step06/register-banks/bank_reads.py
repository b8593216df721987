#!/usr/bin/env python3
"""Reads the machine code of step 06's kernels (nvdisasm -hex output, sm_90) and counts, in each
kernel's hottest loop, the multiply-adds (FFMA) whose source registers collide in a register bank.

Usage: bank_reads.py BEFORE.sass AFTER.sass   (a table of each kernel in both, side by side)
       bank_reads.py ONE.sass                  (one column)

The hottest loop is the backward branch whose body holds the most FFMAs. A source operand marked
.reuse comes from the operand reuse cache, not from the register file. An FFMA "collides" when two
or more of the source registers it reads from the register file share a bank, with the bank taken as
the register number modulo 2 (two banks, as measured on Volta and later). Stall cycles are the
scheduler's wait counts that ptxas wrote into each instruction's control bits (bits 41-44).
"""
import re
import subprocess
import sys

KERNEL = re.compile(r"^\.text\.(\S+):")
LABEL = re.compile(r"^(\.L_x_\d+):")
INSTRUCTION = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;\s*/\* 0x[0-9a-f]{16} \*/")
CONTROL = re.compile(r"/\* 0x([0-9a-f]{16}) \*/")


def read_kernels(path):
    """{kernel: (instructions, labels)}: each instruction (text, stall cycles); labels by index."""
    kernels, name = {}, None
    lines = open(path).read().split("\n")
    for i, line in enumerate(lines):
        if m := KERNEL.match(line):
            name = m.group(1)
            kernels[name] = ([], {})
        elif name and (m := LABEL.match(line)):
            kernels[name][1][m.group(1)] = len(kernels[name][0])
        elif name and (m := INSTRUCTION.search(line)):
            control = int(CONTROL.search(lines[i + 1]).group(1), 16)
            kernels[name][0].append((m.group(1), (control >> 41) & 0xF))
    return kernels


def opcode(text):
    words = text.split()
    return words[1] if words[0].startswith("@") else words[0]


def hottest_loop(instructions, labels):
    best = []
    for end, (text, _) in enumerate(instructions):
        target = re.search(r"BRA `\((\.L_x_\d+)\)", text)
        if target and labels.get(target.group(1), end + 1) <= end:
            body = instructions[labels[target.group(1)] : end + 1]
            if sum(opcode(t).startswith("FFMA") for t, _ in body) > sum(
                opcode(t).startswith("FFMA") for t, _ in best
            ):
                best = body
    return best


def collides(text):
    sources = [s.strip() for s in text.split(None, 1)[1].split(",")[1:]]
    banks = []
    for source in sources:
        m = re.fullmatch(r"-?R(\d+)(\.reuse)?", source)
        if m and not m.group(2):
            banks.append(int(m.group(1)) % 2)
    return len(banks) > len(set(banks))


def loop_counts(instructions, labels):
    body = hottest_loop(instructions, labels)
    ffma = [t for t, _ in body if opcode(t).startswith("FFMA")]
    return len(body), len(ffma), sum(collides(t) for t in ffma), sum(s for _, s in body)


def short_name(mangled):
    name = subprocess.run(["c++filt"], input=mangled, capture_output=True, text=True).stdout.strip()
    name = re.sub(r"\(float const\*.*", "", name).replace("(anonymous namespace)::", "")
    name = re.sub(r"step06::WarpTiling<(\d+), (\d+),[^>]*>", r"\1x\2", name)
    name = re.sub(r"\(step06::Float4\)0", "all", name)
    name = re.sub(r"\(step06::Float4\)1", "b_and_c", name)
    name = re.sub(r"\(step06::Float4\)2", "none", name)
    return re.sub(r"void step0\d::", "", name)


def main(paths):
    # by demangled name: a kernel in an anonymous namespace is mangled with a hash of its file
    runs = [{short_name(k): v for k, v in read_kernels(p).items()} for p in paths]
    heading = " | ".join("instructions, FFMA, colliding, stall cycles" for _ in paths)
    print(f"| kernel | {heading} |")
    print("|---|" + "---:|" * len(paths))
    for name in runs[0]:
        cells = []
        for run in runs:
            counts = loop_counts(*run[name]) if name in run else None
            cells.append(" / ".join(map(str, counts)) if counts and counts[1] else "-")
        if any(c != "-" for c in cells):
            print(f"| `{name}` | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
