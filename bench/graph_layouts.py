"""The three tools `make bench-graphs` compares, each drawing one graph and saying how long it
took: forcelayout through the real server as a user sees it (`forcelayout_layout`), graph-tool's
`sfdp_layout` and igraph's `layout_drl` with their default parameters (`sfdp_layout`,
`drl_layout`, each in a forked process of its own, so a timeout can end it).

Every function returns a `Drawing`: positions (n, 2) for nodes 0..n-1, or None with `error`
saying why, the seconds the layout took, and for forcelayout what a viewer saw.
"""
import asyncio
import json
import multiprocessing
import re
import struct
import subprocess
import threading
import time
import urllib.request
from dataclasses import dataclass, field

import numpy as np

import common

# The target: no gap over this between frames while a layout unfolds.
FRAME_GAP_TARGET_MS = 250.0
SEED = 1


@dataclass
class Drawing:
    tool: str
    positions: object = None      # (n, 2) float array, or None
    seconds: float = None         # the layout's wall time (forcelayout: import end -> settled)
    settled: bool = True          # forcelayout: settled within the timeout
    error: str = None
    extra: dict = field(default_factory=dict)


# --- graph-tool and igraph, in a forked process each -------------------------------------

def _sfdp_child(n, edges, pipe):
    import graph_tool.all as gt
    gt.seed_rng(SEED)
    np.random.seed(SEED)
    graph = gt.Graph(directed=False)
    graph.add_vertex(n)
    graph.add_edge_list(edges)
    started = time.perf_counter()
    positions = gt.sfdp_layout(graph)
    seconds = time.perf_counter() - started
    pipe.send((seconds, np.asarray(positions.get_2d_array([0, 1]).T, dtype=float)))


def _drl_child(n, edges, pipe):
    import random
    import igraph
    random.seed(SEED)  # igraph's default generator is Python's own
    graph = igraph.Graph(n=n, edges=edges.tolist(), directed=False)
    started = time.perf_counter()
    layout = graph.layout_drl()
    seconds = time.perf_counter() - started
    pipe.send((seconds, np.asarray(layout.coords, dtype=float)))


def _in_child(tool, target, graph, timeout):
    """Runs target(n, edges, pipe) in a forked process; a Drawing of what it sent back within
    `timeout` seconds (the child times the layout call alone, not building its graph)."""
    context = multiprocessing.get_context("fork")
    receiving, sending = context.Pipe(duplex=False)
    process = context.Process(target=target, args=(graph.n, graph.edges, sending), daemon=True)
    started = time.monotonic()
    process.start()
    sending.close()
    try:
        # Building the graph comes before the layout's clock starts: give it a few seconds more.
        if not receiving.poll(timeout + 10):
            return Drawing(tool, error=f"timed out after {timeout:g} s", seconds=time.monotonic() - started,
                           settled=False)
        seconds, positions = receiving.recv()
        return Drawing(tool, positions=positions, seconds=seconds)
    except EOFError:
        process.join(5)
        return Drawing(tool, error=f"the layout process ended with status {process.exitcode}")
    finally:
        if process.is_alive():
            process.kill()
        process.join(5)
        receiving.close()


def sfdp_layout(graph, timeout):
    """graph-tool's sfdp_layout(g), default parameters (its random start seeded)."""
    return _in_child("sfdp", _sfdp_child, graph, timeout)


def drl_layout(graph, timeout):
    """igraph's Graph.layout_drl(), default parameters (Python's random seeded)."""
    return _in_child("DrL", _drl_child, graph, timeout)


# --- forcelayout through the real server --------------------------------------------------

class Viewer(threading.Thread):
    """A WebSocket client of one room, as a page is (protocol v2, v1 for an older server), on a
    thread of its own: notes when every frame came and its tick, counts the cells and links
    the room's events added, and notes each `settled` and `woke` with those counts."""

    def __init__(self, url):
        super().__init__(daemon=True)
        self.url = url
        self.frames = []     # (monotonic time, tick)
        self.marks = []      # (monotonic time, "settled" | "woke", cells seen, links seen, tick)
        self.stats = []      # (monotonic time, stats message)
        self.cells = 0
        self.links = 0
        self.ready = threading.Event()
        self.error = None
        self._loop = None
        self._socket = None

    def run(self):
        try:
            asyncio.run(self._read())
        except Exception as error:  # noqa: BLE001 (reported by the bench, not raised on a thread)
            self.error = f"viewer: {error!r}"
        finally:
            self.ready.set()

    async def _read(self):
        import websockets
        self._loop = asyncio.get_running_loop()
        async with websockets.connect(self.url, subprotocols=["forcelayout.v2", "forcelayout.v1"],
                                      max_size=None, ping_interval=None, open_timeout=15) as socket:
            self._socket = socket
            try:
                async for raw in socket:
                    self._take(time.monotonic(), raw)
            except websockets.ConnectionClosed:
                pass

    def _take(self, now, raw):
        if isinstance(raw, bytes):
            if raw[:1] == b"\x01":
                self.frames.append((now, struct.unpack_from("<I", raw, 4)[0]))
            return
        if raw.startswith('{"type":"frame"'):
            # A v1 frame: only its tick, without parsing its positions.
            match = re.search(r'"tick":(\d+)', raw[:100])
            self.frames.append((now, int(match.group(1)) if match else None))
            return
        message = json.loads(raw)
        kind = message.get("type")
        if kind == "hello":
            self.ready.set()
        elif kind == "stats":
            self.stats.append((now, message))
        elif kind == "event":
            event = message.get("kind")
            if event == "added":
                self.cells += len(message.get("ids", []))
            elif event == "linked":
                self.links += len(message.get("links", []))
            elif event in ("settled", "woke"):
                self.marks.append((now, event, self.cells, self.links, message.get("tick")))

    def close(self):
        if self._loop is not None and self._socket is not None:
            try:
                asyncio.run_coroutine_threadsafe(self._socket.close(), self._loop).result(10)
            except Exception:  # noqa: BLE001 (already closed)
                pass
        self.join(10)

    def settled_with(self, cells, links, after):
        """The first `settled` received after `after` once the room held `cells` and `links`."""
        for mark in list(self.marks):
            if mark[1] == "settled" and mark[0] >= after and mark[2] >= cells and mark[3] >= links:
                return mark
        return None


def max_frame_gap(frames, marks, start, end):
    """The longest wait, in ms, between two frames received within [start, end] (counting the
    last frame before `start` and the time from the last frame to `end`), leaving out every wait
    during which the room said `settled` (a settled room rightly sends nothing)."""
    times = [t for t, _ in frames]
    before = [t for t in times if t < start]
    inside = ([before[-1]] if before else []) + [t for t in times if start <= t <= end] + [end]
    settled_at = [t for t, kind, *_ in marks if kind == "settled"]
    gap = 0.0
    for a, b in zip(inside, inside[1:]):
        if any(a <= s <= b for s in settled_at):
            continue
        gap = max(gap, b - a)
    return gap * 1000.0


def forcelayout_layout(binary, bench_graph, timeout, import_timeout, log=print):
    """forcelayout as a user sees it: a fresh `forcelayout serve` (no state dir), a viewer in
    room ROOM, `forcelayout import FILE --url ws://…/ws/ROOM` (timed), then the wait from the
    import's end until the room settles with every cell and link in it (at most `timeout` s),
    and GET /export/ROOM.json for the positions (at the timeout when it did not settle)."""
    graph = bench_graph.graph
    room = f"bench-{bench_graph.name}"
    server_args = ["--max-cells", str(max(100000, graph.n)), "--max-links", str(max(200000, graph.m))]
    with common.RunningServer(*server_args, binary=binary, log_file=True, own_session=True) as server:
        viewer = Viewer(server.room(room))
        viewer.start()
        viewer.ready.wait(20)
        if viewer.error or not viewer.ready.is_set():
            return Drawing("forcelayout", error=viewer.error or "the viewer got no hello")
        try:
            return _import_and_settle(binary, bench_graph, server, room, viewer, timeout, import_timeout, log)
        finally:
            viewer.close()


def _import_and_settle(binary, bench_graph, server, room, viewer, timeout, import_timeout, log):
    graph = bench_graph.graph
    command = [str(binary), "import", str(bench_graph.path), "--url", server.room(room)]
    import_start = time.monotonic()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=import_timeout,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return Drawing("forcelayout", error=f"import timed out after {import_timeout:g} s")
    import_end = time.monotonic()
    import_seconds = import_end - import_start
    said = done.stdout.strip().splitlines()
    summary = next((line for line in said if line.startswith("imported ")), "")
    counted = re.match(r"imported (\d+) cells and (\d+) links", summary)
    if done.returncode != 0 or not counted:
        reason = (done.stderr.strip().splitlines() or said or ["no output"])[-1]
        return Drawing("forcelayout", error=f"import failed (status {done.returncode}): {reason}")
    cells, links = int(counted.group(1)), int(counted.group(2))
    log(f"  forcelayout: import took {import_seconds:.2f} s ({summary}); waiting for settled (at most {timeout:g} s)")

    deadline = import_end + timeout
    mark = None
    while time.monotonic() < deadline and viewer.is_alive():
        mark = viewer.settled_with(cells, links, import_start)
        if mark:
            break
        time.sleep(0.02)
    end = mark[0] if mark else time.monotonic()
    settled = mark is not None
    extra = {"importSeconds": import_seconds, "importedCells": cells, "importedLinks": links}
    if (cells, links) != (graph.n, graph.m):
        extra["importNote"] = f"imported {cells} cells and {links} links of {graph.n} and {graph.m}"
    extra["maxGapMs"] = max_frame_gap(viewer.frames, viewer.marks, import_start, end)
    extra["maxGapAfterImportMs"] = max_frame_gap(viewer.frames, viewer.marks, import_end, end)
    extra["frames"] = sum(1 for t, _ in viewer.frames if import_start <= t <= end)
    ticks_at_import_end = [tick for t, tick in viewer.frames if t <= import_end and tick is not None]
    if mark and mark[4] is not None and ticks_at_import_end:
        extra["stepsAfterImport"] = mark[4] - ticks_at_import_end[-1]
    window = [message for t, message in viewer.stats if import_start <= t <= end]
    if window:
        extra["tickMs"] = window[-1].get("tickMs")
        extra["rssMB"] = max(message.get("rssMB", 0) for message in window)
    if viewer.error:
        extra["viewerError"] = viewer.error

    try:
        positions = export_positions(server, room, graph.n)
    except (OSError, ValueError, KeyError) as error:
        return Drawing("forcelayout", error=f"export failed: {error}", settled=settled, extra=extra)
    return Drawing("forcelayout", positions=positions, seconds=max(0.0, end - import_end),
                   settled=settled, extra=extra)


def export_positions(server, room, n):
    """GET /export/ROOM.json: the (n, 2) positions of nodes 0..n-1 by their ids."""
    with urllib.request.urlopen(f"{server.http}/export/{room}.json", timeout=120) as reply:
        document = json.load(reply)
    positions = np.full((n, 2), np.nan)
    for node in document["nodes"]:
        key = node["id"]
        if isinstance(key, int) and 0 <= key < n:
            positions[key] = (node["x"], node["y"])
    missing = int(np.isnan(positions).any(axis=1).sum())
    if missing:
        raise ValueError(f"{missing} of {n} nodes missing from the export")
    return positions
