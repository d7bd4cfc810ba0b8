"""The room limits: --max-rooms (503 on the handshake that would create one room more),
--rooms-per-minute (429 for the address that created that many in the last minute),
--max-total-cells and --max-cells (error `limit`, nothing changed), all announced in
hello.limits. Several 127.0.0.x source addresses stand for several machines."""
from client import Client, run
from room_tools import add, handshake, listed, look
from server import RunningServer, wait_until, wait_until_async


def test_hello_announces_the_room_limits():
    async def limits(server, path):
        async with Client(server.room(path) if path else server.ws) as client:
            return client.hello["limits"]
    with RunningServer() as server:
        for path in (None, "demo"):
            announced = run(limits(server, path))
            assert {key: announced.get(key) for key in ("maxRooms", "roomsPerMinute", "maxTotalCells", "roomIdleSeconds",
                                                        "maxRoomsPerAddress")} == \
                {"maxRooms": 1000, "roomsPerMinute": 30, "maxTotalCells": 1000000, "roomIdleSeconds": 300,
                 "maxRoomsPerAddress": 250}, announced
            assert announced["maxCells"] == 100000
    with RunningServer("--max-rooms", "7", "--rooms-per-minute", "5", "--max-total-cells", "1234",
                       "--room-idle-seconds", "9", "--max-cells", "99") as server:
        for path in (None, "demo"):
            announced = run(limits(server, path))
            assert {key: announced.get(key) for key in ("maxRooms", "roomsPerMinute", "maxTotalCells", "roomIdleSeconds", "maxCells",
                                                        "maxRoomsPerAddress")} == \
                {"maxRooms": 7, "roomsPerMinute": 5, "maxTotalCells": 1234, "roomIdleSeconds": 9, "maxCells": 99,
                 "maxRoomsPerAddress": 7}, announced


def test_max_rooms_refuses_one_room_more_with_503_and_joins_still_work():
    with RunningServer("--max-rooms", "3", "--room-forget-seconds", "1") as server:
        held = {}
        try:
            # a client in main keeps it in memory (and never forgotten), whether or not it was from the start
            status, held["main"] = handshake(server.port, "/ws/main", hold=True)
            assert status == 101
            for name in ("full0", "full1"):
                status, held[name] = handshake(server.port, f"/ws/{name}", hold=True)
                assert status == 101, name
            assert server.stats()["rooms"] == 3
            assert handshake(server.port, "/ws/extra") == 503
            assert handshake(server.port, "/ws/extra", source="127.0.0.2") == 503, "the cap is server-wide"
            assert "extra" not in listed(server)
            # joining a room in memory is not creating one
            assert handshake(server.port, "/ws/full0") == 101
            status, second = handshake(server.port, "/ws/full0", hold=True)
            assert status == 101
            second.close()
            assert server.stats()["rooms"] == 3
            # once a room is forgotten there is room for one more
            held.pop("full0").close()
            assert wait_until(lambda: "full0" not in listed(server), timeout=10), listed(server)
            status, held["extra"] = handshake(server.port, "/ws/extra", hold=True)
            assert status == 101
            assert handshake(server.port, "/ws/full0") == 503, "full again"
        finally:
            for connection in held.values():
                connection.close()


def test_rooms_per_minute_is_per_address_and_counts_only_new_rooms():
    with RunningServer("--rooms-per-minute", "3") as server:
        limited, other = "127.0.0.2", "127.0.0.3"
        assert handshake(server.port, "/ws/shared", source=other) == 101
        for _ in range(5):
            assert handshake(server.port, "/ws/shared", source=limited) == 101, "joining does not count"
        for name in ("a1", "a2", "a3"):
            assert handshake(server.port, f"/ws/{name}", source=limited) == 101, name
        assert handshake(server.port, "/ws/a4", source=limited) == 429
        assert handshake(server.port, "/ws/a5", source=limited) == 429
        assert "a4" not in listed(server) and "a5" not in listed(server)
        # the limited address still joins rooms in memory, its own and others'
        assert handshake(server.port, "/ws/a1", source=limited) == 101
        assert handshake(server.port, "/ws/shared", source=limited) == 101
        # another address is not limited: it has created one room so far
        for name in ("b1", "b2"):
            assert handshake(server.port, f"/ws/{name}", source=other) == 101, name
        assert handshake(server.port, "/ws/b3", source=other) == 429
        assert sorted(name for name in listed(server) if name != "main") == ["a1", "a2", "a3", "b1", "b2", "shared"]


def test_max_total_cells_spans_rooms_and_a_refused_add_changes_nothing():
    with RunningServer("--max-total-cells", "10") as server:
        async def scenario():
            async with Client(server.room("left")) as a, Client(server.room("right")) as b, Client(server.room("right")) as watcher:
                assert a.hello["limits"]["maxTotalCells"] == 10
                mine = await add(a, 6)
                start = len(watcher.messages)
                await b.send({"type": "add", "count": 5, "ref": "over"})
                error = await b.error("limit")
                assert error["ref"] == "over", error
                hello, frame = await look(server.room("right"))
                assert frame["ids"] == [] and not [e for e in hello["events"] if e["kind"] == "added"]
                assert not watcher.since(start, "event", kind="added") and not b.since(0, "event", kind="added")
                assert await wait_until_async(lambda: server.stats()["totalCells"] == 6), server.stats()
                theirs = await add(b, 4)  # exactly up to the total
                await a.send({"type": "add", "count": 1, "ref": "one-more"})
                assert (await a.error("limit"))["ref"] == "one-more"
                hello, frame = await look(server.room("left"))
                assert frame["ids"] == mine
                # the total is the sum now: a clear in one room makes room in another
                await a.send({"type": "clear"})
                await a.event("cleared", by=a.id)
                more = await add(b, 6)
                assert len(more) == 6 and len(theirs) == 4
                assert await wait_until_async(lambda: server.stats()["totalCells"] == 10, timeout=5), server.stats()
                await a.send({"type": "add", "count": 1, "ref": "full"})
                assert (await a.error("limit"))["ref"] == "full"
        run(scenario())


def test_max_cells_is_per_room():
    with RunningServer("--max-cells", "5") as server:
        async def scenario():
            async with Client(server.room("first")) as a, Client(server.room("second")) as b:
                await add(a, 5)
                await a.send({"type": "add", "count": 1, "ref": "sixth"})
                assert (await a.error("limit"))["ref"] == "sixth"
                assert len(await add(b, 5)) == 5, "another room has its own maxCells"
                await b.send({"type": "add", "count": 1})
                await b.error("limit")
                assert await wait_until_async(lambda: server.stats()["totalCells"] == 10, timeout=5), server.stats()
        run(scenario())
