"""`undo`: each client undoes its own last changes, one at a time, with ordinary events that
carry `undo` (the seq of the event undone); `undoable` tells it what it can undo; a change
someone else built on is refused with `conflict`, naming who and what; it works for a client of
a cluster's relay as for one of the room's owner."""
from client import Client, run
from room_tools import add, set_params
from server import RunningServer


async def add_event(client, count):
    """Adds `count` cells from `client`; its `added` event."""
    await client.send({"type": "add", "count": count})
    return await client.event("added", by=client.id)


async def undo(client, ref=None):
    await client.send({"type": "undo", **({"ref": ref} if ref else {})})


def test_two_clients_each_undo_their_own_changes():
    with RunningServer() as server:
        async def scenario():
            async with Client(server.room("undo")) as alice, Client(server.room("undo")) as bob:
                added = await add_event(alice, 3)
                mine = added["ids"]
                theirs = await add(bob, 2)
                await alice.send({"type": "update", "cells": [{"id": mine[0], "label": "first", "color": "#ff0000"}]})
                updated = await alice.event("updated", by=alice.id)
                charge = bob.hello["params"]["charge"]
                changed = await set_params(bob, charge=charge + 5)
                assert (await alice.next("undoable", count=2))["next"] == f"update cell {mine[0]}"

                await undo(alice)
                back = await bob.event("updated", by=alice.id, undo=updated["seq"])
                assert back["cells"] == [{"id": mine[0]}], back
                assert (await alice.next("undoable", count=1))["next"] == "add 3 cells"

                await undo(bob)
                params = await alice.event("params", by=bob.id, undo=changed["seq"])
                assert params["params"]["charge"] == charge and params["changed"] == ["charge"], params

                await undo(alice)
                removed = await bob.event("removed", by=alice.id, undo=added["seq"])
                assert removed["ids"] == mine
                assert (await alice.next("undoable", count=0)).get("next") is None
                await undo(alice, ref="again")
                error = await alice.error("conflict")
                assert error["ref"] == "again" and "nothing of yours to undo" in error["message"], error

                await undo(bob)
                assert (await alice.event("removed", by=bob.id))["ids"] == theirs
                await alice.frame_with([])
        run(scenario())


def test_a_remove_comes_back_with_its_ids_data_links_and_pins():
    with RunningServer() as server:
        async def scenario():
            async with Client(server.room("back")) as alice, Client(server.room("back")) as bob:
                await alice.send({"type": "add", "cells": [{"label": "a", "radius": 12}, {"label": "b", "group": "g"}, {}]})
                ids = (await alice.event("added", by=alice.id))["ids"]
                await alice.send({"type": "link", "links": [{"source": ids[0], "target": ids[1], "distance": 40, "attrs": {"w": 2}},
                                                            {"source": ids[1], "target": ids[2]}]})
                await alice.event("linked", by=alice.id)
                await alice.send({"type": "pin", "id": ids[0], "x": 7, "y": 8})
                await alice.event("pinned", by=alice.id)
                await bob.send({"type": "remove", "ids": [ids[0], ids[1]]})
                removed = await alice.event("removed", by=bob.id)
                await undo(bob)
                added = await alice.event("added", by=bob.id, undo=removed["seq"])
                assert added["ids"] == [ids[0], ids[1]], added
                assert added["cells"] == [{"id": ids[0], "label": "a", "radius": 12}, {"id": ids[1], "label": "b", "group": "g"}]
                linked = await alice.event("linked", by=bob.id, undo=removed["seq"])
                assert sorted((link["source"], link["target"]) for link in linked["links"]) == [(ids[0], ids[1]), (ids[1], ids[2])]
                assert {"source": ids[0], "target": ids[1], "distance": 40, "attrs": {"w": 2}} in linked["links"]
                pinned = await alice.event("pinned", by=bob.id, undo=removed["seq"])
                assert (pinned["id"], pinned["x"], pinned["y"]) == (ids[0], 7, 8)
                await alice.frame_with(ids)
            async with Client(server.room("back")) as late:
                assert late.hello["pinned"] == [ids[0]]
                data = await late.next("data")
                cells = data["cells"]
                row = cells["id"].index(ids[0])
                assert (cells["label"][row], cells["radius"][row]) == ("a", 12), data
                assert len(data["links"]["source"]) == 2, data
        run(scenario())


def test_a_change_someone_built_on_is_refused():
    with RunningServer() as server:
        async def scenario():
            async with Client(server.room("built")) as alice, Client(server.room("built")) as bob:
                mine = await add(alice, 2)
                theirs = await add(bob, 1)
                await bob.send({"type": "link", "links": [{"source": theirs[0], "target": mine[1]}]})
                await alice.event("linked", by=bob.id)
                start = len(bob.messages)
                await undo(alice, ref="u1")
                error = await alice.error("conflict")
                assert error["ref"] == "u1"
                assert error["message"].startswith(f"{bob.id} linked cell {mine[1]} since you added it"), error
                assert (await alice.next("undoable", count=0)).get("next") is None, "the refused step is off the list"
                await bob.quiet(0.3)
                assert not bob.since(start, "event", by=alice.id), "a refused undo changes nothing"
                # Bob undoes his link, then his add; Alice's cells stay.
                await undo(bob)
                await alice.event("unlinked", by=bob.id)
                await undo(bob)
                await alice.event("removed", by=bob.id)
                await alice.frame_with(mine)
        run(scenario())


def test_undo_through_a_clusters_relay(cluster):
    """A client of a server that does not step the room: its undo goes to the owner, its
    undoable and its refusals come back."""
    owner_server, relay_server = cluster[0], cluster[1]

    async def scenario():
        async with Client(owner_server.room("spread")) as here:
            async with Client(relay_server.room("spread")) as there:
                added = await add_event(there, 2)
                ids = added["ids"]
                assert (await there.next("undoable", count=1))["next"] == "add 2 cells"
                await undo(there)
                removed = await here.event("removed", by=there.id, undo=added["seq"])
                assert removed["ids"] == ids
                await there.event("removed", by=there.id, undo=added["seq"])
                await there.next("undoable", count=0)
                await undo(there, ref="none")
                error = await there.error("conflict")
                assert error["ref"] == "none", error
    run(scenario())
