"""GET /export/NAME.svg: the whole layout as one SVG 1.1 drawing from one tick (a circle per
cell with its radius and the page's colour, a line per link, labels as escaped text, the room
as its title), with the limits, access rules and errors of the other exports."""
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from client import Client, run
from room_tools import add, request
from server import RunningServer

SVG = "{http://www.w3.org/2000/svg}"
PALETTE = json.loads((Path(__file__).resolve().parent.parent / "fixtures" / "palette.json").read_text())
LABEL = "Valjean & <Co> \"x\" 'y'\u00e9"


def bearer(key):
    return {"Authorization": f"Bearer {key}"} if key is not None else None


def drawing(server, name, key=None):
    """The parsed drawing of GET /export/NAME.svg, after checking its headers."""
    status, headers, body = request(server.port, f"/export/{name}.svg", headers=bearer(key))
    assert status == 200, (status, body)
    assert headers["content-type"] == "image/svg+xml"
    assert headers["content-disposition"] == f'attachment; filename="{name}.svg"'
    assert body.startswith(b'<?xml version="1.0" encoding="UTF-8"')
    root = ET.fromstring(body)
    assert root.tag == f"{SVG}svg" and root.get("version") == "1.1"
    return root


def circles(root):
    return root.findall(f".//{SVG}circle")


async def build(room):
    """Four cells (a label to escape, an own colour and radius, a group, one plain and pinned)
    and three links; returns (client id, cell ids)."""
    async with Client(room) as a:
        await a.send({"type": "add", "cells": [
            {"label": LABEL}, {"color": "#FF8800", "radius": 14}, {"group": "g", "label": "Javert"}, {}]})
        ids = (await a.event("added", by=a.id))["ids"]
        await a.send({"type": "link", "links": [{"source": ids[0], "target": ids[1]}, {"source": ids[1], "target": ids[2]},
                                                {"source": ids[0], "target": ids[3]}]})
        await a.event("linked", by=a.id)
        await a.send({"type": "pin", "id": ids[3], "x": 100, "y": -40})
        await a.event("pinned", by=a.id)
        return a.id, ids


def check_drawing(root, room, ids):
    assert root.find(f"{SVG}title").text == room
    assert len(circles(root)) == len(ids) and len(root.findall(f".//{SVG}line")) == 3
    assert sorted(t.text for t in root.findall(f".//{SVG}text")) == sorted([LABEL, "Javert"])
    fills = [c.get("fill") for c in circles(root)]
    radii = [float(c.get("r")) for c in circles(root)]
    assert fills[1] == "#ff8800" and radii == [10, 14, 10, 10]  # cellSize 20 by default
    groups = {g["index"]: g["light"] for g in PALETTE["groups"]}
    assert fills[2] == groups[0]
    pinned = circles(root)[3]
    assert (float(pinned.get("cx")), float(pinned.get("cy"))) == (100, -40)
    x, y, w, h = map(float, root.get("viewBox").split())
    for c in circles(root):
        cx, cy, r = float(c.get("cx")), float(c.get("cy")), float(c.get("r"))
        assert x < cx - r and cx + r < x + w and y < cy - r and cy + r < y + h
    return fills


def test_a_room_as_an_svg_drawing_from_memory_and_from_its_file(tmp_path):
    with RunningServer("--state-dir", str(tmp_path / "state"), "--room-idle-seconds", "1") as server:
        client, ids = run(build(server.room("ex")))
        fills = check_drawing(drawing(server, "ex"), "ex", ids)
        owners = {c["id"]: c["light"] for c in PALETTE["clients"]}
        if client in owners:
            assert fills[0] == fills[3] == owners[client], (client, fills)
        assert fills[0] == fills[3] and fills[0] not in (fills[1], fills[2]), "cells without colour or group: their owner's"
        status, headers, body = request(server.port, "/export/ex.svg", method="HEAD")
        assert status == 200 and body == b"" and headers["content-type"] == "image/svg+xml"
        # Unloaded (no clients): read from its state file, the same drawing.
        server.shutdown()
        server.start()
        assert all(room["name"] != "ex" for room in server.rooms())
        check_drawing(drawing(server, "ex"), "ex", ids)


def test_an_empty_room_is_an_empty_drawing():
    with RunningServer() as server:
        async def touch():
            async with Client(server.room("blank")):
                pass
        run(touch())
        root = drawing(server, "blank")
        assert circles(root) == [] and root.findall(f".//{SVG}line") == []
        assert root.find(f"{SVG}rect") is not None


def test_every_cell_and_link_of_a_larger_room():
    with RunningServer() as server:
        async def scenario():
            async with Client(server.room("big")) as a:
                ids = await add(a, 300)
                links = [{"source": ids[i], "target": ids[i // 2]} for i in range(1, len(ids))]
                await a.send({"type": "link", "links": links})
                await a.event("linked", by=a.id)
                return ids
        ids = run(scenario())
        root = drawing(server, "big")
        assert len(circles(root)) == len(ids) and len(root.findall(f".//{SVG}line")) == len(ids) - 1


@pytest.mark.parametrize("path", ["/export/nowhere.svg", "/export/Ex.svg", "/export/ex.SVG", "/export/.svg", "/export/a/b.svg"])
def test_unknown_rooms_are_404(path):
    with RunningServer() as server:
        run(build(server.room("ex")))
        assert request(server.port, path)[0] == 404


def test_access_as_for_the_other_exports():
    with RunningServer() as server:
        async def scenario():
            async with Client(server.room("house")) as owner:
                links = owner.hello["links"]
                await add(owner, 3)
                for mode, status in (("open", 200), ("view", 403), ("private", 404)):
                    if mode != "open":
                        await owner.send({"type": "access", "access": mode})
                        await owner.event("access", by=owner.id)
                    got, _, body = request(server.port, "/export/house.svg")
                    assert got == status, (mode, got, body)
                    assert request(server.port, "/export/house.json")[0] == status
                    if status == 403:
                        assert b"Bearer" in body
                    for kind in ("view", "edit", "owner"):
                        assert len(circles(drawing(server, "house", key=links[kind]))) == 3, (mode, kind)
                    assert request(server.port, "/export/house.svg", headers=bearer("wrong-" + links["view"]))[0] == status
        run(scenario())
        assert request(server.port, "/export/house.svg", headers={"Origin": "http://evil.example"})[0] == 403
