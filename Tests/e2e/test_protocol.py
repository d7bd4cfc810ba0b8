"""Every message type, over a real WebSocket, against the real binary."""
import asyncio
import json

import websockets

from client import Client, positions, run


def test_hello_then_full_frame(server):
    async def scenario():
        async with Client(server.ws) as client:
            hello = client.hello
            assert client.messages[0] is hello, "hello must be the first message"
            assert hello["protocol"] == 1
            assert hello["client"].startswith("c")
            assert hello["clients"] == 1
            # Every parameter of paramSpecs at its default, in its order; the first eight as ever.
            specs = hello["paramSpecs"]
            assert list(hello["params"]) == [spec["name"] for spec in specs]
            assert hello["params"] == {spec["name"]: spec["default"] for spec in specs}
            assert {"stiffness": 0.02, "charge": 10, "cellSize": 20, "threshold": 0.3, "tickRate": 20, "theta": 0.9,
                    "collide": False, "paused": False}.items() <= hello["params"].items()
            assert hello["limits"]["maxCells"] == 100000
            assert hello["limits"]["maxAddPerMessage"] == 1000
            assert hello["limits"]["maxMessageBytes"] == 65536
            assert isinstance(hello["tick"], int) and hello["settled"] is True
            assert isinstance(hello["events"], list)
            frame = await client.next("frame")
            assert frame["ids"] == [] and frame["xy"] == [] and "v" in frame and "tick" in frame
            joined = await client.event("joined")
            assert joined["client"] == client.id and joined["clients"] == 1
    run(scenario())


def test_connection_without_subprotocol_is_served(server):
    async def scenario():
        async with Client(server.ws, subprotocols=None) as client:
            assert client.hello["type"] == "hello"
            await client.next("frame")
        async with Client(server.ws) as client:
            assert client.socket.subprotocol == "forcelayout.v1"
    run(scenario())


def test_websocket_only_at_ws_path(server):
    async def scenario():
        try:
            async with websockets.connect(f"ws://127.0.0.1:{server.port}/elsewhere") as socket:
                await asyncio.wait_for(socket.recv(), 3)
            raise AssertionError("a WebSocket at /elsewhere was accepted")
        except (websockets.InvalidStatusCode, websockets.InvalidHandshake, websockets.ConnectionClosed):
            pass
    run(scenario())


def test_add_publishes_event_then_frames(server):
    async def scenario():
        async with Client(server.ws) as client:
            await client.send({"type": "params", "threshold": 0})  # keep stepping
            await client.send({"type": "add", "count": 5})
            added = await client.event("added")
            assert added["by"] == client.id and len(added["ids"]) == 5
            assert isinstance(added["seq"], int) and isinstance(added["tick"], int)
            frame = await client.frame_with(added["ids"])
            assert len(frame["xy"]) == 10
            assert all(isinstance(value, (int, float)) for value in frame["xy"])
            # Later frames of the same version omit ids; ticks only go forward.
            later = await client.find(lambda m: m.get("type") == "frame" and "ids" not in m)
            assert later["v"] == frame["v"] and later["tick"] > frame["tick"]
            assert len(later["xy"]) == 10
    run(scenario())


def test_frame_text_format(server):
    async def scenario():
        async with websockets.connect(server.ws) as socket:
            await socket.send(json.dumps({"type": "params", "threshold": 0}))  # keep stepping
            await socket.send(json.dumps({"type": "add", "count": 50}))
            raw_frames = []
            while len(raw_frames) < 3:
                raw = await asyncio.wait_for(socket.recv(), 10)
                if '"type":"frame"' in raw and '"xy":[]' not in raw:
                    raw_frames.append(raw)
            for raw in raw_frames:
                numbers = raw.split('"xy":[')[1].rstrip("]}").split(",")
                assert len(numbers) == 100
                for number in numbers:
                    assert "e" not in number.lower(), number
                    whole, _, fraction = number.partition(".")
                    assert len(fraction) <= 1 and fraction != "0", number
                    assert number not in ("-0",), number
    run(scenario())


def test_spawn_modes(server):
    async def scenario():
        async with Client(server.ws) as client:
            await client.send({"type": "params", "paused": True})
            await client.event("params")
            await client.send({"type": "add", "count": 1, "spawn": {"x": 123.4, "y": -56.7}})
            point = (await client.event("added"))["ids"]
            frame = await client.frame_with(point)
            assert positions(frame)[point[0]] == (123.4, -56.7)
            await client.send({"type": "add", "count": 1, "spawn": "center"})
            center = (await client.event("added"))["ids"]
            frame = await client.frame_with(point + center)
            assert positions(frame)[center[0]] == (0, 0)
            for spawn in ["random", "border"]:
                await client.send({"type": "add", "count": 3, "spawn": spawn})
                await client.event("added")
    run(scenario())


def test_remove_by_ids_by_count_and_clear(server):
    async def scenario():
        async with Client(server.ws) as client:
            await client.send({"type": "add", "count": 10})
            ids = (await client.event("added"))["ids"]
            await client.send({"type": "remove", "ids": [ids[0], ids[1]]})
            removed = await client.event("removed")
            assert sorted(removed["ids"]) == sorted(ids[:2]) and removed["by"] == client.id
            await client.frame_with(ids[2:])
            await client.send({"type": "remove", "count": 3})
            removed = await client.event("removed")
            assert sorted(removed["ids"]) == sorted(ids[-3:])
            await client.frame_with(ids[2:7])
            # All or nothing: one unknown id rejects the whole message.
            await client.send({"type": "remove", "ids": [ids[2], 999999], "ref": "r1"})
            error = await client.error("bad_request")
            assert error["ref"] == "r1" and "999999" in error["message"]
            await client.send({"type": "clear"})
            cleared = await client.event("cleared")
            assert sorted(cleared["ids"]) == sorted(ids[2:7]), "the failed remove must have removed nothing"
            await client.frame_with([])
            # New ids never reuse old ones.
            await client.send({"type": "add", "count": 2})
            fresh = (await client.event("added"))["ids"]
            assert min(fresh) > max(ids)
    run(scenario())


def test_pin_and_unpin(server):
    async def scenario():
        async with Client(server.ws) as client:
            # threshold 0: the layout never settles, so frames keep coming while we watch.
            await client.send({"type": "params", "threshold": 0})
            await client.send({"type": "add", "count": 3})
            ids = (await client.event("added"))["ids"]
            await client.send({"type": "pin", "id": ids[0], "x": 200, "y": -150.5})
            pinned = await client.event("pinned")
            assert (pinned["id"], pinned["x"], pinned["y"]) == (ids[0], 200, -150.5)
            for _ in range(3):
                frame = await client.find(lambda m: m.get("type") == "frame" and m["tick"] > pinned["tick"])
            start = len(client.messages)
            await asyncio.sleep(0.5)
            for message in client.since(start, "frame"):
                index = client_ids_index(client, message, ids[0])
                assert (message["xy"][2 * index], message["xy"][2 * index + 1]) == (200, -150.5)
            await client.send({"type": "unpin", "id": ids[0]})
            unpinned = await client.event("unpinned")
            assert unpinned["id"] == ids[0]
            await client.send({"type": "pin", "id": 424242, "x": 0, "y": 0})
            await client.error("bad_request")
            await client.send({"type": "unpin", "id": 424242})
            await client.error("bad_request")
    run(scenario())


def client_ids_index(client, frame, cell):
    """The index of `cell` in the membership of `frame` (ids from the last frame that had them)."""
    ids = frame.get("ids")
    if ids is None:
        carrying = [m for m in client.messages if m.get("type") == "frame" and m.get("v") == frame["v"] and "ids" in m]
        ids = carrying[-1]["ids"]
    return ids.index(cell)


def test_params_event_reaches_everyone(server):
    async def scenario():
        async with Client(server.ws) as first, Client(server.ws) as second:
            await second.send({"type": "params", "charge": 25, "collide": True})
            for client in (first, second):
                event = await client.event("params")
                assert event["by"] == second.id
                assert event["params"]["charge"] == 25 and event["params"]["collide"] is True
                assert sorted(event["changed"]) == ["charge", "collide"]
            async with Client(server.ws) as third:
                assert third.hello["params"]["charge"] == 25
    run(scenario())


def test_a_choice_parameter_is_set_by_name_and_a_bad_one_refused(server):
    """model is a choice: hello.paramSpecs lists its options, a params message names one, every
    client's params event carries the name; anything else is refused, naming the options, and
    changes nothing (not even the valid value beside it)."""
    async def scenario():
        async with Client(server.room("choice")) as first, Client(server.room("choice")) as second:
            spec = next(s for s in first.hello["paramSpecs"] if s["name"] == "model")
            assert {k: spec[k] for k in ("kind", "control", "options", "default")} == {
                "kind": "choice", "control": "menu", "options": ["auto", "cells", "graph"], "default": "auto"}
            assert set(spec) == {"name", "kind", "label", "description", "default", "options", "control"}
            assert first.hello["params"]["model"] == "auto"
            await second.send({"type": "params", "model": "graph", "edgeLength": 45})
            for client in (first, second):
                event = await client.event("params")
                assert event["by"] == second.id
                assert event["params"]["model"] == "graph" and event["params"]["edgeLength"] == 45
                assert event["changed"] == ["model", "edgeLength"]
            for bad in ("Graph", "sfdp", "", 1, None, ["graph"]):
                await first.send({"type": "params", "charge": 11, "model": bad, "ref": "m"})
                error = await first.error("bad_request")
                assert error["ref"] == "m"
                assert error["message"].startswith('model must be one of "auto", "cells", "graph", not '), error
            await first.send({"type": "params", "model": "graph"})  # the same name again: no event
            await first.send({"type": "params", "model": "cells"})
            event = await first.event("params", by=first.id)
            assert event["changed"] == ["model"] and event["params"]["model"] == "cells" and event["params"]["charge"] == 10
            async with Client(server.room("choice")) as third:
                assert third.hello["params"]["model"] == "cells" and third.hello["params"]["charge"] == 10
    run(scenario())


def test_subscribe_filters_events(server):
    async def scenario():
        async with Client(server.ws) as client:
            await client.send({"type": "subscribe", "kinds": ["params"]})
            await client.send({"type": "add", "count": 2})
            await client.send({"type": "params", "charge": 12})
            event = await client.event("params")
            assert not client.since(0, "event", kind="added"), "added events must be filtered out"
            await client.send({"type": "subscribe", "kinds": "all"})
            await client.send({"type": "add", "count": 1})
            await client.event("added")
            assert event["params"]["charge"] == 12
    run(scenario())


def test_replay_returns_recent_matching_events_oldest_first(server):
    async def scenario():
        async with Client(server.ws) as client:
            for count in (1, 2, 3):
                await client.send({"type": "add", "count": count})
                await client.event("added")
            await client.send({"type": "params", "charge": 11})
            await client.event("params")
            await client.send({"type": "replay", "count": 2, "kinds": ["added"]})
            replay = await client.next("replay")
            assert [len(event["ids"]) for event in replay["events"]] == [2, 3]
            seqs = [event["seq"] for event in replay["events"]]
            assert seqs == sorted(seqs)
            await client.send({"type": "replay", "count": 256})
            everything = (await client.next("replay"))["events"]
            mine = [e["kind"] for e in everything if e["kind"] in ("joined", "added", "params")]
            assert mine == ["joined", "added", "added", "added", "params"]
    run(scenario())


def test_stats_arrive_every_second(server):
    async def scenario():
        async with Client(server.ws) as client:
            first = await client.next("stats", timeout=3)
            second = await client.next("stats", timeout=3)
            for stats in (first, second):
                for key in ["cells", "clients", "tick", "settled", "tickMs", "tickMsP99", "tickRate",
                            "frameBytes", "uptimeS"]:
                    assert key in stats, key
            assert second["clients"] == 1
    run(scenario())


def test_joined_and_left(server):
    async def scenario():
        async with Client(server.ws) as watcher:
            async with Client(server.ws) as visitor:
                joined = await watcher.event("joined", client=visitor.id)
                assert joined["clients"] == 2
            left = await watcher.event("left", client=visitor.id)
            assert left["clients"] == 1
    run(scenario())
