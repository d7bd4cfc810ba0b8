"""Several clients on one layout: sharing, late joiners, settling and waking."""
import asyncio

from client import Client, positions, run


def test_two_clients_share_one_layout(server):
    async def scenario():
        async with Client(server.ws) as first, Client(server.ws) as second:
            await first.send({"type": "params", "threshold": 0})  # keep stepping
            await first.send({"type": "add", "count": 4})
            added = await second.event("added")
            assert added["by"] == first.id
            await second.send({"type": "add", "count": 3})
            more = await first.event("added", by=second.id)
            assert more["by"] == second.id
            everyone = added["ids"] + more["ids"]
            one = await first.frame_with(everyone)
            two = await second.frame_with(everyone)
            assert one["v"] == two["v"]
            # Both receive the same frames: compare a tick both saw.
            tick = max(one["tick"], two["tick"]) + 2
            a = await first.find(lambda m: m.get("type") == "frame" and m["tick"] >= tick)
            b = await second.find(lambda m: m.get("type") == "frame" and m["tick"] == a["tick"], timeout=5)
            assert a["xy"] == b["xy"]
    run(scenario())


def test_late_joiner_gets_history_and_layout(server):
    async def scenario():
        async with Client(server.ws) as first:
            await first.send({"type": "add", "count": 6})
            ids = (await first.event("added"))["ids"]
            await first.send({"type": "params", "charge": 15})
            await first.event("params")
            async with Client(server.ws) as late:
                kinds = [event["kind"] for event in late.hello["events"]]
                assert "added" in kinds and "params" in kinds
                seqs = [event["seq"] for event in late.hello["events"]]
                assert seqs == sorted(seqs)
                assert late.hello["params"]["charge"] == 15
                frame = await late.next("frame")
                assert sorted(frame["ids"]) == sorted(ids)
                # Events that were in hello are not delivered again.
                await late.send({"type": "add"})
                await late.event("added", by=late.id)
                replayed = {event["seq"] for event in late.hello["events"]}
                assert not [m for m in late.messages if m.get("type") == "event" and m["seq"] in replayed]
    run(scenario())


def test_settle_then_wake(server):
    async def scenario():
        async with Client(server.ws) as client:
            await client.send({"type": "params", "tickRate": 120, "threshold": 1})
            await client.send({"type": "add", "count": 3, "spawn": "center"})
            await client.event("woke")
            settled = await client.event("settled", timeout=60)
            assert "by" not in settled
            await asyncio.sleep(0.3)
            start = len(client.messages)
            await asyncio.sleep(1.0)
            assert not client.since(start, "frame"), "frames while settled"
            async with Client(server.ws) as late:
                assert late.hello["settled"] is True
                await late.next("frame")  # one full frame after hello, even when settled
            await client.send({"type": "params", "charge": 20})
            await client.event("params")
            await client.event("woke")
            await client.next("frame")
    run(scenario())


def test_frames_never_go_backwards(server):
    async def scenario():
        async with Client(server.ws) as client:
            await client.send({"type": "params", "tickRate": 120, "threshold": 0})
            await client.send({"type": "add", "count": 100})
            await client.event("added")
            await asyncio.sleep(2)
            ticks = [m["tick"] for m in client.messages if m.get("type") == "frame"]
            assert len(ticks) > 20
            assert ticks == sorted(ticks)
            frames = [m for m in client.messages if m.get("type") == "frame"]
            last = frames[-1]
            assert len(last["xy"]) == 200
    run(scenario())


def test_late_joiner_learns_owners_and_pins_beyond_the_replay_buffer(server):
    async def scenario():
        async with Client(server.ws) as first, Client(server.ws) as second:
            await first.send({"type": "add", "count": 3})
            mine = (await first.event("added"))["ids"]
            await second.send({"type": "add", "count": 2})
            theirs = (await first.event("added", by=second.id))["ids"]
            await first.send({"type": "pin", "id": mine[1], "x": 40, "y": -40})
            await first.event("pinned")
            await first.send({"type": "remove", "ids": [mine[0]]})
            await first.event("removed")
            # Push the pin out of reach of the replay buffer.
            size = first.hello["limits"]["replayBuffer"]
            for _ in range(size // 2 + 1):
                await second.send({"type": "params", "paused": True})
                await second.send({"type": "params", "paused": False})
                await asyncio.sleep(0.03)  # inside the rate limit
            await second.send({"type": "params", "charge": 11})
            await second.event("params", changed=["charge"])
            async with Client(server.ws) as late:
                assert "pinned" not in [event["kind"] for event in late.hello["events"]]
                assert late.hello["pinned"] == [mine[1]]
                frame = await late.next("frame")
                assert frame["owners"] == [[first.id, mine[1], mine[2]], [second.id, theirs[0], theirs[1]]]
    run(scenario())
