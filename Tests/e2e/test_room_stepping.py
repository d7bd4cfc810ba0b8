"""Stepping rooms: a room with cells and no clients keeps stepping until it settles, then
costs nothing (no step, no frame); a fixed pool of step threads (--step-threads) steps every
moving room at its own tickRate. Seen from outside through GET /rooms."""
import asyncio
import time

from client import Client, run
from room_tools import add, listed, set_params, settle
from server import RunningServer, wait_until


def test_a_room_without_clients_keeps_stepping_until_it_settles(server):
    async def scenario():
        async with Client(server.room("drift")) as client:
            await set_params(client, tickRate=10, threshold=0.4)  # 3 to 5 s to settle 30 cells
            await add(client, 30)
    run(scenario())
    samples = []  # (tick, settled) while the room has no clients

    def sample():
        room = listed(server)["drift"]
        assert room["clients"] == 0 and room["cells"] == 30, room
        samples.append((room["tick"], room["settled"]))
        return room["settled"]
    assert wait_until(sample, timeout=30, interval=0.1), samples[-5:]
    moving = sorted({tick for tick, settled in samples if not settled})
    assert len(moving) >= 2, f"no step seen without clients: {samples}"
    ticks = [tick for tick, _ in samples]
    assert ticks == sorted(ticks)
    final = samples[-1][0]
    assert final > moving[0]
    time.sleep(1.0)  # settled: no more steps
    assert listed(server)["drift"]["tick"] == final and listed(server)["drift"]["settled"] is True


def test_one_step_thread_steps_every_moving_room_at_its_own_rate():
    with RunningServer("--step-threads", "1") as server:
        async def scenario():
            async with Client(server.room("fast")) as fast, Client(server.room("slow")) as slow, \
                    Client(server.room("calm")) as calm:
                await set_params(fast, tickRate=60, threshold=0)  # never settles
                await add(fast, 5)
                await set_params(slow, tickRate=10, threshold=0)
                await add(slow, 5)
                await set_params(calm, tickRate=120, threshold=1)
                await calm.send({"type": "add", "count": 3})
                await settle(calm, await calm.event("added", by=calm.id))
                await asyncio.sleep(0.3)  # the frame of the step that settled
                calm_frames = len(calm.since(0, "frame"))
                before, started = listed(server), time.monotonic()
                await asyncio.sleep(2.0)
                after, elapsed = listed(server), time.monotonic() - started
                rate = {name: (after[name]["tick"] - before[name]["tick"]) / elapsed for name in ("fast", "slow")}
                assert 30 <= rate["fast"] <= 70, rate
                assert 5 <= rate["slow"] <= 13, rate
                assert after["calm"]["tick"] == before["calm"]["tick"] and after["calm"]["settled"], (before["calm"], after["calm"])
                assert len(calm.since(0, "frame")) == calm_frames, "frames from a settled room"
                # and its clients still see their own room move
                tick = (await fast.next("frame"))["tick"]
                await fast.find(lambda m: m.get("type") == "frame" and m["tick"] >= tick + 10, timeout=5)
        run(scenario())
