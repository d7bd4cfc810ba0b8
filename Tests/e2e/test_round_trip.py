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
