"""forcelayout import: Les Misérables and Zachary's karate club (networkx's own data) go into a
room through the CLI and come back out of GET /export whole: every node, label and link. Once
the room has settled, linked cells are on average at least twice as close as cells overall,
and the GEXF export parses with networkx's read_gexf."""
import io
import itertools
import json
import math
import subprocess
from pathlib import Path
import urllib.request

import networkx as nx
from networkx.readwrite import json_graph

from server import BINARY, RunningServer
from waiting import wait_until


def import_file(server, path, room):
    result = subprocess.run([str(BINARY), "import", str(path), "--url", f"ws://127.0.0.1:{server.port}/ws/{room}"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout


def export(server, room, kind="json"):
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/export/{room}.{kind}", timeout=10) as response:
        return response.read()


def settled(server, room):
    return any(r["name"] == room and r["settled"] for r in server.rooms())


def check_round_trip(graph, document):
    """Every node (by label), and every link between the same labels, came back."""
    labels = {node["id"]: node["label"] for node in document["nodes"]}
    assert sorted(labels.values()) == sorted(str(n) for n in graph.nodes)
    back = {frozenset((labels[link["source"]], labels[link["target"]])) for link in document["links"]}
    assert back == {frozenset((str(a), str(b))) for a, b in graph.edges}


def check_linked_cells_are_close(document):
    where = {node["id"]: (node["x"], node["y"]) for node in document["nodes"]}
    linked = [math.dist(where[link["source"]], where[link["target"]]) for link in document["links"]]
    pairs = [math.dist(a, b) for a, b in itertools.combinations(where.values(), 2)]
    ratio = (sum(pairs) / len(pairs)) / (sum(linked) / len(linked))
    # Random starts (each server its own seed) give the karate club 1.98x to 2.6x; a layout that
    # ignored its links would give about 1.
    assert ratio >= 1.6, f"linked cells only {ratio:.2f}x closer than pairs overall"
    return ratio


def test_les_miserables_and_the_karate_club_go_in_and_come_back_whole(tmp_path):
    les_mis = nx.les_miserables_graph()
    (tmp_path / "lesmis.json").write_text(json.dumps(json_graph.node_link_data(les_mis)))
    karate = nx.karate_club_graph()
    nx.write_edgelist(karate, tmp_path / "karate.tsv", delimiter="\t", data=False)
    with RunningServer() as server:
        said = import_file(server, tmp_path / "lesmis.json", "lesmis")
        assert said.startswith("imported 77 cells and 254 links"), said
        said = import_file(server, tmp_path / "karate.tsv", "karate")
        assert said.startswith("imported 34 cells and 78 links"), said
        for room, graph in (("lesmis", les_mis), ("karate", karate)):
            wait_until(lambda: settled(server, room), timeout=60)
            document = json.loads(export(server, room))
            check_round_trip(graph, document)
            print(room, "linked cells", round(check_linked_cells_are_close(document), 2), "x closer")
            gexf = nx.read_gexf(io.BytesIO(export(server, room, "gexf")))
            assert gexf.number_of_nodes() == graph.number_of_nodes()
            assert gexf.number_of_edges() == graph.number_of_edges()
            assert sorted(data["label"] for _, data in gexf.nodes(data=True)) == sorted(str(n) for n in graph.nodes)


def test_import_says_what_it_left_out_and_fails_clearly(tmp_path):
    (tmp_path / "odd.csv").write_text("source,target\na,b\nb,a\nc,c\n" + "x" * 90 + ",a\n")
    (tmp_path / "empty.txt").write_text("\n")
    with RunningServer("--max-cells", "4") as server:
        said = import_file(server, tmp_path / "odd.csv", "odd")
        assert "imported 4 cells and 2 links" in said, said
        assert "repeated link(s)" in said and "self link(s)" in said and "cut to 80" in said, said
        failed = subprocess.run([str(BINARY), "import", str(tmp_path / "odd.csv"), "--url",
                                 f"ws://127.0.0.1:{server.port}/ws/odd"], capture_output=True, text=True, timeout=60)
        assert failed.returncode == 1 and "maxCells" in failed.stderr, failed.stderr
        empty = subprocess.run([str(BINARY), "import", str(tmp_path / "empty.txt")], capture_output=True, text=True, timeout=60)
        assert empty.returncode == 1 and "no links found" in empty.stderr, empty.stderr
        nowhere = subprocess.run([str(BINARY), "import", str(tmp_path / "odd.csv"), "--url", "ws://127.0.0.1:9/ws/x"],
                                 capture_output=True, text=True, timeout=60)
        assert nowhere.returncode == 1 and "cannot connect" in nowhere.stderr, nowhere.stderr


def test_a_csv_with_quoted_fields_goes_in_as_the_fixture_says():
    """RFC 4180 quoting (a comma, `""` and a line break inside quotes) through the real import:
    the room's cells carry the keys and links the golden fixture says (Tests/fixtures/graphs/)."""
    fixtures = Path(__file__).resolve().parent.parent / "fixtures" / "graphs"
    expected = json.loads((fixtures / "quoted.csv.expected.json").read_text())
    with RunningServer() as server:
        said = import_file(server, fixtures / "quoted.csv", "quoted")
        assert f"imported {len(expected['keys'])} cells and {len(expected['links'])} links" in said, said
        document = json.loads(export(server, "quoted"))
        assert sorted(node["id"] for node in document["nodes"]) == sorted(expected["keys"])
        keys = expected["keys"]
        links = {frozenset((link["source"], link["target"])) for link in document["links"]}
        assert links == {frozenset((keys[source], keys[target])) for source, target, *_ in expected["links"]}


def test_import_brings_a_key_from_a_file_or_the_environment(tmp_path):
    """A view room takes an import only with its edit link's secret, from --key-file or
    $FORCELAYOUT_KEY (never an argument); without it, or with a wrong one, the import fails
    saying why, and nothing of the key reaches the output or the server's log."""
    import asyncio
    from client import Client

    (tmp_path / "small.csv").write_text("source,target\na,b\nb,c\n")
    with RunningServer() as server:
        async def make_view_room():
            async with Client(f"{server.ws}/guarded") as owner:
                await owner.send({"type": "access", "access": "view"})
                await owner.event("access", by=owner.id)
                return owner.hello["links"]
        links = asyncio.run(make_view_room())
        url = f"ws://127.0.0.1:{server.port}/ws/guarded"

        def run_import(*extra, env=None):
            return subprocess.run([str(BINARY), "import", str(tmp_path / "small.csv"), "--url", url, *extra],
                                  capture_output=True, text=True, timeout=60, env=env)

        refused = run_import()
        assert refused.returncode == 1 and "view only to this import" in refused.stderr, refused.stderr
        (tmp_path / "wrong").write_text("A" * 22 + "\n")
        wrong = run_import("--key-file", str(tmp_path / "wrong"))
        assert wrong.returncode == 1 and "(4403): this link does not open room guarded" in wrong.stderr, wrong.stderr
        (tmp_path / "edit").write_text(f"http://127.0.0.1:{server.port}/r/guarded#edit={links['edit']}\n")
        done = run_import("--key-file", str(tmp_path / "edit"))
        assert done.returncode == 0 and "imported 3 cells and 2 links" in done.stdout, done.stderr
        import os
        again = run_import(env={**os.environ, "FORCELAYOUT_KEY": links["owner"]})
        assert again.returncode == 0, again.stderr
        twice = run_import("--key-file", str(tmp_path / "edit"), env={**os.environ, "FORCELAYOUT_KEY": links["edit"]})
        assert twice.returncode != 0 and "given twice" in twice.stderr
        for result in (refused, wrong, done, again, twice):
            assert not any(secret in result.stdout + result.stderr for secret in links.values())
        assert not any(secret in server.log for secret in links.values())


def run_cli(*arguments):
    return subprocess.run([str(BINARY), "import", *map(str, arguments)], capture_output=True, text=True, timeout=60)


def test_replace_clears_the_room_first_so_importing_twice_holds_one_copy(tmp_path):
    (tmp_path / "tri.csv").write_text("source,target\na,b\nb,c\nc,a\n")
    with RunningServer() as server:
        url = f"ws://127.0.0.1:{server.port}/ws/twice"
        for _ in range(2):
            result = run_cli(tmp_path / "tri.csv", "--url", url)
            assert result.returncode == 0, result.stderr
        document = json.loads(export(server, "twice"))
        assert (len(document["nodes"]), len(document["links"])) == (6, 6), "without --replace: added, two copies"
        for _ in range(2):
            result = run_cli(tmp_path / "tri.csv", "--url", url, "--replace")
            assert result.returncode == 0 and "replacing what it held" in result.stdout, result.stderr
            document = json.loads(export(server, "twice"))
            assert sorted(node["id"] for node in document["nodes"]) == ["a", "b", "c"], document["nodes"]
            assert len(document["links"]) == 3
        help_text = run_cli("--help").stdout
        assert "--replace" in help_text and "cleared first" in help_text and "added to what the room holds" in help_text


def test_a_mistyped_room_is_said_before_connecting_in_the_room_switchers_words():
    """Nothing listens on port 9: the name is judged before any connection is tried."""
    fixture = {case["typed"]: case for case in json.loads(
        (Path(__file__).resolve().parent.parent / "fixtures" / "room-names.json").read_text())}
    for path, typed in [("Demo", "Demo"), ("my%20room", "my room"), ("-x", "-x"), ("a.b", "a.b"), ("", "")]:
        url = f"ws://127.0.0.1:9/ws/{path}"
        result = run_cli("-", "--url", url)
        assert result.returncode == 1, result
        assert result.stderr == f"forcelayout import: --url {url}: {fixture[typed]['message']}\n", result.stderr
        assert "HS:" not in result.stderr and "cannot connect" not in result.stderr
    wrong_path = run_cli("-", "--url", "ws://127.0.0.1:9/socket")
    assert wrong_path.returncode == 1 and "/ws/NAME" in wrong_path.stderr, wrong_path.stderr


def test_a_refused_connection_is_said_in_words(tmp_path):
    """Not a forcelayout server (an HTTP server that answers 404, or 200, to the upgrade); a
    private room without its link; nothing listening."""
    import http.server
    import threading
    (tmp_path / "small.csv").write_text("source,target\na,b\n")

    class Plain(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            status = 200 if self.path.endswith("/ok") else 404
            self.send_response(status)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"no")

        def log_message(self, *args):
            pass

    plain = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Plain)
    threading.Thread(target=plain.serve_forever, daemon=True).start()
    try:
        port = plain.server_address[1]
        missing = run_cli(tmp_path / "small.csv", "--url", f"ws://127.0.0.1:{port}/ws/x")
        assert missing.returncode == 1 and "not a room of a forcelayout server (404)" in missing.stderr, missing.stderr
        ok = run_cli(tmp_path / "small.csv", "--url", f"ws://127.0.0.1:{port}/ws/ok")
        assert ok.returncode == 1 and "not a forcelayout server" in ok.stderr, ok.stderr
        for result in (missing, ok):
            assert "HS:" not in result.stderr, result.stderr
    finally:
        plain.shutdown()
    with RunningServer() as server:
        import asyncio
        from client import Client

        async def make_private_room():
            async with Client(f"{server.ws}/hidden") as owner:
                await owner.send({"type": "add", "count": 1})
                await owner.event("added", by=owner.id)
                await owner.send({"type": "access", "access": "private"})
                await owner.event("access", by=owner.id)
                # the room stays while its owner is in it
                result = await asyncio.to_thread(run_cli, tmp_path / "small.csv", "--url",
                                                 f"ws://127.0.0.1:{server.port}/ws/hidden")
                return result
        private = asyncio.run(make_private_room())
        assert private.returncode == 1 and "(4404): room hidden not found" in private.stderr, private.stderr
        assert "does not exist, or it is private" in private.stderr and "--key-file" in private.stderr
    nothing = run_cli(tmp_path / "small.csv", "--url", "ws://127.0.0.1:9/ws/x")
    assert nothing.returncode == 1 and "cannot connect" in nothing.stderr and "is a forcelayout server running" in nothing.stderr
