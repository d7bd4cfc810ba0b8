"""A client that stops reading skips frames but loses no events, and slows nobody else."""
import asyncio
import json

import websockets

from client import Client, run
from raw_websocket import RawWebSocket
from server import RunningServer, wait_until_async


def test_stalled_reader_skips_frames_keeps_events_and_does_not_slow_others(server):
    async def scenario():
        # A raw connection we can stop reading from: small receive queue, no pings.
        stalled = await websockets.connect(server.ws, max_size=None, max_queue=1, ping_interval=None,
                                           read_limit=2 ** 12, close_timeout=1)
        async with Client(server.ws) as steady:
            await steady.send({"type": "params", "tickRate": 30, "threshold": 0, "charge": 40})
            await steady.send({"type": "add", "count": 300})
            await steady.event("added")
            # Many events while the stalled client reads nothing.
            for value in range(20):
                await steady.send({"type": "params", "charge": 41 + value})
            start = len(steady.messages)
            await asyncio.sleep(3)
            frames = [m for m in steady.messages[start:] if m.get("type") == "frame"]
            # Frames come at the frame rate (tickRate), each the newest of one or more steps; the
            # bound is generous so a loaded machine (a debug build, other processes) does not
            # fail it.
            assert len(frames) >= 3 * 30 * 0.3, f"steady client got {len(frames)} frames in 3 s at 30/s"
            assert frames[-1]["tick"] - frames[0]["tick"] >= len(frames) - 1, "every frame a newer state"

            # The stalled client catches up: every event in order, frames never backwards.
            received = []
            while True:
                try:
                    received.append(json.loads(await asyncio.wait_for(stalled.recv(), 2)))
                except asyncio.TimeoutError:
                    break
                if sum(1 for m in received if m.get("type") == "event" and m["kind"] == "params") == 21:
                    break
            events = [m for m in received if m.get("type") == "event"]
            seqs = [event["seq"] for event in events]
            assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), "events lost or reordered"
            assert [e["params"]["charge"] for e in events if e["kind"] == "params"][-20:] == list(range(41, 61))
            ticks = [m["tick"] for m in received if m.get("type") == "frame"]
            assert ticks == sorted(ticks)
            # It skipped frames rather than queueing them all.
            steady_ticks = [m["tick"] for m in steady.messages if m.get("type") == "frame"]
            assert len(ticks) < len(steady_ticks)
        await stalled.close()  # its unread backlog makes the close handshake wait out close_timeout
    run(scenario())


def test_a_reader_too_far_behind_on_events_is_closed_with_1008():
    """Frames coalesce, events cannot: a connection with more undelivered events than
    --max-event-backlog is closed as too slow instead of growing the server's memory. One that
    reads again gets the 1008 close; one that never reads is dropped a few seconds later."""
    async def wait_for_log(server, text, seconds):
        if not await wait_until_async(lambda: text in server.log, seconds, interval=0.1):
            raise AssertionError(f"{text!r} not in the log:\n{server.log[-2000:]}")

    async def scenario(server):
        # Raw sockets with a small receive buffer that read nothing after their first frame.
        resumes = RawWebSocket(server.port, receive_buffer=4096)  # c1
        never = RawWebSocket(server.port, receive_buffer=4096)    # c2
        async with Client(server.ws) as steady:
            await steady.send({"type": "params", "threshold": 0})
            for _ in range(5):
                await steady.send({"type": "add", "count": 1000})
                await steady.event("added", by=steady.id)
            # A frame is written only once the socket has sent the previous bytes, so frames
            # no longer fill a stalled socket: events do. Adds and removes of 1000 cells list
            # their ids (about 6 KB an event); the stalled sockets fill, then events pile up.
            for _ in range(150):
                await steady.send({"type": "add", "count": 1000})
                await steady.event("added", by=steady.id)
                await steady.send({"type": "remove", "count": 1000})
                await steady.event("removed", by=steady.id)
                if "c1 fell 16 events behind" in server.log and "c2 fell 16 events behind" in server.log:
                    break
                await asyncio.sleep(0.02)
            await wait_for_log(server, "c1 fell 16 events behind: closing with 1008", 10)
            await wait_for_log(server, "c2 fell 16 events behind: closing with 1008", 10)
            # Reading again, c1 finds the close after what was already on its way.
            assert await asyncio.to_thread(resumes.until_closed, 10) == 1008
            # c2 never reads: dropped once the grace period is over, long before any keepalive.
            await wait_for_log(server, "c2 disconnected", 10)
            # and the others go on as before
            await steady.send({"type": "add"})
            await steady.event("added", by=steady.id)
        resumes.close()
        never.close()
    with RunningServer("--max-event-backlog", "16") as server:
        run(scenario(server))
