"""Amplification through `update` (issue 22, item 1), end to end at a smaller size.

The attack: a room of 1,000 cells with long labels and groups, then hundreds of `update`
messages naming every cell. Each `updated` event used to carry every named cell's whole data,
whether it changed or not, and the room kept 256 of them for every late joiner's `hello`: a
hello of 131 MB, 39 times what was sent, and twenty joiners that never read held gigabytes.

What holds now, and is checked here:
- an update that changes nothing is no event (a watcher sees none, a joiner's hello replays none);
- a room keeps at most `--replay-bytes` of events, so a hello carries at most that much history;
- what a connection is sent counts against its byte budget from its opening on, so joiners that
  never read are closed when events come (1008) instead of holding their hellos: the server's
  memory stays within a few of them, and a client of another room is served meanwhile.
"""
import json
import socket
import time

import pytest

from raw_websocket import Closed, RawWebSocket, upgrade_request
from server import RunningServer, wait_until
import base64
import os

CELLS = 1000
LABEL = "ж" * 80   # 160 bytes of UTF-8, the most a label holds (80 code points)
GROUP = "ж" * 40
REPLAY_BYTES = 300_000
QUEUED_BYTES = 1 << 20


def rss_mb(server):
    with open(f"/proc/{server.pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024


def barrier(client):
    """Every message `client` sent before has been applied: a `params` change comes back."""
    client.send({"type": "params", "charge": 10 + (time.monotonic_ns() % 1000) / 1000})
    client.next("event", kind="params")


def seed(client):
    """1,000 cells with the longest labels and groups, in batches within maxMessageBytes."""
    for start in range(0, CELLS, 150):
        count = min(150, CELLS - start)
        client.send({"type": "add", "cells": [{"label": LABEL, "group": GROUP} for _ in range(count)]})
        client.next("event", kind="added", timeout=20)


def never_reading_joiner(port, path="/ws"):
    """A WebSocket that completes its handshake, then never reads (a 4 KB receive buffer)."""
    connection = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    connection.settimeout(10)
    connection.connect(("127.0.0.1", port))
    connection.sendall(upgrade_request(port, base64.b64encode(os.urandom(16)).decode(), path=path))
    assert connection.recv(12).startswith(b"HTTP/1.1 101")
    return connection


def probe_hello_seconds(port):
    start = time.monotonic()
    with RawWebSocket(port, path="/ws/probe"):
        return time.monotonic() - start


@pytest.fixture(scope="module")
def server():
    with RunningServer("--messages-per-second", "1000", "--message-burst", "1000",
                       "--replay-bytes", str(REPLAY_BYTES), "--max-queued-bytes", str(QUEUED_BYTES)) as server:
        with RawWebSocket(server.port) as setup:
            assert setup.hello["limits"]["replayBytes"] == REPLAY_BYTES
            setup.send({"type": "params", "paused": True})
            setup.next("event", kind="params")
            seed(setup)
        yield server


def test_an_update_that_changes_nothing_is_no_event(server):
    with RawWebSocket(server.port) as attacker, RawWebSocket(server.port) as watcher:
        ids = watcher.first_frame["ids"]
        assert len(ids) == CELLS
        same = json.dumps({"type": "update", "cells": [{"id": i, "label": LABEL, "group": GROUP} for i in ids[:150]]},
                          ensure_ascii=False)
        bare = {"type": "update", "cells": [{"id": i} for i in ids]}
        for _ in range(128):
            attacker.text(same.encode())
            attacker.send(bare)
        barrier(attacker)
        watcher.next("event", kind="params")
        assert [m for m in watcher.messages if m.get("kind") == "updated"] == []
        assert [m for m in attacker.messages if m.get("type") == "error"] == []
    with RawWebSocket(server.port) as joiner:
        assert [e for e in joiner.hello["events"] if e["kind"] == "updated"] == []
        assert joiner.sizes[0] <= REPLAY_BYTES + 64_000


def test_a_hello_carries_at_most_the_replay_budget(server):
    with RawWebSocket(server.port) as attacker:
        ids = attacker.first_frame["ids"]
        for round_ in range(40):
            colour = "#000000" if round_ % 2 else "#ffffff"
            attacker.send({"type": "update", "cells": [{"id": i, "color": colour} for i in ids]})
            attacker.next("event", kind="updated")
        updated = [size for message, size in zip(attacker.messages, attacker.sizes) if message.get("kind") == "updated"]
        assert len(updated) == 40, "each real change is an event"
        assert max(updated) < 400_000, "an event carries the cells it changed, once each"
    with RawWebSocket(server.port) as joiner:
        replayed = joiner.hello["events"]
        assert replayed, "recent history is still replayed"
        assert joiner.sizes[0] <= REPLAY_BYTES + 64_000, f"hello of {joiner.sizes[0]} bytes"
        # The history replayed is the newest, without gaps.
        seqs = [event["seq"] for event in replayed]
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
        joiner.send({"type": "replay", "count": joiner.hello["limits"]["replayBuffer"]})
        replay = joiner.next("replay")
        assert len(json.dumps(replay, ensure_ascii=False).encode()) <= REPLAY_BYTES + 1000


def test_joiners_that_never_read_are_closed_and_other_rooms_served(server):
    before = rss_mb(server)
    joiners = [never_reading_joiner(server.port) for _ in range(20)]
    try:
        with RawWebSocket(server.port) as attacker:
            ids = attacker.first_frame["ids"]
            probes = []
            for round_ in range(12):
                colour = "#12340%d" % (round_ % 10)
                attacker.send({"type": "update", "cells": [{"id": i, "color": colour} for i in ids]})
                attacker.next("event", kind="updated")
                probes.append(probe_hello_seconds(server.port))
            barrier(attacker)
        assert wait_until(lambda: json.loads(urllib_get(server, "/stats"))["clients"] <= 1, timeout=20), \
            "the joiners that never read were not closed"
        grown = rss_mb(server) - before
        print(f"RSS grew {grown:.1f} MB with 20 joiners that never read; probe hello max {max(probes) * 1000:.0f} ms")
        assert grown < 100, f"RSS grew {grown:.1f} MB"
        assert max(probes) < 1.0, f"a client of another room waited {max(probes):.2f} s for its hello"
    finally:
        for joiner in joiners:
            joiner.close()


def urllib_get(server, path):
    import urllib.request
    with urllib.request.urlopen(server.http + path, timeout=10) as response:
        return response.read()
