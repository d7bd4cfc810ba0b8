"""Frames cross Redis in their v2 form alone while no v1 client is in the room on any server
(docs/cluster.md): the owner writes the text form only for v1 clients, its own or a relay's
(`RelayRequest.joined` says which, and the roster in Redis keeps it for a server taking the
room over). A v1 client joining a relay still gets hello, then a full frame."""
import asyncio

from client import Client, run
from waiting import wait_until_async

V2 = ("forcelayout.v2",)


def copy_has_text(redis, room):
    """Whether the copy of the newest frame kept in Redis for joiners carries the text form."""
    copy = redis.call("HGET", f"fl:{{{room}}}:mirror", "frame")
    assert isinstance(copy, bytes) and copy, copy
    return b'{"type":"frame"' in copy


def roster(redis, room):
    reply = redis.call("HGETALL", f"fl:{{{room}}}:clients")
    return {reply[i].decode(): reply[i + 1].decode() for i in range(0, len(reply), 2)}


def test_a_room_read_in_v2_sends_no_text_until_a_v1_client_joins_a_relay(cluster, redis):
    async def scenario():
        a = await Client(cluster[0].room("forms"), subprotocols=V2).__aenter__()
        b = await Client(cluster[1].room("forms"), subprotocols=V2).__aenter__()
        try:
            await a.send({"type": "add", "count": 40})
            ids = (await b.event("added", by=a.id))["ids"]
            await a.send({"type": "params", "paused": True})
            await b.event("params")
            await asyncio.sleep(1.0)
            assert not copy_has_text(redis, "forms"), "frames went to Redis with text no client reads"
            assert roster(redis, "forms") == {a.id: "a", b.id: "b"}

            # A v1 client on the third server, in a paused room: hello, then a full frame.
            late = await Client(cluster[2].room("forms")).__aenter__()
            try:
                frame = await late.next("frame", timeout=3)
                assert sorted(frame["ids"]) == sorted(ids) and len(frame["xy"]) == 2 * len(ids)
                order = [m["type"] for m in late.messages]
                assert order.index("hello") < order.index("frame")
                assert await wait_until_async(lambda: roster(redis, "forms").get(late.id) == "c v1", timeout=3)
                assert await wait_until_async(lambda: copy_has_text(redis, "forms"), timeout=3)
                # Moving again, the room's frames reach it as they reach everyone.
                await a.send({"type": "params", "paused": False})
                await a.send({"type": "add", "count": 3})
                added = (await late.event("added", by=a.id))["ids"]
                await asyncio.sleep(1.0)
                frames = [m for m in late.messages if m.get("type") == "frame"]
                assert any(set(added) <= set(m.get("ids", ())) for m in frames), "no frame with the new cells"
                last_tick = lambda client: max(m["tick"] for m in client.messages if m.get("type") == "frame")
                assert last_tick(late) == last_tick(b) > frame["tick"]
            finally:
                await late.__aexit__(None, None, None)
            await a.event("left")

            # Without it, the next frames go without text again.
            await a.send({"type": "add", "count": 1})
            await b.event("added", by=a.id)
            assert await wait_until_async(lambda: not copy_has_text(redis, "forms"), timeout=3)
        finally:
            for client in (a, b):
                await client.__aexit__(None, None, None)
    run(scenario())
