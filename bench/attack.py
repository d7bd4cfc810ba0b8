#!/usr/bin/python3
"""`make attack`: what one machine's attacker costs the server, measured (never part of make test).

Starts `forcelayout serve` (release) on a free loopback port and runs these attacks in turn,
each bounded in count and time, loopback only:

1. **Idle connections that never upgrade**, while the layout is empty: `--idle` TCP
   connections opened as fast as the machine allows (spread over `--addresses` source
   addresses in 127.0.0.0/8, or one), each sending nothing. Reported: the server's open file
   descriptors and CPU (sampled from /proc) during and after the flood, and how long a fresh
   WebSocket client (from another address and from the attacker's own) waits for `hello`.
2. **Never-reading replay clients.** The layout gets `--cells` cells in adds of 1000 (so the
   replay buffer holds large `added` events); then `--replayers` WebSocket clients with tiny
   receive buffers send `replay` requests within the rate limit and never read, reconnecting
   whenever the server closes them. Reported: the server's RSS (median, peak, after) against
   the stated worst case, clients x (--max-queued-bytes + the largest message), and how many
   times the server closed them.

3. **Amplification through `update`** (`attack_amplification.py`): 1,000 long-labelled cells,
   hundreds of no-op and real updates, twenty joiners that never read, and a probe client in
   another room. Reported: a late joiner's hello against `replayBytes`, RSS, joiners closed,
   the probe's hello time. Skipped with --skip-amplification.
4. **Redis poison** (`bench/redis_poison.py`): a redis-server and three servers; for
   `--poison-seconds`, what someone who can write to their Redis sends (forged summaries,
   sequence numbers of 2^64 - 1, garbage, a lease with no expiry). Reported: servers alive,
   /stats answered, a fresh client's wait for `hello` in the room, when the room was stepped
   again. Skipped with --skip-redis, or when redis-server is not installed.
5. **Exports of a large room on disk** (on a server of its own with `--state-dir`): a room of
   `--export-cells` cells and two links a cell is written to its file; `--export-loops`
   processes (each from its own address) download `/export/big.gexf` and `.json` in a loop for
   `--export-seconds`, each download checked whole (its length as announced, the JSON parsed,
   the GEXF's last element closed), while a probe measures `hello` in room `main` every 0.1 s.
   Then `--unread-exports` connections from as many addresses ask for an export and never
   read. Reported: the probe's hello (median, p99, max), downloads whole or not, how long a
   client waits for hello in a copy of the room loaded from its file (and the probe meanwhile),
   the server's RSS with the unread exports against `--max-export-bytes`, and how many were
   refused.

Prints a table per attack and one JSON line with every figure. Exit 0 when the run completed.
Environment: FORCELAYOUT_BIN (default .build/release/forcelayout; relative to the checkout).
Stdlib only.
"""

import argparse
import base64
import http.client
import json
import multiprocessing
import os
import pathlib
import resource
import selectors
import shutil
import socket
import sys
import tempfile
import threading
import time

import attack_amplification
import common
import redis_poison
from raw_websocket import frame_bytes, upgrade_request  # Tests/e2e, on the path through common
from state_files import write_room  # Tests/e2e
from common import ROOT, RunningServer, ServerDidNotStart, proc_figures
from waiting import drain  # Tests/e2e

LOG_PATH = ROOT / ".build" / "attack-server.log"
IP_BIND_ADDRESS_NO_PORT = getattr(socket, "IP_BIND_ADDRESS_NO_PORT", 24)


def self_cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def closed_already(connection):
    try:
        if connection.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b"":
            connection.close()
            return True
        return False
    except BlockingIOError:
        return False
    except OSError:
        connection.close()
        return True


def upgrade(port, path="/ws"):
    return upgrade_request(port, base64.b64encode(os.urandom(16)).decode(), path=path)


def masked(payload):
    return frame_bytes(0x1, payload)


def time_to_hello(port, source, path="/ws", timeout=5):
    """Seconds from connect to the first WebSocket message (hello); None if refused or too slow."""
    started = time.monotonic()
    try:
        connection = socket.socket()
        connection.settimeout(timeout)
        connection.setsockopt(socket.IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, 1)
        connection.bind((source, 0))
        connection.connect(("127.0.0.1", port))
        connection.sendall(upgrade_request(port, base64.b64encode(os.urandom(16)).decode(), path=path))
        buffer = b""
        while b"\r\n\r\n" not in buffer:
            chunk = connection.recv(65536)
            if not chunk:
                return None
            buffer += chunk
        rest = buffer.split(b"\r\n\r\n", 1)[1]
        while len(rest) < 2:
            chunk = connection.recv(65536)
            if not chunk:
                return None
            rest += chunk
        return time.monotonic() - started
    except OSError:
        return None
    finally:
        connection.close()


def add_cells(port, cells):
    connection = socket.create_connection(("127.0.0.1", port), timeout=30)
    connection.sendall(upgrade(port))
    for _ in range(0, cells, 1000):
        connection.sendall(masked(json.dumps({"type": "add", "count": 1000}).encode()))
        time.sleep(1 / 50)  # within the rate limit
    time.sleep(1)
    connection.close()


def log_count(text):
    """Lines of the server's log (so far) that contain `text`."""
    with open(LOG_PATH) as log:
        return sum(text in line for line in log)


def replay_attack(port, pid, args):
    """Clients that ask for replays and never read; reconnect when closed."""
    stop = time.monotonic() + args.seconds
    request = masked(json.dumps({"type": "replay", "count": 256}).encode())
    closes = [0]
    peak = [0.0]

    def attacker():
        while time.monotonic() < stop:
            try:
                connection = socket.socket()
                connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                connection.settimeout(5)
                connection.connect(("127.0.0.1", port))
                connection.sendall(upgrade(port))
                while time.monotonic() < stop:
                    connection.sendall(request)
                    time.sleep(1 / args.replay_rate)
            except OSError:
                closes[0] += 1
            finally:
                connection.close()

    threads = [threading.Thread(target=attacker, daemon=True) for _ in range(args.replayers)]
    before = proc_figures(pid)
    started_cpu = self_cpu()
    for thread in threads:
        thread.start()
    samples = []
    while time.monotonic() < stop:
        fds, cpu, rss = proc_figures(pid)
        peak[0] = max(peak[0], rss)
        samples.append(rss)
        time.sleep(0.25)
    for thread in threads:
        thread.join(10)
    time.sleep(2)
    after = proc_figures(pid)
    return {"replayers": args.replayers, "rssBeforeMB": round(before[2], 1), "rssPeakMB": round(peak[0], 1),
            "rssEndMB": round(after[2], 1), "rssMedianMB": round(sorted(samples)[len(samples) // 2], 1),
            "serverClosedThem": log_count("(--max-queued-bytes): closing with 1008"), "reconnects": closes[0], "serverCPUs": round(after[1] - before[1], 2),
            "attackerCPUs": round(self_cpu() - started_cpu, 2), "seconds": args.seconds}


def idle_flood(port, pid, args):
    """`args.idle` connections that send nothing, as fast as possible; fresh clients meanwhile."""
    sources = [f"127.0.{1 + n // 250}.{1 + n % 250}" for n in range(args.addresses)]
    selector = selectors.DefaultSelector()
    held = []
    before = proc_figures(pid)
    started = time.monotonic()
    opened = refused = 0
    for n in range(args.idle):
        try:
            connection = socket.socket()
            connection.setblocking(False)
            # Without this, bind() looks for a free port among every one taken: the attacker,
            # not the server, would be the bottleneck.
            connection.setsockopt(socket.IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, 1)
            connection.bind((sources[n % len(sources)], 0))
            connection.connect_ex(("127.0.0.1", port))
            held.append(connection)
            opened += 1
        except OSError:
            refused += 1
        if n % 1000 == 999:
            # Let go of what the server closed already: the attacker's own descriptors are
            # limited too (the hard limit here is 20,000).
            held = [c for c in held if not closed_already(c)]
    flood_seconds = time.monotonic() - started
    figures = []
    waits = {"other": [], "same": []}
    peak_fds = 0
    cpu_start = before[1]
    window_end = started + args.idle_seconds
    while time.monotonic() < window_end:
        fds, cpu, rss = proc_figures(pid)
        peak_fds = max(peak_fds, fds)
        figures.append((time.monotonic() - started, fds, cpu))
        waits["other"].append(time_to_hello(port, "127.0.200.1"))
        waits["same"].append(time_to_hello(port, sources[0]))
        time.sleep(0.5)
    fds_end, cpu_end, rss_end = proc_figures(pid)
    alive = 0
    for connection in held:
        try:
            alive += connection.recv(1, socket.MSG_PEEK) != b""
        except BlockingIOError:
            alive += 1
        except OSError:
            pass
        connection.close()
    cpu_seconds = cpu_end - cpu_start
    window = figures[-1][0] - flood_seconds if figures else 1

    def summary(values):
        got = sorted(v for v in values if v is not None)
        if not got:
            return {"served": 0, "of": len(values)}
        return {"served": len(got), "of": len(values), "medianMs": round(got[len(got) // 2] * 1000, 1),
                "maxMs": round(got[-1] * 1000, 1)}

    return {"idle": args.idle, "addresses": len(sources), "openedInS": round(flood_seconds, 2),
            "connectErrors": refused, "serverFdsBefore": before[0], "serverFdsPeak": peak_fds,
            "serverFdsEnd": fds_end, "stillOpenAtEnd": alive,
            "serverCPUPercent": round(100 * cpu_seconds / max(time.monotonic() - started, 0.001), 1),
            "serverRSSMB": round(rss_end, 1), "freshOtherAddress": summary(waits["other"]),
            "freshSameAddress": summary(waits["same"]), "fdsOverTime": [(round(t, 1), f) for t, f, _ in figures[::4]]}


def export_loop(port, source, seconds, results):
    """Downloads exports from `source` for `seconds`; puts (format, status, whole, seconds)."""
    end, count = time.monotonic() + seconds, 0
    while time.monotonic() < end:
        fmt = ("gexf", "json")[count % 2]
        count += 1
        started = time.monotonic()
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120, source_address=(source, 0))
            connection.request("GET", f"/export/big.{fmt}")
            response = connection.getresponse()
            body = response.read()
            connection.close()
            ok = response.status == 200 and int(response.getheader("Content-Length", -1)) == len(body)
            if ok and fmt == "json":
                json.loads(body)
            elif ok:
                ok = body.rstrip().endswith(b"</gexf>")
            results.put((fmt, response.status, ok, time.monotonic() - started))
        except (OSError, ValueError) as error:
            results.put((fmt, repr(error), False, time.monotonic() - started))


def export_attack(binary, args):
    """A large room on disk exported in loops while a probe joins, then exports never read."""
    folder = tempfile.mkdtemp(prefix="forcelayout-attack-export-")
    size = write_room(pathlib.Path(folder) / "big.json", args.export_cells)
    # A copy that nobody exports, loaded by a client joining it (rooms on disk are listed at start).
    shutil.copy(pathlib.Path(folder) / "big.json", pathlib.Path(folder) / "big2.json")
    server = RunningServer("--state-dir", folder, binary=binary, log_file=ROOT / ".build" / "attack-export-server.log")
    try:
        port, pid = server.port, server.pid
        idle = sorted(filter(None, (time_to_hello(port, "127.0.200.1") for _ in range(10))))
        results = multiprocessing.Queue()
        loops = [multiprocessing.Process(target=export_loop, args=(port, f"127.0.100.{1 + n}", args.export_seconds, results))
                 for n in range(args.export_loops)]
        for process in loops:
            process.start()
        hellos, end = [], time.monotonic() + args.export_seconds
        while time.monotonic() < end:
            hellos.append(time_to_hello(port, "127.0.200.1"))
            time.sleep(0.1)
        for process in loops:
            process.join(300)
        downloads = drain(results)
        served = sorted(h for h in hellos if h is not None)
        # A client joins the copy of the room, which loads from its file, while the probe goes on.
        loading, load_hellos = {}, []

        def join():
            loading["seconds"] = time_to_hello(port, "127.0.201.1", path="/ws/big2", timeout=120)

        joiner = threading.Thread(target=join)
        joiner.start()
        while joiner.is_alive():
            load_hellos.append(time_to_hello(port, "127.0.200.1"))
            time.sleep(0.05)
        load_served = sorted(h for h in load_hellos if h is not None)
        time.sleep(2)
        before = proc_figures(pid)[2]
        unread = []
        for n in range(args.unread_exports):
            connection = socket.socket()
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            connection.settimeout(30)
            connection.bind((f"127.0.{110 + n // 250}.{1 + n % 250}", 0))
            connection.connect(("127.0.0.1", port))
            connection.sendall(f"GET /export/big.{('gexf', 'json')[n % 2]} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            unread.append(connection)
        peak, end = before, time.monotonic() + 8
        while time.monotonic() < end:
            peak = max(peak, proc_figures(pid)[2])
            time.sleep(0.1)
        statuses = {}
        for connection in unread:
            head = b""
            try:
                while b"\r\n" not in head:
                    chunk = connection.recv(4096)
                    if not chunk:
                        break
                    head += chunk
            except OSError:
                pass
            parts = head.split(b"\r\n")[0].split()
            code = parts[1].decode() if len(parts) > 1 else "none"
            statuses[code] = statuses.get(code, 0) + 1
            connection.close()
        time.sleep(3)
        after = proc_figures(pid)[2]

        def ms(values, at):
            return round(values[min(len(values) - 1, int(len(values) * at))] * 1000, 1) if values else None

        whole = sum(1 for d in downloads if d[2])
        return {"cells": args.export_cells, "links": 2 * args.export_cells, "fileMB": round(size / 1e6, 1),
                "loops": args.export_loops, "seconds": args.export_seconds, "downloads": len(downloads),
                "whole": whole, "notWhole": [d for d in downloads if not d[2]][:5],
                "downloadMedianS": round(sorted(d[3] for d in downloads)[len(downloads) // 2], 2) if downloads else None,
                "idleHelloMedianMs": ms(idle, 0.5), "probeHellos": len(hellos), "probeRefused": len(hellos) - len(served),
                "probeHelloMedianMs": ms(served, 0.5), "probeHelloP99Ms": ms(served, 0.99), "probeHelloMaxMs": ms(served, 1.0),
                "loadHelloS": round(loading["seconds"], 2) if loading.get("seconds") else None,
                "probeDuringLoad": len(load_hellos), "probeDuringLoadMaxMs": ms(load_served, 1.0),
                "unread": args.unread_exports, "unreadStatuses": statuses, "rssBeforeUnreadMB": round(before, 1),
                "rssPeakUnreadMB": round(peak, 1), "rssAfterMB": round(after, 1),
                "maxExportBytesMB": 256}
    finally:
        server.shutdown(timeout=15)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--replayers", type=common.positive_int, default=100)
    parser.add_argument("--replay-rate", type=common.positive_float, default=20, help="replays a second per client")
    parser.add_argument("--cells", type=common.positive_int, default=100_000)
    parser.add_argument("--seconds", type=common.positive_float, default=20, help="length of the replay attack")
    parser.add_argument("--idle", type=common.positive_int, default=20_000)
    parser.add_argument("--addresses", type=common.positive_int, default=1, help="source addresses of the idle flood")
    parser.add_argument("--idle-seconds", type=common.positive_float, default=15)
    parser.add_argument("--server-open-files", type=common.positive_int, default=None,
                        help="the server's open-file limit (prlimit), to see it at its descriptor cap")
    parser.add_argument("--skip-replay", action="store_true")
    parser.add_argument("--skip-amplification", action="store_true")
    parser.add_argument("--updates", type=common.positive_int, default=256,
                        help="no-op updates, then as many real ones, of the amplification attack")
    parser.add_argument("--poison-seconds", type=common.positive_float, default=12, help="length of the Redis poison")
    parser.add_argument("--skip-redis", action="store_true", help="skip the Redis poison")
    parser.add_argument("--only-redis", action="store_true", help="run only the Redis poison")
    parser.add_argument("--skip-idle", action="store_true")
    parser.add_argument("--skip-export", action="store_true")
    parser.add_argument("--export-cells", type=common.positive_int, default=100_000)
    parser.add_argument("--export-loops", type=common.positive_int, default=4)
    parser.add_argument("--export-seconds", type=common.positive_float, default=20)
    parser.add_argument("--unread-exports", type=common.positive_int, default=100)
    args = parser.parse_args()

    binary = common.find_binary("release")
    if not binary.exists():
        print(f"attack: {binary} is missing (swift build -c release)", file=sys.stderr)
        return 2
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    want = args.idle + 4096
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(want, hard), max(want, hard)))
    except (ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print(common.header("forcelayout attack"))
    results = {}
    if not args.skip_redis:
        if shutil.which("redis-server") is None:
            print("\nRedis poison: skipped (no redis-server; make cluster-deps)")
        else:
            results["redisPoison"] = r = redis_poison.run(binary, args.poison_seconds, time_to_hello)
            print(f"\nRedis poison: three servers, what a writer to their Redis sends, {args.poison_seconds:g} s:")
            for key, value in r.items():
                print(f"  {key:24} {value}")
    if args.only_redis:
        print(json.dumps(results))
        return 0 if results else 2
    prefix = []
    if args.server_open_files:
        prefix = ["prlimit", f"--nofile={args.server_open_files}:{args.server_open_files}"]
    try:
        # Its log goes to a file (log_count reads it while it runs), never waiting for us.
        server = RunningServer(binary=binary, prefix=prefix, log_file=LOG_PATH)
    except ServerDidNotStart as error:
        print(f"attack: the server did not start: {error}", file=sys.stderr)
        return 2
    port = server.port
    try:
        pid = server.pid
        if not args.skip_idle:
            results["idle"] = idle_flood(port, pid, args)
            r = results["idle"]
            print(f"\n{args.idle} idle connections from {args.addresses} address(es), {args.idle_seconds:g} s window:")
            for key in ["openedInS", "connectErrors", "serverFdsBefore", "serverFdsPeak", "serverFdsEnd", "stillOpenAtEnd",
                        "serverCPUPercent", "serverRSSMB", "freshOtherAddress", "freshSameAddress"]:
                print(f"  {key:18} {r[key]}")
            print("  fds over time      " + " ".join(f"{t}s:{f}" for t, f in r["fdsOverTime"]))
        if not args.skip_amplification:
            results["amplification"] = r = attack_amplification.run(port, pid, updates=args.updates)
            print(f"\nAmplification: {r['updates']} updates of {r['cells']} long-labelled cells, {r['joiners']} joiners that never read:")
            for key in ["attackerSentMB", "lateHelloBytes", "replayBytesLimit", "rssBeforeMB", "rssPeakMB", "rssEndMB",
                        "joinersClosed", "probes", "probeHelloMedianMs", "probeHelloP99Ms", "probeHelloMaxMs"]:
                print(f"  {key:18} {r[key]}")
        if not args.skip_export:
            results["export"] = export_attack(binary, args)
            r = results["export"]
            print(f"\nexports of a room on disk ({r['cells']} cells, {r['links']} links, {r['fileMB']} MB file), "
                  f"{r['loops']} loops for {r['seconds']:g} s, then {r['unread']} exports never read:")
            for key in ["downloads", "whole", "notWhole", "downloadMedianS", "idleHelloMedianMs", "probeHellos",
                        "probeRefused", "probeHelloMedianMs", "probeHelloP99Ms", "probeHelloMaxMs", "loadHelloS",
                        "probeDuringLoad", "probeDuringLoadMaxMs", "unreadStatuses",
                        "rssBeforeUnreadMB", "rssPeakUnreadMB", "rssAfterMB"]:
                print(f"  {key:18} {r[key]}")
        if not args.skip_replay:
            add_cells(port, args.cells)
            results["replay"] = replay_attack(port, pid, args)
            r = results["replay"]
            print(f"\n{args.replayers} never-reading replay clients, {args.cells} cells, {args.seconds:g} s:")
            for key in ["rssBeforeMB", "rssMedianMB", "rssPeakMB", "rssEndMB", "serverClosedThem", "reconnects",
                        "serverCPUs", "attackerCPUs"]:
                print(f"  {key:18} {r[key]}")
        print(json.dumps(results))
        return 0
    finally:
        server.shutdown(timeout=15)
        print(f"(server log: {LOG_PATH})")


if __name__ == "__main__":
    sys.exit(main())
