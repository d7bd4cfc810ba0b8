"""Each room's state on disk: --state-dir DIR keeps DIR/NAME.json per room across restarts,
--state FILE is room main's file, a settled room without clients is saved and unloaded after
--room-idle-seconds and loaded again exactly by its next client, an empty room is forgotten
(file and all) after --room-forget-seconds, and a room file that cannot be read refuses that
room (its first joiner closed with 1011, then 503 until the file changes) and is never touched."""
import json

from client import Client, run
from room_tools import add, first_join, handshake, listed, look, saved_cells, set_params, settle, view
from server import RunningServer, wait_until


async def settled_room(url, count, source=None, **params):
    """A room of `count` cells that settles fast; returns the client (still open) and the ids."""
    client = Client(url, source=source)
    await client.__aenter__()
    await set_params(client, tickRate=120, threshold=1, **params)
    await client.send({"type": "add", "count": count})
    added = await client.event("added", by=client.id)
    await settle(client, added)
    return client, added["ids"]


def saved_room_file(folder, name, count):
    """The file a server writes for room `name` of `count` settled cells (made in `folder` by a
    server of its own, stopped cleanly), and the room as a fresh client saw it then."""
    folder.mkdir()
    with RunningServer("--state-dir", str(folder)) as server:
        async def build():
            client, _ = await settled_room(server.room(name), count)
            await client.__aexit__(None, None, None)
            return view(*await look(server.room(name)))
        seen = run(build())
        assert server.terminate() == 0, server.log
    return (folder / f"{name}.json").read_bytes(), seen


def read_state(path):
    saved = json.loads(path.read_text())
    assert saved["format"] == "forcelayout-state" and saved["version"] == 6, {k: saved.get(k) for k in ("format", "version")}
    return saved


def test_every_room_survives_a_restart_with_state_dir(tmp_path):
    folder = tmp_path / "rooms"
    folder.mkdir()

    async def build(server):
        async with Client(server.room("alpha")) as a:
            await set_params(a, charge=14, paused=True, model="graph", edgeLength=45)
            ids_a = await add(a, 5)
            await a.send({"type": "remove", "ids": [ids_a[-1]]})
            await a.event("removed", by=a.id)
            await a.send({"type": "pin", "id": ids_a[0], "x": 50, "y": 60})
            await a.event("pinned", by=a.id)
        b, ids_b = await settled_room(server.room("beta"), 4, stiffness=0.05)
        await b.__aexit__(None, None, None)
        m, ids_m = await settled_room(server.ws, 2)
        await m.__aexit__(None, None, None)
        views = {}
        for name in ("alpha", "beta", "main"):
            views[name] = view(*await look(server.room(name)))
        return {"alpha": ids_a, "beta": ids_b, "main": ids_m}, views

    with RunningServer("--state-dir", str(folder)) as server:
        ids, before = run(build(server))
        # written while it changes, not only at the end
        assert wait_until(lambda: saved_cells(folder / "alpha.json") == 4 and saved_cells(folder / "beta.json") == 4, 3), \
            sorted(p.name for p in folder.iterdir())
        assert server.terminate() == 0, server.log
    # Each room's file, and its history's folder beside it.
    assert {p.name for p in folder.iterdir() if not p.name.startswith(".")} == {
        "alpha.json", "beta.json", "main.json", "alpha.history", "beta.history", "main.history"}
    assert len(read_state(folder / "alpha.json")["layout"]["cells"]) == 4
    assert {k: read_state(folder / "alpha.json")["layout"]["parameters"][k] for k in ("model", "edgeLength")} == \
        {"model": "graph", "edgeLength": 45}
    assert read_state(folder / "beta.json")["layout"]["parameters"]["stiffness"] == 0.05
    assert len(read_state(folder / "main.json")["layout"]["cells"]) == 2

    async def check(server):
        for name in ("alpha", "beta", "main"):
            hello, frame = await look(server.room(name))
            assert hello["room"] == name
            assert view(hello, frame) == before[name], name
        for name in ("alpha", "beta"):
            async with Client(server.room(name)) as client:
                fresh = await add(client, 1)
                assert fresh == [max(ids[name]) + 1], (name, ids[name], fresh)
        async with Client(server.ws) as client:
            assert client.hello["params"]["threshold"] == 1 and client.hello["params"]["charge"] == 10
            assert client.hello["params"]["model"] == "auto"

    with RunningServer("--state-dir", str(folder)) as server:
        run(check(server))


def test_a_state_file_is_room_main(tmp_path):
    """--state FILE (a single-layout state file from before rooms) loads as room main, and main
    is unloaded and reloaded like any room with a file."""
    folder = tmp_path / "rooms"
    folder.mkdir()

    async def build(server):
        async with Client(server.ws) as client:
            await set_params(client, charge=16, paused=True)  # nothing moves: positions compare exactly
            await add(client, 3)
        return view(*await look(server.ws))

    with RunningServer("--state-dir", str(folder)) as server:
        before = run(build(server))
        assert server.terminate() == 0, server.log
    # As the server wrote it before rooms: no "settled", and no parameters added since (the
    # model and its edge length, at their defaults here: they load as the defaults).
    old = json.loads((folder / "main.json").read_text())
    old.pop("settled", None)
    old.pop("access", None)
    assert old.pop("owners")[0][1:] == [1, 3]  # who added the cells (issue 26)
    assert old["layout"]["parameters"].pop("model") == "auto"
    assert old["layout"]["parameters"].pop("edgeLength") == 30
    assert set(old) == {"format", "version", "layout", "reservation"}, sorted(old)
    state = tmp_path / "old.json"
    state.write_text(json.dumps(old))

    with RunningServer("--state", str(state), "--room-idle-seconds", "1") as server:
        async def loaded():
            async with Client(server.room("main")) as client:
                assert view(client.hello, await client.next("frame")) == before
                assert server.stats()["cells"] == 3
                hello, frame = await look(server.room("other"))
                assert frame["ids"] == [] and hello["params"]["charge"] == 10 and hello["params"]["paused"] is False
                changed = await set_params(client, paused=False, tickRate=120, threshold=1)
                await settle(client, changed)
            return view(*await look(server.ws))
        settled = run(loaded())
        # settled, no clients, a file: unloaded, and /stats shows zeros for main meanwhile
        assert await_gone(server, "main"), listed(server)
        stats = server.stats()
        assert stats["cells"] == 0 and stats["clients"] == 0, stats
        assert saved_cells(state) == 3
        assert view(*run(look(server.ws))) == settled

        async def grow():
            async with Client(server.ws) as client:
                await add(client, 1)
        run(grow())
        assert wait_until(lambda: saved_cells(state) == 4, timeout=3), "main's changes go to the --state file"


def test_a_settled_room_without_clients_is_unloaded_and_reloaded_exactly(tmp_path):
    folder = tmp_path / "rooms"
    folder.mkdir()
    creator = "127.0.0.21"
    with RunningServer("--state-dir", str(folder), "--room-idle-seconds", "1", "--rooms-per-minute", "1") as server:
        async def scenario():
            held, _ = await settled_room(server.room("held"), 3, source="127.0.0.22")
            try:
                # a room that never settles: it keeps stepping and is never unloaded
                async with Client(server.room("restless"), source="127.0.0.23") as restless:
                    await set_params(restless, threshold=0)
                    await add(restless, 3)
                idle, ids = await settled_room(server.room("idle"), 8, source=creator, charge=12)
                await idle.send({"type": "pin", "id": ids[2], "x": 15, "y": -25})
                await idle.event("pinned", by=idle.id)
                await idle.send({"type": "remove", "ids": [ids[5]]})
                removed = await idle.event("removed", by=idle.id)
                await settle(idle, removed)
                before = view(*await look(server.room("idle")))
                assert len(before["ids"]) == 7 and before["pinned"] == [ids[2]]
                await idle.__aexit__(None, None, None)

                assert await_gone(server, "idle"), listed(server)
                rooms = listed(server)
                assert rooms["held"]["clients"] == 1, "a room with a client is never unloaded"
                assert rooms["restless"]["clients"] == 0 and rooms["restless"]["settled"] is False, rooms
                assert saved_cells(folder / "idle.json") == 7
                assert read_state(folder / "idle.json")["layout"]["parameters"]["charge"] == 12
                stats = server.stats()
                assert stats["totalCells"] == 6 and stats["rooms"] == len(rooms), (stats, rooms)

                # The creator made its one room this minute: loading is not creating.
                hello, frame = await look(server.room("idle"), source=creator)
                assert view(hello, frame) == before
                assert hello["room"] == "idle" and hello["params"]["charge"] == 12
                assert handshake(server.port, "/ws/another", source=creator) == 429, "the limit held all along"
                async with Client(server.room("idle"), source=creator) as again:
                    fresh = await add(again, 1)
                    assert fresh[0] > max(ids), (ids, fresh)
            finally:
                await held.__aexit__(None, None, None)
        run(scenario())


def await_gone(server, name, timeout=10):
    return wait_until(lambda: name not in listed(server), timeout=timeout, interval=0.1)


def test_empty_rooms_are_forgotten_with_their_files(tmp_path):
    folder = tmp_path / "rooms"
    folder.mkdir()
    with RunningServer("--state-dir", str(folder), "--room-forget-seconds", "1") as server:
        async def scenario():
            async with Client(server.room("gone")) as client:
                await set_params(client, charge=13)
                await add(client, 2)
                assert wait_until(lambda: saved_cells(folder / "gone.json") == 2, timeout=3)
                await client.send({"type": "clear"})
                await client.event("cleared", by=client.id)
            async with Client(server.room("blank")):
                pass
            assert await_gone(server, "gone") and await_gone(server, "blank"), listed(server)
            assert wait_until(lambda: not (folder / "gone.json").exists(), timeout=3), "the file of a forgotten room stays"
            assert not (folder / "blank.json").exists()
            # forgotten, not unloaded: the next client finds a new room
            hello, frame = await look(server.room("gone"))
            assert frame["ids"] == [] and hello["params"]["charge"] == 10
        run(scenario())


def test_without_a_state_file_a_room_is_never_unloaded():
    with RunningServer("--room-idle-seconds", "1", "--room-forget-seconds", "1") as server:
        async def scenario():
            kept, ids = await settled_room(server.room("kept"), 3)
            await kept.__aexit__(None, None, None)
            # emptied after "kept" was: once it is forgotten, "kept" has been idle long enough
            async with Client(server.room("blank")):
                pass
            assert await_gone(server, "blank"), listed(server)
            rooms = listed(server)
            assert rooms.get("kept", {}).get("cells") == 3, rooms
            hello, frame = await look(server.room("kept"))
            assert frame["ids"] == ids
        run(scenario())


def test_a_room_file_that_cannot_be_read_refuses_that_room_only(tmp_path):
    valid, good = saved_room_file(tmp_path / "source", "good", 2)
    folder = tmp_path / "rooms"
    folder.mkdir()
    (folder / "good.json").write_bytes(valid)
    broken = {
        "garbage": b"not json at all",
        "future": b'{"format":"forcelayout-state","version":99}',
        "other": b'{"format":"something-else","version":2}',
        "truncated": valid[: len(valid) // 2],
        "empty": b"",
        "model": valid.replace(b'"model":"auto"', b'"model":"spiral"'),
    }
    assert broken["model"] != valid
    for name, content in broken.items():
        (folder / f"{name}.json").write_bytes(content)
    (folder / "folder.json").mkdir()  # a room file that is no file
    (folder / "folder.json" / "inside").write_bytes(b"x")
    with RunningServer("--state-dir", str(folder), "--room-forget-seconds", "1") as server:
        for name in [*broken, "folder"]:
            # Read off the service thread: the first handshake is admitted and closed with 1011;
            # the verdict is remembered, so the next ones get 503 without reading the file.
            assert first_join(server.port, f"/ws/{name}") == (101, 1011), name
            assert handshake(server.port, f"/ws/{name}") == 503, f"{name}, asked again"
            assert wait_until(lambda: f"{name}.json" in server.log), f"the log does not name {name}.json:\n{server.log}"
        assert not (set(broken) | {"folder"}) & set(listed(server)), listed(server)
        # A room emptied after those refusals: once it is forgotten, an empty room made for
        # any of them by mistake would have been forgotten too (and its file deleted).
        assert handshake(server.port, "/ws/probe") == 101
        assert await_gone(server, "probe"), listed(server)
        for name, content in broken.items():
            assert (folder / f"{name}.json").read_bytes() == content, name

        async def others():
            assert view(*await look(server.room("good"))) == good
            async with Client(server.room("fresh")) as client:
                await add(client, 1)
        run(others())
        for name in [*broken, "folder"]:
            assert handshake(server.port, f"/ws/{name}") == 503, f"{name}, after other rooms were served"
        assert server.terminate() == 0, server.log
    for name, content in broken.items():
        assert (folder / f"{name}.json").read_bytes() == content, name
    assert [p.name for p in (folder / "folder.json").iterdir()] == ["inside"]
