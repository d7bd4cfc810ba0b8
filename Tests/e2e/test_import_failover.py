"""An import through one server of a cluster while the room's owner is killed (issue 22, item 6):
`forcelayout import` used to wait forever at the batch the dead owner never answered. Now the
batch in flight is looked up in the room's `data` after the `failover` and only what is missing
is sent again: the import ends, and every node and link is in the room exactly once."""
import json
import signal
import subprocess
import time
import urllib.request

from raw_websocket import RawWebSocket
from redis_server import RunningRedis
from server import BINARY, RunningServer, wait_until

NODES = 3000
# Slow enough that the owner dies with the import half done: 3 messages a second.
SLOW = ["--messages-per-second", "4", "--message-burst", "2", "--max-add-per-message", "250"]


def graph_file(path):
    """A ring of NODES nodes with a chord from every tenth: node ids 0..NODES-1, as networkx writes them."""
    nodes = [{"id": n} for n in range(NODES)]
    links = [{"source": n, "target": (n + 1) % NODES} for n in range(NODES)]
    links += [{"source": n, "target": (n + NODES // 2) % NODES} for n in range(0, NODES // 2, 10)]
    path.write_text(json.dumps({"nodes": nodes, "links": links}))
    return len(links)


def cells_listed(server, room):
    return next((entry["cells"] for entry in server.rooms() if entry["name"] == room), 0)


def owner(server, room):
    return next((entry.get("node") for entry in server.rooms() if entry["name"] == room), None)


def test_an_import_through_a_relay_survives_its_owner_being_killed(tmp_path):
    links = graph_file(tmp_path / "ring.json")
    with RunningRedis() as redis:
        servers = [RunningServer("--redis", redis.url, "--node", node, *SLOW, log_file=True) for node in "abc"]
        try:
            a, b, _ = servers
            # The room is made on a, so a steps it; the import goes through b.
            with RawWebSocket(a.port, path="/ws/ring"):
                assert wait_until(lambda: owner(b, "ring") == "a", timeout=5)
            importer = subprocess.Popen([str(BINARY), "import", str(tmp_path / "ring.json"), "--url", f"ws://127.0.0.1:{b.port}/ws/ring"],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            assert wait_until(lambda: cells_listed(b, "ring") >= 1000, timeout=30), "the import did not start"
            a.stop()  # kill -9 of the room's owner, mid-import
            out, err = importer.communicate(timeout=90)
            assert importer.returncode == 0, err
            assert f"imported {NODES} cells and {links} links" in out, out
            with urllib.request.urlopen(f"{b.http}/export/ring.json", timeout=10) as response:
                document = json.loads(response.read())
            ids = sorted(node["id"] for node in document["nodes"])
            assert ids == list(range(NODES)), f"{len(ids)} cells for {NODES} nodes: none twice, none missing"
            ends = {tuple(sorted((link["source"], link["target"]))) for link in document["links"]}
            assert len(document["links"]) == len(ends) == links
        finally:
            for server in servers:
                server.close()


def test_what_waited_for_a_dead_owner_is_answered_before_the_failover(tmp_path):
    """What a relay's client sent while the owner hung waits in Redis; the server that takes the
    room over applies it before it tells the failover, so each answer comes before the event and
    the data after it holds what they added. The page's and the CLI's import resume relied on a
    1.5 s wait for such late answers, and a loaded machine made them late: cells came twice."""
    with RunningRedis() as redis:
        a, b = servers = [RunningServer("--redis", redis.url, "--node", node, log_file=True) for node in "ab"]
        try:
            with RawWebSocket(a.port, path="/ws/order"):
                assert wait_until(lambda: owner(b, "order") == "a", timeout=5)
            with RawWebSocket(b.port, path="/ws/order") as client:
                me = client.hello["client"]
                time.sleep(1)  # a took b's `joined` from Redis
                a.process.send_signal(signal.SIGSTOP)  # hangs: what b forwards waits in Redis
                # (An LPOP a sent just before would take what came first, and a dies with it.)
                time.sleep(0.3)
                for n in range(3):
                    client.send({"type": "add", "cells": [{"label": f"late {n}"}], "ref": f"late-{n}"})
                time.sleep(0.5)
                a.stop()
                client.next("event", timeout=20, kind="failover")
                data = client.next("data", timeout=10)
                events = [m for m in client.messages if m.get("type") == "event"]
                kinds = [m["kind"] for m in events if m["kind"] in ("added", "failover")]
                assert kinds == ["added", "added", "added", "failover"], kinds
                assert all(f"late {n}" in json.dumps(data) for n in range(3)), data
                assert not [m for m in client.messages if m.get("type") == "error"]
        finally:
            for server in servers:
                server.close()
