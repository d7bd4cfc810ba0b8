"""--max-total-cells holds when rooms come back into memory: a room loaded from its file
reserves its cells in the total; idle settled rooms (nobody in them, saved) are unloaded to
make room for it, and when none can be, the handshake gets 503 and nothing changes."""
from client import Client, run
from room_tools import handshake, listed
from server import RunningServer, wait_until
from test_room_state import settled_room


def test_a_load_respects_the_total_unloading_idle_rooms_or_refusing(tmp_path):
    folder = tmp_path / "rooms"
    folder.mkdir()
    flags = ("--state-dir", str(folder), "--max-cells", "40", "--max-total-cells", "80",
             "--room-idle-seconds", "1", "--rooms-per-minute", "100")
    with RunningServer(*flags) as server:
        async def fill():
            # Four rooms of 40 cells, each unloaded before the next is filled.
            for n in range(4):
                client, _ = await settled_room(server.room(f"r{n}"), 40)
                await client.__aexit__(None, None, None)
                assert wait_until(lambda: f"r{n}" not in listed(server), timeout=10), listed(server)
            assert server.stats()["totalCells"] == 0
        run(fill())

        held = {}
        try:
            for name in ("r0", "r1"):
                status, held[name] = handshake(server.port, f"/ws/{name}", hold=True)
                assert status == 101, name
            assert server.stats()["totalCells"] == 80
            # Both rooms in memory have a client: nothing can make room for r2's 40 cells.
            assert handshake(server.port, "/ws/r2") == 503
            assert handshake(server.port, "/ws/r3") == 503
            assert server.stats()["totalCells"] == 80
            assert sorted(listed(server)) == ["r0", "r1"]
            # r0 emptied (settled, saved): it makes room for r2.
            held.pop("r0").close()
            assert wait_until(lambda: listed(server).get("r0", {}).get("clients") == 0, timeout=5)
            status, held["r2"] = handshake(server.port, "/ws/r2", hold=True)
            assert status == 101
            assert sorted(listed(server)) == ["r1", "r2"]
            assert server.stats()["totalCells"] == 80
            assert wait_until(lambda: (folder / "r0.json").exists(), timeout=5)

            async def look_in(name):
                async with Client(server.room(name)) as client:
                    return len((await client.next("frame"))["ids"])
            # The unloaded room loads again with all its cells once there is room.
            held.pop("r1").close()
            assert wait_until(lambda: listed(server).get("r1", {}).get("clients") == 0, timeout=5)
            assert run(look_in("r0")) == 40
            assert server.stats()["totalCells"] <= 80
        finally:
            for connection in held.values():
                connection.close()
