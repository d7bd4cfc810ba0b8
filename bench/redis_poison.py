"""`make attack`'s third scenario, "Redis poison": what someone who can write to a cluster's
Redis does to its servers (issue 22, item 7). Write access to Redis is control of the cluster,
so this measures only that nothing written there crashes a server or stops a room for good.

A redis-server and three servers (a, b, c) on loopback; room `poisoned` stepped by one, with a
client on each. Then for `seconds`, every half second: forged summaries (Int.max clients, no
expiry, scored ten years ahead), events and statuses numbered 2^64 - 1 and garbage published
on the room's channel and on each server's own, hostile relay requests, a lease with no
expiry set by hand; meanwhile each server is probed (alive, GET /stats, time to `hello` in the
room). Bounded: a fixed number of writes, loopback only. Stdlib only."""
import base64
import json
import os
import socket
import struct
import sys
import threading
import time
import urllib.request

from cluster import Cluster
from raw_websocket import frame_bytes, upgrade_request  # Tests/e2e, on the path through common

MAX_U64 = 2**64 - 1
MAX_INT = 2**63 - 1
ROOM = "poisoned"


def text(value):
    data = value.encode()
    return struct.pack("<I", len(data)) + data


def hostile_payloads(status):
    """What is published on the room's channel: events and statuses past every bound, garbage."""
    event = struct.pack("<Q", MAX_U64) + text("woke") + b"\x00" + struct.pack("<q", MAX_INT) * 2 + text("}")
    payloads = [b"\x02" + struct.pack("<q", 1) + event, b"\x02" + struct.pack("<q", MAX_INT), b"\xff" * 64, b""]
    if status:
        for forged in ({**status, "lastSeq": MAX_U64}, {**status, "clients": MAX_INT},
                       {**status, "layout": {**status["layout"], "tick": MAX_INT, "version": MAX_INT}}):
            data = json.dumps(forged).encode()
            payloads.append(b"\x03" + struct.pack("<I", len(data)) + data)
    return payloads


def forge(redis, round_, status):
    now = int(time.time() * 1000)
    summary = {"node": f"evil{round_ % 5}", "clients": MAX_INT, "relayed": MAX_INT, "uptimeSeconds": MAX_INT,
               "rooms": [{"name": ROOM, "clients": MAX_INT, "cells": MAX_INT, "settled": False, "tick": MAX_INT}]}
    redis.call("SET", f"fl:node:{summary['node']}:summary", json.dumps(summary))
    redis.call("ZADD", "fl:nodes", str(now + 10 * 365 * 86_400_000), summary["node"])
    redis.call("SET", "fl:node:a:summary", json.dumps({**summary, "node": "a"}), "PX", "3000")
    for payload in hostile_payloads(status):
        redis.call("PUBLISH", f"fl:{{{ROOM}}}:out", payload)
    for node in "abc":
        redis.call("PUBLISH", f"fl:node:{node}", b"\x01" + text("c1\"@x") + struct.pack("<I", 2**31))
    redis.call("RPUSH", f"fl:{{{ROOM}}}:requests", b"\x01" + text("NOT A NODE") + text("c1@b") + text("{}"),
               b"\x04" + text("b" * 10_000))
    if round_ == 0:
        redis.call("SET", f"fl:{{{ROOM}}}:lease", "nobody")  # no expiry


class Holder(threading.Thread):
    """A client of the room on one server that reads everything and reconnects whenever it is
    closed (a server that loses the room closes its clients with 1012); the first one adds
    `cells` cells once."""

    def __init__(self, port, cells=0):
        super().__init__(daemon=True)
        self.port, self.cells, self.stop = port, cells, threading.Event()
        self.reconnects = -1

    def run(self):
        while not self.stop.is_set():
            self.reconnects += 1
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as connection:
                    key = base64.b64encode(os.urandom(16)).decode()
                    connection.sendall(upgrade_request(self.port, key, path=f"/ws/{ROOM}"))
                    if self.cells:
                        connection.sendall(frame_bytes(0x1, json.dumps({"type": "add", "count": self.cells}).encode()))
                        self.cells = 0
                    while not self.stop.is_set():
                        try:
                            if not connection.recv(65536):
                                break
                        except socket.timeout:
                            continue
            except OSError:
                pass
            self.stop.wait(0.2)


def stats_answers(server):
    try:
        with urllib.request.urlopen(server.http + "/stats", timeout=2) as reply:
            return "cluster" in json.load(reply)
    except OSError:
        return False


def run(binary, seconds, time_to_hello):
    """Returns the figures; `time_to_hello(port, source, path)` probes a server."""
    with Cluster(binary) as cluster:
        redis = cluster.redis
        holders = []
        clients = [Holder(server.port, cells=100 if index == 0 else 0) for index, server in enumerate(cluster.servers)]
        for client in clients:  # the room is stepped by a, relayed on b and c
            client.start()
            time.sleep(0.3)
        time.sleep(2)
        status_bytes = redis.call("HGET", f"fl:{{{ROOM}}}:mirror", "status")
        status = json.loads(status_bytes) if isinstance(status_bytes, bytes) else None
        hellos, stats_ok, stats_all, min_alive = [], 0, 0, 3
        started = time.monotonic()
        round_ = 0
        lease_back = None
        while time.monotonic() - started < seconds:
            forge(redis, round_, status)
            round_ += 1
            alive = sum(server.process.poll() is None for server in cluster.servers)
            min_alive = min(min_alive, alive)
            for server in cluster.servers:
                if server.process.poll() is None:
                    hellos.append(time_to_hello(server.port, "127.0.0.1", f"/ws/{ROOM}"))
                    stats_all += 1
                    stats_ok += stats_answers(server)
            holder = redis.call("GET", f"fl:{{{ROOM}}}:lease")
            holders.append(holder)
            if lease_back is None and holder in (b"a", b"b", b"c") and round_ > 1:
                lease_back = round(time.monotonic() - started, 2)
            time.sleep(0.5)
        alive = sum(server.process.poll() is None for server in cluster.servers)
        for client in clients:
            client.stop.set()
        got = sorted(h for h in hellos if h is not None)
        return {
            "seconds": seconds, "poisonRounds": round_, "serversAliveAtEnd": alive, "serversAliveMin": min(min_alive, alive),
            "statsAnswered": f"{stats_ok}/{stats_all}",
            "helloServed": f"{len(got)}/{len(hellos)}",
            "helloMedianMs": round(got[len(got) // 2] * 1000, 1) if got else None,
            "helloMaxMs": round(got[-1] * 1000, 1) if got else None,
            "leaseSteppedAgainAfterS": lease_back,
            "leaseHolderAtEnd": (holders[-1] or b"").decode(errors="replace"),
            "leaseTTLAtEndMs": redis.call("PTTL", f"fl:{{{ROOM}}}:lease"),
            "clientReconnects": sum(max(client.reconnects, 0) for client in clients),
        }


if __name__ == "__main__":
    sys.exit("run through bench/attack.py (make attack)")
