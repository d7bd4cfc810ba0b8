"""A layout with cells is never destroyed by a stranger: emptying a room (clear) moves its
file aside into STATE_DIR/.forgotten/ before the empty layout is saved, and so does forgetting
a room; the files there are deleted only after --forgotten-retention-days. Moving one back
restores the room. A room file put into the state directory while the server runs is loaded,
never overwritten by an empty room or by a room in memory."""
import json
import shutil

from client import Client, run
from room_tools import add, listed, saved_cells
from server import RunningServer, wait_until
from test_room_state import saved_room_file


def test_a_cleared_and_forgotten_room_is_kept_aside_and_can_be_restored(tmp_path):
    folder = tmp_path / "rooms"
    folder.mkdir()
    aside = folder / ".forgotten"
    with RunningServer("--state-dir", str(folder), "--room-forget-seconds", "1") as server:
        async def vandal():
            async with Client(server.room("work")) as client:
                await add(client, 5)
                assert wait_until(lambda: saved_cells(folder / "work.json") == 5, timeout=5)
                await client.send({"type": "clear"})
                await client.event("cleared", by=client.id)
                assert wait_until(lambda: saved_cells(folder / "work.json") == 0, timeout=5)
        run(vandal())
        assert wait_until(lambda: "work" not in listed(server), timeout=10)
        assert wait_until(lambda: not (folder / "work.json").exists(), timeout=5)
        kept = sorted(aside.glob("work.*.json"))
        assert [saved_cells(path) for path in kept] == [5], kept
        # Restoring: move it back, and the next client finds the layout.
        shutil.move(kept[0], folder / "work.json")

        async def cells():
            async with Client(server.room("work")) as client:
                return len((await client.next("frame"))["ids"])
        assert run(cells()) == 5
        assert server.terminate() == 0, server.log
    # Nothing else in the folder but the client ids' reservation and the history of the room
    # since it came back (a forgotten room's history went with it).
    assert sorted(path.name for path in folder.iterdir()) == [".clients.json", ".forgotten", "work.history", "work.json"]

    # The folder is not a room, and its files go after the retention period.
    (aside / "old.100.json").write_bytes((folder / "work.json").read_bytes())
    (aside / "notes.txt").write_text("left alone")
    with RunningServer("--state-dir", str(folder), "--forgotten-retention-days", "0.0001") as server:
        assert wait_until(lambda: not (aside / "old.100.json").exists(), timeout=5)
        assert (aside / "notes.txt").exists()
        assert "old" not in server.rooms() and server.stats()["rooms"] == 0


def test_a_room_file_put_in_while_running_is_loaded_never_overwritten(tmp_path):
    made, _ = saved_room_file(tmp_path / "source", "made", 4)
    assert len(json.loads(made)["layout"]["cells"]) == 4

    folder = tmp_path / "rooms"
    folder.mkdir()
    with RunningServer("--state-dir", str(folder)) as server:
        async def scenario():
            # Put in while running, before anyone asked for the room: loaded, not created empty.
            (folder / "dropped.json").write_bytes(made)
            async with Client(server.room("dropped")) as client:
                assert len((await client.next("frame"))["ids"]) == 4
            # Put in over a room in memory: the room's saves stop, the file stays as it was put.
            async with Client(server.room("live")) as client:
                await add(client, 1)
                assert wait_until(lambda: saved_cells(folder / "live.json") == 1, timeout=5)
                (folder / "live.json").write_bytes(made)
                await add(client, 2)
                await client.quiet(2)
            assert (folder / "live.json").read_bytes() == made
        run(scenario())
        assert server.terminate() == 0, server.log
    assert (folder / "live.json").read_bytes() == made, "not overwritten on shutdown either"
    assert "not saving" in server.log


def test_clear_then_add_at_once_still_keeps_the_layout_aside(tmp_path):
    folder = tmp_path / "rooms"
    folder.mkdir()
    with RunningServer("--state-dir", str(folder)) as server:
        async def vandal():
            async with Client(server.room("work")) as client:
                await add(client, 6)
                assert wait_until(lambda: saved_cells(folder / "work.json") == 6, timeout=5)
                # No save in between can hold the empty layout.
                await client.send({"type": "clear"})
                await client.send({"type": "add", "count": 1})
                await client.event("added", by=client.id)
                assert wait_until(lambda: saved_cells(folder / "work.json") == 1, timeout=5)
        run(vandal())
        kept = sorted((folder / ".forgotten").glob("work.*.json"))
        assert [saved_cells(path) for path in kept] == [6], kept
