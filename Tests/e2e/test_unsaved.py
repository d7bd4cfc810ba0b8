"""A room whose state cannot be written (issue 22: a disk that fills). An acknowledged change
is on disk, or everyone in the room was told it is not: when a write fails the room publishes
`unsaved` (and `hello` and `stats` say `"unsaved":true`), keeps trying every 5 s, and publishes
`saved` once a write reaches the disk again.

The full disk is a file size limit (`prlimit --fsize`): a write past it fails with EFBIG, as a
write to a full disk fails with ENOSPC, and the server ignores SIGXFSZ. Raising the limit of the
running server (`prlimit --pid`) is the disk getting space again."""
import json
import subprocess
import time
import urllib.request

from raw_websocket import RawWebSocket
from room_tools import listed
from server import RunningServer, wait_until

LIMIT = 60_000  # bytes: a state file of a few hundred cells


def stats(server):
    with urllib.request.urlopen(f"{server.http}/stats", timeout=10) as response:
        return json.loads(response.read())


def saved_cells(path):
    return len(json.loads(path.read_text())["layout"]["cells"])


def fill_past_the_limit(client):
    """Adds labelled cells, 50 at a time, until the room says it cannot save them (`unsaved`),
    and returns how many were acknowledged. At most 1,500: their file is well past LIMIT (some
    75 bytes a cell), and they stay within the 2,048 ids reserved while the file could still be
    written (past them an add is refused with `unavailable`). The room writes within 0.75 s of
    a change, on its own thread: on a busy machine the adds can outrun that write, so when the
    event has not come with the last add it is waited for."""
    acknowledged = 0
    for _ in range(30):
        client.send({"type": "add", "cells": [{"label": "a cell with a label long enough"} for _ in range(50)]})
        client.next("event", kind="added")
        acknowledged += 50
        if any(m.get("kind") == "unsaved" for m in client.messages):
            return acknowledged
    client.next("event", kind="unsaved", timeout=10)
    return acknowledged


def test_a_room_that_cannot_save_says_so_and_saves_again_when_it_can(tmp_path):
    with RunningServer("--state-dir", str(tmp_path), prefix=["prlimit", f"--fsize={LIMIT}:unlimited"]) as server:
        with RawWebSocket(server.port) as client:
            client.send({"type": "params", "paused": True})
            client.next("event", kind="params")
            acknowledged = fill_past_the_limit(client)
            assert stats(server).get("unsaved") is True
            with RawWebSocket(server.port) as joiner:
                assert joiner.hello.get("unsaved") is True
            on_disk = saved_cells(tmp_path / "main.json")
            assert on_disk < acknowledged, "what the room was told is not saved is not on disk"

            subprocess.run(["prlimit", "--pid", str(server.pid), "--fsize=unlimited:unlimited"], check=True)
            client.next("event", kind="saved", timeout=15)
            assert "unsaved" not in stats(server)
            assert saved_cells(tmp_path / "main.json") == acknowledged
        server.stop()  # kill -9: every acknowledged cell is on disk
        server.start()
        with RawWebSocket(server.port) as client:
            assert len(client.first_frame["ids"]) == acknowledged


def test_a_room_that_cannot_save_stays_in_memory_until_it_can(tmp_path):
    flags = ("--state-dir", str(tmp_path), "--room-idle-seconds", "1")
    with RunningServer(*flags, prefix=["prlimit", f"--fsize={LIMIT}:unlimited"]) as server:
        with RawWebSocket(server.port, path="/ws/keep") as client:
            acknowledged = fill_past_the_limit(client)
            # at rest after the last add (while the unsaved event was waited for, it may have come)
            last_add = max(i for i, m in enumerate(client.messages) if m.get("kind") == "added")
            if not any(m.get("kind") == "settled" for m in client.messages[last_add:]):
                client.next("event", kind="settled", timeout=30)
        time.sleep(3)  # idle 1 s, and the sweep: a room that could save would be unloaded by now
        assert "keep" in listed(server), "unloaded with what its file lacks"
        subprocess.run(["prlimit", "--pid", str(server.pid), "--fsize=unlimited:unlimited"], check=True)
        assert wait_until(lambda: "keep" not in listed(server), timeout=20), "saved, it is unloaded"
        assert saved_cells(tmp_path / "keep.json") == acknowledged
