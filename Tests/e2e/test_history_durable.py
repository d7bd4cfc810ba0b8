"""A room's history outlives its server: kept in `NAME.history/` beside its state file with
`--state-dir`, read back when the room loads (after a clean stop or a kill -9 in a busy
minute), its numbering going on; a record cut short is dropped and the file cut there."""
import asyncio
import os

from client import Client, run
from room_tools import add, moment, now_ms
from server import RunningServer



def test_the_history_survives_a_restart_and_a_restore_after_it_brings_back_the_cells(tmp_path):
    state = str(tmp_path)
    with RunningServer("--state-dir", state) as running:
        async def before():
            async with Client(running.room("kept")) as client:
                await client.send({"type": "add", "cells": [{"label": "a"}, {"label": "b"}]})
                ids = (await client.event("added"))["ids"]
                await client.send({"type": "link", "links": [{"source": ids[0], "target": ids[1]}]})
                await client.event("linked")
                await asyncio.sleep(0.2)
                whole = now_ms()
                await asyncio.sleep(0.2)
                await client.send({"type": "clear"})
                cleared = await client.event("cleared")
                return ids, whole, cleared
        ids, whole, cleared = run(before())
        assert running.terminate() == 0, running.log
    assert sorted(os.listdir(tmp_path / "kept.history"))[0] == "0000000001.flhistory"
    with RunningServer("--state-dir", state) as running:
        async def after():
            async with Client(running.room("kept")) as client:
                seen = await moment(client, whole)
                assert seen["ids"] == ids and seen["cells"]["label"] == ["a", "b"], seen
                assert list(zip(seen["links"]["source"], seen["links"]["target"])) == [(ids[0], ids[1])]
                await client.send({"type": "history"})
                listing = await client.next("history")
                assert cleared["seq"] in [e["seq"] for e in listing["events"]]
                # Numbering goes on after the history read back: no seq is used twice.
                newer = await add(client, 1)
                event = [m for m in client.messages if m.get("type") == "event" and m.get("kind") == "added"][-1]
                assert event["seq"] > cleared["seq"] and newer[0] > max(ids)
                await client.send({"type": "restore", "at": whole})
                restored = await client.event("restored")
                assert restored["ids"] == ids and restored["data"]["cells"]["label"] == ["a", "b"]
        run(after())


def test_kill_9_in_a_busy_minute_leaves_a_readable_history(tmp_path):
    state = str(tmp_path)
    with RunningServer("--state-dir", state) as running:
        async def busy():
            async with Client(running.room("busy")) as client:
                marks = []
                for round_ in range(40):
                    await client.send({"type": "add", "count": 5})
                    await client.event("added", by=client.id)
                    await client.send({"type": "params", "charge": 100 + round_})
                    # the moment of the charge: its event's own time (a clock read here after
                    # it could fall in the same ms the server rounded up to the next)
                    charged = await client.event("params", by=client.id)
                    if round_ % 10 == 9:
                        await client.send({"type": "remove", "count": 3})
                        await client.event("removed", by=client.id)
                    marks.append((charged["at"], round_))
                return marks
        marks = run(busy())
        running.stop()  # SIGKILL while the room still moves
    # A record cut short, as a kill -9 in the middle of a write would leave it.
    segment = sorted((tmp_path / "busy.history").iterdir())[-1]
    size = segment.stat().st_size
    with open(segment, "ab") as handle:
        handle.write(b"\x40\x00\x00\x00\x01\x02\x03\x04\x02{\"type\":\"ev")
    with RunningServer("--state-dir", state) as running:
        async def read_back():
            async with Client(running.room("busy")) as client:
                await client.send({"type": "history"})
                listing = await client.next("history")
                charges = [e for e in listing["events"] if e["kind"] == "params"]
                assert len(charges) >= 39, len(charges)
                at, round_ = marks[20]
                seen = await moment(client, at)
                assert seen["params"]["charge"] >= 100 + round_
                assert len(seen["ids"]) >= 5 * (round_ + 1) - 3 * ((round_ + 1) // 10)
        run(read_back())
        assert "cut short" in running.log
    assert segment.stat().st_size == size
