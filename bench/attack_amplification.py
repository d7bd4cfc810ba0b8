"""`make attack`'s amplification scenario (issue 22, item 1), at the red team's size.

In room `amplify`: 1,000 cells with the longest labels (80 code points) and groups (40), then
`--updates` `update` messages naming every cell with nothing changed, then as many that each
change every cell's colour (the most a real change can carry), all within the rate limit; then
`--joiners` WebSocket clients join and never read (4 KB receive buffers) while more changes
come. Meanwhile a probe joins room `probe` every 50 ms. Reported: the bytes the attacker sent,
a late joiner's `hello` (bytes, against `hello.limits.replayBytes`), the server's RSS (peak,
end), how many never-reading joiners the server closed, and the probe's hello time (median,
p99, max). Before the fix, the no-op updates alone made each hello 131 MB and twenty joiners
held 3.9-4.5 GB. Loopback only, bounded in count and time. Stdlib only.
"""
import base64
import json
import os
import socket
import threading
import time
import urllib.request

from common import proc_figures
from raw_websocket import RawWebSocket, upgrade_request

LABEL = "ж" * 80
GROUP = "ж" * 40
CELLS = 1000


def _paced(client, message, rate):
    client.send(message)
    time.sleep(1 / rate)


def _never_reading(port):
    connection = socket.socket()
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    connection.settimeout(10)
    connection.connect(("127.0.0.1", port))
    connection.sendall(upgrade_request(port, base64.b64encode(os.urandom(16)).decode(), path="/ws/amplify"))
    return connection


def _percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else None


def run(port, pid, updates=256, joiners=20, rate=50):
    """The figures of one run against the server on `port` (process `pid`)."""
    probes, stop = [], threading.Event()

    def probe():
        while not stop.is_set():
            started = time.monotonic()
            try:
                with RawWebSocket(port, path="/ws/probe"):
                    probes.append(time.monotonic() - started)
            except Exception:  # noqa: BLE001 (a refused or failed probe counts as 10 s)
                probes.append(10.0)
            time.sleep(0.05)

    rss_peak = [0.0]

    def sample():
        while not stop.is_set():
            rss_peak[0] = max(rss_peak[0], proc_figures(pid)[2])
            time.sleep(0.1)

    threads = [threading.Thread(target=probe, daemon=True), threading.Thread(target=sample, daemon=True)]
    rss_before = proc_figures(pid)[2]
    for thread in threads:
        thread.start()
    sent = 0
    held = []
    try:
        with RawWebSocket(port, path="/ws/amplify") as attacker:
            attacker.send({"type": "params", "paused": True})
            for start in range(0, CELLS, 150):
                attacker.send({"type": "add", "cells": [{"label": LABEL, "group": GROUP}
                                                        for _ in range(min(150, CELLS - start))]})
                attacker.next("event", kind="added", timeout=30)
            ids = attacker.next("frame", timeout=10).get("ids") or list(range(1, CELLS + 1))
            nothing = json.dumps({"type": "update", "cells": [{"id": i} for i in ids]}).encode()
            for _ in range(updates):
                attacker.text(nothing)
                sent += len(nothing)
                time.sleep(1 / rate)
            for round_ in range(updates):
                change = json.dumps({"type": "update", "cells": [{"id": i, "color": "#%06x" % (round_ + 1)} for i in ids]})
                attacker.text(change.encode())
                sent += len(change)
                attacker.next("event", kind="updated", timeout=30)
                time.sleep(1 / rate)
            with RawWebSocket(port, path="/ws/amplify") as late:
                hello_bytes = late.sizes[0]
                replay_bytes = late.hello["limits"].get("replayBytes")
            held = [_never_reading(port) for _ in range(joiners)]
            for round_ in range(40):
                change = json.dumps({"type": "update", "cells": [{"id": i, "color": "#%06x" % (0x800000 + round_)} for i in ids]})
                attacker.text(change.encode())
                attacker.next("event", kind="updated", timeout=30)
                time.sleep(1 / rate)
            # A client that reads nothing gets no close frame: it is dropped 5 s after its overflow.
            deadline = time.monotonic() + 10
            while True:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/stats", timeout=10) as response:
                    connected = json.loads(response.read())["totalClients"] - 1  # but the attacker
                if connected <= 0 or time.monotonic() > deadline:
                    break
                time.sleep(0.25)
        closed = joiners - max(0, connected)
    finally:
        stop.set()
        for thread in threads:
            thread.join(15)
        for connection in held:
            connection.close()
    return {"cells": CELLS, "updates": 2 * updates, "attackerSentMB": round(sent / 1e6, 1),
            "lateHelloBytes": hello_bytes, "replayBytesLimit": replay_bytes,
            "rssBeforeMB": round(rss_before, 1), "rssPeakMB": round(rss_peak[0], 1),
            "rssEndMB": round(proc_figures(pid)[2], 1), "joiners": joiners, "joinersClosed": closed,
            "probes": len(probes), "probeHelloMedianMs": round(1000 * _percentile(probes, 0.5), 1),
            "probeHelloP99Ms": round(1000 * _percentile(probes, 0.99), 1), "probeHelloMaxMs": round(1000 * max(probes), 1)}
