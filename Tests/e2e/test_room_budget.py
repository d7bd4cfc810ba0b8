"""--max-total-cells holds when rooms come back into memory: a room loaded from its file
reserves its cells in the total; idle settled rooms (nobody in them, saved) are unloaded to
make room for it, and when none can be, the joiner is closed with 1013 (try again later) and
nothing changes. The file is read off the service thread after the handshake (101), so the
refusal comes as a close, not an HTTP status."""
import struct

from client import Client, run
from room_tools import handshake, listed
from server import RunningServer, wait_until
from test_room_state import settled_room


def exactly(connection, count):
    """`count` bytes from `connection` (fewer only if it closes first)."""
    data = b""
    while len(data) < count:
        chunk = connection.recv(count - len(data))
        if not chunk:
            break
        data += chunk
    return data


def close_code(port, path):
    """The close status a joiner of `path` gets before any other message (None: it got one)."""
    status, connection = handshake(port, path, hold=True)
    assert status == 101, status
    try:
        head = exactly(connection, 2)
        assert len(head) == 2, f"closed with no close frame: {head!r}"
        length = head[1] & 0x7F
        if length == 126:
            length = struct.unpack("!H", exactly(connection, 2))[0]
        payload = exactly(connection, length)
        return struct.unpack("!H", payload[:2])[0] if head[0] & 0x0F == 0x8 else None
    finally:
        connection.close()


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
            assert wait_until(lambda: server.stats()["totalCells"] == 80, timeout=5)
            # Both rooms in memory have a client: nothing can make room for r2's 40 cells.
            assert close_code(server.port, "/ws/r2") == 1013
            assert close_code(server.port, "/ws/r3") == 1013
            assert server.stats()["totalCells"] == 80
            assert sorted(listed(server)) == ["r0", "r1"]
            # r0 emptied (settled, saved): it makes room for r2.
            held.pop("r0").close()
            assert wait_until(lambda: listed(server).get("r0", {}).get("clients") == 0, timeout=5)
            status, held["r2"] = handshake(server.port, "/ws/r2", hold=True)
            assert status == 101
            assert wait_until(lambda: sorted(listed(server)) == ["r1", "r2"], timeout=5), listed(server)
            assert wait_until(lambda: server.stats()["totalCells"] == 80, timeout=5)
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
