#!/usr/bin/python3
"""`make bench`: forcelayout against d3-force, same sizes, same tick counts, interleaved.

For every size, REPS rounds of [forcelayout bench, d3-force.js] (each a fresh process, ours
first), the median of each engine's per-run msPerTick across the rounds, and a Markdown
table with d3 / ours. Then forcelayout alone from the seeded start until it settles, with
default parameters and with --collide, and a second table.

Raw JSON lines go to stderr as they arrive; the tables go to stdout. Exit status: 0 when
everything ran and passed, 1 when a command failed, printed no JSON, reported something
other than what was asked, did not settle, or left overlapping pairs with --collide,
2 when the binaries are missing or the arguments are wrong.

Environment: FORCELAYOUT_BIN (default .build/release/forcelayout, relative to the
checkout), NODE (default node), NODE_PATH (default /usr/share/nodejs), BENCH_REPS
(default 3), BENCH_TIMEOUT (seconds per command, default 600). Stdlib only.
"""

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

import common
from common import int_list, positive_int

ROOT = Path(__file__).resolve().parent.parent
D3_SCRIPT = ROOT / "bench" / "d3-force.js"

DEFAULT_SIZES = (1000, 10000, 100000, 1000000)
# Ticks per size, the same for both engines. d3-force needs ~2 ms/tick at 1k, ~50 ms at
# 10k and ~1.3 s at 100k on the 2-core CI box, so a round costs about 0.5 s, 3 s and 14 s
# for d3; three rounds plus ours stay within a couple of minutes. Above D3_MAX_SIZE only
# ours runs (d3 would take ~20 s a tick at 1M).
TICKS = {1000: 200, 10000: 50, 100000: 10, 1000000: 3}
D3_MAX_SIZE = 100000
# Issue 12's engine targets: (cells, most ms/tick, least d3 / ours); and the RSS cap at 1M.
SPEED_TARGETS = ((100000, 25.0, 50.0), (10000, None, 25.0))
RSS_TARGET = (1000000, 500.0)
# The frame targets: a 100k-cell v2 frame encoded in under 1 ms; at most 4.05 bytes a cell.
V2_TARGETS = (100000, 1.0, 4.05)
THETA = 0.9  # d3's forceManyBody default; passed to both explicitly
SETTLE_CAP = 5000
SETTLE_MAX_SIZE = 10000
NUMBER = object()  # in an `expect` map: the key must hold a number >= 0
BOOL = object()    # the key must hold true or false


def ticks_for(cells):
    if cells in TICKS:
        return TICKS[cells]
    return max(5, min(200, round(200_000 / cells)))


def parse_args(argv):
    parser = argparse.ArgumentParser(
        description="Benchmark forcelayout against d3-force (see bench/README.md).")
    env_reps = os.environ.get("BENCH_REPS")
    if env_reps:
        try:
            env_reps = positive_int(env_reps)
        except argparse.ArgumentTypeError as error:
            parser.error(f"BENCH_REPS={os.environ['BENCH_REPS']}: {error}")
    parser.add_argument("--sizes", type=int_list, default=list(DEFAULT_SIZES),
                        help="cell counts for the speed table (default 1000,10000,100000,1000000)")
    parser.add_argument("--reps", type=positive_int,
                        default=env_reps or 3,
                        help="interleaved rounds per size (default 3, or $BENCH_REPS)")
    parser.add_argument("--ticks", type=positive_int, default=None,
                        help="ticks per run for every size (default 200/50/10/3 for 1k/10k/100k/1M)")
    parser.add_argument("--seed", type=int, default=1,
                        help="seed of round 1; round k uses seed+k-1 (default 1)")
    parser.add_argument("--settle-sizes", type=int_list, default=None,
                        help="cell counts for the settle table (default: the --sizes up to 10000;"
                             " empty to skip)")
    parser.add_argument("--no-settle", action="store_true", help="skip the settle table")
    parser.add_argument("--no-d3", action="store_true", help="run our engine only")
    parser.add_argument("--quiet", action="store_true",
                        help="do not echo the raw JSON lines to stderr")
    args = parser.parse_args(argv)
    if args.settle_sizes is None:
        args.settle_sizes = [size for size in args.sizes if size <= SETTLE_MAX_SIZE]
    if args.no_settle:
        args.settle_sizes = []
    return args


class Bench:
    def __init__(self, args):
        self.args = args
        self.failures = []
        self.warnings = []
        self.bin = common.find_binary("release")
        self.node = os.environ.get("NODE", "node")
        try:
            self.timeout = float(os.environ.get("BENCH_TIMEOUT", "600"))
        except ValueError:
            print(f"bench: BENCH_TIMEOUT={os.environ['BENCH_TIMEOUT']} is not a number",
                  file=sys.stderr)
            sys.exit(2)
        self.env = dict(os.environ)
        self.env.setdefault("NODE_PATH", "/usr/share/nodejs")

    def log(self, text):
        if not self.args.quiet:
            print(text, file=sys.stderr, flush=True)

    def check_tools(self):
        problems = []
        if not (self.bin.is_file() and os.access(self.bin, os.X_OK)):
            problems.append(f"no executable forcelayout at {self.bin} "
                            "(build it: swift build -c release --product forcelayout, "
                            "or set FORCELAYOUT_BIN)")
        if not self.args.no_d3 and self.args.sizes:
            if shutil.which(self.node) is None:
                problems.append(f"no node ({self.node}); install nodejs or set NODE")
            else:
                probe = subprocess.run(
                    [self.node, "-e", "require('d3-force')"], env=self.env,
                    capture_output=True, text=True)
                if probe.returncode != 0:
                    reason = next((line.strip() for line in probe.stderr.splitlines()
                                   if "Error" in line), last_line(probe.stderr))
                    problems.append("node cannot load d3-force (install node-d3-force, "
                                    f"NODE_PATH={self.env['NODE_PATH']}): {reason}")
        return problems

    def run(self, label, command, expect):
        """Runs one command; returns its JSON object, or None after recording a failure."""
        shown = " ".join(str(part) for part in command)
        started = time.monotonic()
        try:
            # Own session, so a timeout ends the command and anything it started.
            process = subprocess.Popen([str(part) for part in command], env=self.env,
                                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, text=True,
                                       start_new_session=True)
        except OSError as error:
            return self.fail(label, shown, f"could not start: {error}")
        try:
            stdout, stderr = process.communicate(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            process.communicate()
            return self.fail(label, shown, f"timed out after {self.timeout:g} s")
        except KeyboardInterrupt:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            raise
        done = subprocess.CompletedProcess(command, process.returncode, stdout, stderr)
        wall = time.monotonic() - started
        if done.returncode != 0:
            return self.fail(label, shown, f"exit status {done.returncode}: "
                             + (last_line(done.stderr) or last_line(done.stdout) or "no output"))
        result = last_json_object(done.stdout)
        if result is None:
            return self.fail(label, shown, "printed no JSON object on stdout"
                             + (f" (last line: {last_line(done.stdout)!r})"
                                if done.stdout.strip() else ""))
        self.log(f"[{label}] {json.dumps(result, separators=(',', ':'))}  ({wall:.1f} s wall)")
        for key, wanted in expect.items():
            if key not in result:
                return self.fail(label, shown, f"JSON has no {key!r}: {json.dumps(result)}")
            if wanted is NUMBER:
                value = result[key]
                if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                    return self.fail(label, shown, f"JSON {key}={value!r} is not a number >= 0")
            elif wanted is BOOL:
                if not isinstance(result[key], bool):
                    return self.fail(label, shown, f"JSON {key}={result[key]!r} is not a boolean")
            elif result[key] != wanted:
                return self.fail(label, shown,
                                 f"JSON says {key}={result[key]!r}, expected {wanted!r}")
        return result

    def fail(self, label, shown, reason):
        message = f"{label}: {reason}\n    command: {shown}"
        self.failures.append(message)
        print(f"FAILED {label}: {reason}", file=sys.stderr, flush=True)
        return None

    def speed(self):
        rows = []
        for cells in self.args.sizes:
            ticks = self.args.ticks or ticks_for(cells)
            ours, d3 = [], []
            for rep in range(self.args.reps):
                seed = self.args.seed + rep
                tag = f"{cells} cells, round {rep + 1}/{self.args.reps}"
                result = self.run(
                    f"forcelayout {tag}",
                    [self.bin, "bench", "--cells", cells, "--ticks", ticks,
                     "--theta", THETA, "--seed", seed],
                    {"engine": "forcelayout", "cells": cells, "ticks": ticks,
                     "msPerTick": NUMBER})
                if result is not None:
                    ours.append(result)
                    if "theta" in result and result["theta"] != THETA:
                        self.warnings.append(f"forcelayout reported theta {result['theta']}, "
                                             f"d3-force runs with {THETA}")
                    if result.get("collide"):
                        self.warnings.append("forcelayout reported collide true in a speed run")
                if self.args.no_d3 or cells > D3_MAX_SIZE:
                    continue
                result = self.run(
                    f"d3-force {tag}",
                    [self.node, D3_SCRIPT, "--cells", cells, "--ticks", ticks,
                     "--theta", THETA, "--seed", seed],
                    {"engine": "d3-force", "cells": cells, "ticks": ticks,
                     "msPerTick": NUMBER})
                if result is not None:
                    d3.append(result)
            rows.append((cells, ticks, ours, d3))
        return rows

    def settle(self):
        rows = []
        for collide in (False, True):
            for cells in self.args.settle_sizes:
                command = [self.bin, "bench", "--settle", "--cells", cells,
                           "--ticks", SETTLE_CAP, "--seed", self.args.seed]
                if collide:
                    command.append("--collide")
                label = f"forcelayout settle {cells} cells{' --collide' if collide else ''}"
                result = self.run(label, command,
                                  {"engine": "forcelayout", "mode": "settle", "cells": cells,
                                   "collide": collide, "settled": BOOL,
                                   "settleSteps": NUMBER, "settleSeconds": NUMBER,
                                   "overlaps": NUMBER})
                rows.append((cells, collide, result))
                if result is None:
                    continue
                if result["settled"] is not True:
                    self.fail(label, " ".join(map(str, command)),
                              f"did not settle within {SETTLE_CAP} steps")
                elif collide and result["overlaps"] != 0:
                    self.fail(label, " ".join(map(str, command)),
                              f"{result['overlaps']} overlapping pairs at rest with --collide "
                              "(must be 0)")
        return rows


def last_line(text):
    lines = [line for line in (text or "").strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else ""


def last_json_object(text):
    for line in reversed(text.strip().splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                value = json.loads(line)
            except ValueError:
                continue
            if isinstance(value, dict):
                return value
    return None


def median_of(results, key):
    values = [r[key] for r in results if isinstance(r.get(key), (int, float))]
    return statistics.median(values) if values else None


def max_of(results, key):
    values = [r[key] for r in results if isinstance(r.get(key), (int, float))]
    return max(values) if values else None


def ms(value):
    if value is None:
        return "—"
    if value >= 100:
        return f"{value:.0f}"
    if value >= 10:
        return f"{value:.1f}"
    if value >= 0.1:
        return f"{value:.2f}"
    return f"{value:.3f}"


def number(value, digits=1):
    return "—" if value is None else f"{value:.{digits}f}"


def header():
    return common.header("forcelayout bench")


def print_speed(rows, reps):
    print("| cells | ticks | forcelayout ms/tick | d3-force ms/tick | d3 / ours "
          "| encode ms | bytes/cell | v2 encode ms | v2 bytes/cell | RSS MB |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for cells, ticks, ours, d3 in rows:
        our_ms, d3_ms = median_of(ours, "msPerTick"), median_of(d3, "msPerTick")
        ratio = f"{d3_ms / our_ms:.2f}×" if our_ms and d3_ms else "—"
        print(f"| {cells} | {ticks} | {ms(our_ms)} | {ms(d3_ms)} | {ratio} "
              f"| {ms(median_of(ours, 'encodeMs'))} | {number(median_of(ours, 'bytesPerCell'))} "
              f"| {ms(median_of(ours, 'v2EncodeMs'))} | {number(median_of(ours, 'v2BytesPerCell'), 3)} "
              f"| {number(max_of(ours, 'rssMB'))} |")
    print()
    print(f"ms/tick: median over the ticks of one run, then median over {reps} interleaved "
          "round(s). encode ms, bytes/cell: forcelayout, one frame in v1 (JSON) and in v2 (binary), "
          "the membership unchanged. RSS MB: peak of "
          "forcelayout (d3-force's below).")
    for cells, _, ours, d3 in rows:
        spread = lambda results: " ".join(ms(r["msPerTick"]) for r in results) or "—"
        print(f"- {cells}: forcelayout {spread(ours)}; d3-force {spread(d3)} "
              f"(d3 RSS {number(max_of(d3, 'rssMB'))} MB)")


def print_targets(rows):
    """The engine targets of issue 12 that this run measured, each ok or MISSED."""
    by_size = {cells: (median_of(ours, "msPerTick"), median_of(d3, "msPerTick"), max_of(ours, "rssMB"))
               for cells, _, ours, d3 in rows}
    lines = []
    for cells, most_ms, least_ratio in SPEED_TARGETS:
        if cells not in by_size or not by_size[cells][0]:
            continue
        our_ms, d3_ms, _ = by_size[cells]
        if most_ms is not None:
            lines.append((f"{cells} cells under {most_ms:g} ms/tick", f"{our_ms:.2f} ms", our_ms < most_ms))
        if d3_ms:
            ratio = d3_ms / our_ms
            lines.append((f"{cells} cells at least {least_ratio:g}x d3-force", f"{ratio:.1f}x", ratio >= least_ratio))
    cells, most_mb = RSS_TARGET
    if cells in by_size and by_size[cells][0]:
        our_ms, _, rss = by_size[cells]
        lines.append((f"{cells} cells: ms/tick reported, RSS under {most_mb:g} MB",
                      f"{our_ms:.1f} ms, {rss:.0f} MB", rss is not None and rss < most_mb))
    cells, most_ms, most_bytes = V2_TARGETS
    if cells in by_size:
        ours = next(results for size, _, results, _ in rows if size == cells)
        encode, per_cell = median_of(ours, "v2EncodeMs"), median_of(ours, "v2BytesPerCell")
        if encode is not None:
            lines.append((f"{cells}-cell v2 frame encoded under {most_ms:g} ms", f"{encode:.2f} ms", encode < most_ms))
        if per_cell is not None:
            lines.append((f"v2 bytes a cell at most {most_bytes:g}", f"{per_cell:.3f}", per_cell <= most_bytes))
    if lines:
        print("| engine target | measured | |")
        print("|---|---:|---|")
        for target, measured, met in lines:
            print(f"| {target} | {measured} | {'ok' if met else 'MISSED'} |")


def print_settle(rows):
    print("| cells | collide | settled | steps | seconds | overlapping pairs at rest |")
    print("|---:|:---:|:---:|---:|---:|---:|")
    for cells, collide, result in rows:
        if result is None:
            print(f"| {cells} | {'yes' if collide else 'no'} | failed | — | — | — |")
            continue
        settled = "yes" if result.get("settled") is True else f"no (cap {SETTLE_CAP})"
        seconds = result.get("settleSeconds")
        print(f"| {cells} | {'yes' if collide else 'no'} | {settled} "
              f"| {result.get('settleSteps', '—')} "
              f"| {f'{seconds:.2f}' if isinstance(seconds, (int, float)) else '—'} "
              f"| {result.get('overlaps', '—')} |")
    print()
    print(f"From the seeded start (seed as round 1) until no cell moves `threshold` in a step, "
          f"at most {SETTLE_CAP} steps; default parameters, and with --collide, where the "
          "overlapping pairs at rest must be 0.")


def main(argv):
    args = parse_args(argv)
    bench = Bench(args)
    problems = bench.check_tools()
    if problems:
        for problem in problems:
            print(f"bench: {problem}", file=sys.stderr)
        return 2

    print(header(), flush=True)
    print(f"forcelayout: {bench.bin}; d3-force: {bench.node} {D3_SCRIPT.relative_to(ROOT)}, "
          f"NODE_PATH={bench.env['NODE_PATH']}; theta {THETA}, charge + center, "
          "seeded uniform start (bench/README.md)", flush=True)
    started = time.monotonic()
    speed_rows = bench.speed() if args.sizes else []
    settle_rows = bench.settle() if args.settle_sizes else []

    if speed_rows:
        print()
        print_speed(speed_rows, args.reps)
        print()
        print_targets(speed_rows)
    if settle_rows:
        print()
        print_settle(settle_rows)
    print()
    for warning in dict.fromkeys(bench.warnings):
        print(f"warning: {warning}")
    print(f"total {time.monotonic() - started:.0f} s, load {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if bench.failures:
        print(f"\n{len(bench.failures)} failure(s):", file=sys.stderr)
        for failure in bench.failures:
            print(f"- {failure}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
