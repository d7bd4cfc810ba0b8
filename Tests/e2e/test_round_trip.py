"""Your data comes back as it went in: networkx's karate club (int node ids, node attribute
`club`, edge attribute `weight`) and Les Misérables (string ids, edge `weight`) imported
through the CLI as node-link JSON come back out of GET /export as node-link JSON and GEXF
that networkx reads into the same graph: the same node ids (of the same type), the same
edges, the same attributes (the layout's own fields, such as label and x, come on top). The
same after the room was unloaded and read back from its state file."""
import io
import json
import subprocess
import urllib.request

import networkx as nx
from networkx.readwrite import json_graph

from server import BINARY, RunningServer
from waiting import wait_until

# What an export adds of its own, beside the user's attributes.
OWN_NODE_JSON = {"label", "x", "y", "radius", "color", "group", "pinned"}
OWN_EDGE_JSON = {"distance", "strength"}
OWN_NODE_GEXF = {"label", "viz", "group"}
OWN_EDGE_GEXF = {"id", "distance", "strength"}


def import_file(server, path, room):
    result = subprocess.run([str(BINARY), "import", str(path), "--url", f"ws://127.0.0.1:{server.port}/ws/{room}"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout


def export(server, room, kind):
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/export/{room}.{kind}", timeout=10) as response:
        return response.read()


def node_link_graph(document):
    try:
        return json_graph.node_link_graph(document, edges="links")  # networkx 3.4 and on
    except TypeError:
        return json_graph.node_link_graph(document)  # earlier: "links" is the default


def same_graph(original, back, own_node, own_edge):
    assert not back.is_directed() and not back.is_multigraph()
    assert set(back.nodes) == set(original.nodes)
    assert {type(n) for n in back.nodes} == {type(n) for n in original.nodes}
    for node, data in original.nodes(data=True):
        got = back.nodes[node]
        assert {k: got.get(k) for k in data} == data, (node, got)
        assert set(got) - set(data) <= own_node, (node, got)
    assert {frozenset(e) for e in back.edges} == {frozenset(e) for e in original.edges}
    for a, b, data in original.edges(data=True):
        got = back.edges[a, b]
        assert {k: got.get(k) for k in data} == data, (a, b, got)
        assert set(got) - set(data) <= own_edge, (a, b, got)


def check_exports(server, room, graph, node_type):
    same_graph(graph, node_link_graph(json.loads(export(server, room, "json"))), OWN_NODE_JSON, OWN_EDGE_JSON)
    gexf = nx.read_gexf(io.BytesIO(export(server, room, "gexf")), node_type=node_type)
    same_graph(graph, gexf, OWN_NODE_GEXF, OWN_EDGE_GEXF)


def test_the_karate_club_and_les_miserables_round_trip_with_their_ids_and_attributes(tmp_path):
    karate, les_mis = nx.karate_club_graph(), nx.les_miserables_graph()
    assert any(data for _, data in karate.nodes(data=True)) and all("weight" in d for *_, d in karate.edges(data=True))
    (tmp_path / "karate.json").write_text(json.dumps(json_graph.node_link_data(karate)))
    (tmp_path / "lesmis.json").write_text(json.dumps(json_graph.node_link_data(les_mis)))
    with RunningServer("--state-dir", str(tmp_path / "state"), "--room-idle-seconds", "1") as server:
        assert import_file(server, tmp_path / "karate.json", "karate").startswith("imported 34 cells and 78 links")
        assert import_file(server, tmp_path / "lesmis.json", "lesmis").startswith("imported 77 cells and 254 links")
        rooms = (("karate", karate, int), ("lesmis", les_mis, str))
        for room, graph, node_type in rooms:
            check_exports(server, room, graph, node_type)
        # Unloaded (settled, no clients) and read back from the state file: the same.
        for room, _, _ in rooms:
            wait_until(lambda: all(r["name"] != room for r in server.rooms()), timeout=90)
        server.shutdown()
        server.start()
        for room, graph, node_type in rooms:
            check_exports(server, room, graph, node_type)


def test_odd_ids_and_attributes_of_every_type_come_back_typed(tmp_path):
    graph = nx.Graph()
    graph.add_node('<a & "b">', flag=True, size=2, share=0.25, mixed=1, nested=[1, {"x": None}], note="é\u2028\nline\ttab\r")
    graph.add_node("c", flag=False, size=3, share=1, mixed="one", extra=None)
    graph.add_node("d")
    graph.add_edge('<a & "b">', "c", weight=0.5, kind="strong", on=True)
    graph.add_edge("c", "d", weight=2)
    (tmp_path / "odd.json").write_text(json.dumps(json_graph.node_link_data(graph)))
    with RunningServer() as server:
        assert import_file(server, tmp_path / "odd.json", "odd").startswith("imported 3 cells and 2 links")
        # JSON: everything as it was, nulls and lists included.
        same_graph(graph, node_link_graph(json.loads(export(server, "odd", "json"))), OWN_NODE_JSON, OWN_EDGE_JSON)
        # GEXF: typed columns (booleans, integers, doubles; mixed, lists and objects as text).
        gexf = nx.read_gexf(io.BytesIO(export(server, "odd", "gexf")))
        assert set(gexf.nodes) == set(graph.nodes)
        first = gexf.nodes['<a & "b">']
        assert (first["flag"], first["size"], first["share"], first["mixed"]) == (True, 2, 0.25, "1")
        assert type(first["size"]) is int and type(first["share"]) is float
        assert first["nested"] == '[1,{"x":null}]' and first["note"] == "é\u2028\nline\ttab\r"
        assert gexf.nodes["c"]["flag"] is False and gexf.nodes["c"]["share"] == 1.0 and gexf.nodes["c"]["mixed"] == "one"
        assert "extra" not in gexf.nodes["c"]
        edge = gexf.edges['<a & "b">', "c"]
        assert (edge["weight"], edge["kind"], edge["on"]) == (0.5, "strong", True)
        assert gexf.edges["c", "d"]["weight"] == 2
