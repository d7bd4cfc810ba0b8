#!/usr/bin/python3
"""`make bench-history`: what a room's history (issue 27) costs, on a fresh release server.

1. Bytes a minute: a room of --cells labelled, linked cells kept moving (threshold 0) for
   --minute seconds, then one that settles (imported, left to come to rest): the growth of its
   `historyBytes` (`GET /rooms`, the history's own count of what it holds in memory: checkpoints,
   events, keyframes), scaled to a minute, and for the moving room the share of the stepping
   thread's time spent writing the history (`stats`' `historyMs` against `tickMs` x the steps).
2. A busy history: a room of --cells cells (labels, a random tree of links and as many links
   again) kept moving while an editor changes it for --seconds at --rate changes a second:
   parameters, pins and unpins, labels, links made and unmade, cells added and removed, and every
   --reimport seconds a clear and the whole graph imported again. Keyframes come every 5 s of wall
   time while the layout moves (the server's own pace: nothing is faked), so the span is what
   the run lasts, not an hour; what one scrub costs depends on the segment it falls in (its
   checkpoint and the events after it, at most `historyBytes`/8), not on how long the history is.
   The share of the stepping thread's time spent on the history is printed for this phase too.
3. Scrubs: --scrubs `moment` requests at random moments of that history, one at a time from a
   client in the room: the time from sending each to its answer (p50, p99, max), the answers'
   sizes and the server's CPU time a scrub (stepping included while the room moves), first
   while the room moves (frames arriving meanwhile) without `have` (the cells' data and links
   in every answer), then each again with the `have` its first answer gave (positions only,
   when the data did not change), then the same moments in order each with the `have` of the
   one before (a drag forward: the data's changes since, `since`, when few), then without
   `have` once the room is paused.

An hour: keyframes come at the server's own pace, so an hour-long history takes an hour to
make. `--skip-minute --seconds 3600 --scrubs 0 --state-dir DIR --history-bytes 268435456`
makes one and keeps it in DIR (the server's `--state-dir`; the room is `busy`); then
`--scrub-kept --state-dir DIR --history-bytes 268435456` starts a server (this build, which
may be newer than the one that wrote it) over DIR, lets the room load (moving again: its
threshold is 0) and scrubs it as in 3. A segment holds at most 4 MiB past its checkpoint
whatever `--history-bytes`, so a scrub of a long history replays no more than one of a short.
The size of the room's history folder on disk is printed too.

Prints the figures on stdout, the JSON of each phase on stderr. Exit status 0 unless a phase
failed. Environment: FORCELAYOUT_BIN (default .build/release/forcelayout). Stdlib and
python3-websockets.
"""

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
import urllib.request
from pathlib import Path

import websockets

import common
from common import RunningServer, positive_float, positive_int

SUBPROTOCOLS = ["forcelayout.v2"]
# The client reads only while it waits for an answer: between, its queue of frames fills and
# it stops reading, so it would miss its own keepalive's pong. The figures are what it measures.
CONNECT = {"subprotocols": SUBPROTOCOLS, "max_size": None, "ping_interval": None}


def room_entry(port, name):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/rooms", timeout=10) as reply:
        rooms = json.load(reply)["rooms"]
    return next(room for room in rooms if room["name"] == name)


class Session:
    """One WebSocket client: sends JSON, waits for a message of a type (frames skipped)."""

    def __init__(self, ws):
        self.ws = ws
        self.stats = None
        self.errors = []

    async def send(self, message):
        await self.ws.send(json.dumps(message))

    async def next(self, kind, check=lambda message: True, timeout=60, ref=None):
        """The next text message of `kind` that passes `check`, and its size in bytes. An error
        answering `ref` is raised; others (a random link that exists already) are counted."""
        deadline = time.monotonic() + timeout
        while True:
            raw = await asyncio.wait_for(self.ws.recv(), timeout=max(0.01, deadline - time.monotonic()))
            if isinstance(raw, bytes):
                continue
            if raw.startswith('{"type":"stats"'):
                self.stats = json.loads(raw)
            if raw.startswith('{"type":"' + kind + '"'):
                message = json.loads(raw)
                if check(message):
                    return message, len(raw.encode())
            elif raw.startswith('{"type":"error"'):
                error = json.loads(raw)
                if ref is not None and error.get("ref") == ref:
                    raise RuntimeError(raw)
                self.errors.append(error)

    async def added(self, cells):
        """Adds `cells` (dicts of data) in messages of 1000; returns their ids."""
        ids = []
        for start in range(0, len(cells), 1000):
            batch = cells[start:start + 1000]
            await self.send({"type": "add", "cells": batch, "ref": f"a{start}"})
            event, _ = await self.next("event", lambda e: e.get("kind") == "added" and len(e.get("ids", ())) == len(batch))
            ids.extend(event["ids"])
        return ids

    async def linked(self, links):
        for start in range(0, len(links), 1000):
            batch = links[start:start + 1000]
            await self.send({"type": "link", "links": [{"source": a, "target": b} for a, b in batch]})
            await self.next("event", lambda e: e.get("kind") == "linked")


def graph(cells, seed):
    """Labelled cells and their links (a random tree, and as many random links again), as
    indices into the cells."""
    rng = random.Random(seed)
    data = [{"label": f"cell {n}", "group": f"g{n % 12}"} for n in range(cells)]
    links = set()
    for n in range(1, cells):
        links.add((rng.randrange(n), n))
    while len(links) < 2 * (cells - 1):
        a, b = rng.randrange(cells), rng.randrange(cells)
        if a != b and (a, b) not in links and (b, a) not in links:
            links.add((a, b))
    return data, sorted(links)


async def import_graph(session, data, links):
    ids = await session.added(data)
    await session.linked([(ids[a], ids[b]) for a, b in links])
    return ids


async def share_of_stepping(session, port, room, seconds):
    """historyBytes a minute and the history's share of the stepping thread over `seconds`."""
    await session.next("stats")
    before, start = dict(session.stats), time.monotonic()
    bytes_before = room_entry(port, room)["historyBytes"]
    while time.monotonic() - start < seconds:
        await session.next("stats")
    after, wall = dict(session.stats), time.monotonic() - start
    bytes_after = room_entry(port, room)["historyBytes"]
    steps = after["tick"] - before["tick"]
    stepping_ms = steps * (before["tickMs"] + after["tickMs"]) / 2
    history_ms = after["historyMs"] - before["historyMs"]
    return {"seconds": round(wall, 1), "bytesPerMinute": round((bytes_after - bytes_before) * 60 / wall),
            "historyBytes": bytes_after, "steps": steps, "tickMs": after["tickMs"],
            "historyMs": round(history_ms, 2), "steppingMs": round(stepping_ms, 1),
            "historyShare": round(history_ms / stepping_ms, 5) if stepping_ms else None}


async def bytes_a_minute(port, cells, seconds):
    data, links = graph(cells, seed=1)
    results = {}
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/moving", **CONNECT) as ws:
        session = Session(ws)
        await session.send({"type": "params", "threshold": 0})
        await import_graph(session, data, links)
        await asyncio.sleep(6)  # past the import's checkpoint and first keyframes
        results["moving"] = await share_of_stepping(session, port, "moving", seconds)
        # Paused, so it takes no CPU from the phases after it while it waits to be unloaded.
        await session.send({"type": "params", "paused": True})
        await session.next("event", lambda e: e.get("kind") == "params")
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/settling", **CONNECT) as ws:
        session = Session(ws)
        await import_graph(session, data, links)
        imported, start = room_entry(port, "settling")["historyBytes"], time.monotonic()
        settled = None
        while time.monotonic() - start < seconds:
            await session.next("stats")
            if settled is None and session.stats["settled"]:
                settled = time.monotonic() - start
        grown, wall = room_entry(port, "settling")["historyBytes"] - imported, time.monotonic() - start
        rest = await share_of_stepping(session, port, "settling", min(seconds, 30)) if settled else None
        results["settling"] = {"importBytes": imported, "firstMinuteBytes": round(grown * 60 / wall),
                               "settledAfterSeconds": round(settled, 1) if settled else None,
                               "atRestBytesPerMinute": rest["bytesPerMinute"] if rest else None,
                               "historyBytes": room_entry(port, "settling")["historyBytes"]}
    return results


async def busy_history(port, cells, seconds, rate, reimport):
    """The busy room's activity; returns its clients (kept open) and the phase's figures."""
    data, links = graph(cells, seed=2)
    ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws/busy", **CONNECT)
    session = Session(ws)
    rng = random.Random(3)
    await session.send({"type": "params", "threshold": 0})
    start = time.monotonic()
    ids = await import_graph(session, data, links)
    await session.next("stats")
    first = dict(session.stats)
    changes, last_import, pinned = 0, time.monotonic(), set()
    made = []
    while time.monotonic() - start < seconds:
        if time.monotonic() - last_import > reimport:
            await session.send({"type": "clear"})
            await session.next("event", lambda e: e.get("kind") == "cleared")
            ids = await import_graph(session, data, links)
            last_import, pinned, made = time.monotonic(), set(), []
            changes += 1
            continue
        kind = rng.choice(["params", "pin", "unpin", "label", "link", "unlink", "add", "remove"])
        if kind == "params":
            await session.send({"type": "params", "charge": round(rng.uniform(5, 40), 1)})
        elif kind == "pin" or (kind == "unpin" and not pinned):
            cell = rng.choice(ids)
            pinned.add(cell)
            await session.send({"type": "pin", "id": cell, "x": rng.uniform(-500, 500), "y": rng.uniform(-500, 500)})
        elif kind == "unpin":
            cell = pinned.pop()
            await session.send({"type": "unpin", "id": cell})
        elif kind == "label":
            await session.send({"type": "update", "cells": [{"id": rng.choice(ids), "label": f"edited {changes}"}
                                                            for _ in range(5)]})
        elif kind == "link" or (kind == "unlink" and not made):
            a, b = rng.sample(ids, 2)
            made.append((a, b))
            await session.send({"type": "link", "links": [{"source": a, "target": b}]})
        elif kind == "unlink":
            a, b = made.pop()
            await session.send({"type": "unlink", "links": [{"source": a, "target": b}]})
        elif kind == "add":
            await session.send({"type": "add", "cells": [{"label": f"new {changes} {n}"} for n in range(10)]})
            added, _ = await session.next("event", lambda e: e.get("kind") == "added")
            ids = ids + added["ids"]
        else:
            doomed = rng.sample(ids, 10)
            await session.send({"type": "remove", "ids": doomed})
            await session.next("event", lambda e: e.get("kind") == "removed")
            gone = set(doomed)
            ids = [cell for cell in ids if cell not in gone]
            pinned -= gone
            made = [(a, b) for a, b in made if a not in gone and b not in gone]
        changes += 1
        await asyncio.sleep(1 / rate)
    await session.next("stats")
    last = dict(session.stats)
    steps = last["tick"] - first["tick"]
    stepping_ms = steps * (first["tickMs"] + last["tickMs"]) / 2
    history_ms = last["historyMs"] - first["historyMs"]
    listing = await session_history(session)
    figures = {"seconds": round(time.monotonic() - start, 1), "changes": changes, "events": listing,
               "refused": len(session.errors),
               "historyBytes": room_entry(port, "busy")["historyBytes"], "steps": steps,
               "historyMs": round(history_ms, 2), "steppingMs": round(stepping_ms, 1),
               "historyShare": round(history_ms / stepping_ms, 5) if stepping_ms else None}
    return session, figures


async def session_history(session):
    """How many events the room's history lists, and its span (from, to)."""
    count, before, span = 0, None, None
    while True:
        request = {"type": "history", "count": 1000}
        if before is not None:
            request["before"] = before
        await session.send(request)
        answer, _ = await session.next("history")
        span = span or (answer["from"], answer["to"])
        count += len(answer["events"])
        if not answer["more"] or not answer["events"]:
            return count, span
        before = answer["events"][0]["seq"]


async def scrubs(session, count, seed, pid):
    """Three passes over the same moments: without `have` and with it while the room moves,
    then without it once the room is paused (the server otherwise idle: the answer's own cost,
    also as the server's CPU time a scrub)."""
    _, (start, end) = await session_history(session)
    rng = random.Random(seed)
    moments = [rng.randint(start, end) for _ in range(count)]
    passes = {}
    have = {}
    forward = sorted(moments)
    for name in ("moving, without have", "moving, with have", "moving, a drag forward", "paused, without have"):
        if name.startswith("paused"):
            await session.send({"type": "params", "paused": True})
            await session.next("event", lambda e: e.get("kind") == "params")
            await asyncio.sleep(1)
        times, sizes, omitted, changes, held = [], [], 0, 0, None
        cpu_before = common.proc_figures(pid)[1]
        drag = name == "moving, a drag forward"
        for n, at in enumerate(forward if drag else moments):
            request = {"type": "moment", "at": at, "ref": f"m{n}"}
            if name == "moving, with have":
                request["have"] = have[n]
            elif drag and held is not None:
                request["have"] = held  # the data of the moment before: the changes since come
            sent = time.perf_counter()
            await session.send(request)
            answer, size = await session.next("moment", lambda m, ref=f"m{n}": m.get("ref") == ref, ref=f"m{n}")
            times.append((time.perf_counter() - sent) * 1000)
            sizes.append(size)
            if not drag:
                have[n] = answer["dataSeq"]
            held = answer["dataSeq"]
            omitted += "cells" not in answer
            changes += "since" in answer
            await asyncio.sleep(0.02)  # inside the message rate (60/s)
        cpu = common.proc_figures(pid)[1] - cpu_before
        ordered = sorted(times)
        passes[name] = {"p50Ms": round(statistics.median(times), 1),
                        "p99Ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], 1),
                        "maxMs": round(max(times), 1), "bytesP50": int(statistics.median(sizes)), "bytesMax": max(sizes),
                        "withoutData": omitted, "withChanges": changes, "spanSeconds": round((end - start) / 1000, 1),
                        "serverCpuMsAScrub": round(1000 * cpu / count, 1)}
    return passes


async def busy_and_scrub(port, pid, args):
    session, busy = await busy_history(port, args.cells, args.seconds, args.rate, args.reimport)
    if not args.scrubs:
        await session.ws.close()
        return busy, {}
    try:
        scrub = await scrubs(session, args.scrubs, seed=4, pid=pid)
    except Exception as error:
        raise RuntimeError(f"scrubs: {error!r}") from error
    finally:
        await session.ws.close()
    return busy, scrub


async def scrub_kept(port, pid, args):
    """Scrubs the room `busy` a server loaded from its state dir: its span, then `scrubs`."""
    ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws/busy", **CONNECT)
    session = Session(ws)
    try:
        await session.next("stats", timeout=120)
        events, span = await session_history(session)
        # Back to moving (a paused pass ends a run paused, and a run's room is kept so).
        await session.send({"type": "params", "paused": False, "threshold": 0})
        await asyncio.sleep(2)
        busy = {"events": (events, span), "historyBytes": room_entry(port, "busy")["historyBytes"]}
        return busy, await scrubs(session, args.scrubs, seed=4, pid=pid)
    finally:
        await ws.close()


def folder_bytes(path):
    """Bytes of the files under `path` (0 when it is not there)."""
    return sum(entry.stat().st_size for entry in path.rglob("*") if entry.is_file()) if path.exists() else 0


def print_scrubs(count, scrub):
    for name, figures in scrub.items():
        print(f"{count} scrubs {name}: p50 {figures['p50Ms']} ms, p99 {figures['p99Ms']} ms, "
              f"max {figures['maxMs']} ms; answer {figures['bytesP50'] / 1e3:.0f} kB (p50), "
              f"{figures['bytesMax'] / 1e3:.0f} kB (max); {figures['withoutData']} without cells/links "
              f"({figures['withChanges']} with the changes since instead); "
              f"server CPU {figures['serverCpuMsAScrub']} ms a scrub")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cells", type=positive_int, default=10_000, help="cells a room (default 10000)")
    parser.add_argument("--minute", type=positive_float, default=60.0,
                        help="seconds the moving and the settling room are measured (default 60)")
    parser.add_argument("--seconds", type=positive_float, default=150.0, help="seconds of busy history (default 150)")
    parser.add_argument("--rate", type=positive_float, default=20.0, help="changes a second in it (default 20)")
    parser.add_argument("--reimport", type=positive_float, default=60.0,
                        help="seconds between a clear and a new import in it (default 60)")
    parser.add_argument("--scrubs", type=int, default=200, help="moments asked for (default 200; 0: none)")
    parser.add_argument("--history-bytes", type=positive_int, default=32 << 20,
                        help="the server's --history-bytes (default 32 MiB, the server's; a segment, the most "
                             "events a moment replays, is an eighth of it)")
    parser.add_argument("--skip-minute", action="store_true", help="only the busy history and its scrubs")
    parser.add_argument("--state-dir", type=Path, help="the server's --state-dir, kept after the run (default: a "
                        "temporary one)")
    parser.add_argument("--scrub-kept", action="store_true", help="only scrub the room `busy` kept in --state-dir")
    args = parser.parse_args()
    if args.scrubs < 0:
        parser.error("--scrubs must be 0 or more")
    if args.scrub_kept and not (args.state_dir and (args.state_dir / "busy.json").exists()):
        parser.error("--scrub-kept needs a --state-dir holding the room busy (busy.json)")
    state_dir = args.state_dir.resolve() if args.state_dir else None
    binary = common.find_binary("release")
    print(common.header("history", f"{args.cells} cells a room"))
    flags = ("--history-bytes", str(args.history_bytes), "--messages-per-second", "1000", "--message-burst", "1000",
             "--max-total-cells", str(4 * args.cells))
    failures = []
    with RunningServer(*flags, "--state-dir", str(state_dir or "state"), binary=binary, workdir=True,
                       log_file=True) as server:
        history_folder = (state_dir or Path(server.workdir) / "state") / "busy.history"
        if args.scrub_kept:
            try:
                busy, scrub = asyncio.run(scrub_kept(server.port, server.process.pid, args))
                print(json.dumps({"kept": busy, "scrubs": scrub}), file=sys.stderr)
                events, (start, end) = busy["events"]
                print(f"kept room: {events} events over {(end - start) / 60000:.1f} minutes of history, "
                      f"{busy['historyBytes'] / 1e6:.1f} MB in memory, {folder_bytes(history_folder) / 1e6:.1f} MB on disk")
                print_scrubs(args.scrubs, scrub)
            except Exception as error:  # noqa: BLE001
                failures.append(f"kept history: {error!r}")
            sys.exit(common.exit_status(failures))
        if not args.skip_minute:
            try:
                minute = asyncio.run(bytes_a_minute(server.port, args.cells, args.minute))
                print(json.dumps({"bytesAMinute": minute}), file=sys.stderr)
                moving, settling = minute["moving"], minute["settling"]
                print(f"moving room, {moving['seconds']} s: {moving['bytesPerMinute'] / 1e6:.2f} MB of history a minute; "
                      f"history {moving['historyMs']} ms of {moving['steppingMs']} ms stepping "
                      f"({100 * (moving['historyShare'] or 0):.2f}%, {moving['steps']} steps at {moving['tickMs']} ms)")
                print(f"settling room: its import {settling['importBytes'] / 1e6:.2f} MB, then "
                      f"{settling['firstMinuteBytes'] / 1e6:.2f} MB a minute over the next {args.minute:.0f} s "
                      f"(settled after {settling['settledAfterSeconds']} s), "
                      f"{settling['atRestBytesPerMinute']} bytes a minute at rest")
            except Exception as error:  # noqa: BLE001 (reported, and the next phase runs)
                failures.append(f"bytes a minute: {error!r}")
        try:
            busy, scrub = asyncio.run(busy_and_scrub(server.port, server.process.pid, args))
            print(json.dumps({"busy": busy, "scrubs": scrub}), file=sys.stderr)
            events, (start, end) = busy["events"]
            print(f"busy room (--history-bytes {args.history_bytes}): {busy['changes']} changes in {busy['seconds']} s, "
                  f"{events} events over {(end - start) / 1000:.0f} s of history, {busy['historyBytes'] / 1e6:.1f} MB; history "
                  f"{busy['historyMs']} ms of {busy['steppingMs']} ms stepping ({100 * (busy['historyShare'] or 0):.2f}%); "
                  f"{folder_bytes(history_folder) / 1e6:.1f} MB on disk")
            print_scrubs(args.scrubs, scrub)
        except Exception as error:  # noqa: BLE001
            failures.append(f"busy history: {error!r}")
        if state_dir:
            server.shutdown()  # a clean stop: the rooms saved, the history written out
    sys.exit(common.exit_status(failures))


if __name__ == "__main__":
    main()
