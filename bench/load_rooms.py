#!/usr/bin/python3
"""`make load-rooms`: rooms (issue 11) under load, against their targets.

Four scenarios, each on a fresh `forcelayout serve` (release, free loopback port, through
the launcher every suite uses) with room limits wide enough for them:

moving  --rooms rooms of --cells cells each, kept moving (threshold 0) at --tick-rate frames/s,
        one reading client each (`forcelayout load --rooms`), --warmup then --seconds
        measured, the server with a --state-dir as `make run` has. Target: every room's reader
        gets at least 95% of its frame rate (9.5/s at 10); steps per second are reported
        (issue 23: several a frame while the pool has time).
unsaved the same without --state-dir, so what saving the moving rooms costs shows.
idle    --idle-rooms rooms of --idle-cells cells made by `forcelayout load --rooms --settle`
        (each client adds its cells, waits until its room settles, leaves), then the server
        with nobody connected is watched --idle-seconds. Target: under 1% of a core, RSS under
        200 MB.
disk    --disk-rooms room files (the server's own state-file format) written straight into a
        --state-dir, then the server started --starts times on it. Target: process start to
        its "listening on" line under 2 s, every time. One room is then joined, to show the
        files are valid.

CPU and memory are the server process's (user + system seconds per second and RSS, from
/proc/PID/stat and /proc/PID/status); the load tool reports its own CPU too, so a tool that
is the bottleneck shows. Every JSON line goes to stderr, the table to stdout.
Exit status 0 when every target is met, 1 otherwise, 2 when a run itself failed.
Environment: FORCELAYOUT_BIN (default .build/release/forcelayout; relative to the checkout).
Stdlib only.
"""

import argparse
import base64
import json
import math
import os
import random
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import common
from common import RunningServer, ServerDidNotStart, machine_busy_seconds, proc_figures
from raw_websocket import status_code, status_line, upgrade_request  # Tests/e2e, on the path through common

SCENARIOS = ("moving", "unsaved", "idle", "disk")
# Parameters at their defaults (ForceLayout's Parameters.table), as the server writes them.
DEFAULT_PARAMETERS = {"cellSize": 20, "charge": 10, "collide": False, "edgeLength": 30, "model": "auto", "paused": False,
                      "stiffness": 0.02, "theta": 0.9, "threshold": 0.3, "tickRate": 20}


class RunFailed(Exception):
    """A scenario could not be measured (the server or the load tool failed)."""


def roomy_flags(clients):
    """Serve flags wide enough for these scenarios: every room and client from one address."""
    return ["--max-rooms", "20000", "--max-rooms-per-address", "20000", "--rooms-per-minute", "100000",
            "--max-total-cells", "10000000",
            "--max-clients", str(clients + 50), "--max-connections", str(clients + 200),
            "--max-connections-per-address", str(clients + 100)]


def start_server(binary, *flags):
    try:
        # Its log goes to a file: the server never waits for us to read it.
        return RunningServer(*flags, binary=binary, log_file=True)
    except ServerDidNotStart as error:
        raise RunFailed(f"the server did not start: {error}")


def http_json(server, path):
    with urllib.request.urlopen(server.http + path, timeout=10) as reply:
        return json.load(reply)


def run_load(binary, server, *args, timeout):
    """`forcelayout load --url <server> --server-pid <pid> *args`: its JSON line."""
    command = [str(binary), "load", "--url", server.ws, "--server-pid", str(server.pid), *map(str, args)]
    try:
        run = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise RunFailed(f"forcelayout load did not finish in {timeout:.0f} s: {' '.join(command)}")
    if run.returncode != 0 or not run.stdout.strip():
        raise RunFailed(f"forcelayout load failed ({run.returncode}): {run.stderr.strip()[-2000:]}")
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    print(json.dumps(figures, sort_keys=True), file=sys.stderr)
    return figures


def row(name, value, target="", ok=True):
    return (name, value, target, ok)


# moving ----------------------------------------------------------------------------------

def moving(binary, args, saved=True):
    """`saved`: with a --state-dir, as `make run` (every moving room written every 0.75 s)."""
    flags = roomy_flags(args.rooms)
    state = tempfile.mkdtemp(prefix="forcelayout-rooms-moving-")
    if saved:
        flags += ["--state-dir", state]
    tag = "(a)" if saved else "(a, no --state-dir)"
    try:
        with start_server(binary, *flags) as server:  # at the end, its log file is removed
            try:
                figures = run_load(binary, server, "--rooms", args.rooms, "--cells", args.cells,
                                   "--tick-rate", args.tick_rate, "--seconds", args.seconds, "--warmup", args.warmup,
                                   "--room-prefix", "move", timeout=args.seconds + args.warmup + 180)
                stats = http_json(server, "/stats")
                alive = server.process.poll() is None
            finally:
                server.shutdown(timeout=30)
    finally:
        shutil.rmtree(state, ignore_errors=True)
    steps = figures["stepsPerSecond"]
    frames = figures["framesPerSecond"]
    floor = 0.95 * args.tick_rate
    process = figures.get("serverProcess", {})
    rooms_ok = stats.get("rooms") == args.rooms and stats.get("totalCells") == args.rooms * args.cells
    clean = figures["errors"] == 0 and figures["connectFailures"] == 0 and figures["readersClosed"] == 0
    return [
        row(f"{tag} frames/s per reader, min / median ({args.rooms} rooms x {args.cells} moving cells, tickRate {args.tick_rate:g})",
            f"{frames['min']:.2f} / {frames['median']:.2f}", f"every room ≥ {floor:g}", frames["min"] >= floor),
        row(f"{tag} steps/s per room, min / median (several a frame while the pool has time)",
            f"{steps['min']:.2f} / {steps['median']:.2f}"),
        row(f"{tag} latency p50 / p99 / max (ms)",
            f"{figures['latencyMs']['p50']:.1f} / {figures['latencyMs']['p99']:.1f} / {figures['latencyMs']['max']:.1f}"),
        row(f"{tag} longest wait between two frames, any reader (ms)", f"{figures['longestFrameGapMs']:.0f}"),
        row(f"{tag} server CPU (cores), RSS / peak (MB)",
            f"{process.get('cpuCores', float('nan')):.2f}, {process.get('rssMB', float('nan')):.0f} / "
            f"{process.get('peakRSSMB', float('nan')):.0f}"),
        row(f"{tag} load tool CPU (cores), throughput (MB/s)",
            f"{figures.get('loadToolCPUCores', float('nan')):.2f}, {figures['bytesPerSecond'] / 1e6:.1f}"),
        row(f"{tag} whole machine busy (cores of {os.cpu_count()})", f"{figures.get('machineBusyCores', float('nan')):.2f}"),
        row(f"{tag} rooms / cells in memory (server)", f"{stats.get('rooms')} / {stats.get('totalCells')}",
            f"{args.rooms} / {args.rooms * args.cells}", rooms_ok),
        row(f"{tag} errors / failed connects / readers closed",
            f"{figures['errors']} / {figures['connectFailures']} / {figures['readersClosed']}", "all 0", clean),
        row(f"{tag} server alive at the end", "yes" if alive else "NO", "yes", alive),
    ]


# idle ------------------------------------------------------------------------------------

def idle(binary, args):
    state = tempfile.mkdtemp(prefix="forcelayout-rooms-idle-")
    # Unloading idle rooms would hide what settled rooms in memory cost: not within this run.
    try:
        with start_server(binary, *roomy_flags(args.idle_rooms), "--state-dir", state,
                          "--room-idle-seconds", "3600") as server:
            try:
                made = run_load(binary, server, "--rooms", args.idle_rooms, "--cells", args.idle_cells, "--settle",
                                "--seconds", args.settle_timeout, "--room-prefix", "idle",
                                timeout=args.settle_timeout + 120)
                # Until the server has seen every client leave, then a little more for the last saves.
                deadline = time.monotonic() + 30
                while http_json(server, "/stats").get("totalClients", 0) > 0 and time.monotonic() < deadline:
                    time.sleep(0.5)
                time.sleep(args.quiet)
                stats_before = http_json(server, "/stats")
                _, cpu_before, _ = proc_figures(server.pid)
                machine_before = machine_busy_seconds()
                started = time.monotonic()
                time.sleep(args.idle_seconds)
                _, cpu_after, rss = proc_figures(server.pid)
                elapsed = time.monotonic() - started
                machine = (machine_busy_seconds() - machine_before) / elapsed
                peak = peak_rss_mb(server.pid)
                stats_after = http_json(server, "/stats")
                alive = server.process.poll() is None
            finally:
                server.shutdown(timeout=30)
    finally:
        shutil.rmtree(state, ignore_errors=True)
    cores = (cpu_after - cpu_before) / elapsed
    print(json.dumps({"scenario": "idle", "cores": round(cores, 4), "machineBusyCores": round(machine, 3),
                      "seconds": round(elapsed, 2), "rssMB": round(rss, 1),
                      "peakRSSMB": peak, "statsBefore": stats_before, "statsAfter": stats_after}, sort_keys=True),
          file=sys.stderr)
    expected = (args.idle_rooms, args.idle_rooms * args.idle_cells, 0)
    found = [(s.get("rooms"), s.get("totalCells"), s.get("totalClients")) for s in (stats_before, stats_after)]
    settle = made["secondsToSettle"]
    return [
        row(f"(b) rooms made and settled ({args.idle_cells} cells each), seconds to settle median / max",
            f"{made['settled']} of {made['rooms']}, {settle['median']:.1f} / {settle['max']:.1f}",
            f"{args.idle_rooms}", made["settled"] == args.idle_rooms),
        row("(b) load tool CPU while making them (cores)", f"{made.get('loadToolCPUCores', float('nan')):.2f}"),
        row("(b) rooms / cells / clients in memory, before → after the window",
            " → ".join(f"{r} / {c} / {k}" for r, c, k in found), " / ".join(map(str, expected)),
            all(f == expected for f in found)),
        row(f"(b) server CPU with nobody connected, {elapsed:.0f} s (% of a core)", f"{100 * cores:.2f}", "< 1", cores < 0.01),
        row("(b) server RSS / peak (MB)", f"{rss:.0f} / {peak:.0f}", "< 200", rss < 200),
        row(f"(b) whole machine busy meanwhile (cores of {os.cpu_count()})", f"{machine:.2f}"),
        row("(b) server alive at the end", "yes" if alive else "NO", "yes", alive),
    ]


def peak_rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")) / 1024


# disk ------------------------------------------------------------------------------------

def state_document(cells, seed):
    """A room's state file as the server writes it for a settled room it unloads (StateFile:
    format "forcelayout-state", version 2, keys sorted, `settled` true): `cells` cells with
    ids 1…cells on a sunflower spiral about the centre (spacing near the cell size),
    parameters at their defaults."""
    rng = random.Random(seed)
    golden = math.pi * (3 - math.sqrt(5))
    turn = rng.random() * 2 * math.pi
    records = []
    for index in range(cells):
        radius = 21 * math.sqrt(index + 0.5)
        angle = index * golden + turn
        records.append({"id": index + 1, "pinned": False,
                        "x": round(radius * math.cos(angle), 3), "y": round(radius * math.sin(angle), 3)})
    layout = {"cells": records, "nextID": cells + 1, "parameters": DEFAULT_PARAMETERS}
    return {"format": "forcelayout-state", "layout": layout, "reservation": cells + 1 + 1024, "settled": True,
            "version": 2}


def write_rooms(directory, rooms, cells):
    """DIR/disk-00001.json … : the room names, in order."""
    width = max(4, len(str(rooms)))
    names = [f"disk-{index:0{width}d}" for index in range(1, rooms + 1)]
    for index, name in enumerate(names):
        with open(os.path.join(directory, name + ".json"), "w") as file:
            json.dump(state_document(cells, index), file, sort_keys=True, separators=(",", ":"))
    return names


def join(server, name):
    """Opens a WebSocket to room `name` and returns (HTTP status, the socket)."""
    connection = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    connection.sendall(upgrade_request(server.port, base64.b64encode(os.urandom(16)).decode(), path=f"/ws/{name}"))
    return status_code(status_line(connection)) or 0, connection


def disk(binary, args):
    state = tempfile.mkdtemp(prefix="forcelayout-rooms-disk-")
    try:
        began = time.monotonic()
        names = write_rooms(state, args.disk_rooms, args.disk_cells)
        written = time.monotonic() - began
        size = sum(entry.stat().st_size for entry in os.scandir(state)) / 1e6
        print(f"wrote {len(names)} room files ({size:.0f} MB) in {written:.1f} s", file=sys.stderr)
        starts, check = [], None
        for attempt in range(args.starts):
            started = time.monotonic()
            # Not waited for by the launcher (it polls every 0.1 s): its listening event is.
            with RunningServer(*roomy_flags(10), "--state-dir", state, binary=binary, log_file=True,
                               expect_failure=True) as server:
                try:
                    listening = server.listening.wait(60)
                    took = time.monotonic() - started
                    if not listening:
                        raise RunFailed(f"the server did not listen within 60 s on {len(names)} room files:\n"
                                        + server.log[-3000:])
                    starts.append(took)
                    _, _, rss = proc_figures(server.pid)
                    if check is None:
                        check = check_room(server, random.Random(attempt).choice(names), args.disk_cells)
                        check["rssAtStartMB"] = round(rss, 1)
                finally:
                    server.shutdown(timeout=30)
    finally:
        shutil.rmtree(state, ignore_errors=True)
    print(json.dumps({"scenario": "disk", "rooms": len(names), "startSeconds": [round(s, 3) for s in starts],
                      "writtenSeconds": round(written, 1), "MB": round(size, 1), **check}, sort_keys=True), file=sys.stderr)
    return [
        row(f"(c) start-up on {len(names)} room files, {args.starts} starts: max / each (s)",
            f"{max(starts):.2f} / " + ", ".join(f"{s:.2f}" for s in starts), "< 2", max(starts) < 2),
        row("(c) server RSS after start (MB)", f"{check['rssAtStartMB']:.0f}"),
        row(f"(c) a room file loads: {check['room']} joined (HTTP {check['status']}), cells in /rooms",
            f"{check['cells']}", f"{args.disk_cells}", check["status"] == 101 and check["cells"] == args.disk_cells),
    ]


def check_room(server, name, cells):
    status, connection = join(server, name)
    try:
        listed = {}
        if status == 101:
            deadline = time.monotonic() + 10
            while name not in listed and time.monotonic() < deadline:
                listed = {room["name"]: room for room in http_json(server, "/rooms").get("rooms", [])}
                if name not in listed:
                    time.sleep(0.1)
        return {"room": name, "status": status, "cells": listed.get(name, {}).get("cells")}
    finally:
        connection.close()


# -----------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", default=",".join(SCENARIOS),
                        help=f"scenarios to run, comma-separated, of {', '.join(SCENARIOS)} (default: all)")
    group = parser.add_argument_group("moving")
    group.add_argument("--rooms", type=common.positive_int, default=200)
    group.add_argument("--cells", type=common.positive_int, default=500)
    group.add_argument("--tick-rate", type=common.positive_float, default=10)
    group.add_argument("--seconds", type=common.positive_float, default=30)
    group.add_argument("--warmup", type=common.positive_float, default=5)
    group = parser.add_argument_group("idle")
    group.add_argument("--idle-rooms", type=common.positive_int, default=1000)
    group.add_argument("--idle-cells", type=common.positive_int, default=50)
    group.add_argument("--idle-seconds", type=common.positive_float, default=10)
    group.add_argument("--settle-timeout", type=common.positive_float, default=120,
                       help="longest wait for the rooms to settle")
    group.add_argument("--quiet", type=common.positive_float, default=3,
                       help="seconds between the last client leaving and the window")
    group = parser.add_argument_group("disk")
    group.add_argument("--disk-rooms", type=common.positive_int, default=10_000)
    group.add_argument("--disk-cells", type=common.positive_int, default=50)
    group.add_argument("--starts", type=common.positive_int, default=3)
    args = parser.parse_args()
    chosen = [name.strip() for name in args.only.split(",") if name.strip()]
    unknown = [name for name in chosen if name not in SCENARIOS]
    if unknown or not chosen:
        parser.error(f"--only: unknown scenario(s) {', '.join(unknown)}; choose from {', '.join(SCENARIOS)}")

    binary = common.find_binary("release")
    if not binary.exists():
        print(f"load-rooms: {binary} is missing (swift build -c release)", file=sys.stderr)
        return 2
    # One descriptor per room client in the tool, one per connection in the server.
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print(common.header("forcelayout load-rooms"))
    began = time.monotonic()
    rows, failed = [], []
    for name in chosen:
        try:
            run = {"moving": moving, "unsaved": lambda *a: moving(*a, saved=False), "idle": idle, "disk": disk}[name]
            rows += run(binary, args)
        except (RunFailed, OSError, ValueError, KeyError) as error:
            print(f"load-rooms: {name}: {error}", file=sys.stderr)
            failed.append(name)
    print()
    print("| figure | measured | target | |")
    print("|---|---:|---|:---:|")
    for name, value, target, ok in rows:
        print(f"| {name} | {value} | {target} | {'' if not target else 'ok' if ok else 'MISSED'} |")
    for name in failed:
        print(f"| {name} | could not be measured (see above) | | MISSED |")
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"\ntotal {time.monotonic() - began:.0f} s; load average at the end {load}")
    if failed:
        return 2
    return 0 if all(ok for *_, ok in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
