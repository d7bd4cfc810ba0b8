"""Draining a server of a cluster (SIGTERM): the rooms it steps go to a server relaying them
at once, from the state it just wrote, with no cell lost; its own clients are closed with
1012 and come back elsewhere; it leaves the servers' list and exits 0."""
import asyncio
import signal
import time

from client import Client, run
from test_cluster import join_in_order, leave, owner_of
from waiting import wait_until_async


def frame_gaps(client, since):
    """The intervals between the frames `client` got after `since` (time.monotonic())."""
    times = [t for t, m in zip(client.times, client.messages) if m.get("type") == "frame" and t >= since]
    return [b - a for a, b in zip(times, times[1:])]


def test_a_draining_owner_hands_its_room_to_a_relay_with_every_cell(cluster):
    async def scenario():
        a, b, c = await join_in_order(cluster, "handoff")
        try:
            await a.send({"type": "params", "threshold": 0})
            await a.send({"type": "add", "count": 40})
            ids = set((await b.event("added", by=a.id))["ids"])
            assert owner_of(cluster[1], "handoff") == "a"
            await asyncio.sleep(0.5)
            start = time.monotonic()
            cluster[0].process.send_signal(signal.SIGTERM)

            # cells added from a relay while the owner drains: acknowledged, then kept
            added_during = set()
            for _ in range(6):
                await c.send({"type": "add", "count": 1})
                added_during |= set((await c.event("added", by=c.id, timeout=5))["ids"])
                await asyncio.sleep(0.05)

            failover = await b.event("failover", timeout=5)
            assert failover["previous"] == "a" and failover["node"] in ("b", "c"), failover
            await wait_until_async(lambda: a.closed, timeout=5)
            assert a.closed[0] == 1012 and a.closed[1] == "server restarting: reconnect", a.closed
            assert cluster[0].wait(timeout=10) == 0, cluster[0].log
            new_owner = cluster[1] if failover["node"] == "b" else cluster[2]
            assert "handed it off as it drains" in new_owner.log, new_owner.log[-3000:]
            assert "room handoff: handed off" in cluster[0].log, cluster[0].log[-3000:]

            await asyncio.sleep(1)
            for client in (b, c):
                frames = [m for m in client.messages if m.get("type") == "frame" and "ids" in m]
                assert ids | added_during <= set(frames[-1]["ids"]), "no cell lost"
                gaps = frame_gaps(client, start)
                # the bench measures the pause (make load-cluster); here, only that the room did
                # not wait for a lease to run out (3 s)
                assert gaps and max(gaps) < 1.5, gaps
            # the drained server left the list: new rooms go to the others
            assert all(entry["node"] != "a" for entry in cluster[1].rooms())
            await c.send({"type": "add", "count": 1})
            await b.event("added", by=c.id, timeout=3)
        finally:
            await leave([b, c])
    run(scenario())
