"""A recording (issue 27) played back by the page, in real headless Chromium against the real
server.

    /usr/bin/python3 -m pytest Tests/web/test_playback.py

A page builds a small room (its cells added with the page's button, then labelled, linked,
updated, pinned and unpinned, its parameters changed, a link and a cell removed, by a second
client); the test downloads its recording over HTTP (`GET /export/ROOM.flhistory`), and the
timeline's Save recording link answers the same kind of file (FLHIST1, each record's CRC-32
right). A second page opens a new, empty room and plays the file through Import… "as fast as
allowed": the new room ends with the recorded room's cells (their data), links and pins,
compared through the server's own export (`GET /export/ROOM.json`), unpaused as the recording
left it. Played again into the now full room, the page asks "Replace the N cells here?" and
ends with the same room. A viewer's page has the playback controls disabled.
"""
import json
import struct
import time
import urllib.request
import zlib

from control import Control
from test_access import choose_access
from test_browser import add_cells, connected
from test_finding import send_file
from test_history import press
from selenium.webdriver.common.keys import Keys


def fetch(url):
    with urllib.request.urlopen(url, timeout=20) as reply:
        return reply.read()


def records(data):
    """Each record's type, checking the framing and CRC-32 of every one."""
    assert data.startswith(b"FLHIST1\n"), data[:40]
    found, at = [], 8
    while at < len(data):
        length, crc = struct.unpack_from("<II", data, at)
        payload = data[at + 8:at + 8 + length]
        assert len(payload) == length and zlib.crc32(payload) == crc, f"record at {at}"
        found.append(payload[0])
        at += 8 + length
    return found


def room_as_exported(server, room):
    """The room's cells by label (their data, and place when pinned) and its links by labels."""
    doc = json.loads(fetch(f"{server.http}/export/{room}.json"))
    label = {node["id"]: node["label"] for node in doc["nodes"]}
    cells = {}
    for node in doc["nodes"]:
        kept = {k: v for k, v in node.items() if k not in ("id", "x", "y")}
        if node.get("pinned"):
            kept["at"] = (round(node["x"], 1), round(node["y"], 1))
        cells[node["label"]] = kept
    links = {}
    for link in doc["links"]:
        ends = tuple(sorted((label[link["source"]], label[link["target"]])))
        links[ends] = {k: v for k, v in link.items() if k not in ("source", "target")}
    return cells, links


def played(page, path):
    send_file(page, path)
    page.wait(lambda: page.find("#import-status").get_attribute("data-kind") in ("done", "warning", "error"),
              "the playback to end", timeout=90)
    return page.find("#import-status").text


def test_a_page_plays_a_recording_into_a_new_room(server, pages, tmp_path):
    source = "play-source"
    a = pages(f"{server.http}/r/{source}")
    connected(a)
    add_cells(a, 4)
    with Control(server.http, room=source) as c:
        ids = a.js("return [...window.forcelayout.state.ids]")
        c.send({"type": "update", "cells": [{"id": cell, "label": f"n{k}"} for k, cell in enumerate(ids)]})
        c.event("updated")
        c.send({"type": "add", "cells": [{"label": "n4", "group": "g", "color": "#aa0000"},
                                          {"label": "n5", "attrs": {"club": "Mr. Hi", "w": 2}, "radius": 12}]})
        ids += c.event("added")["ids"]
        c.send({"type": "link", "links": [{"source": ids[0], "target": ids[1]},
                                          {"source": ids[1], "target": ids[2], "distance": 40},
                                          {"source": ids[2], "target": ids[3]},
                                          {"source": ids[3], "target": ids[4], "strength": 0.5, "attrs": {"kind": "friend"}},
                                          {"source": ids[4], "target": ids[5]}]})
        c.event("linked")
        time.sleep(1.2)  # the layout moves: keyframes of it
        c.send({"type": "update", "cells": [{"id": ids[2], "label": "n2 renamed", "group": "h"}]})
        c.event("updated")
        c.send({"type": "pin", "id": ids[1], "x": 30, "y": -20})
        c.event("pinned")
        c.send({"type": "pin", "id": ids[3], "x": 0, "y": 5})
        c.event("pinned")
        c.send({"type": "params", "charge": 25})
        c.event("params")
        c.send({"type": "unlink", "links": [{"source": ids[2], "target": ids[3]}]})
        c.event("unlinked")
        c.send({"type": "unpin", "id": ids[3]})
        c.event("unpinned")
        c.send({"type": "remove", "ids": [ids[0]]})
        c.event("removed")
        time.sleep(0.8)
    recorded = room_as_exported(server, source)
    assert len(recorded[0]) == 5 and len(recorded[1]) == 3, recorded

    data = fetch(f"{server.http}/export/{source}.flhistory")
    kinds = records(data)
    assert kinds[0] == 1 and 2 in kinds and 3 in kinds, kinds
    path = tmp_path / f"{source}.flhistory"
    path.write_bytes(data)

    # the timeline's Save recording link answers a recording too
    a.find("#history-toggle").click()
    a.wait(lambda: a.find("#past-save").is_displayed(), "the timeline's Save recording")
    saved = a.find("#past-save").get_attribute("href")
    assert saved.endswith(f"/export/{source}.flhistory"), saved
    assert records(fetch(saved))[0] == 1
    assert not a.find("#past-save-since").is_displayed(), "live: nothing to save from"
    a.wait(lambda: a.js("return window.forcelayout.timeline().events") > 0, "the room's past")
    press(a, Keys.ARROW_LEFT, Keys.ARROW_LEFT)
    a.wait(lambda: a.find("#past-save-since").is_displayed(), "From here to now, at a past moment")
    since = a.find("#past-save-since").get_attribute("href")
    assert f"/export/{source}.flhistory?from=" in since, since
    assert records(fetch(since))[0] == 1
    a.screenshot("playback-timeline.png")

    # a second page plays it into a new room, as fast as allowed
    target = "play-target"
    b = pages(f"{server.http}/r/{target}")
    connected(b)
    b.wait(lambda: b.find("#empty").is_displayed(), "the empty room's welcome")
    b.js("document.querySelector('#play-speed').value = '0'")
    started = time.monotonic()
    status = played(b, path)
    print(f"played {len(data)} bytes ({len(kinds)} records) in {time.monotonic() - started:.1f} s: {status}")
    assert status.startswith(f"Played {source}.flhistory:"), status
    assert room_as_exported(server, target) == recorded
    assert b.js("return window.forcelayout.state.params.paused") is False, "unpaused as the recording left it"
    assert b.js("return window.forcelayout.state.params.charge") == 25

    # again, into the room that now holds cells: asked first, then cleared and played
    b.js("window.__asked = []; window.confirm = (text) => { window.__asked.push(text); return true; }")
    status = played(b, path)
    assert status.startswith(f"Played {source}.flhistory:"), status
    assert b.js("return window.__asked[0]").startswith("Replace the 5 cells here?")
    assert room_as_exported(server, target) == recorded
    assert not b.severe(), b.severe()
    b.screenshot("playback-played.png")


def test_stop_leaves_the_room_as_far_as_played_and_unpaused(server, pages, tmp_path):
    source = "play-stop-source"
    a = pages(f"{server.http}/r/{source}")
    connected(a)
    add_cells(a, 3)
    time.sleep(1.0)
    add_cells(a, 3)
    time.sleep(2.5)  # a recording of a few seconds
    path = tmp_path / "short.flhistory"
    path.write_bytes(fetch(f"{server.http}/export/{source}.flhistory"))
    b = pages(f"{server.http}/r/play-stop-target")
    connected(b)
    b.js("document.querySelector('#play-speed').value = '1'")
    send_file(b, path)
    b.wait(lambda: b.find("#import-status").text.startswith("Playing recording: 0:0"), "the playback under way")
    assert b.find("#play-stop").is_displayed()
    b.wait(lambda: b.cells() >= 3, "the first cells")
    b.find("#play-stop").click()
    b.wait(lambda: b.find("#import-status").get_attribute("data-kind") == "warning", "the playback to stop")
    assert "stopped at 0:0" in b.find("#import-status").text, b.find("#import-status").text
    b.wait(lambda: b.js("return window.forcelayout.state.params.paused") is False, "the room unpaused")
    assert not b.find("#play-stop").is_displayed()


def test_a_viewer_cannot_play(server, pages):
    url = f"{server.http}/r/play-viewer"
    owner = pages(url)
    connected(owner)
    choose_access(owner, "view")
    viewer = pages(url)
    connected(viewer)
    viewer.wait(lambda: viewer.js("return window.forcelayout.state.role") == "viewer", "the view link's role")
    viewer.wait(lambda: viewer.find("#play-speed").get_attribute("disabled") is not None, "the speed menu disabled")
    assert viewer.find("#import-button").get_attribute("disabled") is not None
