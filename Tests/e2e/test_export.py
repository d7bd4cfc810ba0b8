"""GET /export/NAME.json and /export/NAME.gexf: a room at one tick as node-link JSON and GEXF
1.2draft, readable by networkx; another site's page gets 403, an unknown room 404, and a
room that is only on disk is exported from its state file."""
import http.client
import io
import json
import urllib.error
import urllib.request

import networkx as nx
import pytest

from client import Client, run
from server import RunningServer


def fetch(server, path, headers=None, method="GET"):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.request(method, path, headers=headers or {})
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response, body


async def build(room):
    async with Client(room) as a:
        await a.send({"type": "add", "cells": [
            {"label": "Valjean & <Co>", "group": "1", "color": "#FF8800", "radius": 14},
            {"label": "Javert", "group": "2"}, {}]})
        ids = (await a.event("added", by=a.id))["ids"]
        await a.send({"type": "link", "links": [{"source": ids[0], "target": ids[1]},
                                                {"source": ids[1], "target": ids[2], "distance": 50, "strength": 0.5}]})
        await a.event("linked", by=a.id)
        await a.send({"type": "pin", "id": ids[2], "x": 100, "y": -40})
        await a.event("pinned", by=a.id)
        return ids


def check_documents(server, name, ids):
    response, body = fetch(server, f"/export/{name}.json")
    assert response.status == 200 and response.getheader("Content-Type") == "application/json"
    assert response.getheader("Content-Disposition") == f'attachment; filename="{name}.json"'
    document = json.loads(body)
    assert [node["id"] for node in document["nodes"]] == ids
    first = document["nodes"][0]
    assert (first["label"], first["group"], first["color"], first["radius"]) == ("Valjean & <Co>", "1", "#ff8800", 14)
    assert document["nodes"][2]["pinned"] is True and (document["nodes"][2]["x"], document["nodes"][2]["y"]) == (100, -40)
    assert document["links"] == [{"source": ids[0], "target": ids[1]},
                                 {"source": ids[1], "target": ids[2], "distance": 50, "strength": 0.5}]
    graph = nx.node_link_graph(document)
    assert set(graph.nodes) == set(ids) and graph.number_of_edges() == 2

    response, body = fetch(server, f"/export/{name}.gexf")
    assert response.status == 200 and response.getheader("Content-Type") == "application/gexf+xml"
    gexf = nx.read_gexf(io.BytesIO(body))
    assert set(gexf.nodes) == {str(i) for i in ids}
    node = gexf.nodes[str(ids[0])]
    assert node["label"] == "Valjean & <Co>" and node["group"] == "1"
    assert node["viz"]["color"] == {"r": 255, "g": 136, "b": 0, "a": 1.0} and node["viz"]["size"] == 14
    pinned = gexf.nodes[str(ids[2])]["viz"]["position"]
    assert (pinned["x"], pinned["y"]) == (100, 40)  # y points up in GEXF
    assert gexf.edges[str(ids[1]), str(ids[2])]["distance"] == 50


def test_a_room_exports_as_node_link_json_and_gexf_that_networkx_reads(tmp_path):
    with RunningServer("--state-dir", str(tmp_path / "state"), "--room-idle-seconds", "1") as server:
        ids = run(build(server.room("ex")))
        check_documents(server, "ex", ids)
        response, body = fetch(server, "/export/ex.json", method="HEAD")
        assert response.status == 200 and body == b"" and int(response.getheader("Content-Length")) > 100
        # Unloaded (settled, no clients): read from its file, the same document.
        server.shutdown()
        server.start()
        assert all(room["name"] != "ex" for room in server.rooms())
        check_documents(server, "ex", ids)


@pytest.mark.parametrize("path,status", [
    ("/export/nowhere.json", 404), ("/export/ex.csv", 404), ("/export/ex", 404), ("/export/Ex.json", 404),
    ("/export/", 404), ("/export/a/b.json", 404)])
def test_unknown_rooms_and_formats_are_404(path, status):
    with RunningServer() as server:
        response, _ = fetch(server, path)
        assert response.status == status


def test_another_sites_page_and_a_rebinding_host_get_403():
    with RunningServer() as server:
        run(build(server.room("ex")))
        assert fetch(server, "/export/ex.json", {"Origin": "http://evil.example"})[0].status == 403
        assert fetch(server, "/export/ex.json", {"Host": "evil.example"})[0].status == 403
        assert fetch(server, "/export/ex.json", {"Origin": f"http://127.0.0.1:{server.port}"})[0].status == 200
