#!/usr/bin/python3
"""`make load`: many real WebSocket clients against a real server, and the issue's targets.

For each reader count (--readers, default 500 then 1000), starts a fresh `forcelayout serve`
(release) on a free loopback port with no state file, then runs `forcelayout load`: its
clients spread over --processes threads (one libwebsockets context each, default: one per
core), speaking --protocol (default 2: binary frames, of which the tool reads only the
40-byte head). It adds the cells, sets threshold 0 and the tick rate so they keep moving,
opens the readers, the stalled clients (never read) and the slow readers (read at
--slow-fraction of the stream's bandwidth through a 4 KB receive buffer), warms up and
measures. Prints every JSON line (stderr) and a table of figures against the targets, which
apply to the first reader count; later counts are reported:

- the server keeps its tick rate (at least 95% of it),
- every reading client gets at least 95% of the frames,
- p99 tick-to-receive latency under 100 ms,
- a slow reader's frames are under 300 ms old at p99 (arrival of the whole frame minus `at`),
- server RSS grows less than 20 MB after warm-up,
- stalled clients are closed or coalesced (the server's memory says which: it does not grow).

Beside them, the server's CPU and the tool's own (user + system seconds per second, from
/proc) and the whole machine's busy cores, and which of them set the limit.

Exit status 0 when every target is met, 1 otherwise, 2 when a run itself failed.
Environment: FORCELAYOUT_BIN (default .build/release/forcelayout; relative to the checkout).
Stdlib only.
"""

import argparse
import json
import os
import subprocess
import sys
import time

import common
from common import RunningServer, ServerDidNotStart


class RunFailed(Exception):
    pass


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--readers", type=common.int_list, default=[500, 1000],
                        help="reading clients, one run each (default 500,1000; targets apply to the first)")
    parser.add_argument("--stalled", type=int, default=5)
    parser.add_argument("--slow", type=int, default=1)
    parser.add_argument("--slow-fraction", type=common.positive_float, default=0.25)
    parser.add_argument("--cells", type=common.positive_int, default=2000)
    parser.add_argument("--tick-rate", type=common.positive_float, default=20)
    parser.add_argument("--seconds", type=common.positive_float, default=60)
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument("--protocol", type=int, choices=[1, 2], default=2)
    parser.add_argument("--processes", type=common.positive_int, default=os.cpu_count() or 1,
                        help="threads of the load tool (default: one per core)")
    return parser.parse_args()


def measure(binary, args, readers):
    """One fresh server, one `forcelayout load`: (its figures, the server's log, alive at the end)."""
    clients = readers + args.stalled + args.slow
    try:
        # Its log goes to a file: the server never waits for us to read it.
        server = RunningServer("--max-clients", str(clients + 10), "--max-connections-per-address", str(clients + 64),
                               binary=binary, log_file=True)
    except ServerDidNotStart as error:
        raise RunFailed(f"the server did not start: {error}")
    command = [str(binary), "load", "--url", server.ws, "--server-pid", str(server.pid),
               "--protocol", str(args.protocol), "--processes", str(args.processes),
               "--clients", str(readers), "--stalled", str(args.stalled), "--slow", str(args.slow),
               "--slow-fraction", str(args.slow_fraction), "--cells", str(args.cells),
               "--tick-rate", str(args.tick_rate), "--seconds", str(args.seconds), "--warmup", str(args.warmup)]
    with server:  # at the end, its log file is removed
        try:
            run = subprocess.run(command, capture_output=True, text=True, timeout=args.seconds + args.warmup + 180)
            alive = server.process.poll() is None
        except subprocess.TimeoutExpired:
            raise RunFailed(f"forcelayout load did not finish: {' '.join(command)}")
        finally:
            server.shutdown(timeout=15)
        # What the server did with the clients that never read: the load tool cannot see it
        # (it does not read their sockets), the server's log and its client count can.
        log = server.log
    if run.returncode != 0 or not run.stdout.strip():
        raise RunFailed(f"forcelayout load failed ({run.returncode}): {run.stderr.strip()[-2000:]}")
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    print(json.dumps(figures, sort_keys=True), file=sys.stderr)
    return figures, log, alive


def limit(figures, processes):
    """Which of the server, the tool and the machine set the ceiling, from their CPU."""
    server = figures.get("serverProcess", {}).get("cpuCores", float("nan"))
    tool = figures.get("loadToolCPUCores", float("nan"))
    busy = figures.get("machineBusyCores", float("nan"))
    cores = os.cpu_count() or 1
    if tool >= 0.85 * processes:
        return "the load tool (every thread busy)"
    if busy >= 0.9 * cores:
        others = busy - server - tool
        return f"the machine: all {cores} cores busy ({others:.2f} of them by other processes)"
    if server >= 0.85:
        return "the server (a core busy)"
    return "no CPU limit: neither the tool nor the server kept its cores busy, and the machine had idle time"


def rows_of(figures, log, alive, args, readers, targets):
    """The table's rows for one run; `targets`: whether its misses count."""
    tag = f"[{readers} readers]"
    mark = (lambda ok: ok) if targets else (lambda ok: None)
    rate = figures.get("serverTicksPerSecond", 0)
    delivered = figures.get("delivered", {})
    latency = figures["latencyMs"]
    slow = figures.get("slow")
    rows = [
        (f"{tag} server ticks/s", f"{rate:.2f}", f"≥ {0.95 * args.tick_rate:g}", mark(rate >= 0.95 * args.tick_rate)),
        (f"{tag} frames/s per reader (min / median)",
         f"{figures['framesPerSecond']['min']:.2f} / {figures['framesPerSecond']['median']:.2f}", "", None),
        (f"{tag} share of frames, worst / median reader",
         f"{delivered.get('min', 0):.1%} / {delivered.get('median', 0):.1%}", "≥ 95%", mark(delivered.get("min", 0) >= 0.95)),
        (f"{tag} latency p50 / p99 / max (ms)", f"{latency['p50']:.1f} / {latency['p99']:.1f} / {latency['max']:.0f}",
         "p99 < 100", mark(latency["p99"] < 100)),
    ]
    if slow:
        age = slow["frameAgeMs"]
        rows += [
            (f"{tag} slow reader ({args.slow_fraction:g} of the bandwidth): frame age p50 / p99 (ms)",
             f"{age['p50']:.0f} / {age['p99']:.0f}", "p99 < 300", mark(age["samples"] > 0 and age["p99"] < 300)),
            (f"{tag} slow reader: frame age when its first bytes arrived, p50 / p99 (ms)",
             f"{slow['frameAgeAtStartMs']['p50']:.0f} / {slow['frameAgeAtStartMs']['p99']:.0f}", "", None),
            (f"{tag} slow reader: frames/s, share of a reader's bytes",
             f"{slow['framesPerSecond']['median']:.2f}, {slow.get('shareOfReaderBandwidth', 0):.2f}", "", None),
        ]
    return rows + resource_rows(figures, log, alive, args, readers, targets)


def resource_rows(figures, log, alive, args, readers, targets):
    """CPU, memory, errors, the stalled clients and the server's survival, for one run."""
    tag = f"[{readers} readers]"
    mark = (lambda ok: ok) if targets else (lambda ok: None)
    expected = readers + args.stalled + args.slow + 1  # + the control connection
    connected_at_end = figures.get("serverClients", 0)
    too_slow = log.count("events behind: closing with 1008")
    growth = figures.get("serverRSSMB", {}).get("growth", float("inf"))
    server = figures.get("serverProcess", {})
    return [
        (f"{tag} throughput (MB/s, all readers)", f"{figures['bytesPerSecond'] / 1e6:.1f}", "", None),
        (f"{tag} CPU (cores): server / load tool ({figures.get('processes', 1)} threads) / whole machine of {os.cpu_count()}",
         f"{server.get('cpuCores', float('nan')):.2f} / {figures.get('loadToolCPUCores', float('nan')):.2f} / "
         f"{figures.get('machineBusyCores', float('nan')):.2f}", "", None),
        (f"{tag} the limit", limit(figures, figures.get("processes", 1)), "not the tool",
         mark(figures.get("loadToolCPUCores", 0) < 0.85 * figures.get("processes", 1))),
        (f"{tag} server RSS before → after (MB)",
         f"{figures['serverRSSMB']['before']:.1f} → {figures['serverRSSMB']['after']:.1f} ({growth:+.1f})",
         "growth < 20", mark(growth < 20)),
        (f"{tag} errors / failed connects / readers closed",
         f"{figures['errors']} / {figures['connectFailures']} / {figures['readersClosed']}", "all 0",
         mark(figures["errors"] == 0 and figures["connectFailures"] == 0 and figures["readersClosed"] == 0)),
        (f"{tag} stalled clients", f"{expected - connected_at_end} of {figures['stalled']} dropped by the server by the end"
         + (f" ({too_slow} as too slow, 1008)" if too_slow else " (keepalive: no pong within 60 s)"
            if expected > connected_at_end else ", frames coalesced"),
         "closed or coalesced", mark(connected_at_end >= readers + args.slow + 1)),
        (f"{tag} server alive at the end", "yes" if alive else "NO", "yes", mark(alive)),
    ]


def main():
    args = parse_args()
    binary = common.find_binary("release")
    if not binary.exists():
        print(f"load: {binary} is missing (swift build -c release)", file=sys.stderr)
        return 2
    print(common.header("forcelayout load"))
    print(f"protocol v{args.protocol}, {args.cells} moving cells at {args.tick_rate:g} Hz; readers "
          f"{', '.join(map(str, args.readers))} (one run each) + {args.stalled} stalled + {args.slow} slow "
          f"({args.slow_fraction:g} of the bandwidth); {args.processes} load threads; "
          f"{args.warmup:g} s warm-up, {args.seconds:g} s measured")
    started = time.monotonic()
    rows, failed = [], []
    for index, readers in enumerate(args.readers):
        try:
            rows += rows_of(*measure(binary, args, readers), args, readers, targets=index == 0)
        except RunFailed as error:
            print(f"load: {readers} readers: {error}", file=sys.stderr)
            failed.append(readers)
    print()
    print("| figure | measured | target | |")
    print("|---|---:|---|:---:|")
    for name, value, target, ok in rows:
        verdict = "–" if ok is None else "ok" if ok else "MISSED"
        print(f"| {name} | {value} | {target if ok is not None or not target else target + ' (reported)'} | {verdict} |")
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"\ntotal {time.monotonic() - started:.0f} s; load average at the end {load}")
    if failed:
        print(f"could not measure: {', '.join(map(str, failed))} readers", file=sys.stderr)
        return 2
    return 0 if all(ok is not False for *_, ok in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
