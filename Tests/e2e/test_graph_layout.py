"""Graphs laid out by the graph model (issue 23), as a user sees them: a grid imported with
`forcelayout import` unfolds while a viewer watches (frames keep coming), settles into a flat
sheet (its cells' nearest cells are their grid neighbours), and a drag in the settled drawing
wakes it, the dragged cell's neighbour follows, and it settles again."""
import asyncio
import json
import math
import subprocess
import urllib.request

from client import Client, run
from server import BINARY, RunningServer

# Large enough that its unfolding takes several frames with the engine optimised (the debug
# build's is too, see Package.swift): a 24 x 24 grid unfolded in under ten frames (0.5 s).
SIDE = 40
# Generous: the debug build steps a few times slower than the release one.
SETTLE_SECONDS = 120


def grid_file(path):
    """A SIDE x SIDE grid as node-link JSON; node r*SIDE+c."""
    nodes = [{"id": n} for n in range(SIDE * SIDE)]
    links = []
    for r in range(SIDE):
        for c in range(SIDE):
            n = r * SIDE + c
            if c + 1 < SIDE:
                links.append({"source": n, "target": n + 1})
            if r + 1 < SIDE:
                links.append({"source": n, "target": n + SIDE})
    path.write_text(json.dumps({"nodes": nodes, "links": links}))
    return links


def exported(server, room):
    with urllib.request.urlopen(f"{server.http}/export/{room}.json", timeout=10) as response:
        document = json.loads(response.read())
    return {node["id"]: (node["x"], node["y"]) for node in document["nodes"]}


def neighbourhood_preservation(points, links):
    """For each node, the share of its grid neighbours among its `degree` nearest nodes (Jaccard), averaged."""
    neighbours = {n: set() for n in points}
    for link in links:
        neighbours[link["source"]].add(link["target"])
        neighbours[link["target"]].add(link["source"])
    total = 0.0
    for n, (x, y) in points.items():
        nearest = sorted((m for m in points if m != n), key=lambda m: (points[m][0] - x) ** 2 + (points[m][1] - y) ** 2)
        near = set(nearest[:len(neighbours[n])])
        total += len(near & neighbours[n]) / len(near | neighbours[n])
    return total / len(points)


def test_an_imported_grid_unfolds_as_a_viewer_watches_and_settles_flat(tmp_path):
    links = grid_file(tmp_path / "grid.json")
    with RunningServer() as server:
        async def scenario():
            async with Client(server.room("grid")) as viewer:
                importer = await asyncio.create_subprocess_exec(
                    str(BINARY), "import", str(tmp_path / "grid.json"), "--url", f"ws://127.0.0.1:{server.port}/ws/grid",
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                out, err = await importer.communicate()
                assert importer.returncode == 0, err
                assert f"imported {SIDE * SIDE} cells and {len(links)} links" in out.decode(), out
                await viewer.event("settled", timeout=SETTLE_SECONDS)
                # From the grid's first cells on: on a fast machine most of the unfolding
                # happens while the import still sends its links (8 frames after it, once).
                first = next(i for i, m in enumerate(viewer.messages) if m.get("type") == "event" and m.get("kind") == "added")
                times = [t for m, t in zip(viewer.messages[first:], viewer.times[first:]) if m.get("type") == "frame"]
                return times
        frame_times = run(scenario())
        # Frames, not one picture at the end: how many depends on the machine (27-31 once, 8 on
        # a faster one), so a few suffice, with no long gap between them.
        assert len(frame_times) >= 5, "the viewer watched the drawing unfold"
        gaps = [b - a for a, b in zip(frame_times, frame_times[1:])]
        assert max(gaps) < 1.0, f"frames kept coming while it unfolded (largest gap {max(gaps):.2f} s)"
        points = exported(server, "grid")
        assert neighbourhood_preservation(points, links) > 0.9, "a flat sheet: each cell's nearest cells are its neighbours"


def test_a_drag_in_a_settled_graph_wakes_it_its_neighbour_follows_and_it_settles_again(tmp_path):
    links = grid_file(tmp_path / "grid.json")
    with RunningServer() as server:
        result = subprocess.run([str(BINARY), "import", str(tmp_path / "grid.json"), "--url", f"{server.ws}/grid"],
                                capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr

        async def scenario():
            async with Client(server.room("grid")) as hand:
                data = await hand.find(lambda m: m.get("type") == "data")
                if not hand.hello.get("settled"):
                    await hand.event("settled", timeout=SETTLE_SECONDS)
                cell = dict(zip(data["cells"]["key"], data["cells"]["id"]))
                before = exported(server, "grid")
                corner = cell[0]
                x, y = before[0]
                target = (x - 300, y - 300)
                start = len(hand.messages)
                await hand.send({"type": "pin", "id": corner, "x": target[0], "y": target[1]})
                await hand.event("woke")
                await hand.event("settled", timeout=SETTLE_SECONDS)
                after = exported(server, "grid")
                assert after[0] == target, "the dragged cell holds"
                moved_toward = math.dist(after[1], target) < math.dist(before[1], target) / 2
                assert moved_toward, f"its neighbour followed: {before[1]} -> {after[1]}, target {target}"
                assert any(m.get("type") == "frame" for m in hand.messages[start:])
        run(scenario())
