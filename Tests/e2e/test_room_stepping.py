"""Stepping rooms: a room with cells and no clients keeps stepping until it settles, then
costs nothing (no step, no frame); a fixed pool of step threads (--step-threads) gives every
moving room a turn per frame at its own frame rate (tickRate), in which it steps as often as
its share of the pool allows: ticks advance faster than frames, frames keep their rate, and a
command sent while the room steps is applied at once. Seen from outside through GET /rooms,
stats and a client's frames."""
import asyncio
import time

from client import Client, run
from room_tools import add, listed, set_params, settle
from server import RunningServer, wait_until


def frame_times(client, start=0):
    """(arrival, tick) of the frames `client` got from message `start` on."""
    return [(client.times[index], message["tick"]) for index, message in enumerate(client.messages)
            if index >= start and message.get("type") == "frame"]


def test_a_room_without_clients_keeps_stepping_until_it_settles(server):
    async def moving():
        async with Client(server.room("drift")) as client:
            await set_params(client, tickRate=10, threshold=0)  # never settles
            await add(client, 30)
    run(moving())
    samples = []  # ticks while the room has no clients

    def sample():
        room = listed(server)["drift"]
        assert room["clients"] == 0 and room["cells"] == 30 and not room["settled"], room
        samples.append(room["tick"])
        return len(set(samples)) >= 3
    assert wait_until(sample, timeout=30, interval=0.1), f"no step seen without clients: {samples}"
    assert samples == sorted(samples)

    async def calm():
        async with Client(server.room("drift")) as client:
            await set_params(client, threshold=1e6)  # settles at its next step
    run(calm())
    assert wait_until(lambda: listed(server)["drift"]["settled"], timeout=30, interval=0.1)
    final = listed(server)["drift"]["tick"]
    time.sleep(1.0)  # settled: no more steps
    assert listed(server)["drift"]["tick"] == final and listed(server)["drift"]["settled"] is True


def test_one_step_thread_gives_every_moving_room_frames_at_its_own_rate():
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
                await asyncio.sleep(0.3)  # the frame of the turn that settled
                calm_frames = len(calm.since(0, "frame"))
                before, marks, started = listed(server), (len(fast.messages), len(slow.messages)), time.monotonic()
                await asyncio.sleep(2.0)
                after, elapsed = listed(server), time.monotonic() - started
                frames = {"fast": len(fast.since(marks[0], "frame")) / elapsed,
                          "slow": len(slow.since(marks[1], "frame")) / elapsed}
                steps = {name: (after[name]["tick"] - before[name]["tick"]) / elapsed for name in ("fast", "slow")}
                assert 30 <= frames["fast"] <= 70, frames
                assert 5 <= frames["slow"] <= 13, frames
                # Five cells step in microseconds: several steps a frame.
                assert steps["fast"] > 2 * frames["fast"] and steps["slow"] > 2 * frames["slow"], (steps, frames)
                assert after["calm"]["tick"] == before["calm"]["tick"] and after["calm"]["settled"], (before["calm"], after["calm"])
                assert len(calm.since(0, "frame")) == calm_frames, "frames from a settled room"
                # and its clients still see their own room move
                tick = (await fast.next("frame"))["tick"]
                await fast.find(lambda m: m.get("type") == "frame" and m["tick"] >= tick + 10, timeout=5)
        run(scenario())


def test_frames_keep_their_rate_while_the_room_steps_several_times_a_frame(server):
    """Issue 23: steps are not frames. A viewer gets frames at about the frame rate, each the
    newest of several steps (ticks jump), with no long gap; stats says steps per second."""
    async def scenario():
        async with Client(server.room("busy")) as writer, \
                Client(server.room("busy"), subprotocols=("forcelayout.v2",)) as viewer:
            await set_params(writer, tickRate=20, threshold=0)  # never settles
            await add(writer, 20)
            await asyncio.sleep(0.5)
            start = len(viewer.messages)
            await asyncio.sleep(3.0)
            frames = frame_times(viewer, start)
            span = frames[-1][0] - frames[0][0]
            rate = (len(frames) - 1) / span
            assert 12 <= rate <= 24, f"{rate:.1f} frames/s at tickRate 20"
            jumps = [b[1] - a[1] for a, b in zip(frames, frames[1:])]
            assert all(jump >= 1 for jump in jumps), "every frame is a newer state"
            steps = (frames[-1][1] - frames[0][1]) / span
            assert steps > 2 * rate, f"{steps:.0f} steps/s for {rate:.1f} frames/s: not several steps a frame"
            gaps = [b[0] - a[0] for a, b in zip(frames, frames[1:])]
            assert max(gaps) < 0.5, f"a gap of {max(gaps) * 1000:.0f} ms between two frames"
            stats = await viewer.next("stats", timeout=5)
            assert stats["stepsPerSecond"] > stats["tickRate"], stats
    run(scenario())


def test_a_command_sent_while_the_room_steps_is_answered_promptly(server):
    """A moving room at 1 frame a second: a command does not wait for the next frame turn (an
    early turn applies it), and its cells are in the frame that follows."""
    async def scenario():
        async with Client(server.room("slowframes")) as client:
            await set_params(client, tickRate=1, threshold=0)  # a frame a second, never settles
            await add(client, 50)
            await client.next("frame")
            waits = []
            for _ in range(5):
                await asyncio.sleep(0.3)
                sent = time.monotonic()
                ids = await add(client, 1)
                waits.append(time.monotonic() - sent)
            assert max(waits) < 0.6, f"answers took {[round(wait, 3) for wait in waits]} s at 1 frame/s"
            await client.find(lambda m: m.get("type") == "frame" and "ids" in m and set(ids) <= set(m["ids"]), timeout=5)
            assert listed(server)["slowframes"]["cells"] == 55
    run(scenario())
