#!/usr/bin/python3
"""`make load-cluster`: a cluster on this machine against one server, and the time a failover takes.

Readers: for each count (--readers), two runs of `forcelayout load` (protocol v2, one room of
--cells moving cells at --tick-rate, stepped by one server): against one server alone, and
against a local Redis and three servers (nodes a, b, c), the room stepped by a and the
readers dealt out over all three (`load --url` three times). A run passes when every reader
gets at least 95% of the frames, the p99 tick-to-receive latency is under 150 ms, and no
reader was closed (a room that moved to another server under load closes some); the table
gives, for each, the most readers that passed, and which server stepped the room at the end. Beside them: each server's CPU, Redis's
CPU and the bytes a second it took in and sent (INFO), the load tool's CPU and the machine's.

Failover (--kills, default 10): three servers and Redis, a room of --cells moving cells with a
client on each server; kill -9 the server stepping it, and time until a client of another
server gets the `failover` event (the room stepped again elsewhere); restart the killed one,
let it settle, repeat. Median and worst.

Rolling restart (--restarts rounds, default 1; bench/rolling_restart.py): three servers and
Redis, --restart-rooms rooms of --restart-cells moving cells, --restart-readers readers and a
writer a room; each server in turn drains (SIGTERM) and is started again. The longest gap
between frames each reader sees (p99 over readers, against the issue's 250 ms), cells lost
(0), each drain's time.

This machine is shared and small (`nproc` cores): all of it (Redis, three servers, the tool)
runs on it, so the cluster's figures show what the design costs here, not what three
machines would give. Never part of `make test`. Exit 0 when it measured; 2 when a run failed.
Environment: FORCELAYOUT_BIN (default .build/release/forcelayout). Stdlib only (and the
python3-websockets of the test suite for the failover clients).
"""
import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time

import common
from cluster import Cluster
from common import ROOT, RunningServer
from rolling_restart import rolling_restart

sys.path.insert(0, str(ROOT / "Tests" / "e2e"))
from client import Client  # noqa: E402


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--readers", type=common.int_list, default=[300, 600, 900, 1200])
    parser.add_argument("--cells", type=common.positive_int, default=2000)
    parser.add_argument("--tick-rate", type=common.positive_float, default=20)
    parser.add_argument("--seconds", type=common.positive_float, default=20)
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument("--processes", type=common.positive_int, default=os.cpu_count() or 1)
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--skip-load", action="store_true")
    parser.add_argument("--restarts", type=int, default=1, help="rounds of the rolling restart (0: none)")
    parser.add_argument("--restart-rooms", type=common.positive_int, default=3)
    parser.add_argument("--restart-cells", type=common.positive_int, default=1000)
    parser.add_argument("--restart-readers", type=common.positive_int, default=300)
    return parser.parse_args()


def redis_info(redis):
    """(CPU seconds, bytes in, bytes out) of the Redis server, from INFO."""
    out = subprocess.run(["redis-cli", "-p", str(redis.port), "INFO"], capture_output=True, text=True).stdout
    fields = dict(line.split(":", 1) for line in out.splitlines() if ":" in line)
    return (float(fields["used_cpu_sys"]) + float(fields["used_cpu_user"]),
            int(fields["total_net_input_bytes"]), int(fields["total_net_output_bytes"]))


def run_load(binary, args, readers, urls, server_pid):
    command = [str(binary), "load", "--server-pid", str(server_pid), "--protocol", "2",
               "--processes", str(args.processes), "--clients", str(readers), "--stalled", "0", "--slow", "0",
               "--cells", str(args.cells), "--tick-rate", str(args.tick_rate),
               "--seconds", str(args.seconds), "--warmup", str(args.warmup)]
    for url in urls:
        command += ["--url", url]
    run = subprocess.run(command, capture_output=True, text=True, timeout=args.seconds + args.warmup + 180)
    if run.returncode != 0 or not run.stdout.strip():
        raise RuntimeError(f"forcelayout load failed ({run.returncode}): {run.stderr.strip()[-1500:]}")
    return json.loads(run.stdout.strip().splitlines()[-1])


def one_server(binary, args, readers):
    limits = ["--max-clients", str(readers + 20), "--max-connections-per-address", str(readers + 64)]
    with RunningServer(*limits, binary=binary, log_file=True) as server:
        before = common.proc_figures(server.pid)[1]
        started = time.monotonic()
        figures = run_load(binary, args, readers, [server.ws], server.pid)
        cpu = (common.proc_figures(server.pid)[1] - before) / (time.monotonic() - started)
        return figures, [cpu], None


def three_servers(binary, args, readers):
    share = readers // 3 + 20
    limits = ["--max-clients", str(share), "--max-connections-per-address", str(share + 64)]
    with Cluster(binary, extra=limits) as cluster:
        # Room main is made on a first, so a steps it (and a's /stats, which the tool reads,
        # is the owner's); the readers then join it everywhere.
        first = asyncio.run(claim_main(cluster.servers[0]))
        pids = [server.pid for server in cluster.servers]
        before = [common.proc_figures(pid)[1] for pid in pids]
        redis_before = redis_info(cluster.redis)
        started = time.monotonic()
        figures = run_load(binary, args, readers, [server.ws for server in cluster.servers], pids[0])
        elapsed = time.monotonic() - started
        cpu = [(common.proc_figures(pid)[1] - b) / elapsed for pid, b in zip(pids, before)]
        redis_after = redis_info(cluster.redis)
        owner = next((room["node"] for room in cluster.servers[1].rooms() if room["name"] == "main"), "?")
        redis = {"cpu": (redis_after[0] - redis_before[0]) / elapsed,
                 "in": (redis_after[1] - redis_before[1]) / elapsed, "out": (redis_after[2] - redis_before[2]) / elapsed,
                 "owner": owner}
        return figures, cpu, redis


async def claim_main(server):
    async with Client(server.ws) as client:
        await client.next("frame")
    return client.id


def passes(figures):
    return figures.get("delivered", {}).get("min", 0) >= 0.95 \
        and figures.get("latencyMs", {}).get("p99", float("inf")) < 150 and figures.get("connectFailures", 1) == 0 \
        and figures.get("readersClosed", 1) == 0


def load_rows(binary, args):
    rows, best = [], {"one server": 0, "three servers": 0}
    for readers in args.readers:
        for name, run in (("one server", one_server), ("three servers", three_servers)):
            figures, cpu, redis = run(binary, args, readers)
            print(json.dumps({"setup": name, "readers": readers, "figures": figures, "cpu": cpu, "redis": redis},
                             sort_keys=True), file=sys.stderr)
            ok = passes(figures)
            if ok:
                best[name] = max(best[name], readers)
            label = f"{name} ({redis['owner']} steps it)" if redis else name
            # a run where no reader got a frame has no share or latency to show
            share = figures.get("delivered", {}).get("min")
            p99 = figures.get("latencyMs", {}).get("p99")
            line = (f"| {readers} | {label} | {'–' if share is None else f'{share:.1%}'} | "
                    f"{'–' if p99 is None else f'{p99:.1f}'} | "
                    f"{figures.get('serverTicksPerSecond', float('nan')):.1f} | {' + '.join(f'{c:.2f}' for c in cpu)} | "
                    f"{figures.get('loadToolCPUCores', float('nan')):.2f} | {figures.get('machineBusyCores', float('nan')):.2f} | ")
            line += (f"{redis['cpu']:.2f} | {redis['in'] / 1e6:.2f} / {redis['out'] / 1e6:.2f} |" if redis else "– | – |")
            rows.append(line + (" ok |" if ok else " MISSED |"))
    return rows, best


async def failover_times(binary, args):
    times = []
    with Cluster(binary) as cluster:
        servers = cluster.servers
        room = "failover"
        setup = await Client(servers[0].room(room)).__aenter__()
        for start in range(0, args.cells, 1000):
            await setup.send({"type": "add", "count": min(1000, args.cells - start)})
            await setup.event("added", by=setup.id, timeout=20)
        await setup.send({"type": "params", "threshold": 0, "tickRate": args.tick_rate})
        await setup.__aexit__(None, None, None)
        for kill in range(args.kills):
            owner = None
            deadline = time.monotonic() + 10
            while owner is None and time.monotonic() < deadline:
                alive = next(server for server in servers if server.process.poll() is None)
                owner = next((r.get("node") for r in alive.rooms() if r["name"] == room), None)
                await asyncio.sleep(0.2)
            victim = "abc".index(owner)
            watchers = [await Client(server.room(room), subprotocols=("forcelayout.v2",)).__aenter__()
                        for index, server in enumerate(servers) if index != victim]
            await asyncio.sleep(1.5)  # a state written since the watchers came
            servers[victim].stop()  # kill -9
            killed = time.monotonic()
            waits = [asyncio.create_task(w.event("failover", timeout=30)) for w in watchers]
            done, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            times.append(time.monotonic() - killed)
            for task in pending:
                task.cancel()
            await asyncio.gather(*waits, return_exceptions=True)
            print(f"kill {kill + 1}: {owner} killed, room stepped again after {times[-1]:.2f} s", file=sys.stderr)
            for watcher in watchers:
                await watcher.__aexit__(None, None, None)
            servers[victim].start()
            await asyncio.sleep(1.5)
    return times


def main():
    args = parse_args()
    binary = common.find_binary("release")
    print(common.header("forcelayout load-cluster"))
    print(f"protocol v2, {args.cells} moving cells at {args.tick_rate:g} Hz in one room; {args.processes} load threads; "
          f"{args.warmup:g} s warm-up, {args.seconds:g} s measured; {os.cpu_count()} cores for everything")
    if not args.skip_load:
        rows, best = load_rows(binary, args)
        print("\n| readers | setup | worst reader's share of frames | latency p99 (ms) | ticks/s | server CPU (cores, each) "
              "| load tool CPU | machine busy | Redis CPU | Redis MB/s in / out | 95% and p99 < 150 ms |")
        print("|---:|---|---:|---:|---:|---|---:|---:|---:|---|:---:|")
        for row in rows:
            print(row)
        print(f"\nmost readers that passed: one server {best['one server'] or 'none'}, three servers "
              f"{best['three servers'] or 'none'} (of {', '.join(map(str, args.readers))})")
    failed = False
    if args.restarts:
        figures = asyncio.run(rolling_restart(binary, rounds=args.restarts, rooms=args.restart_rooms,
                                              cells=args.restart_cells, readers=args.restart_readers,
                                              tick_rate=args.tick_rate))
        print(json.dumps({"setup": "rolling restart", "figures": figures}, sort_keys=True), file=sys.stderr)
        pause = figures["pauseMs"]
        ok = pause["p99"] < 250 and figures["cellsLost"] == 0 and all(d["exit"] == 0 for d in figures["drains"])
        failed |= not ok
        drains = [d["seconds"] for d in figures["drains"]]
        print(f"\nrolling restart ({args.restarts} round{'s' if args.restarts > 1 else ''} over a, b, c; "
              f"{args.restart_rooms} rooms of {args.restart_cells} moving cells, {args.restart_readers} readers, "
              f"a writer a room adding a cell every 0.2 s):")
        print("\n| longest pause a reader saw: p99 / median / worst (ms) | of which: connected, across a move (p99, ms) "
              "| cells lost (of added) | drain time (s) | readers moved / reconnected | frames/s of the slowest reader | tool CPU "
              "| p99 < 250 ms, 0 lost |")
        print("|---|---|---:|---|---:|---:|---:|:---:|")
        print(f"| {pause['p99']:.0f} / {pause['median']:.0f} / {pause['max']:.0f} "
              f"| {figures['pauseConnectedMs']['p99']:.0f}, {figures['pauseReconnectingMs']['p99']:.0f} | {figures['cellsLost']} "
              f"({figures['cellsAdded']}) | {min(drains):.2f}–{max(drains):.2f} | {figures['moves']} / {figures['reconnects']} | "
              f"{figures['framesPerReader']:.1f} | {figures['toolCPUCores']:.2f} | {'ok' if ok else 'MISSED'} |")
    if args.kills:
        times = asyncio.run(failover_times(binary, args))
        print(f"\nfailover ({len(times)} kills of the server stepping a room of {args.cells} cells): median "
              f"{statistics.median(times):.2f} s, best {min(times):.2f} s, worst {max(times):.2f} s")
    return 2 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
