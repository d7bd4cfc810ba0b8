"""Settling after a history of parameter changes (issue 9, item 3).

A client flaps cellSize 1 <-> 200 and charge 0 <-> 1000 within the rate limit, then
restores the parameters: the layout must come back to the extent a fresh layout of the same
cells reaches (same --seed, same count) before it reports `settled`, instead of settling at
once while spread many times wider. Both servers step at 120 a second (the engine ignores
the step rate) so the whole test stays under ~20 s.
"""
import asyncio
import math

from client import Client, run
from server import RunningServer

SEED = "9"
CELLS = 200
FLAP_SECONDS = 3.0
MESSAGES_PER_SECOND = 40  # under the default limit of 60 a second (burst 120)
FLAPS = [{"cellSize": 200}, {"charge": 1000}, {"cellSize": 1}, {"charge": 0}]


def extent(xy):
    """RMS distance from the centroid, width and height of the cells in a frame's xy."""
    xs, ys = xy[0::2], xy[1::2]
    cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)
    rms = math.sqrt(sum((x - cx) ** 2 + (y - cy) ** 2 for x, y in zip(xs, ys)) / len(xs))
    return rms, max(xs) - min(xs), max(ys) - min(ys)


async def start(client):
    await client.send({"type": "params", "tickRate": 120})
    await client.event("params", by=client.id)
    await client.send({"type": "add", "count": CELLS})
    await client.event("added", by=client.id)


async def settled_extent(client, timeout):
    """Waits for `settled`, then measures the frame of the step that settled."""
    settled = await client.event("settled", timeout=timeout)
    frame = await client.next("frame", timeout=5)
    assert len(frame["xy"]) == 2 * CELLS
    return settled, extent(frame["xy"])


async def fresh_layout(url):
    async with Client(url) as client:
        await start(client)
        _, measured = await settled_extent(client, timeout=15)
        return measured


async def flapped_layout(url):
    async with Client(url) as client:
        restore = {key: client.hello["params"][key] for key in ["cellSize", "charge"]}
        await start(client)
        loop = asyncio.get_running_loop()
        began = loop.time()
        sent = 0
        while loop.time() - began < FLAP_SECONDS:
            await client.send({"type": "params", **FLAPS[sent % len(FLAPS)]})
            sent += 1
            await asyncio.sleep(1 / MESSAGES_PER_SECOND)
        await client.send({"type": "params", **restore})
        restored = await client.find(
            lambda m: m.get("type") == "event" and m["kind"] == "params" and m.get("by") == client.id
            and all(m["params"][key] == value for key, value in restore.items()), timeout=10)
        settled, measured = await settled_extent(client, timeout=15)
        errors = [m for m in client.messages if m.get("type") == "error"]
        assert not errors, errors[:3]
        return sent, restored["tick"], settled["tick"], measured


def test_restoring_the_parameters_after_flapping_settles_at_a_fresh_extent():
    with RunningServer("--seed", SEED) as fresh_server, RunningServer("--seed", SEED) as flapped_server:
        async def scenario():
            return await asyncio.gather(fresh_layout(fresh_server.ws), flapped_layout(flapped_server.ws))
        fresh, (sent, restored_tick, settled_tick, flapped) = run(scenario())

    assert sent >= 100, f"only {sent} messages flapped"
    for name, value, reference in zip(["RMS radius", "width", "height"], flapped, fresh):
        assert abs(value / reference - 1) <= 0.1, f"{name} {value:.1f}, a fresh layout's {reference:.1f}"
    assert settled_tick > restored_tick + 1, f"settled {settled_tick - restored_tick} step(s) after the restore"
