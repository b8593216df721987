#!/usr/bin/env python3
"""Runs the GoogleTest cases that ctest selects, a few dozen to a process instead of one each.

Usage: run_by_program.py -- <ctest arguments that select the tests>

CTest runs every GoogleTest case in a process of its own. Under the sanitizers a process costs
about a third of a second before its test starts (the instrumented program and the HIP CPU
Runtime's threads starting, the leak check at exit), which for 1,440 short kernel tests was about
two thirds of CI's sanitizer run. This script asks ctest which tests the arguments select
(`ctest -N --show-only=json-v1`), runs each test program once per chunk of at most 60 of its
selected cases (`--gtest_filter=A:B:...`) in the program's working directory, two programs at a
time (the machine's two cores), and checks that every chunk ran exactly the cases it was given
and that all of them passed or were skipped.
Tests that ctest must judge itself (any property beyond labels, working directory, the skip
pattern and RUN_SERIAL) go back to ctest by name, 50 names to a run, each run checked to have run
exactly those tests; RUN_SERIAL chunks run last, one at a time.
A failing chunk prints its whole output (the sanitizer's report names the kernel and line), and
the script exits 1.
"""
import json
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

PLAIN = {"LABELS", "WORKING_DIRECTORY", "SKIP_REGULAR_EXPRESSION", "RUN_SERIAL"}
FILTER = "--gtest_filter="
RAN = re.compile(r"^\[==========\] (\d+) tests? from \d+ test suites? ran\.", re.M)
# A skipped case as it ran (not the summary's list of them): its name and what GTEST_SKIP() said.
SKIPPED = re.compile(r"^\[ RUN      \] (\S+)\n(.*?)^\[  SKIPPED \] \1 \(", re.M | re.S)
CHUNK = 60
CTEST_NAMES = 50
CTEST_RAN = re.compile(r"tests? failed out of (\d+)")
JOBS = 2
TIMEOUT_S = 1500  # a chunk may take as long as ctest's default lets one test take


def plan(ctest_args):
    listing = subprocess.run(["ctest", *ctest_args, "-N", "--show-only=json-v1"], check=True,
                             capture_output=True, text=True)
    groups = {}  # (program, working directory, serial) -> gtest names, in ctest's order
    by_ctest = []
    for test in json.loads(listing.stdout)["tests"]:
        props = {p["name"]: p["value"] for p in test.get("properties", [])}
        command = test.get("command", [])
        gtest_case = (len(command) == 3 and command[1].startswith(FILTER) and
                      command[2] == "--gtest_also_run_disabled_tests")
        if not gtest_case or set(props) - PLAIN:
            by_ctest.append(test["name"])
            continue
        key = (command[0], props.get("WORKING_DIRECTORY", "."), bool(props.get("RUN_SERIAL")))
        groups.setdefault(key, []).append(command[1][len(FILTER):])
    return groups, by_ctest


def reason(body):
    """The first line GoogleTest printed after "file:line: Skipped" in a skipped case's output."""
    said = body.split(": Skipped\n", 1)[-1].strip() if ": Skipped\n" in body else ""
    return said.splitlines()[0] if said else "(no reason given)"


def run_chunk(program, directory, names):
    started = time.monotonic()
    try:
        done = subprocess.run([program, FILTER + ":".join(names)], cwd=directory,
                              capture_output=True, text=True, timeout=TIMEOUT_S)
        output, code = done.stdout + done.stderr, done.returncode
    except subprocess.TimeoutExpired as expired:
        output = (expired.stdout or b"").decode(errors="replace") + f"\ntimed out after {TIMEOUT_S} s"
        code = -1
    ran = RAN.search(output)
    count = int(ran.group(1)) if ran else -1
    skipped = [f"{name}: {reason(body)}" for name, body in SKIPPED.findall(output)]
    ok = code == 0 and count == len(names)
    return ok, output, count, skipped, time.monotonic() - started


def main():
    ctest_args = [a for a in sys.argv[1:] if a != "--"]
    groups, by_ctest = plan(ctest_args)

    chunks = []  # (serial, program, directory, names)
    for (program, directory, serial), names in groups.items():
        count = -(-len(names) // CHUNK)
        size = -(-len(names) // count)
        for first in range(0, len(names), size):
            chunks.append((serial, program, directory, names[first:first + size]))
    chunks.sort(key=lambda c: (c[0], -len(c[3])))  # the biggest first, RUN_SERIAL ones last
    total = sum(len(c[3]) for c in chunks)
    print(f"{total} tests in {len(chunks)} processes of {len(groups)} programs, "
          f"{JOBS} at a time; {len(by_ctest)} through ctest", flush=True)

    failed, skipped = [], []

    def report(chunk, result):
        serial, program, _, names = chunk
        ok, output, count, skips, seconds = result
        skipped.extend(skips)
        name = os.path.basename(program)
        state = "passed" if ok else f"FAILED (ran {count} of {len(names)})"
        print(f"{name}: {len(names)} tests from {names[0]} {state}, {len(skips)} skipped, "
              f"{seconds:.1f} s{' (alone)' if serial else ''}", flush=True)
        if not ok:
            failed.append(f"{name}: {names[0]} ... {names[-1]}")
            print(output, flush=True)

    parallel = [c for c in chunks if not c[0]]
    with ThreadPoolExecutor(max_workers=JOBS) as pool:
        for chunk, result in zip(parallel, pool.map(lambda c: run_chunk(*c[1:]), parallel)):
            report(chunk, result)
    for chunk in (c for c in chunks if c[0]):
        report(chunk, run_chunk(*chunk[1:]))

    # A few dozen names to a ctest run: CTest refuses a longer -R pattern ("Expression too big")
    # and then runs no test at all, so each run must also say that it ran exactly its names.
    for first in range(0, len(by_ctest), CTEST_NAMES):
        names = by_ctest[first:first + CTEST_NAMES]
        pattern = "|".join("^" + re.sub(r"([][.*+?^$()|\\])", r"\\\1", n) + "$" for n in names)
        done = subprocess.run(["ctest", *ctest_args, "--output-on-failure", "-R", pattern],
                              capture_output=True, text=True)
        print(done.stdout + done.stderr, flush=True)
        ran = CTEST_RAN.search(done.stdout)
        if done.returncode or not ran or int(ran.group(1)) != len(names):
            failed.append(f"ctest: {names[0]} ... {names[-1]} "
                          f"(ran {ran.group(1) if ran else 0} of {len(names)})")

    for name in skipped:
        print(f"skipped: {name}")
    if failed:
        print(f"FAILED: {len(failed)} of {len(chunks)} processes or of the ctest runs:")
        for line in failed:
            print(f"  {line}")
        return 1
    print(f"all {total} tests passed or were skipped ({len(skipped)} skipped), "
          f"and {len(by_ctest)} through ctest")
    return 0


if __name__ == "__main__":
    sys.exit(main())
