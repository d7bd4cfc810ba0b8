"""The link force's length and strength as parameters like the others (`edgeLength`, shown as
"Link length", and `linkStrength`): every client sees them in hello's paramSpecs, a longer
length gives longer links at rest and a stronger pull shorter ones; a link keeps a distance of
its own only when its client gave one (the others follow the room's length), through the wire,
the state file and a restart, and a state file from before (every link stored with distance
30) loads with its links following the room's length."""
import json
import math
import urllib.request

from client import Client, run
from room_tools import add, set_params, settle
from server import RunningServer
from state_files import layout_document

RING = 12


def mean_link_length(server, room):
    with urllib.request.urlopen(f"{server.http}/export/{room}.json", timeout=10) as response:
        document = json.loads(response.read())
    where = {node["id"]: (node["x"], node["y"]) for node in document["nodes"]}
    lengths = [math.dist(where[link["source"]], where[link["target"]]) for link in document["links"]]
    return sum(lengths) / len(lengths)


async def ring(client):
    ids = await add(client, RING)
    await client.send({"type": "link", "links": [{"source": ids[i], "target": ids[(i + 1) % RING]} for i in range(RING)]})
    await client.event("linked", by=client.id)
    return ids


def test_both_are_parameter_controls_every_client_sees():
    with RunningServer() as server:
        async def scenario():
            async with Client(server.room("specs")) as a:
                specs = {spec["name"]: spec for spec in a.hello["paramSpecs"]}
                assert specs["edgeLength"]["label"] == "Link length" and "physics" not in specs["edgeLength"]
                assert (specs["linkStrength"]["label"], specs["linkStrength"]["default"], specs["linkStrength"]["min"],
                        specs["linkStrength"]["max"], specs["linkStrength"]["control"]) == ("Link strength", 1, 0, 5, "slider")
                assert (a.hello["params"]["edgeLength"], a.hello["params"]["linkStrength"]) == (30, 1)
                event = await set_params(a, linkStrength=2.5)
                assert event["params"]["linkStrength"] == 2.5 and event["changed"] == ["linkStrength"]
                await a.send({"type": "params", "linkStrength": 6, "ref": "x"})
                error = await a.error("bad_request")
                assert error["ref"] == "x" and "linkStrength" in error["message"], error
        run(scenario())


def test_longer_links_at_rest_with_a_longer_length_and_shorter_with_a_stronger_pull():
    """The cells model (its links rest at the room's length) and the graph model (sfdp's K)."""
    with RunningServer() as server:
        async def scenario(model):
            room = f"ring-{model}"
            async with Client(server.room(room)) as a:
                start = await set_params(a, model=model)
                await ring(a)
                await settle(a, start, timeout=120)
                base = mean_link_length(server, room)
                changed = await set_params(a, edgeLength=90)
                await settle(a, changed, timeout=120)
                longer = mean_link_length(server, room)
                changed = await set_params(a, edgeLength=30, linkStrength=4)
                await settle(a, changed, timeout=120)
                stronger = mean_link_length(server, room)
                return base, longer, stronger
        for model in ("cells", "graph"):
            base, longer, stronger = run(scenario(model))
            assert longer > 1.5 * base, (model, base, longer)
            # a stronger pull from the ring at rest: 0.92-0.95 of its length here, 0.966 once in
            # a loaded CI run (the ring rests again a little sooner); the pull left alone, 1
            assert stronger < 0.99 * base, (model, base, stronger)


def test_a_link_keeps_its_own_distance_only_when_given_through_a_restart(tmp_path):
    state = tmp_path / "state"
    with RunningServer("--state-dir", str(state)) as server:
        async def build():
            async with Client(server.room("kept")) as a:
                ids = await add(a, 3)
                await a.send({"type": "link", "links": [{"source": ids[0], "target": ids[1]},
                                                        {"source": ids[1], "target": ids[2], "distance": 45}]})
                linked = await a.event("linked", by=a.id)
                assert linked["links"] == [{"source": ids[0], "target": ids[1]},
                                           {"source": ids[1], "target": ids[2], "distance": 45}]
                return ids
        ids = run(build())
        server.shutdown()
        saved = json.loads((state / "kept.json").read_text())
        assert saved["version"] == 6
        assert saved["layout"]["links"] == [{"source": ids[0], "target": ids[1]},
                                            {"distance": 45, "source": ids[1], "target": ids[2]}]
        server.start()

        async def check():
            async with Client(server.room("kept")) as late:
                data = await late.next("data")
                assert data["links"] == {"source": [ids[0], ids[1]], "target": [ids[1], ids[2]], "distance": [None, 45]}
        run(check())


def test_a_state_file_from_before_loads_with_its_links_following_the_rooms_length(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    document = layout_document(6, links_per_cell=1)  # version 3: every link stored with distance 30
    document["layout"]["links"][0]["distance"] = 45
    (state / "old.json").write_text(json.dumps(document, sort_keys=True))
    with RunningServer("--state-dir", str(state)) as server:
        async def load():
            async with Client(server.room("old")) as a:
                data = await a.next("data")
                assert data["links"]["distance"] == [45, None, None, None, None, None], data["links"]
                await set_params(a, edgeLength=60)
        run(load())
        server.shutdown()
        saved = json.loads((state / "old.json").read_text())
        assert saved["version"] == 6
        assert [link.get("distance") for link in saved["layout"]["links"]] == [45, None, None, None, None, None]
        assert saved["layout"]["parameters"]["edgeLength"] == 60
