#!/usr/bin/env python3
"""Runs every benchmark with --rows and prints one table (tools/bench/ROWS.md), also as JSON.

    tools/bazel run -c opt //tools/bench:all [-- --json FILE] [--only NAME,...] [--fresh-clone]

Each benchmark measures its figure beside a baseline in the same run; this program only collects
the rows, adds the wall time of the warm gate (and, with --fresh-clone, of the gate's build and
run and of `tools/bazel test //...`, each on its own fresh clone of this workspace), and prints
them. Exit 0 when every row ran (a missed
floor is a verdict in the table, explained in its note), 1 when a benchmark failed to run.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

# name, program (runfiles path), arguments
BENCHMARKS = [
    ("envelope", "tools/bench/envelope_benchmark", ["--rows", "--benchmark_min_time=1"]),
    ("fake_api", "tools/bench/prices_server_load", ["--rows"]),
    ("fake_api_in_process", "tools/bench/price_api_benchmark", ["--rows"]),
    ("proxy", "tools/bench/proxy_latency", ["--rows"]),
    ("sandbox", "tools/bench/sandbox_overhead", ["--rows"]),
    ("stack", "tools/bench/stack_overhead", ["--rows"]),
]

COLUMNS = [("measure", 74), ("figure", 12), ("baseline", 12), ("ratio", 8), ("floor", 22),
           ("verdict", 7)]


def say(line):
    print(f"bench: {line}", file=sys.stderr, flush=True)


def run_benchmark(name, program, args):
    if not os.path.exists(program):
        return None, f"{program} is not built"
    say(f"running {name} ({program}) ...")
    started = time.monotonic()
    done = subprocess.run([program] + args, stdout=subprocess.PIPE, stderr=sys.stderr,
                          text=True, timeout=3600, check=False)
    say(f"running {name} ... {time.monotonic() - started:.0f} s, exit {done.returncode}")
    if done.returncode != 0:
        return None, f"{program} exited {done.returncode}"
    rows = []
    for line in done.stdout.splitlines():
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            return None, f"{program} printed a line that is not a row: {line[:80]!r}"
    return rows, None


def timed(command, cwd=None):
    started = time.monotonic()
    done = subprocess.run(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          timeout=3600, check=False)
    return time.monotonic() - started, done.returncode


def gate_row():
    say("running the gate (warm: already built), then again with --sequential ...")
    seconds, status = timed(["conformance/gate"])
    sequential, sequential_status = timed(["conformance/gate", "--sequential"])
    kind, _ = timed(["conformance/gate", "--suite", "kind"])
    return {"measure": "the gate, warm: every suite (`tools/bazel run //conformance:gate`)",
            "figure": round(seconds, 1), "unit": "s",
            "baseline": "the same gate with --sequential (every suite in turn), this run",
            "baseline_figure": round(sequential, 1), "ratio": round(seconds / sequential, 2),
            "ratio_meaning": "figure / baseline", "floor": "< 25 s",
            "verdict": "met" if seconds < 25 and status == 0 else "missed",
            "note": f"gate exit {status}, --sequential exit {sequential_status}; the kind suite "
                    f"alone (the cases in process): {kind:.1f} s"}


def in_fresh_clone(command, what):
    """Seconds and exit status of COMMAND in a fresh clone of this workspace (a new output base:
    nothing built; the repository cache of downloads is shared), or None outside `bazel run`."""
    workspace = os.environ.get("BUILD_WORKSPACE_DIRECTORY")
    if not workspace:
        return None
    with tempfile.TemporaryDirectory(prefix="bench-clone-") as tmp:
        clone = os.path.join(tmp, "clone")
        subprocess.run(["git", "clone", "-q", workspace, clone], check=True)
        say(f"running {what} on a fresh clone (minutes) ...")
        try:
            return timed(command, cwd=clone)
        finally:
            subprocess.run(["tools/bazel", "shutdown"], cwd=clone, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, check=False)


def fresh_clone_rows():
    """The gate and the fast test tier, each from its own fresh clone; None outside `bazel run`."""
    gate = in_fresh_clone(["tools/bazel", "run", "//conformance:gate"], "the gate")
    tests = in_fresh_clone(["tools/bazel", "test", "//..."], "`tools/bazel test //...`")
    if gate is None or tests is None:
        return None
    note = "exit {}; the Debian packages and the azmcp tarball were installed already (their " \
           "install is not timed), and only the repository cache of downloads was shared"
    return [
        {"measure": "the gate on a fresh clone: build and run (`tools/bazel run //conformance:gate`)",
         "figure": round(gate[0], 1), "unit": "s", "baseline": "the floor",
         "baseline_figure": 120, "ratio": round(gate[0] / 120, 2),
         "ratio_meaning": "figure / floor", "floor": "< 120 s",
         "verdict": "met" if gate[0] < 120 and gate[1] == 0 else "missed",
         "note": note.format(gate[1])},
        {"measure": "`tools/bazel test //...` on a fresh clone, packages installed",
         "figure": round(tests[0] / 60, 1), "unit": "min", "baseline": "the floor",
         "baseline_figure": 10, "ratio": round(tests[0] / 600, 2),
         "ratio_meaning": "figure / floor", "floor": "< 10 min",
         "verdict": "met" if tests[0] < 600 and tests[1] == 0 else "missed",
         "note": note.format(tests[1])},
    ]


def cell(row, column):
    if column == "figure":
        return f"{row['figure']:.4g} {row['unit']}"
    if column == "baseline":
        return f"{row['baseline_figure']:.4g}"
    if column == "ratio":
        return f"{row['ratio']:.2f}x"
    return str(row.get(column, ""))


def print_table(rows):
    print("  ".join(title.ljust(width) for title, width in COLUMNS))
    for row in rows:
        cells = [cell(row, c)[:w].ljust(w) for c, w in COLUMNS]
        print("  ".join(cells).rstrip())
    print()
    for n, row in enumerate(rows, 1):
        print(f"[{n}] {row['measure']}: baseline {row['baseline']}"
              + (f"; {row['note']}" if row.get("note") else ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="also write the rows as JSON to this file")
    parser.add_argument("--only", help="comma-separated benchmark names: " +
                        ", ".join(n for n, _, _ in BENCHMARKS) + ", gate")
    parser.add_argument("--fresh-clone", action="store_true",
                        help="also time the gate and `tools/bazel test //...`, each on a "
                             "fresh clone (minutes)")
    args = parser.parse_args()
    wanted = set(args.only.split(",")) if args.only else None
    rows, problems = [], []
    for name, program, bench_args in BENCHMARKS:
        if wanted is not None and name not in wanted:
            continue
        got, problem = run_benchmark(name, program, bench_args)
        if problem:
            problems.append(f"{name}: {problem}")
        else:
            rows += got
    if wanted is None or "gate" in wanted:
        rows.append(gate_row())
    if args.fresh_clone:
        fresh = fresh_clone_rows()
        if fresh is None:
            problems.append("--fresh-clone needs `tools/bazel run` (BUILD_WORKSPACE_DIRECTORY)")
        else:
            rows += fresh
    print_table(rows)
    for problem in problems:
        print(f"NOT RUN {problem}")
    if args.json:
        path = args.json if os.path.isabs(args.json) else os.path.join(
            os.environ.get("BUILD_WORKING_DIRECTORY", "."), args.json)
        with open(path, "w", encoding="utf-8") as out:
            json.dump({"rows": rows, "not_run": problems}, out, indent=2)
            out.write("\n")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
