"""Protocol v2 (`forcelayout.v2`): every message as in v1 but `frame`, which is binary. The
handshake, the frames against v1's in the same room, the membership section, and freshness
for a reader that drains slowly."""
import asyncio
import json
import time

import websockets

from client import Client, run
from frame_v2 import step
from raw_websocket import RawWebSocket
from server import RunningServer

V2 = ("forcelayout.v2", "forcelayout.v1")


def test_the_handshake_gives_v2_to_clients_that_list_it_first(server):
    async def scenario():
        for offer, expected in [(V2, "forcelayout.v2"), (("forcelayout.v2",), "forcelayout.v2"),
                                (("forcelayout.v1",), "forcelayout.v1"),
                                (("forcelayout.v1", "forcelayout.v2"), "forcelayout.v1"), (None, None)]:
            async with websockets.connect(server.ws, subprotocols=list(offer) if offer else None) as socket_:
                assert socket_.subprotocol == expected, offer
                hello = json.loads(await socket_.recv())  # text, as in v1
                first = await socket_.recv()
                assert hello["type"] == "hello"
                assert isinstance(first, bytes) == (expected == "forcelayout.v2"), offer
    run(scenario())


def test_v2_frames_carry_v1_positions_within_their_precision(server):
    async def scenario():
        async with Client(server.ws, subprotocols=V2) as binary, Client(server.ws) as text:
            assert binary.hello["type"] == "hello" and binary.hello["room"] == "main"
            await text.send({"type": "params", "threshold": 0})
            await text.send({"type": "add", "count": 300})
            added = await binary.event("added")  # events stay JSON in v2
            await binary.find(lambda m: m.get("type") == "frame" and len(m["xy"]) == 600)
            v1 = await text.find(lambda m: m.get("type") == "frame" and len(m["xy"]) == 600 and m["tick"] > 5)
            v2 = await binary.find(lambda m: m.get("type") == "frame" and m["tick"] == v1["tick"])
            assert v2["bytes"] == 40 + 4 * 300, "4 bytes a cell when the membership is unchanged"
            tolerance = step(v2) / 2 + 0.5  # v1 writes tenths, whole units past 1000
            assert max(abs(a - b) for a, b in zip(v1["xy"], v2["xy"])) <= tolerance
            assert added["ids"] == list(range(1, 301))
    run(scenario())


def test_the_membership_comes_exactly_when_v_changes_and_owners_match_v1(server):
    async def scenario():
        async with Client(server.ws, subprotocols=V2) as binary, Client(server.ws) as text:
            for count in (5, 7):
                await text.send({"type": "add", "count": count})
                await text.event("added")
            await binary.send({"type": "add", "count": 3})
            await binary.event("added", by=binary.id)
            await text.send({"type": "remove", "count": 2})
            await binary.event("removed")
            await asyncio.sleep(0.5)
            frames = [m for m in binary.messages if m.get("type") == "frame"]
            assert "ids" in frames[0] and frames[0]["v"] == 0
            for before, after in zip(frames, frames[1:]):
                assert ("ids" in after) == (after["v"] != before["v"]), (before["v"], after["v"])
            last = [f for f in frames if "ids" in f][-1]
            assert last["ids"] == list(range(1, 14))
            v1 = [m for m in text.messages if m.get("type") == "frame" and m.get("v") == last["v"] and "ids" in m]
            assert v1 and v1[-1]["owners"] == last["owners"] == [[text.id, 1, 12], [binary.id, 13, 13]]
    run(scenario())


def test_a_reader_that_drains_slowly_gets_fresh_frames():
    """A v2 reader that takes one frame in ten (it sleeps between small reads, with a small
    receive buffer and no buffer of its own) gets fewer frames, each of them recent: the server
    writes a frame only once the previous bytes have left its socket, so frames do not queue in
    the kernel. (The benchmark measures the issue's bound, 300 ms at p99 for a quarter of the
    bandwidth; this test's bound is generous, for busy machines: queued frames would be
    seconds old: 8.5 s after 10 s when the server wrote every frame.)"""
    async def scenario(server):
        async with Client(server.ws) as steady:
            await steady.send({"type": "params", "threshold": 0})
            await steady.send({"type": "add", "count": 1000})
            await steady.event("added", by=steady.id)
            return await asyncio.to_thread(read_slowly, server.port)

    def read_slowly(port):
        ages = []
        with RawWebSocket(port, subprotocol="forcelayout.v2", receive_buffer=4096, read_size=1024) as slow:
            started = time.time()
            while time.time() - started < 10:
                message = slow.receive()
                if message.get("binary"):
                    ages.append(time.time() * 1000 - message["at"])
                    time.sleep(0.5)
        return ages

    with RunningServer() as server:
        ages = sorted(run(scenario(server))[2:])  # the first were written before it slowed down
    assert len(ages) >= 5, ages
    print(f"slow reader: {len(ages)} frames, p99 age {ages[-1]:.0f} ms")
    assert ages[-1] < 3000, f"frame ages (ms): {[round(age) for age in ages]}"


def test_a_v1_joiner_of_a_room_read_only_in_v2_gets_its_frame_at_once_and_frame_bytes_count_it(server):
    """A room whose clients all speak v2 writes no v1 text frames (issue 24); a v1 joiner still
    gets hello and then the frame at once, and `frameBytes` (the text frame's size without ids)
    is the size of that frame's text, counted before anyone had it written."""
    async def scenario():
        async with Client(server.room("textless"), subprotocols=V2) as binary:
            await binary.send({"type": "add", "count": 200})
            await binary.event("added", by=binary.id)
            await binary.send({"type": "params", "paused": True})
            await binary.event("params", by=binary.id)
            await asyncio.sleep(0.3)  # the frame of the pause is out
            await binary.send({"type": "stats"})
            reported = (await binary.next("stats"))["frameBytes"]
            async with websockets.connect(server.room("textless"), subprotocols=["forcelayout.v1"]) as text:
                assert json.loads(await asyncio.wait_for(text.recv(), 5))["type"] == "hello"
                frame = await asyncio.wait_for(text.recv(), 5)
            assert frame.startswith('{"type":"frame"') and len(json.loads(frame)["xy"]) == 400
            membership = frame[frame.index(',"ids":'):frame.index(',"xy":')]
            assert reported == len(frame.encode()) - len(membership.encode()), (reported, len(frame))
    run(scenario())
