"""Every error code, the message size limit, and that a rejected message changes nothing."""
import asyncio
import json

from client import Client, run
from server import RunningServer, wait_until_async


def test_bad_json_unknown_type_and_bad_request(server):
    async def scenario():
        async with Client(server.ws) as client:
            for raw, code in [("not json", "bad_json"), ("[1,2,3]", "bad_json"), ('{"type":"add","type":"add"}', "bad_json"),
                              ("[" * 60000, "bad_json"), ("{\"a\":" * 10000, "bad_json"), ('{"count":1}', "unknown_type"), ('{"type":"explode"}', "unknown_type"),
                              ('{"type":"params","charge":1e400}', "bad_request"), ('{"type":"add","count":-1}', "bad_request"),
                              ('{"type":"params","gravity":1}', "bad_request"), ('{"type":"remove"}', "bad_request")]:
                await client.send(raw)
                error = await client.error()
                assert error["code"] == code, (raw[:40], error)
                assert error["message"]
            await client.send(b"\x00\x01binary")
            await client.error("bad_json")
            await client.send(bytes([0x7B, 0x22, 0xFF, 0x22, 0x7D]).decode("latin-1"))
            await client.error("bad_json")
            # The connection is still open and works.
            await client.send({"type": "add", "count": 1})
            await client.event("added")
    run(scenario())


def test_ref_is_echoed(server):
    async def scenario():
        async with Client(server.ws) as client:
            await client.send({"type": "params", "charge": -5, "ref": "try-1"})
            error = await client.error("bad_request")
            assert error["ref"] == "try-1"
            assert "charge" in error["message"]
    run(scenario())


def test_rejected_params_change_nothing(server):
    async def scenario():
        async with Client(server.ws) as client:
            await client.send({"type": "params", "charge": 30, "stiffness": 5})
            await client.error("bad_request")
            await client.send({"type": "params", "charge": 31})
            event = await client.event("params")
            assert event["changed"] == ["charge"] and event["params"]["stiffness"] == 0.02
    run(scenario())


def test_limit_per_message(server):
    async def scenario():
        async with Client(server.ws) as client:
            await client.send({"type": "add", "count": 1001})
            error = await client.error("limit")
            assert "1000" in error["message"]
    run(scenario())


def test_limit_max_cells():
    async def scenario(running):
        async with Client(running.ws) as client:
            assert client.hello["limits"]["maxCells"] == 10
            await client.send({"type": "add", "count": 8})
            await client.event("added")
            await client.send({"type": "add", "count": 3, "ref": "too-many"})
            error = await client.error("limit")
            assert error["ref"] == "too-many"
            await client.send({"type": "add", "count": 2})
            added = await client.event("added")
            assert len(added["ids"]) == 2
    with RunningServer("--max-cells", "10") as running:
        run(scenario(running))


def test_rate_limited_then_recovers(server):
    async def scenario():
        async with Client(server.ws) as client:
            for _ in range(200):
                await client.send({"type": "subscribe"})
            error = await client.error("rate_limited")
            assert "second" in error["message"]
            await asyncio.sleep(1.5)
            await client.send({"type": "add", "count": 1})
            await client.event("added")
    run(scenario())


def test_oversize_message_closes_with_1009(server):
    async def scenario():
        async with Client(server.ws) as client:
            await client.send(json.dumps({"type": "add", "pad": "x" * 70000}))
            await wait_until_async(lambda: client.closed, timeout=5)
            assert client.closed and client.closed[0] == 1009, client.closed
        # Others are unaffected.
        async with Client(server.ws) as other:
            await other.send({"type": "add"})
            await other.event("added")
    run(scenario())


def test_message_just_under_the_limit_is_read_whole(server):
    async def scenario():
        async with Client(server.ws) as client:
            ids = list(range(1, 9000))
            message = json.dumps({"type": "remove", "ids": ids, "ref": "big"})
            assert 40000 < len(message) < 65536
            await client.send(message)
            error = await client.error("bad_request")
            assert error["ref"] == "big"
    run(scenario())
