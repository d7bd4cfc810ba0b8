#!/usr/bin/python3
"""`make load`: many real WebSocket clients against a real server, and the issue's targets.

Starts `forcelayout serve` (release) on a free loopback port with no state file, then runs
`forcelayout load` (libwebsockets clients in one process): it adds the cells, sets threshold
0 so they keep moving at the tick rate, opens the readers and the stalled clients, warms up
and measures. Prints the JSON line and a table of figures against the targets:

- the server keeps its tick rate (20/s by default; at least 95% of it),
- every reading client gets at least 95% of the frames,
- p99 tick-to-receive latency under 50 ms,
- server RSS grows less than 20 MB after warm-up,
- stalled clients are closed or coalesced (the server's memory says which: it does not grow).

Exit status 0 when every target is met, 1 otherwise, 2 when the run itself failed.
Environment: FORCELAYOUT_BIN (default .build/release/forcelayout; relative to the checkout).
Stdlib only.
"""

import argparse
import json
import subprocess
import sys
import time

import common
from common import RunningServer, ServerDidNotStart


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--stalled", type=int, default=5)
    parser.add_argument("--cells", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--warmup", type=float, default=5)
    args = parser.parse_args()

    binary = common.find_binary("release")
    if not binary.exists():
        print(f"load: {binary} is missing (swift build -c release)", file=sys.stderr)
        return 2
    print(common.header("forcelayout load"))
    print(f"{args.clients} reading + {args.stalled} stalled clients, {args.cells} moving cells, "
          f"{args.warmup:g} s warm-up, {args.seconds:g} s measured")

    try:
        # Its log goes to a file: the server never waits for us to read it.
        server = RunningServer("--max-clients", str(args.clients + args.stalled + 10),
                               "--max-connections-per-address", str(args.clients + args.stalled + 64),
                               binary=binary, log_file=True)
    except ServerDidNotStart as error:
        print(f"load: the server did not start: {error}", file=sys.stderr)
        return 2
    with server:  # at the end, its log file is removed
        try:
            started = time.monotonic()
            run = subprocess.run([str(binary), "load", "--url", server.ws, "--clients", str(args.clients),
                                  "--stalled", str(args.stalled), "--cells", str(args.cells), "--seconds", str(args.seconds),
                                  "--warmup", str(args.warmup)], capture_output=True, text=True,
                                 timeout=args.seconds + args.warmup + 120)
            if run.returncode != 0 or not run.stdout.strip():
                print(f"load: forcelayout load failed ({run.returncode}): {run.stderr.strip()}", file=sys.stderr)
                return 2
            figures = json.loads(run.stdout.strip().splitlines()[-1])
            alive = server.process.poll() is None
        finally:
            server.shutdown(timeout=15)
        # What the server did with the clients that never read: the load tool cannot see it
        # (it does not read their sockets), the server's log and its client count can.
        log = server.log
    print(json.dumps(figures, sort_keys=True), file=sys.stderr)
    too_slow = log.count("events behind: closing with 1008")
    connected_at_end = figures.get("serverClients", 0)
    expected = args.clients + args.stalled + 1  # + the control connection

    rate = figures.get("serverTicksPerSecond", 0)
    delivered = figures.get("delivered", {}).get("min", 0)
    p99 = figures["latencyMs"]["p99"]
    growth = figures.get("serverRSSMB", {}).get("growth", float("inf"))
    rows = [
        ("server ticks/s", f"{rate:.2f}", "≥ 19 (20 Hz)", rate >= 19),
        ("frames/s per reader (min / median)",
         f"{figures['framesPerSecond']['min']:.2f} / {figures['framesPerSecond']['median']:.2f}", "", True),
        ("share of frames, worst reader", f"{delivered:.1%}", "≥ 95%", delivered >= 0.95),
        ("latency p50 / p99 (ms)", f"{figures['latencyMs']['p50']:.1f} / {p99:.1f}", "p99 < 50", p99 < 50),
        ("throughput (MB/s, all readers)", f"{figures['bytesPerSecond'] / 1e6:.1f}", "", True),
        ("server RSS before → after (MB)",
         f"{figures['serverRSSMB']['before']:.1f} → {figures['serverRSSMB']['after']:.1f} ({growth:+.1f})", "growth < 20", growth < 20),
        ("errors / failed connects / readers closed",
         f"{figures['errors']} / {figures['connectFailures']} / {figures['readersClosed']}", "all 0",
         figures["errors"] == 0 and figures["connectFailures"] == 0 and figures["readersClosed"] == 0),
        ("stalled clients", f"{expected - connected_at_end} of {figures['stalled']} dropped by the server by the end"
         + (f" ({too_slow} as too slow, 1008)" if too_slow else " (keepalive: no pong within 60 s)" if expected > connected_at_end else ", frames coalesced"),
         "closed or coalesced", connected_at_end >= args.clients + 1),
        ("server alive at the end", "yes" if alive else "NO", "yes", alive),
    ]
    print()
    print("| figure | measured | target | |")
    print("|---|---:|---|:---:|")
    for name, value, target, ok in rows:
        print(f"| {name} | {value} | {target} | {'ok' if ok else 'MISSED'} |")
    print(f"\ntotal {time.monotonic() - started:.0f} s")
    return 0 if all(ok for *_, ok in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
