#!/usr/bin/python3
"""`make bench-import`: how fast a large graph goes into a room, and what a viewer sees then.

A --side x --side grid (each node linked to its right and lower neighbour: 250,000 nodes and
499,000 links at the default 500) is written as a CSV edge list; a fresh `forcelayout serve`
(release, free loopback port, through the launcher every suite uses, with --max-cells and
--max-links wide enough for the grid and the server's other limits at their defaults, or
--items per message) takes it
through `forcelayout import`, timed from the process's start to its exit (target: 15 s at the
default size). A viewer (protocol v2, python3-websockets) is in the room from before the
import: every frame's arrival and tick is noted (only the binary head is read), and the
figures are given for the import (from the first frame with cells: the room is empty and at
rest while the importer reads the file) and for --after seconds after it: frames per second, steps
per second (the ticks the frames carry over the time between them) and the longest gap
between two frames (issue 23: no gap over 250 ms while a layout converges).

The figures go to stdout, the server's and the importer's own lines to stderr. Exit status 0
when the import succeeded (the target is a figure to read, not a check), 1 when it failed.
Environment: FORCELAYOUT_BIN (default .build/release/forcelayout, relative to the checkout).
Stdlib and python3-websockets.
"""

import argparse
import asyncio
import json
import os
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import websockets

import common
from common import RunningServer, positive_float, positive_int

HEAD = struct.Struct("<BBHIIdffffI")  # a v2 binary frame's head: kind, flags, reserved, tick, v, at, box, n
TARGET_SECONDS = 15.0


def write_grid(path, side):
    """The grid as an edge list: node r*side+c links to its right and lower neighbour."""
    links = 0
    with open(path, "w") as out:
        out.write("source,target\n")
        lines = []
        for row in range(side):
            for column in range(side):
                node = row * side + column
                if column + 1 < side:
                    lines.append(f"n{node},n{node + 1}\n")
                if row + 1 < side:
                    lines.append(f"n{node},n{node + side}\n")
            if len(lines) > 100_000:
                links += len(lines)
                out.writelines(lines)
                lines = []
        links += len(lines)
        out.writelines(lines)
    return side * side, links


class Viewer:
    """One v2 connection on its own thread and event loop: (arrival, tick) of every frame."""

    def __init__(self, url):
        self.url = url
        self.frames = []
        self.stats = []
        self.ready = threading.Event()
        self.stop = threading.Event()
        self.error = None
        self.thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)
        self.thread.start()

    async def _run(self):
        try:
            async with websockets.connect(self.url, subprotocols=["forcelayout.v2"], max_size=None,
                                          ping_interval=None, close_timeout=1) as socket:
                self.ready.set()
                while not self.stop.is_set():
                    try:
                        raw = await asyncio.wait_for(socket.recv(), 0.5)
                    except asyncio.TimeoutError:
                        continue
                    now = time.monotonic()
                    if isinstance(raw, bytes):
                        kind, _, _, tick, *_, cells = HEAD.unpack_from(raw, 0)
                        if kind == 1:
                            self.frames.append((now, tick, cells))
        except Exception as error:  # reported by the caller
            self.error = error
            self.ready.set()

    def close(self):
        self.stop.set()
        self.thread.join(timeout=5)

    def first_with_cells(self):
        """When the first frame with cells came (None: none did)."""
        return next((at for at, _, cells in self.frames if cells > 0), None)

    def figures(self, start, end):
        """Frames/s, steps/s and the longest gap (ms) of the frames that arrived in [start, end]."""
        frames = [(at, tick) for at, tick, _ in self.frames if start <= at <= end]
        if len(frames) < 2:
            return {"frames": len(frames), "framesPerSecond": 0.0, "stepsPerSecond": 0.0,
                    "longestGapMs": (end - start) * 1000}
        span = frames[-1][0] - frames[0][0]
        gaps = [b[0] - a[0] for a, b in zip(frames, frames[1:])]
        gaps.append(frames[0][0] - start)
        gaps.append(end - frames[-1][0])
        return {"frames": len(frames), "framesPerSecond": (len(frames) - 1) / span if span > 0 else 0.0,
                "stepsPerSecond": (frames[-1][1] - frames[0][1]) / span if span > 0 else 0.0,
                "longestGapMs": max(gaps) * 1000}


def room_stats(server, room):
    with urllib.request.urlopen(f"{server.http}/rooms", timeout=10) as reply:
        rooms = json.load(reply)["rooms"]
    return next((entry for entry in rooms if entry["name"] == room), {})


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--side", type=positive_int, default=500, help="grid side (nodes: side²; links: 2·side·(side-1))")
    parser.add_argument("--after", type=positive_float, default=10, help="seconds watched after the import")
    parser.add_argument("--timeout", type=positive_float, default=600, help="seconds the import may take")
    parser.add_argument("--step-threads", type=positive_int, help="the server's --step-threads (default: one per core)")
    parser.add_argument("--items", type=positive_int,
                        help="the server's --max-add-per-message, with --max-message-bytes of 64 bytes an item "
                             "(default: the server's defaults, 1000 and 65536)")
    args = parser.parse_args()
    binary = common.find_binary("release")
    with tempfile.TemporaryDirectory(prefix="forcelayout-import-") as folder:
        path = os.path.join(folder, "grid.csv")
        nodes, links = write_grid(path, args.side)
        flags = ["--max-cells", str(nodes + 1000), "--max-links", str(links + 1000),
                 "--max-total-cells", str(max(nodes + 1000, 1_000_000))]
        if args.items:
            flags += ["--max-add-per-message", str(args.items), "--max-message-bytes", str(max(65536, 64 * args.items))]
        if args.step_threads:
            flags += ["--step-threads", str(args.step_threads)]
        print(common.header("forcelayout bench-import", f"binary {binary}"))
        print(f"server flags: {' '.join(flags)}")
        print(f"graph: {args.side}x{args.side} grid, {nodes} nodes, {links} links ({os.path.getsize(path) / 1e6:.1f} MB CSV)")
        with RunningServer(*flags, binary=binary, log_file=True) as server:
            url = server.room("main")
            viewer = Viewer(url)
            viewer.ready.wait(10)
            if viewer.error:
                print(f"the viewer could not connect: {viewer.error}", file=sys.stderr)
                return 1
            started = time.monotonic()
            try:
                run = subprocess.run([str(binary), "import", path, "--url", url], capture_output=True, text=True,
                                     timeout=args.timeout)
            except subprocess.TimeoutExpired:
                print(f"the import did not finish in {args.timeout:.0f} s", file=sys.stderr)
                viewer.close()
                return 1
            imported = time.monotonic()
            sys.stderr.write(run.stdout + run.stderr)
            if run.returncode != 0:
                print(f"forcelayout import failed ({run.returncode})", file=sys.stderr)
                viewer.close()
                return 1
            time.sleep(args.after)
            watched = time.monotonic()
            viewer.close()
            room = room_stats(server, "main")
            stats = server.stats()
        seconds = imported - started
        # The room is empty, and at rest, while the importer reads the file: the frames count
        # from the first one with cells.
        during = viewer.figures(viewer.first_with_cells() or started, imported)
        after = viewer.figures(imported, watched)
        verdict = "ok" if seconds <= TARGET_SECONDS else "MISSED"
        print(f"import wall time: {seconds:.1f} s (target ≤ {TARGET_SECONDS:g} s at 250k nodes / 500k links: {verdict})")
        print(f"  {run.stdout.strip().splitlines()[0] if run.stdout.strip() else ''}")
        for name, figures in (("during the import (from its first cells)", during), (f"the {args.after:g} s after it", after)):
            print(f"viewer, {name}: {figures['frames']} frames, {figures['framesPerSecond']:.1f} frames/s, "
                  f"{figures['stepsPerSecond']:.1f} steps/s, longest gap between frames {figures['longestGapMs']:.0f} ms")
        print(f"room after: {room.get('cells')} cells, tick {room.get('tick')}, settled {room.get('settled')}; "
              f"server stats: tickMs {stats.get('tickMs')}, stepsPerSecond {stats.get('stepsPerSecond', 'n/a')}")
        return 0


if __name__ == "__main__":
    sys.exit(main())
