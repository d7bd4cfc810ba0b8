"""The shared pointer: a client points at a cell (`point`), everyone in the room (the sender
too) gets `pointer` with who points where, a late joiner's `hello` carries the pointers, and a
pointer ends (id null) when its client stops, leaves, or its cell is removed. Ephemeral: no
event, no seq, nothing in the replay history."""
import asyncio

from client import Client, run
from room_tools import add
from server import RunningServer


async def pointer_of(client, who, timeout=5):
    """The next `pointer` message about client `who`."""
    return await client.next("pointer", timeout, client=who)


def test_two_clients_see_each_others_pointers_and_a_late_joiner_gets_them_in_hello():
    with RunningServer() as server:
        async def scenario():
            async with Client(server.room("point")) as ana, Client(server.room("point")) as bo:
                assert "pointers" not in ana.hello
                ids = await add(ana, 3)
                await ana.send({"type": "point", "id": ids[1], "name": "  Ana "})
                for client in (ana, bo):
                    assert await pointer_of(client, ana.id) == {"type": "pointer", "client": ana.id, "name": "Ana",
                                                                "id": ids[1]}
                await bo.send({"type": "point", "id": ids[2]})
                for client in (ana, bo):
                    assert await pointer_of(client, bo.id) == {"type": "pointer", "client": bo.id, "id": ids[2]}
                # Pointing where one points already changes nothing and sends nothing.
                start = len(bo.messages)
                await ana.send({"type": "point", "id": ids[1], "name": "Ana"})
                await ana.send({"type": "point", "id": ids[0], "name": "Ana"})
                moved = await pointer_of(bo, ana.id)
                assert moved["id"] == ids[0]
                assert len(bo.since(start, "pointer")) == 1
                async with Client(server.room("point")) as late:
                    assert late.hello["pointers"] == [
                        {"type": "pointer", "client": c, **({"name": "Ana"} if c == ana.id else {}), "id": i}
                        for c, i in sorted([(ana.id, ids[0]), (bo.id, ids[2])])]
                    # Nothing of it is an event or kept for replay.
                    assert not [e for e in late.hello["events"] if "pointer" in str(e)]
                    await ana.send({"type": "point", "id": None})
                    assert (await pointer_of(late, ana.id)) == {"type": "pointer", "client": ana.id, "id": None}
                    async with Client(server.room("point")) as later:
                        assert [p["client"] for p in later.hello["pointers"]] == [bo.id]
                # Other rooms hear nothing of it.
                async with Client(server.room("elsewhere")) as other:
                    assert "pointers" not in other.hello
                    await other.quiet(0.3)
                    assert not other.since(0, "pointer")
        run(scenario())


def test_a_pointer_ends_when_its_client_leaves_or_its_cell_is_removed():
    with RunningServer() as server:
        async def scenario():
            async with Client(server.room("ends")) as ana:
                ids = await add(ana, 4)
                bo = await Client(server.room("ends")).__aenter__()
                await bo.send({"type": "point", "id": ids[3], "name": "Bo"})
                await pointer_of(ana, bo.id)
                await bo.__aexit__(None, None, None)
                left = await ana.event("left", by=bo.id)
                ended = await pointer_of(ana, bo.id)
                assert ended == {"type": "pointer", "client": bo.id, "id": None}
                assert ana.messages.index(left) < ana.messages.index(ended)
                async with Client(server.room("ends")) as late:
                    assert "pointers" not in late.hello
                # A removed cell ends the pointers at it, after the `removed` event; others stay.
                async with Client(server.room("ends")) as cy:
                    await ana.send({"type": "point", "id": ids[0]})
                    await cy.send({"type": "point", "id": ids[1]})
                    await pointer_of(cy, ana.id)
                    await pointer_of(ana, cy.id)
                    await ana.send({"type": "remove", "ids": [ids[0]]})
                    removed = await cy.event("removed")
                    ended = await pointer_of(cy, ana.id)
                    assert ended["id"] is None and cy.messages.index(removed) < cy.messages.index(ended)
                    async with Client(server.room("ends")) as late:
                        assert late.hello["pointers"] == [{"type": "pointer", "client": cy.id, "id": ids[1]}]
                    await ana.send({"type": "clear"})
                    assert (await pointer_of(ana, cy.id))["id"] is None
        run(scenario())


def test_bad_points_are_refused_and_change_nothing():
    with RunningServer() as server:
        async def scenario():
            async with Client(server.room("bad")) as ana, Client(server.room("bad")) as bo:
                ids = await add(ana, 2)
                await bo.event("added", by=ana.id)
                start = len(bo.messages)
                for message, why in [
                    ({"type": "point", "id": 999, "ref": "r1"}, "999"),
                    ({"type": "point", "id": 0, "ref": "r1"}, "point.id"),
                    ({"type": "point", "id": 1.5, "ref": "r1"}, "point.id"),
                    ({"type": "point", "id": "1", "ref": "r1"}, "point.id"),
                    ({"type": "point", "ref": "r1"}, "needs id"),
                    ({"type": "point", "id": ids[0], "name": "x" * 33, "ref": "r1"}, "32"),
                    ({"type": "point", "id": ids[0], "name": "   ", "ref": "r1"}, "blank"),
                    ({"type": "point", "id": ids[0], "name": "a\u0007b", "ref": "r1"}, "control"),
                    ({"type": "point", "id": ids[0], "name": 7, "ref": "r1"}, "string"),
                    ({"type": "point", "id": ids[0], "where": 1, "ref": "r1"}, "unknown field"),
                ]:
                    await ana.send(message)
                    error = await ana.error("bad_request")
                    assert error["ref"] == "r1" and why in error["message"], (message, error)
                # 32 characters (code points) after trimming are a name.
                await ana.send({"type": "point", "id": ids[0], "name": " " + "é" * 32 + " "})
                assert (await pointer_of(bo, ana.id))["name"] == "é" * 32
                assert len(bo.since(start, "pointer")) == 1
                assert not [e for e in bo.since(start, "event") if e.get("by") == ana.id]
        run(scenario())


def test_a_viewer_may_point():
    with RunningServer() as server:
        async def scenario():
            async with Client(server.room("watched")) as owner:
                await owner.send({"type": "access", "access": "view"})
                await owner.event("access", by=owner.id)
                ids = await add(owner, 2)
                async with Client(server.room("watched")) as viewer:
                    assert viewer.hello["role"] == "viewer"
                    await viewer.send({"type": "point", "id": ids[1], "name": "Vi"})
                    assert (await pointer_of(owner, viewer.id))["id"] == ids[1]
                    # Its changes are still refused.
                    await viewer.send({"type": "add", "count": 1})
                    await viewer.error("forbidden")
        run(scenario())


def test_pointers_cross_a_cluster_both_ways_and_reach_a_late_joiner_on_a_relay(cluster):
    """Room stepped by a; b relays it. A client on b points (its `point` goes to the owner), a
    client on a points: each sees the other's. A joiner on c gets both in hello; a client of b
    leaving ends its pointer everywhere."""
    async def scenario():
        a = await Client(cluster[0].room("shared")).__aenter__()
        b = await Client(cluster[1].room("shared")).__aenter__()
        try:
            ids = await add(a, 3)
            await b.event("added", by=a.id)
            await b.send({"type": "point", "id": ids[0], "name": "Bee"})
            for client in (a, b):
                assert await pointer_of(client, b.id, timeout=5) == {"type": "pointer", "client": b.id, "name": "Bee",
                                                                     "id": ids[0]}
            await a.send({"type": "point", "id": ids[2]})
            for client in (a, b):
                assert (await pointer_of(client, a.id, timeout=5))["id"] == ids[2]
            # A relay's client is refused by the owner as a local one is.
            await b.send({"type": "point", "id": 4321, "ref": "far"})
            error = await b.error("bad_request")
            assert error["ref"] == "far" and "4321" in error["message"]
            async with Client(cluster[2].room("shared")) as late:
                assert sorted((p["client"], p["id"]) for p in late.hello["pointers"]) == sorted(
                    [(a.id, ids[2]), (b.id, ids[0])])
                await b.__aexit__(None, None, None)
                for client in (a, late):
                    assert (await pointer_of(client, b.id, timeout=5))["id"] is None
                # The owner removes the cell a points at: the relay's client hears it end.
                await a.send({"type": "remove", "ids": [ids[2]]})
                assert (await pointer_of(late, a.id, timeout=5))["id"] is None
            # A joiner on that relay (which heard the end: b's server may hear it a moment later)
            # gets no pointer.
            async with Client(cluster[2].room("shared")) as again:
                assert "pointers" not in again.hello
        finally:
            await a.__aexit__(None, None, None)
    run(scenario())


def test_after_a_failover_pointers_of_the_dead_servers_clients_end_and_the_rest_go_on(cluster):
    async def scenario():
        a = await Client(cluster[0].room("moving")).__aenter__()
        b = await Client(cluster[1].room("moving")).__aenter__()
        c = await Client(cluster[2].room("moving")).__aenter__()
        try:
            ids = await add(a, 3)
            sent = {client: client.cursor for client in (b, c)}
            await a.send({"type": "point", "id": ids[0], "name": "A"})
            await c.send({"type": "point", "id": ids[1], "name": "C"})
            # Either may reach the owner first (c's goes through Redis, a's may wait on a busy
            # machine): each is looked for from where both were sent.
            for client, who in ((b, a.id), (c, a.id), (b, c.id)):
                client.cursor = sent[client]
                await pointer_of(client, who)
            await asyncio.sleep(1.5)  # the state in Redis is at most 0.75 s old
            marks = {client: client.cursor for client in (b, c)}
            cluster[0].stop()  # kill -9: a stepped the room
            await b.event("failover", timeout=8)
            # a's client is gone with its server: its pointer ends on both survivors, after its
            # `left` (which comes before `failover`).
            for client in (b, c):
                client.cursor = marks[client]
                left = await client.event("left", by=a.id, timeout=5)
                ended = await pointer_of(client, a.id, timeout=5)
                assert ended["id"] is None and client.messages.index(left) < client.messages.index(ended)
            # The survivors point on, and a joiner sees only live pointers.
            await b.send({"type": "point", "id": ids[2]})
            assert (await pointer_of(c, b.id, timeout=5))["id"] == ids[2]
            # Heard on the joiner's server too (it may relay the room from c now).
            assert (await pointer_of(b, b.id, timeout=5))["id"] == ids[2]
            async with Client(cluster[1].room("moving")) as late:
                clients = {p["client"] for p in late.hello.get("pointers", [])}
                assert a.id not in clients and b.id in clients
        finally:
            for client in (b, c):
                await client.__aexit__(None, None, None)
    run(scenario())
