"""A pin sent while dragging ("drag": true) is held by its connection: when that connection
closes, the cell is released for everyone (an `unpinned` event by nobody). A pin without
`drag` (a drop, a double-click) stays after its connection is gone, as before."""
from client import Client, run
from room_tools import add
from server import RunningServer


def test_a_drag_pin_ends_with_its_connection_a_pin_stays():
    with RunningServer() as server:
        async def scenario():
            async with Client(server.room("drag")) as watcher:
                async with Client(server.room("drag")) as dragger:
                    ids = await add(dragger, 3)
                    await dragger.send({"type": "pin", "id": ids[0], "x": 10, "y": 10, "drag": True})
                    await dragger.send({"type": "pin", "id": ids[1], "x": -10, "y": 5})
                    await dragger.send({"type": "pin", "id": ids[2], "x": 0, "y": 30, "drag": True})
                    await dragger.send({"type": "pin", "id": ids[2], "x": 0, "y": 31})  # dropped: pinned for good
                    for _ in range(4):
                        await watcher.event("pinned", by=dragger.id)
                released = await watcher.event("unpinned")
                assert released["id"] == ids[0] and released.get("by") is None, released
                await watcher.quiet(0.5)
            async with Client(server.room("drag")) as late:
                assert sorted(late.hello["pinned"]) == [ids[1], ids[2]]
            async with Client(server.room("drag")) as client:
                await client.send({"type": "pin", "id": ids[0], "x": 1, "y": 1, "drag": "yes"})
                assert "drag" in (await client.error("bad_request"))["message"]
        run(scenario())


def test_a_drag_pin_from_a_relayed_client_ends_with_its_connection():
    """In a cluster: a client of another server than the room's drags; it leaves, and the
    server that steps the room lets the cell go."""
    from redis_server import RunningRedis
    with RunningRedis() as redis:
        servers = [RunningServer("--redis", redis.url, "--node", node) for node in "ab"]
        try:
            async def scenario():
                async with Client(servers[0].room("spread")) as owner_side:
                    async with Client(servers[1].room("spread")) as dragger:
                        ids = await add(owner_side, 2)
                        await dragger.frame_with(ids)
                        await dragger.send({"type": "pin", "id": ids[0], "x": 5, "y": 5, "drag": True})
                        await dragger.send({"type": "pin", "id": ids[1], "x": -5, "y": 5})
                        for _ in range(2):
                            await owner_side.event("pinned", by=dragger.id)
                    released = await owner_side.event("unpinned")
                    assert released["id"] == ids[0], released
                    await owner_side.quiet(0.5)
                    assert not owner_side.since(0, "event", kind="unpinned", id=ids[1])
            run(scenario())
        finally:
            for server in servers:
                server.close()
