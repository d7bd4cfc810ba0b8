"""Cells keep their owners across a restart (issue 26): the state file keeps who added which
cells, and client ids never repeat, so a new client neither inherits an old client's cells nor
sees them as "restored"."""
import asyncio

from client import Client, run
from room_tools import add
from server import RunningServer


async def owners_of(client, ids):
    """{cell id: its owner's client id} from the client's next frame holding `ids`."""
    frame = await client.frame_with(ids)
    return {cell: owner for owner, first, last in frame["owners"] for cell in frame["ids"] if first <= cell <= last}


def test_owners_survive_restarts_and_client_ids_do_not_repeat(tmp_path):
    state_dir = str(tmp_path / "rooms")
    owners = {}  # cell -> the client that added it
    seen = set()

    async def visit(running):
        """A new client: not an id seen before, sees every cell under its owner, adds one."""
        async with Client(running.room("kept")) as client:
            assert client.id not in seen, (client.id, sorted(seen))
            seen.add(client.id)
            if owners:
                assert await owners_of(client, list(owners)) == owners
            for cell in await add(client, 2):
                owners[cell] = client.id
            assert await owners_of(client, list(owners)) == owners

    with RunningServer("--state-dir", state_dir) as running:
        run(visit(running))
        run(visit(running))
        assert running.terminate() == 0, running.log
    with RunningServer("--state-dir", state_dir) as running:
        run(visit(running))
        run(asyncio.sleep(1.5))  # the room's state is at most 0.75 s old
        running.stop()  # kill -9: the client ids' reservation was on disk before the first hello
    with RunningServer("--state-dir", state_dir) as running:
        run(visit(running))
        assert running.terminate() == 0, running.log
    assert len(seen) == 4
    # Without a state directory nothing is restored, and ids start at c1 again.
    with RunningServer() as running:
        async def fresh():
            async with Client(running.ws) as client:
                return client.id
        assert run(fresh()) == "c1"


def test_a_state_file_without_owners_loads_its_cells_without_owners(tmp_path):
    """A file of an earlier build (no `owners`) loads; its cells have no owner, and the first
    client's cells have it."""
    state_dir = tmp_path / "rooms"
    state_dir.mkdir()
    (state_dir / "old.json").write_text(
        '{"format":"forcelayout-state","version":5,"layout":{"parameters":{},"nextID":3,"cells":['
        '{"id":1,"x":0,"y":0,"pinned":false},{"id":2,"x":5,"y":5,"pinned":false}]},"reservation":3,"settled":true}')
    with RunningServer("--state-dir", str(state_dir)) as running:
        async def scenario():
            async with Client(running.room("old")) as client:
                frame = await client.frame_with([1, 2])
                assert frame["owners"] == []
                added = await add(client, 1)
                assert await owners_of(client, [1, 2] + added) == {added[0]: client.id}
        run(scenario())


def test_owners_survive_a_failover_and_a_restarted_server_gives_new_client_ids(cluster):
    """Room stepped by a; a's client adds cells, b's too. a is killed: the server that takes the
    room over names the same owners in its frames. a comes back under its name: its next client
    is not the one that owned the cells."""
    async def scenario():
        a = await Client(cluster[0].room("owned")).__aenter__()
        b = await Client(cluster[1].room("owned")).__aenter__()
        try:
            mine = await add(a, 3)
            theirs = await add(b, 2)
            expected = {**{cell: a.id for cell in mine}, **{cell: b.id for cell in theirs}}
            assert await owners_of(b, mine + theirs) == expected
            await asyncio.sleep(1.5)  # the state in Redis is at most 0.75 s old
            cluster[0].stop()  # kill -9
            await b.event("failover", timeout=8)
            # The new owner's frames of the new membership version name the same owners.
            assert await owners_of(b, mine + theirs) == expected
            async with Client(cluster[2].room("owned")) as late:
                assert await owners_of(late, mine + theirs) == expected
            cluster[0].start()
            async with Client(cluster[0].room("owned")) as again:
                assert again.id.endswith("@a") and again.id != a.id, (again.id, a.id)
                assert await owners_of(again, mine + theirs) == expected
        finally:
            await b.__aexit__(None, None, None)
    run(scenario())
