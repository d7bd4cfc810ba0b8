"""A recording: `GET /export/NAME.flhistory?from=MS&to=MS` gives a span of a room's history as a
file (docs/history-format.md), and `forcelayout import FILE.flhistory` plays it back into another
room as it happened: the new room ends as the recorded one was at `to`, and its history lists the
same kinds of changes in the same order."""
import asyncio
import subprocess
import time
import urllib.error
import urllib.request

from client import Client, positions, run
from room_tools import moment, now_ms, set_params, settle
from server import BINARY, RunningServer

HEADER = b"FLHIST1\n"



def download(server, room, query=""):
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/export/{room}.flhistory{query}", timeout=10) as response:
        assert response.headers["Content-Disposition"] == f'attachment; filename="{room}.flhistory"'
        return response.read()


def refused(server, path):
    """The status and text of a refused request."""
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{server.port}{path}", timeout=10)
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()
    raise AssertionError(f"{path} was answered")


def play(server, path, room, *extra):
    return subprocess.run([str(BINARY), "import", str(path), "--url", f"ws://127.0.0.1:{server.port}/ws/{room}", *extra],
                          capture_output=True, text=True, timeout=120)


async def labelled(client, labels):
    await client.send({"type": "add", "cells": [{"label": label} for label in labels]})
    return (await client.event("added", by=client.id))["ids"]


async def link(client, pairs):
    await client.send({"type": "link", "links": [{"source": a, "target": b} for a, b in pairs]})
    return await client.event("linked", by=client.id)


async def kinds(client):
    """The kinds of the room's changes, oldest first (the server's own events and the
    playback's moves, `updated`, left out)."""
    await client.send({"type": "history"})
    listing = await client.next("history")
    return [(e["seq"], e["kind"]) for e in listing["events"] if e["kind"] not in ("woke", "settled", "updated")]


def room_at(moment_message):
    """What a `moment` says of the room, by label: data, links, pins, positions, parameters."""
    cells = moment_message["cells"]
    label = dict(zip(cells["id"], cells["label"]))
    return {
        "labels": sorted(label.values()),
        "links": sorted(tuple(sorted((label[s], label[t]))) for s, t in zip(moment_message["links"]["source"],
                                                                             moment_message["links"]["target"])),
        "pinned": sorted(label[cell] for cell in moment_message["pinned"]),
        "xy": {label[cell]: (x, y) for cell, x, y in zip(moment_message["ids"], moment_message["x"], moment_message["y"])},
        "params": moment_message["params"],
    }


def test_a_span_played_back_ends_as_the_recorded_room_did(tmp_path):
    with RunningServer() as server:
        async def scenario():
            async with Client(server.room("rec")) as ana:
                first = await labelled(ana, ["a", "b", "c"])
                await link(ana, [(first[0], first[1])])
                await settle(ana, await set_params(ana, tickRate=120))
                start = now_ms()
                await asyncio.sleep(0.05)
                # The span: parameters, a pin, more cells and links, a clear, cells again.
                await set_params(ana, charge=40)
                await ana.send({"type": "pin", "id": first[2], "x": 30, "y": -10})
                await ana.event("pinned", by=ana.id)
                more = await labelled(ana, ["d", "e"])
                await link(ana, [(first[2], more[0]), (more[0], more[1])])
                await asyncio.sleep(0.3)
                await ana.send({"type": "clear"})
                await ana.event("cleared", by=ana.id)
                again = await labelled(ana, ["f", "g", "h", "i"])
                await link(ana, [(again[0], again[1]), (again[1], again[2]), (again[2], again[3])])
                await ana.send({"type": "pin", "id": again[3], "x": -25, "y": 15})
                await settle(ana, await ana.event("pinned", by=ana.id))
                await ana.send({"type": "update", "cells": [{"id": again[0], "label": "f2", "color": "#aa3300"}]})
                await ana.event("updated", by=ana.id)
                # Paused at the end (with another change, so the playback, paused throughout,
                # has something to send): the copy then stays exactly where the recording put it.
                await set_params(ana, paused=True, charge=42)
                await asyncio.sleep(0.05)
                end = now_ms()
                recorded = await moment(ana, end)
                assert recorded["params"]["paused"] is True

                file = tmp_path / "rec.flhistory"
                file.write_bytes(download(server, "rec", f"?from={start}&to={end}"))
                assert file.read_bytes().startswith(HEADER)
                said = play(server, file, "copy", "--speed", "0")
                assert said.returncode == 0, said.stderr
                assert said.stdout.startswith(f"played {file} into ws://127.0.0.1:{server.port}/ws/copy: "), said.stdout

                async with Client(server.room("copy")) as copy:
                    frame = await copy.next("frame")
                    data = await copy.next("data")
                    copied = await moment(copy, now_ms())
                    assert room_at(copied)["labels"] == sorted(["f2", "g", "h", "i"])
                    want, got = room_at(recorded), room_at(copied)
                    assert {k: want[k] for k in ("labels", "links", "pinned", "params")} == \
                        {k: got[k] for k in ("labels", "links", "pinned", "params")}
                    assert copy.hello["params"] == recorded["params"]
                    # Positions: the keyframes' (16 bits over the layout's box), twice quantized,
                    # seen in a v1 frame (one decimal) and a moment (two).
                    xs = [x for x, _ in want["xy"].values()]
                    ys = [y for _, y in want["xy"].values()]
                    step = max(max(xs) - min(xs), max(ys) - min(ys), 1) / 65535
                    frame_xy = positions(frame)
                    label = dict(zip(data["cells"]["id"], data["cells"]["label"]))
                    for cell, (x, y) in frame_xy.items():
                        wx, wy = want["xy"][label[cell]]
                        assert abs(x - wx) <= 3 * step + 0.06 and abs(y - wy) <= 3 * step + 0.06, (label[cell], (x, y), (wx, wy))
                    colour = data["cells"]["color"][data["cells"]["label"].index("f2")]
                    assert colour == "#aa3300"

                    # The same kinds of changes in the same order, after the first moment's own
                    # (the room paused, its cells, its link).
                    copied_kinds = [kind for _, kind in await kinds(copy)]
                    recorded_span = [kind for seq, kind in await kinds(ana) if seq > (await moment(ana, start))["seq"]]
                    assert copied_kinds == ["params", "added", "linked"] + recorded_span, (copied_kinds, recorded_span)
                    assert recorded_span == ["params", "pinned", "added", "linked", "cleared", "added", "linked",
                                             "pinned", "params"], recorded_span
        run(scenario())


def test_a_recording_is_refused_or_cut_with_clear_words(tmp_path):
    with RunningServer() as server:
        async def scenario():
            async with Client(server.room("src")) as ana:
                ids = await labelled(ana, ["x", "y"])
                await link(ana, [(ids[0], ids[1])])
                await ana.send({"type": "remove", "ids": [ids[1]]})
                await ana.event("removed", by=ana.id)
                whole = download(server, "src")
                # A room with cells takes a recording only with --replace.
                async with Client(server.room("busy")) as bo:
                    await labelled(bo, ["z"])
                    (tmp_path / "whole.flhistory").write_bytes(whole)
                    said = play(server, tmp_path / "whole.flhistory", "busy")
                    assert said.returncode == 1 and "the room holds 1 cell(s)" in said.stderr and "--replace" in said.stderr, said.stderr
                    said = play(server, tmp_path / "whole.flhistory", "busy", "--replace", "--speed", "0")
                    assert said.returncode == 0, said.stderr
                    await bo.event("cleared")
                # A file cut in its last record plays what is whole and says so.
                (tmp_path / "cut.flhistory").write_bytes(whole[:-5])
                said = play(server, tmp_path / "cut.flhistory", "cut", "--speed", "0")
                assert said.returncode == 0, said.stderr
                assert "bytes are not whole records" in said.stdout, said.stdout
                async with Client(server.room("cut")) as late:
                    assert len((await late.next("frame"))["ids"]) in (1, 2)
            for name, content, words in [("empty.flhistory", HEADER, "an empty recording"),
                                         ("bad.flhistory", HEADER + b"\x05\x00\x00\x00\x00\x00\x00\x00\x01abcd", "a damaged recording")]:
                (tmp_path / name).write_bytes(content)
                said = play(server, tmp_path / name, "never")
                assert said.returncode == 1 and words in said.stderr, said.stderr
            said = play(server, tmp_path / "whole.flhistory", "never", "--speed=-1")
            assert said.returncode != 0 and "--speed must be 0 or more" in said.stderr, said.stderr
        run(scenario())


def test_the_export_answers_as_the_others_do():
    with RunningServer("--default-access", "private") as server:
        async def scenario():
            async with Client(server.room("hidden")) as owner:
                await labelled(owner, ["p"])
                assert refused(server, "/export/hidden.flhistory")[0] == 404
                assert refused(server, "/export/nowhere.flhistory")[0] == 404
                status, text = refused(server, "/export/hidden.flhistory?from=abc")
                assert status == 400 and "from must be a time in ms since 1970" in text, text
                status, text = refused(server, "/export/hidden.flhistory?from=9&to=8")
                assert (status, text) == (400, "from (9) is after to (8)\n")
                secret = owner.hello["links"]["view"]
                request = urllib.request.Request(f"http://127.0.0.1:{server.port}/export/hidden.flhistory",
                                                 headers={"Authorization": f"Bearer {secret}"})
                with urllib.request.urlopen(request, timeout=10) as response:
                    assert response.read().startswith(HEADER)
        run(scenario())
    with RunningServer("--history-bytes", "0") as server:
        async def scenario():
            async with Client(server.room("none")) as client:
                await labelled(client, ["q"])
                status, text = refused(server, "/export/none.flhistory")
                assert status == 404 and "keeps no history" in text, text
        run(scenario())


def test_a_restore_in_the_span_plays_as_what_it_changed_at_the_recorded_pace(tmp_path):
    """A restore opens a segment whose checkpoint holds the room it made: the playback reaches it
    by the changes between (the cells it brought back are added again), at the recorded pace."""
    with RunningServer() as server:
        async def scenario():
            async with Client(server.room("undo")) as ana:
                start = now_ms()
                await asyncio.sleep(0.02)
                ids = await labelled(ana, ["u", "v", "w"])
                await link(ana, [(ids[0], ids[1]), (ids[1], ids[2])])
                await asyncio.sleep(0.2)
                whole = now_ms()
                await asyncio.sleep(0.4)
                await ana.send({"type": "remove", "ids": [ids[0], ids[2]]})
                await ana.event("removed", by=ana.id)
                await asyncio.sleep(0.4)
                await ana.send({"type": "restore", "at": whole})
                await ana.event("restored", by=ana.id)
                await asyncio.sleep(0.4)
                await labelled(ana, ["x"])
                end = now_ms()
                recorded = room_at(await moment(ana, end))
                assert recorded["labels"] == ["u", "v", "w", "x"]

                file = tmp_path / "undo.flhistory"
                file.write_bytes(download(server, "undo", f"?from={start}&to={end}"))
                began = time.monotonic()
                said = play(server, file, "again")
                took = time.monotonic() - began
                assert said.returncode == 0, said.stderr
                # About a second and a half of recording, played at its pace.
                assert took >= (end - start) / 1000 * 0.8, (took, end - start)
                async with Client(server.room("again")) as copy:
                    copied = room_at(await moment(copy, now_ms()))
                    assert {k: copied[k] for k in ("labels", "links", "pinned")} == \
                        {k: recorded[k] for k in ("labels", "links", "pinned")}
                    assert copied["params"] == recorded["params"], "unpaused at the end, as recorded"
                    assert [kind for _, kind in await kinds(copy)] == [
                        "params", "added", "linked", "removed", "added", "linked", "added", "params"]
        run(scenario())
