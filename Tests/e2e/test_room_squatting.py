"""Rooms nobody is in make way at --max-rooms, and one address holds at most
--max-rooms-per-address of the rooms in memory (429 beyond). With --state-dir an idle room is
saved and unloaded at once (nothing is lost); without one, an idle room is evicted with its
cells once it has been empty --room-evict-seconds. Several 127.0.0.x addresses stand for
several machines (loopback is otherwise one address)."""
import time

from client import Client, run
from room_tools import add, handshake, listed, saved_cells
from server import RunningServer, wait_until


async def room_with_cells(server, name, source, count=1):
    async with Client(server.room(name), source=source) as client:
        await add(client, count)


def test_one_address_holds_at_most_its_share_of_the_rooms():
    with RunningServer("--max-rooms", "8", "--max-rooms-per-address", "2", "--rooms-per-minute", "100") as server:
        squatter, other = "127.0.0.2", "127.0.0.3"
        held = []
        try:
            for name in ("a1", "a2"):
                status, connection = handshake(server.port, f"/ws/{name}", source=squatter, hold=True)
                held.append(connection)
                assert status == 101, name
            assert handshake(server.port, "/ws/a3", source=squatter) == 429
            assert "a3" not in listed(server)
            assert handshake(server.port, "/ws/a1", source=squatter) == 101, "joining is not creating"
            assert handshake(server.port, "/ws/b1", source=other) == 101, "another address has its own share"
        finally:
            for connection in held:
                connection.close()


def test_without_a_state_dir_idle_rooms_are_evicted_to_make_way():
    flags = ("--max-rooms", "4", "--max-rooms-per-address", "2", "--room-evict-seconds", "1",
             "--rooms-per-minute", "100", "--room-forget-seconds", "600")
    with RunningServer(*flags) as server:
        async def squat():
            for name, source in (("a1", "127.0.0.2"), ("a2", "127.0.0.2"), ("b1", "127.0.0.3"), ("b2", "127.0.0.3")):
                await room_with_cells(server, name, source)
        run(squat())
        assert server.stats()["rooms"] == 4
        # Rooms with cells and no file were never unloaded: the server was full for good.
        time.sleep(1.2)
        assert handshake(server.port, "/ws/fresh", source="127.0.0.4") == 101
        rooms = listed(server)
        assert "a1" not in rooms and len(rooms) == 4, rooms
        assert server.stats()["totalCells"] == 3
        # An evicted room is gone with its cells: its name makes a new, empty room.
        async def cells_of(name):
            async with Client(server.room(name), source="127.0.0.5") as client:
                return (await client.next("frame"))["ids"]
        assert run(cells_of("a1")) == []


def test_with_a_state_dir_idle_rooms_are_unloaded_at_once_and_load_again(tmp_path):
    folder = tmp_path / "rooms"
    folder.mkdir()
    flags = ("--state-dir", str(folder), "--max-rooms", "2", "--rooms-per-minute", "100",
             "--room-idle-seconds", "600", "--room-evict-seconds", "600")
    with RunningServer(*flags) as server:
        async def scenario():
            await room_with_cells(server, "x", "127.0.0.2", 3)
            await room_with_cells(server, "y", "127.0.0.3", 2)
            # Full, and neither idle long: one of them is saved and unloaded (a settled one
            # first, else the one empty the longest), with all its cells.
            async with Client(server.room("z"), source="127.0.0.4"):
                rooms = listed(server)
                assert len(rooms) == 2 and "z" in rooms, rooms
                gone = ({"x", "y"} - set(rooms)).pop()
                assert wait_until(lambda: saved_cells(folder / f"{gone}.json") == {"x": 3, "y": 2}[gone], timeout=5)
            async with Client(server.room(gone), source="127.0.0.5") as back:
                assert len((await back.next("frame"))["ids"]) == {"x": 3, "y": 2}[gone]
        run(scenario())
