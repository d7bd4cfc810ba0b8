#!/usr/bin/python3
"""`make bench-page`: how fast the page renders 1k, 10k and 100k moving cells, then graphs
of 10k cells with 20k links and 100k with 200k (--linked-sizes, --links), with the draw's
split (links, cells, putImageData, labels).

Starts the release server (`forcelayout serve --port <free> --max-cells 100000 --max-links
200000 --step-threads 1`, no state file, in a temporary working directory; `--public DIR`: the page
from DIR, another version of it against the same build), connects a
control client (python3-websockets), and for every size: clears the layout, adds N cells
(`add` messages of up to 1000, paced under the server's 60 msg/s limit; a graph's cells
and links as mesh_graph or random_pairs make them, then waits until it no longer unfolds),
sets `threshold` 0 so the layout never settles and a frame is streamed after every step,
opens the page in a fresh headless Chromium (selenium), waits until `body[data-cells]` says
N (and the page holds the links), warms up, then measures for a while:

- rAF fps: requestAnimationFrame callbacks per second, counted by a loop injected before
  the page's own scripts run. It counts the frames the browser produced; a draw (or a
  parse) that blocks the main thread delays them, so it falls when the page cannot keep up.
- frames/s received, kB/s: frames and bytes the page's WebSocket received, counted by a
  wrapper around `window.WebSocket`, also injected before the page's scripts: binary
  messages whose first byte is 1 (protocol v2's frames) and text messages starting with
  `{"type":"frame"` (v1's; characters = bytes, the JSON is ASCII). The protocol the page
  got (`protocol` in the JSON line) is the one its socket reports.
- page draws/s, draw ms and its split, decode ms: from `window.forcelayout.perf()` when
  the page has it (fields `fps`, `drawMs`, `linksMs`, `cellsMs`, `putMs`, `labelsMs`,
  `decodeMs`: the mean time to decode a binary frame, from its bytes to the page's
  positions; its other fields go to the JSON line); "–" when it has not.
- server tick ms: the mean `tickMs` of the server's `stats` messages during the window.

It checks that the cells move (the page's `forcelayout.state.xy`, or else the streamed
frames, differ between the start and the end of the window) and reports it.

One JSON line per size goes to stdout as it is measured, then a Markdown table; progress
goes to stderr (`--quiet` hides it). Exit status 0 when every size was measured with
moving cells, 1 when something failed, 2 when the tools are missing.

Environment: FORCELAYOUT_BIN (default .build/release/forcelayout), CHROMIUM_BIN
(/usr/bin/chromium), CHROMEDRIVER_BIN (/usr/bin/chromedriver). Debian packages:
python3-websockets python3-selenium chromium chromium-driver.
"""

import argparse
import asyncio
import json
import math
import os
import random
import signal
import statistics
import subprocess
import sys
import threading
import time

import common
from common import RunningServer, ServerDidNotStart, int_list, positive_float, positive_int, wait_until

CHROMIUM = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver")
DEFAULT_SIZES = (1000, 10000, 100000)
# Sizes measured a second time as graphs, LINKS_PER_CELL links per cell (seeded): issue 13's
# 10k cells with 20k links and issue 26's 100k cells with 200k links.
DEFAULT_LINKED_SIZES = (10000, 100000)
LINKS_PER_CELL = 2
# --links mesh: each cell labelled and started on a jittered grid MESH_SPACING apart (the
# graph model's default edgeLength), linked to cells within MESH_REACH grid steps, and a
# share (--long-links) of links between cells anywhere: mostly short links, as a laid-out
# graph has, and some long ones. --links random: every link between two cells anywhere.
MESH_SPACING = 30
MESH_REACH = 2
ADD_CHUNK = 1000          # the server's maxAddPerMessage
UNFOLD_TIMEOUT = 300      # s: a graph of 100k cells unfolded in 22-25 s here
MESSAGES_PER_SECOND = 20  # our pace; the server allows 60/s with bursts of 120
DASH = "–"

# Runs in every document before the page's own scripts (CDP, so the page's CSP does not
# apply): counts animation frames and what the page's WebSockets receive.
PROBE = r"""
(() => {
  if (window.__bench) return;
  const probe = window.__bench = { raf: 0, frames: 0, bytes: 0, messages: 0, worstGap: 0, last: 0, protocol: '' };
  const tick = (t) => {
    if (probe.last) probe.worstGap = Math.max(probe.worstGap, t - probe.last);
    probe.last = t;
    probe.raf++;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  const Native = window.WebSocket;
  class CountedWebSocket extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('open', () => { probe.protocol = this.protocol; });
      this.addEventListener('message', (e) => {
        probe.messages++;
        if (e.data instanceof ArrayBuffer) {
          probe.bytes += e.data.byteLength;
          if (e.data.byteLength > 0 && new Uint8Array(e.data, 0, 1)[0] === 1) probe.frames++;
        } else if (typeof e.data === 'string') {
          probe.bytes += e.data.length;
          if (e.data.startsWith('{"type":"frame"')) probe.frames++;
        }
      });
    }
  }
  window.WebSocket = CountedWebSocket;
})();
"""

# One reading of the page: counters, perf(), and a sample of positions (up to 64 cells).
SNAPSHOT = r"""
const probe = window.__bench || null;
const fl = window.forcelayout;
let perf = null;
try {
  if (fl && typeof fl.perf === 'function') perf = fl.perf();
} catch (e) {
  perf = { error: String(e) };
}
let sample = null;
try {
  const xy = fl && fl.state && fl.state.xy;
  if (xy && xy.length >= 2) {
    const cells = Math.floor(xy.length / 2);
    const step = Math.max(1, Math.floor(cells / 64));
    sample = [];
    for (let i = 0; i < cells && sample.length < 128; i += step) sample.push(xy[2 * i], xy[2 * i + 1]);
  }
} catch (e) {
  sample = null;
}
const out = {
  now: performance.now(),
  probe: probe && { raf: probe.raf, frames: probe.frames, bytes: probe.bytes, worstGap: probe.worstGap, protocol: probe.protocol },
  perf: perf && typeof perf === 'object' ? JSON.parse(JSON.stringify(perf)) : null,
  sample,
  cells: document.body.dataset.cells ?? null,
  viewport: `${innerWidth}x${innerHeight}@${devicePixelRatio}`,
};
if (probe) probe.worstGap = 0;
return out;
"""


class BenchError(Exception):
    pass


def parse_args(argv):
    parser = argparse.ArgumentParser(
        description="Render rate of the page in headless Chromium (see bench/README.md).")
    parser.add_argument("--sizes", type=int_list, default=list(DEFAULT_SIZES),
                        help="cell counts (default 1000,10000,100000; at most 100000)")
    parser.add_argument("--linked-sizes", type=int_list, default=list(DEFAULT_LINKED_SIZES),
                        help=f"sizes measured again as graphs with {LINKS_PER_CELL} links a cell "
                             "(default 10000,100000; 0: none)")
    parser.add_argument("--links", choices=("mesh", "random"), default="mesh",
                        help="the graphs' links: mesh (labelled cells on a jittered grid, links to "
                             "cells nearby and --long-links of them anywhere; default) or random "
                             "(unlabelled cells, every link between two cells anywhere, as before issue 26)")
    parser.add_argument("--long-links", type=share, default=0.03,
                        help="mesh: the share of links between cells anywhere (0.03)")
    parser.add_argument("--step-threads", type=positive_int, default=1,
                        help="the server's --step-threads (1: the server steps on one core, the "
                             "browser has the other; this measures the page, not the server)")
    parser.add_argument("--warmup", type=positive_float, default=2.0,
                        help="seconds between the page showing N cells and the measurement (2)")
    parser.add_argument("--seconds", type=positive_float, default=8.0,
                        help="seconds measured per size (8)")
    parser.add_argument("--window", default="1280,800", help="browser window size (1280,800)")
    parser.add_argument("--scale", type=positive_float, default=1.0,
                        help="--force-device-scale-factor (1; 2 for a HiDPI canvas)")
    parser.add_argument("--screenshot", metavar="DIR",
                        help="save the page as DIR/page-<cells>.png (a graph: page-<cells>-<links>links.png) "
                             "at the end of each measurement")
    parser.add_argument("--public", metavar="DIR",
                        help="serve the page from DIR (the server's --public; default the checkout's "
                             "Public/): another version of the page against the same server, e.g. "
                             "`git archive main Public | tar -x -C /tmp/before`")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    parser.add_argument("--calm", action="store_true",
                        help="do not stir the layout (by default the charge alternates 10/14 every second, a "
                             "graph's edgeLength 30/36, "
                             "while measuring, so cells visibly move at every size, as when people steer it)")
    args = parser.parse_args(argv)
    if max(args.sizes) > 100000:
        parser.error("sizes above 100000 (the server's --max-cells here)")
    return args


def share(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}")
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError("must be within 0 and 1")
    return value


def start_server(binary, step_threads, public=None):
    """`forcelayout serve --port <free> --max-cells 100000 --step-threads N [--public DIR]` in
    a temporary working directory, in its own session (a kill takes its group)."""
    try:
        return RunningServer("--max-cells", "100000", "--max-links", str(LINKS_PER_CELL * 100000),
                             "--step-threads", str(step_threads),
                             *(("--public", os.path.abspath(public)) if public else ()),
                             binary=binary, workdir=True, own_session=True)
    except ServerDidNotStart as error:
        raise BenchError(str(error)) from None


class Control:
    """A WebSocket client on a background asyncio loop, offering protocol v2 then v1 (so a
    v2 server encodes no JSON frames for it). It counts frames without decoding them (a v1
    100k-cell frame is ~1.1 MB of JSON) and keeps the stats, events and errors."""

    def __init__(self, url):
        import websockets  # python3-websockets (Debian)
        self.websockets = websockets
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.lock = threading.Lock()
        self.frames = 0
        self.last_frame = ""
        self.stats = []    # (monotonic time, stats message)
        self.errors = []
        self.added = []    # ids of the cells added since the last clear, from `added` events
        self.closed = None
        self.sent_at = []  # monotonic times of our sends, for pacing
        self.socket = self._run(self._connect(url), 15)

    def _run(self, coroutine, timeout):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    async def _connect(self, url):
        socket_ = await self.websockets.connect(url, subprotocols=["forcelayout.v2", "forcelayout.v1"],
                                                max_size=None, ping_interval=None)
        self.reader = self.loop.create_task(self._read(socket_))
        return socket_

    async def _read(self, socket_):
        try:
            async for raw in socket_:
                if isinstance(raw, bytes):
                    if raw[:1] == b"\x01":
                        with self.lock:
                            self.frames += 1
                            self.last_frame = raw
                    continue
                if raw.startswith('{"type":"frame"'):
                    with self.lock:
                        self.frames += 1
                        self.last_frame = raw
                    continue
                message = json.loads(raw)
                kind = message.get("type")
                with self.lock:
                    if kind == "stats":
                        self.stats.append((time.monotonic(), message))
                        del self.stats[:-600]
                    elif kind == "error":
                        self.errors.append(message)
                    elif kind == "event" and message.get("kind") == "added":
                        self.added.extend(message.get("ids") or [])
                    elif kind == "event" and message.get("kind") == "cleared":
                        self.added = []
        except self.websockets.ConnectionClosed:
            pass
        finally:
            self.closed = (socket_.close_code, socket_.close_reason)

    def send(self, message):
        """Sends one message, at most MESSAGES_PER_SECOND a second."""
        if self.closed is not None:
            raise BenchError(f"control connection closed {self.closed}")
        now = time.monotonic()
        self.sent_at = [t for t in self.sent_at if now - t < 1.0]
        if len(self.sent_at) >= MESSAGES_PER_SECOND:
            time.sleep(1.0 - (now - self.sent_at[0]) + 0.01)
        self.sent_at.append(time.monotonic())
        self._run(self.socket.send(json.dumps(message)), 15)

    def check(self):
        with self.lock:
            if self.errors:
                raise BenchError(f"the server rejected a message: {self.errors[0]}")
        if self.closed is not None:
            raise BenchError(f"control connection closed {self.closed}")

    def frame_xy(self):
        """The last frame's positions part (anything that changes when cells move)."""
        with self.lock:
            raw = self.last_frame
        if isinstance(raw, bytes):
            return raw[20:]  # the bounding box, then (after the membership) the positions
        at = raw.find('"xy":')
        return raw[at:] if at >= 0 else ""

    def unfolding(self):
        """Whether the server's last stats said a multilevel layout is unfolding."""
        with self.lock:
            return bool(self.stats and self.stats[-1][1].get("unfolding"))

    def tick_ms_between(self, start, end):
        with self.lock:
            values = [m.get("tickMs") for t, m in self.stats if start <= t <= end]
        values = [v for v in values if isinstance(v, (int, float))]
        return statistics.mean(values) if values else None

    def close(self):
        try:
            self._run(self.socket.close(), 5)
        except Exception:
            pass
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


def open_browser(args):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--disable-gpu", f"--window-size={args.window}",
                f"--force-device-scale-factor={args.scale:g}", "--no-first-run",
                "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
                "--disable-backgrounding-occluded-windows"):
        options.add_argument(arg)
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")  # Chromium refuses to run its sandbox as root
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_script_timeout(30)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": PROBE})
    return driver


def wait_for(predicate, timeout, what):
    value = wait_until(predicate, timeout, interval=0.1)
    if not value:
        raise BenchError(f"timed out after {timeout:g} s waiting for {what}")
    return value


def random_pairs(cells, links, rng):
    """`links` distinct pairs (a < b) of cells anywhere."""
    pairs = set()
    while len(pairs) < links:
        a, b = rng.randrange(cells), rng.randrange(cells)
        if a != b:
            pairs.add((min(a, b), max(a, b)))
    return sorted(pairs)


def mesh_graph(cells, links, long_share, rng):
    """A connected graph drawn already: cell i at (i % side, i // side) * MESH_SPACING,
    jittered by a third of that, and `links` distinct pairs: a comb that connects every cell
    (each to the next in its row, each row's first to the next row's), then a `long_share`
    of all between cells anywhere, the rest between cells at most MESH_REACH grid steps
    apart. Returns (positions, pairs)."""
    side = max(1, math.ceil(math.sqrt(cells)))
    jitter = MESH_SPACING / 3
    positions = [((i % side) * MESH_SPACING + rng.uniform(-jitter, jitter),
                  (i // side) * MESH_SPACING + rng.uniform(-jitter, jitter)) for i in range(cells)]
    offsets = [(dx, dy) for dx in range(-MESH_REACH, MESH_REACH + 1) for dy in range(-MESH_REACH, MESH_REACH + 1)
               if (dx, dy) != (0, 0) and dx * dx + dy * dy <= MESH_REACH * MESH_REACH + 1]
    if links < cells - 1 or links > cells * len(offsets) // 4:
        raise BenchError(f"a mesh of {cells} cells takes {cells - 1} to {cells * len(offsets) // 4} links, not {links}")
    pairs = {(i, i + 1) for i in range(cells - 1) if (i + 1) % side}
    pairs |= {(i, i + side) for i in range(0, cells - side, side)}
    long_links = min(round(links * long_share), links - len(pairs))
    while len(pairs) < cells - 1 + long_links:
        a, b = rng.randrange(cells), rng.randrange(cells)
        if a != b:
            pairs.add((min(a, b), max(a, b)))
    while len(pairs) < links:
        a = rng.randrange(cells)
        dx, dy = rng.choice(offsets)
        x, y = a % side + dx, a // side + dy
        b = y * side + x
        if 0 <= x < side and 0 <= y and b < cells:
            pairs.add((min(a, b), max(a, b)))
    return positions, sorted(pairs)


def fill(server, control, cells, log, links=0, args=None):
    """Clears the layout and adds `cells` cells, paced; waits until the server holds them.
    With `links`, a graph (seeded): --links mesh adds labelled cells where mesh_graph puts
    them, --links random plain cells; then the links, in messages of 1000."""
    if server.stats()["cells"]:
        control.send({"type": "clear"})
        wait_for(lambda: server.stats()["cells"] == 0, 30, "the layout to be cleared")
    started = time.monotonic()
    rng = random.Random(1)
    mesh = bool(links) and args is not None and args.links == "mesh"
    if mesh:
        positions, pairs = mesh_graph(cells, links, args.long_links, rng)
        for at in range(0, cells, ADD_CHUNK):
            control.send({"type": "add", "cells": [
                {"label": f"n{i}", "x": round(x, 2), "y": round(y, 2)}
                for i, (x, y) in enumerate(positions[at:at + ADD_CHUNK], start=at)]})
    else:
        pairs = random_pairs(cells, links, rng) if links else []
        left = cells
        while left:
            count = min(ADD_CHUNK, left)
            control.send({"type": "add", "count": count})
            left -= count
    wait_for(lambda: server.stats()["cells"] == cells, 60, f"{cells} cells on the server")
    control.check()
    log(f"[{cells} cells] added in {time.monotonic() - started:.1f} s")
    if links:
        wait_for(lambda: len(control.added) == cells, 30, f"the ids of {cells} cells")
        ids = list(control.added)
        for at in range(0, len(pairs), ADD_CHUNK):
            control.send({"type": "link", "links": [{"source": ids[a], "target": ids[b]} for a, b in pairs[at:at + ADD_CHUNK]]})
        time.sleep(1)
        control.check()
        log(f"[{cells} cells] {links} {'mesh' if mesh else 'random'} links")
        # measured laid out, not while the multilevel layout unfolds from coarse to fine
        # (its stage at a fixed delay would decide how big the drawing is on the screen)
        started = time.monotonic()
        time.sleep(2)
        wait_for(lambda: not control.unfolding(), UNFOLD_TIMEOUT, "the graph's layout to unfold")
        log(f"[{cells} cells] laid out in {time.monotonic() - started:.1f} s")


def median(values):
    values = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    return statistics.median(values) if values else None


def measure(server, control, args, cells, log, links=0):
    fill(server, control, cells, log, links, args)
    driver = open_browser(args)
    try:
        started = time.monotonic()
        driver.get(server.url + "?perf")  # the perf panel on, as people measure it
        wait_for(lambda: driver.execute_script("return document.body.dataset.cells")
                 == str(cells), 120, f"the page to show {cells} cells")
        if links:
            wait_for(lambda: driver.execute_script("return window.forcelayout.state.data.links.size")
                     == links, 60, f"the page to hold {links} links")
        loaded = time.monotonic() - started
        if not driver.execute_script("return !!window.__bench"):
            raise BenchError("the probe script did not run in the page")
        time.sleep(args.warmup)

        first = driver.execute_script(SNAPSHOT)
        t0 = time.monotonic()
        frame0 = control.frame_xy()
        sent0 = control.frames
        perfs, gaps = [], []
        stirs = 0
        # the graph model (a room with links) has no charge: its links' length is stirred
        stir, high, low = ("edgeLength", 36, 30) if links else ("charge", 14, 10)
        while time.monotonic() - t0 < args.seconds:
            if not args.calm:
                stirs += 1
                control.send({"type": "params", stir: high if stirs % 2 else low})
            time.sleep(min(1.0, max(0.0, args.seconds - (time.monotonic() - t0))))
            reading = driver.execute_script(SNAPSHOT)
            gaps.append(reading["probe"]["worstGap"])
            if reading["perf"] is not None:
                perfs.append(reading["perf"])
        last = reading
        t1 = time.monotonic()
        if args.screenshot:
            os.makedirs(args.screenshot, exist_ok=True)
            name = f"page-{cells}" + (f"-{links}links" if links else "") + ".png"
            driver.save_screenshot(os.path.join(args.screenshot, name))
        frame1 = control.frame_xy()
        sent1 = control.frames
        control.check()
        if not args.calm:
            control.send({"type": "params", stir: low})
    finally:
        driver.quit()

    seconds = (last["now"] - first["now"]) / 1000
    p0, p1 = first["probe"], last["probe"]
    moved = None
    motion = None
    if first["sample"] and last["sample"] and len(first["sample"]) == len(last["sample"]):
        deltas = [abs(a - b) for a, b in zip(first["sample"], last["sample"])]
        moved = any(d > 0 for d in deltas)
        motion = sum(deltas) / len(deltas)
        motion_source = "page"
    else:
        moved = bool(frame0) and frame0 != frame1
        motion_source = "frames"
    perf_fields = sorted({k for p in perfs for k in p if k != "error"})
    perf = {k: rounded(median([p.get(k) for p in perfs])) for k in perf_fields} if perfs else None
    if perfs and any("error" in p for p in perfs):
        perf = dict(perf or {}, error=next(p["error"] for p in perfs if "error" in p))
    worst = max(gaps, default=None)
    return {
        "cells": cells,
        "links": links,
        "graph": (args.links if args.links == "random" else f"mesh, {args.long_links:g} long") if links else None,
        "seconds": round(seconds, 2),
        "loadSeconds": round(loaded, 2),
        "stirred": not args.calm,
        "viewport": last["viewport"],
        "protocol": p1.get("protocol") or None,
        "rafFps": round((p1["raf"] - p0["raf"]) / seconds, 1),
        "worstFrameMs": round(worst, 1) if worst else None,
        "framesPerSecond": round((p1["frames"] - p0["frames"]) / seconds, 1),
        "kBPerSecond": round((p1["bytes"] - p0["bytes"]) / 1000 / seconds, 1),
        "serverFramesPerSecond": round((sent1 - sent0) / (t1 - t0), 1),
        "serverTickMs": round(v, 2) if (v := control.tick_ms_between(t0, t1)) is not None else None,
        "moving": moved,
        "motionSource": motion_source,
        "meanMove": round(motion, 3) if motion is not None else None,
        "perf": perf,
    }


def rounded(value):
    if isinstance(value, float):
        return int(value) if value.is_integer() else round(value, 3)
    return value


def header():
    try:
        version = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True,
                                 timeout=20).stdout.strip() or "chromium ?"
    except (OSError, subprocess.TimeoutExpired):
        version = "chromium ?"
    return common.header("forcelayout bench-page", version)


def fmt(value, digits=1):
    if value is None or isinstance(value, bool) or not isinstance(value, (int, float)):
        return DASH
    return f"{value:.{digits}f}"


def print_table(rows, args):
    print("| cells | protocol | rAF fps | page draws/s | frames/s received | frames/s server | draw ms "
          "| links ms | cells ms | put ms | labels ms | decode ms | KB/s | server tick ms |")
    print("|---:|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        perf = row.get("perf") or {}
        cells = f"{row['cells']}" + (f" + {row['links']} links ({row['graph']})" if row.get("links") else "") \
            + ("" if row.get("moving") else " (not moving!)")
        protocol = (row.get("protocol") or DASH).replace("forcelayout.", "")
        print(f"| {cells} | {protocol} | {fmt(row['rafFps'])} | {fmt(perf.get('fps'))} "
              f"| {fmt(row['framesPerSecond'])} | {fmt(row['serverFramesPerSecond'])} "
              f"| {fmt(perf.get('drawMs'), 2)} | {fmt(perf.get('linksMs'), 2)} | {fmt(perf.get('cellsMs'), 2)} "
              f"| {fmt(perf.get('putMs'), 2)} | {fmt(perf.get('labelsMs'), 2)} | {fmt(perf.get('decodeMs'), 3)} "
              f"| {fmt(row['kBPerSecond'], 0)} | {fmt(row['serverTickMs'], 2)} |")
    print()
    print(f"Headless Chromium, window {args.window}, device scale {args.scale:g}, "
          f"{args.warmup:g} s warm-up, {args.seconds:g} s measured per size, threshold 0, "
          f"{'calm' if args.calm else 'stirred every second (charge 10/14; graphs: edgeLength 30/36)'}, "
          f"the server stepping on {args.step_threads} thread(s). rAF fps: animation frames "
          "per second (about 60 at most); frames/s received, KB/s (1000 bytes): what the page's "
          "WebSocket received; frames/s server: what the server streamed to the control client "
          "in the same window (received below it: the page fell behind and the server skipped "
          f"frames for it); page draws/s, draw ms and its split (links; cells: the background and "
          f"the stamping; put: putImageData; labels), decode ms (a binary v2 frame, bytes to "
          f"positions): window.forcelayout.perf() ({DASH} when the page lacks it, or on v1); "
          "server tick ms: mean of the server's stats.")


INTERRUPTED = threading.Event()


def interrupted(signum, frame):
    INTERRUPTED.set()
    raise KeyboardInterrupt


def main(argv):
    args = parse_args(argv)
    binary = common.find_binary("release")
    problems = []
    if not (binary.is_file() and os.access(binary, os.X_OK)):
        problems.append(f"no executable forcelayout at {binary} "
                        "(swift build -c release --product forcelayout, or set FORCELAYOUT_BIN)")
    for tool in (CHROMIUM, CHROMEDRIVER):
        if not os.access(tool, os.X_OK):
            problems.append(f"{tool} missing (apt-get install chromium chromium-driver)")
    try:
        import selenium  # noqa: F401
        import websockets  # noqa: F401
    except ImportError as error:
        problems.append(f"{error} (apt-get install python3-selenium python3-websockets; "
                        "run with /usr/bin/python3)")
    if problems:
        for problem in problems:
            print(f"bench-page: {problem}", file=sys.stderr)
        return 2

    def log(text):
        if not args.quiet:
            print(text, file=sys.stderr, flush=True)

    # Ctrl-C and SIGTERM end the run; the finally blocks stop the browser and the server.
    # (Ctrl-C also reaches chromedriver and Chromium, so selenium may fail first.)
    signal.signal(signal.SIGINT, interrupted)
    signal.signal(signal.SIGTERM, interrupted)

    print(header(), flush=True)
    rows, failures = [], []
    server = control = None
    try:
        server = start_server(binary, args.step_threads, args.public)
        control = Control(f"ws://127.0.0.1:{server.port}/ws")
        control.send({"type": "params", "threshold": 0})
        runs = [(cells, 0) for cells in args.sizes] + [(cells, LINKS_PER_CELL * cells) for cells in args.linked_sizes if cells]
        for cells, links in runs:
            try:
                row = measure(server, control, args, cells, log, links)
            except BenchError as error:
                failures.append(f"{cells} cells: {error}")
                print(f"FAILED {cells} cells: {error}", file=sys.stderr, flush=True)
                if control.closed is not None or server.process.poll() is not None:
                    break
                continue
            print(json.dumps(row, separators=(",", ":")), flush=True)
            rows.append(row)
            if not row["moving"]:
                failures.append(f"{cells} cells: the positions did not change while measured")
    except KeyboardInterrupt:
        print("bench-page: interrupted", file=sys.stderr)
        return 130
    except Exception:
        if INTERRUPTED.is_set() or control is not None and control.closed is not None:
            print("bench-page: interrupted" if INTERRUPTED.is_set() else
                  f"bench-page: control connection closed {control.closed}", file=sys.stderr)
            return 130 if INTERRUPTED.is_set() else 1
        raise
    except BenchError as error:
        failures.append(str(error))
        print(f"bench-page: {error}", file=sys.stderr)
    finally:
        if control is not None:
            control.close()
        if server is not None:
            server.close()
    if rows:
        print()
        print_table(rows, args)
    print(f"load {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return common.exit_status(failures)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
