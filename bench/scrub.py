#!/usr/bin/python3
"""`make bench-scrub`: how soon the page shows each moment while its timeline's handle is
dragged through the past of a big room (issue 27: "scrubbing through an hour of a 10k-cell
room shows each moment within 100 ms").

Starts the server (FORCELAYOUT_BIN, default the release build; no state, history in memory),
fills a room with --cells cells (1000 an `add`), sets `threshold` 0 so the layout never rests
(a keyframe every 5 s), then for --minutes makes a change every --every seconds through a
control client (in turn: add 100 cells, remove 100, a charge, a pin): the room's past. Then a
headless Chromium opens the room, opens the timeline and drags the handle from the oldest
moment to now (--back: from now to the oldest, the way one looks into the past from live) in
--steps positions, one every 16 ms (a drag at 60 Hz, driven inside the page so selenium's
round trips do not pace it), and reports:

- asked: positions the handle passed; shown: moments the page drew (the page asks one at a
  time, the newest position when an answer comes, so fewer are shown than asked);
- latency ms (median, p95, max): from the handle reaching a position to the page showing a
  moment at least that new, or dragged back that old (the next animation frame after it
  arrived), the wait a person sees;
- answer ms: the server's answer to a `moment`, from request to answer (the page's figures);
- build ms: the page's own work on an answer (positions; the cells' data and links when the
  answer brings them), also by what data the answers brought (`kinds`: the whole data, the
  events since the data held, a patch back to it, or none: how many and the mean work on
  one), and draw ms: the canvas's draws (`window.forcelayout.perf()`): what
  the page adds to the server's answer; draws: how many times the canvas was drawn over the
  run (the drag and the 2 s after it), against the moments shown.

One JSON line, then a sentence. Exit 1 when no moment was shown.
"""
import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from common import ROOT, RunningServer, find_binary, header, positive_float, positive_int

sys.path.insert(0, str(ROOT / "Tests" / "web"))
from control import Control  # noqa: E402
from test_browser import Page  # noqa: E402

DRAG = """
const [start, end, steps, every] = arguments;
const done = arguments[arguments.length - 1];
const f = window.forcelayout;
const asked = [];
const shown = [];
let draws = 0;
const put = CanvasRenderingContext2D.prototype.putImageData;
CanvasRenderingContext2D.prototype.putImageData = function (...a) { draws++; return put.apply(this, a); };
f.state.on('moment', () => {
  const m = f.state.moment;
  if (m) requestAnimationFrame((t) => shown.push([m.at, performance.now()]));
});
let i = 0;
const timer = setInterval(() => {
  const at = Math.round(start + ((end - start) * i) / (steps - 1));
  asked.push([at, performance.now()]);
  f.goTo(at);
  if (++i === steps) {
    clearInterval(timer);
    setTimeout(() => done({ asked, shown, figures: f.timeline().figures, perf: f.perf(), draws }), 2000);
  }
}, every);
"""


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cells", type=positive_int, default=10000)
    p.add_argument("--minutes", type=positive_float, default=3.0, help="how long the room's past runs (default 3)")
    p.add_argument("--every", type=positive_float, default=2.0, help="seconds between changes (default 2)")
    p.add_argument("--steps", type=positive_int, default=300, help="positions of the drag (default 300)")
    p.add_argument("--kept", type=Path, help="drag through the past of the room `busy` kept in this state dir "
                   "(as `bench/history.py --state-dir DIR` leaves it: an hour) instead of making one")
    p.add_argument("--back", action="store_true", help="drag from now back to the oldest moment (the way one looks "
                   "into the past from live) instead of from the oldest to now")
    p.add_argument("--first", type=positive_float, help="drag over the first MINUTES of the past only (with --kept: "
                   "the hour that made it, not the time the room was loaded since)")
    p.add_argument("--profile", type=Path, help="record the page's JavaScript during the drag (Chromium's CPU "
                   "profiler) into this .cpuprofile file, and print the functions that took the most time")
    p.add_argument("--history-bytes", type=positive_int, default=32 << 20,
                   help="the server's --history-bytes (default 32 MiB; with --kept, what made it)")
    args = p.parse_args(argv)
    if args.kept and not (args.kept / "busy.json").exists():
        p.error("--kept needs a state dir holding the room busy (busy.json)")
    return args


def make_past(http, room, args):
    """The room's past: --cells cells, moving, changed every --every s for --minutes; the changes."""
    with Control(http, room=room) as control:
        for n in range(0, args.cells, 1000):
            control.send({"type": "add", "count": min(1000, args.cells - n)})
            control.event("added")
        control.send({"type": "params", "threshold": 0})
        end = time.monotonic() + 60 * args.minutes
        turn = 0
        while time.monotonic() < end:
            time.sleep(args.every)
            change = turn % 4
            if change == 0:
                control.send({"type": "add", "count": 100})
            elif change == 1:
                control.send({"type": "remove", "count": 100})
            elif change == 2:
                control.send({"type": "params", "charge": 20 + turn % 30})
            else:
                control.send({"type": "pin", "id": 1, "x": turn, "y": -turn})
            turn += 1
    return turn


def latencies(asked, shown, back=False):
    """For each position asked: the time until a moment at least that far along the drag
    (that new, or dragged back, that old) was shown."""
    out = []
    j = 0
    for at, t in asked:
        while j < len(shown) and ((shown[j][0] > at if back else shown[j][0] < at) or shown[j][1] < t):
            j += 1
        if j == len(shown):
            break
        out.append(shown[j][1] - t)
    return out


def print_profile(profile, top=15):
    """The functions that took the most of the drag's time, by their own samples (self time),
    with the share that was idle: where the page's main thread went."""
    nodes = {node["id"]: node for node in profile["nodes"]}
    spent = {}
    for sample, delta in zip(profile["samples"], profile["timeDeltas"]):
        frame = nodes[sample]["callFrame"]
        url = frame["url"].rsplit("/", 1)[-1]
        name = f"{frame['functionName'] or '(anonymous)'} {url}:{frame['lineNumber'] + 1}" if url else frame["functionName"]
        spent[name] = spent.get(name, 0) + delta
    total = sum(spent.values()) or 1
    print(f"the page's main thread over the drag ({total / 1e6:.1f} s), by self time:", file=sys.stderr)
    for name, micros in sorted(spent.items(), key=lambda item: -item[1])[:top]:
        print(f"  {100 * micros / total:5.1f}%  {micros / 1000:8.1f} ms  {name}", file=sys.stderr)


def main(argv):
    args = parse_args(argv)
    binary = find_binary("release")
    print(header("forcelayout bench-scrub", f"{args.cells} cells, {args.minutes} min of past, a change every {args.every} s"), file=sys.stderr)
    flags = ["--max-cells", str(max(100000, args.cells)), "--history-bytes", str(args.history_bytes)]
    if args.kept:
        flags += ["--state-dir", str(args.kept.resolve())]
    with RunningServer(*flags, binary=binary, workdir=True) as server:
        room = "busy" if args.kept else "scrub"
        turn = 0
        if not args.kept:
            turn = make_past(server.http, room, args)
        page = Page(f"{server.http}/r/{room}", size=(1280, 800))
        try:
            page.wait(lambda: page.cells() >= (1 if args.kept else args.cells - 100), "the room's cells", timeout=120)
            page.find("body").send_keys("h")
            page.wait(lambda: page.js("return window.forcelayout.timeline().more") is False, "the room's past", timeout=60)
            start, stop = page.js("const t = document.querySelector('#timeline-track');"
                                  "return [Number(t.getAttribute('aria-valuemin')), Number(t.getAttribute('aria-valuemax'))]")
            if args.first:
                stop = min(stop, start + 60000 * args.first + 1000)
            page.driver.set_script_timeout(120)
            if args.profile:
                page.driver.execute_cdp_cmd("Profiler.enable", {})
                page.driver.execute_cdp_cmd("Profiler.setSamplingInterval", {"interval": 200})
                page.driver.execute_cdp_cmd("Profiler.start", {})
            ends = (stop - 1000, start) if args.back else (start, stop - 1000)
            run = page.driver.execute_async_script(DRAG, *ends, args.steps, 16)
            if args.profile:
                profile = page.driver.execute_cdp_cmd("Profiler.stop", {})["profile"]
                args.profile.write_text(json.dumps(profile))
                print_profile(profile)
        finally:
            page.quit()
    waits = latencies(run["asked"], run["shown"], back=args.back)
    if not waits:
        print("no moment was shown", file=sys.stderr)
        return 1
    waits.sort()
    minutes = round((stop - start) / 60000, 1)
    row = {
        "cells": args.cells, "minutes": minutes, "back": args.back, "kept": str(args.kept) if args.kept else None, "changes": turn, "asked": len(run["asked"]), "shown": len(run["shown"]),
        "latencyMedianMs": round(statistics.median(waits), 1), "latencyP95Ms": round(waits[int(0.95 * (len(waits) - 1))], 1),
        "latencyMaxMs": round(waits[-1], 1), "answerMeanMs": round(run["figures"]["meanMs"], 1),
        "answerMaxMs": round(run["figures"]["maxMs"], 1), "buildMeanMs": round(run["figures"]["buildMeanMs"], 1),
        "buildMaxMs": round(run["figures"]["buildMaxMs"], 1), "drawMs": round(run["perf"].get("drawMs") or 0, 1), "draws": run["draws"],
        "kinds": {kind: [k["answers"], round(k["buildMeanMs"], 1)] for kind, k in run["figures"].get("kinds", {}).items()},
    }
    print(json.dumps(row))
    print(f"{row['asked']} positions over {minutes} min of a {args.cells}-cell room's past{', dragged back' if args.back else ''}, {row['shown']} moments shown: "
          f"latency median {row['latencyMedianMs']} ms, p95 {row['latencyP95Ms']} ms, max {row['latencyMaxMs']} ms "
          f"(answers {row['answerMeanMs']} ms mean, {row['answerMaxMs']} ms max; the page's work on one "
          f"{row['buildMeanMs']} ms mean, {row['buildMaxMs']} ms max; draws {row['drawMs']} ms); answers by data brought "
          + ", ".join(f"{kind} {n} ({ms} ms)" for kind, (n, ms) in row["kinds"].items()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
