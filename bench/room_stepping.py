#!/usr/bin/python3
"""`make bench-room`: what a large moving room's stepping thread gets done, by the protocol of
the clients in it (issue 24: a room encodes v1 text frames only while a v1 client is in it).

For each --cells count, a fresh `forcelayout serve` (release, free loopback port, through the
launcher every suite uses) gets one room of that many cells (added by a v2 client, 1000 a
message), kept moving (threshold 0). Then, for each reader mix in turn (v2 only; v2 and v1), the
readers read every frame for --seconds, and the room's own figures are taken from `GET /rooms`
before and after: steps per second (ticks over wall time), the frames each reader got per
second, and the server's CPU time (user + system, from /proc) per step and per second. The mixes alternate --rounds times, so a
noisy machine shows in the spread, and the v1 mix is the anchor in the same run: the v2-only
room should step faster by what encoding its text frames took.

Prints a table on stdout, the JSON of every round on stderr. Exit status 0 unless a run
failed. Environment: FORCELAYOUT_BIN (default .build/release/forcelayout, relative to the
checkout). Stdlib and python3-websockets.
"""

import argparse
import asyncio
import json
import statistics
import sys
import time
import urllib.request

import websockets

import common
from common import RunningServer, int_list, positive_float, positive_int

MIXES = {"v2": ("forcelayout.v2",), "v2+v1": ("forcelayout.v2", "forcelayout.v1")}


def room_entry(port, name):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/rooms", timeout=10) as reply:
        rooms = json.load(reply)
    return next(room for room in rooms["rooms"] if room["name"] == name)


async def fill(url, cells):
    """Adds `cells` cells and keeps them moving (threshold 0)."""
    async with websockets.connect(url, subprotocols=["forcelayout.v2"], max_size=None) as ws:
        await ws.send(json.dumps({"type": "params", "threshold": 0}))
        for start in range(0, cells, 1000):
            await ws.send(json.dumps({"type": "add", "count": min(1000, cells - start)}))
            await asyncio.sleep(0.02)  # inside the message rate (60/s)
        await asyncio.sleep(1)


async def read(url, subprotocol, until, counts):
    async with websockets.connect(url, subprotocols=[subprotocol], max_size=None) as ws:
        while time.monotonic() < until:
            try:
                message = await asyncio.wait_for(ws.recv(), timeout=max(0.01, until - time.monotonic()))
            except asyncio.TimeoutError:
                break
            if isinstance(message, bytes) or message.startswith('{"type":"frame"'):
                counts[subprotocol] = counts.get(subprotocol, 0) + 1


async def measure(server, url, mix, seconds):
    until = time.monotonic() + 1 + seconds
    counts = {}
    readers = [asyncio.create_task(read(url, protocol, until, counts)) for protocol in MIXES[mix]]
    await asyncio.sleep(1)  # the readers joined; the room's turns see them
    counts.clear()
    before, start = room_entry(server.port, "main"), time.monotonic()
    cpu_before = common.proc_figures(server.process.pid)[1]
    await asyncio.gather(*readers)
    after, wall = room_entry(server.port, "main"), time.monotonic() - start
    cpu = common.proc_figures(server.process.pid)[1] - cpu_before
    steps = after["tick"] - before["tick"]
    return {"mix": mix, "cells": after["cells"], "stepsPerSecond": round(steps / wall, 2),
            "cpuMsPerStep": round(1000 * cpu / max(1, steps), 2), "serverCores": round(cpu / wall, 2),
            "framesPerSecond": {protocol: round(count / wall, 2) for protocol, count in counts.items()}}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cells", type=int_list, default=[100_000], help="cell counts (default 100000)")
    parser.add_argument("--seconds", type=positive_float, default=10.0, help="seconds a mix is measured (default 10)")
    parser.add_argument("--rounds", type=positive_int, default=3, help="times each mix is measured, alternating (default 3)")
    args = parser.parse_args()
    print(common.header("room stepping by the protocols of its readers"))
    print(f"{'cells':>8} {'readers':>8} {'steps/s (median, range)':>26} {'CPU ms a step':>14} {'cores':>6} {'frames/s a reader':>18}")
    for cells in args.cells:
        flags = ("--max-cells", str(cells), "--max-total-cells", str(cells))
        with RunningServer(*flags) as server:
            url = server.room("main")
            asyncio.run(fill(url, cells))
            results = {mix: [] for mix in MIXES}
            for _ in range(args.rounds):
                for mix in MIXES:
                    result = asyncio.run(measure(server, url, mix, args.seconds))
                    print(json.dumps(result), file=sys.stderr)
                    results[mix].append(result)
        for mix, rounds in results.items():
            steps = [r["stepsPerSecond"] for r in rounds]
            frames = statistics.median(min(r["framesPerSecond"].values(), default=0) for r in rounds)
            cpu = statistics.median(r["cpuMsPerStep"] for r in rounds)
            cores = statistics.median(r["serverCores"] for r in rounds)
            print(f"{cells:>8} {mix:>8} {statistics.median(steps):>10.2f} ({min(steps):.2f}-{max(steps):.2f}){'':>5}"
                  f" {cpu:>14.2f} {cores:>6.2f} {frames:>18.2f}")


if __name__ == "__main__":
    main()
