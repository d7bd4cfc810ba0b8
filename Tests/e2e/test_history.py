"""A room remembers: its history (`history`), any moment of it (`moment`), and an editor's
`restore` of a moment, which everyone sees as one change (`restored`, with the room's data)."""
import asyncio

from client import Client, run
from room_tools import add, history, moment, now_ms, set_params
from server import RunningServer



async def labelled(client, labels):
    await client.send({"type": "add", "cells": [{"label": label} for label in labels]})
    return (await client.event("added", by=client.id))["ids"]


def test_limits_are_announced():
    with RunningServer("--history-bytes", "1048576", "--history-seconds", "600", "--history-batch", "50") as server:
        async def scenario():
            async with Client(server.room("limits")) as client:
                limits = client.hello["limits"]
                assert (limits["historyBytes"], limits["historySeconds"], limits["historyBatch"]) == (1048576, 600, 50)
                await client.send({"type": "history", "count": 51, "ref": "big"})
                error = await client.error("bad_request")
                assert error["ref"] == "big" and "history.count" in error["message"], error
                await client.send({"type": "moment", "ref": "no-at"})
                assert "needs at" in (await client.error("bad_request"))["message"]
        run(scenario())


def test_moments_show_the_cells_data_and_links_as_they_were_and_a_restore_brings_them_back():
    with RunningServer() as server:
        async def scenario():
            async with Client(server.room("past")) as ana, Client(server.room("past")) as bo:
                start = now_ms()
                await asyncio.sleep(0.02)
                ids = await labelled(ana, ["Valjean", "Javert", "Fantine"])
                await ana.send({"type": "link", "links": [{"source": ids[0], "target": ids[1]},
                                                          {"source": ids[1], "target": ids[2], "distance": 40}]})
                await ana.event("linked", by=ana.id)
                await set_params(ana, charge=55)
                await ana.send({"type": "pin", "id": ids[2], "x": 10, "y": -20})
                await ana.event("pinned", by=ana.id)
                await asyncio.sleep(0.3)
                whole = now_ms()
                await asyncio.sleep(0.3)
                more = await add(bo, 2)
                await asyncio.sleep(0.05)
                five = now_ms()
                await asyncio.sleep(0.05)
                await ana.send({"type": "clear"})
                cleared = await bo.event("cleared", by=ana.id)
                assert sorted(cleared["ids"]) == sorted(ids + more)

                # The history lists the changes, newest last, bulky arrays as counts.
                listing = await history(bo)
                kinds = [(e["kind"], e.get("by"), e.get("n")) for e in listing["events"] if e["kind"] not in ("woke", "settled")]
                assert kinds == [("added", ana.id, 3), ("linked", ana.id, 2), ("params", ana.id, None),
                                 ("pinned", ana.id, None), ("added", bo.id, 2), ("cleared", ana.id, 5)], kinds
                assert listing["from"] <= start and listing["to"] >= cleared["at"] and listing["more"] is False
                assert not [e for e in listing["events"] if "ids" in e or "cells" in e or "links" in e]
                # Paging: the two before the clear, then the rest before those.
                page = await history(bo, before=cleared["seq"], count=2)
                at_clear = [e["seq"] for e in listing["events"]].index(cleared["seq"])
                assert page["events"] == listing["events"][at_clear - 2:at_clear] and page["more"] is True
                rest = await history(bo, before=page["events"][0]["seq"])
                assert rest["events"] + page["events"] == listing["events"][:at_clear] and rest["more"] is False

                # Three moments: before anything, whole, and the five cells.
                empty = await moment(bo, start)
                assert empty["ids"] == [] and empty["cells"]["id"] == [], empty
                then = await moment(bo, whole)
                assert then["ids"] == ids, then
                assert then["cells"]["label"] == ["Valjean", "Javert", "Fantine"]
                assert sorted(zip(then["links"]["source"], then["links"]["target"])) == [(ids[0], ids[1]), (ids[1], ids[2])]
                assert then["params"]["charge"] == 55 and then["pinned"] == [ids[2]]
                pinned_at = then["ids"].index(ids[2])
                assert (then["x"][pinned_at], then["y"][pinned_at]) == (10, -20)
                assert all(isinstance(v, (int, float)) for v in then["x"] + then["y"])
                assert then["owners"] == [[ana.id, ids[0], ids[-1]]]
                # Asked again with the data it holds, the data is left out.
                again = await moment(bo, whole, have=then["dataSeq"])
                assert "cells" not in again and again["ids"] == ids
                # Forward from the data it holds: only the events since, which it applies itself.
                fifth = await moment(bo, five, have=then["dataSeq"])
                assert fifth["ids"] == ids + more and "cells" not in fifth and "links" not in fifth
                assert fifth["base"] == then["dataSeq"]
                assert [(e["kind"], e["by"], e["ids"]) for e in fifth["since"]] == [("added", bo.id, more)], fifth["since"]
                assert fifth["dataSeq"] == fifth["since"][-1]["seq"] == (await moment(bo, five))["dataSeq"]
                # Back to before them: the whole data again, or, to a client that takes a
                # patch, what takes the data it holds back (the two cells bo added go).
                back = await moment(bo, whole, have=fifth["dataSeq"])
                assert "since" not in back and "patch" not in back and back["cells"]["label"] == ["Valjean", "Javert", "Fantine"]
                patched = await moment(bo, whole, have=fifth["dataSeq"], patch=True)
                assert "cells" not in patched and patched["base"] == fifth["dataSeq"] and patched["dataSeq"] == then["dataSeq"]
                assert patched["patch"]["gone"] == more and patched["patch"]["cells"]["id"] == [], patched["patch"]
                after = await moment(bo, now_ms())
                assert after["ids"] == []
                # Nothing changed for anyone: ana got no moment, the room is still empty.
                assert not ana.since(0, "moment")

                # bo restores the whole moment: everyone sees one change with the data.
                await bo.send({"type": "restore", "at": whole})
                restored = await ana.event("restored", by=bo.id)
                assert restored["moment"] == whole and restored["ids"] == ids
                assert restored["data"]["cells"]["label"] == ["Valjean", "Javert", "Fantine"]
                assert len(restored["data"]["links"]["source"]) == 2
                frame = await ana.frame_with(ids)
                assert frame["ids"] == ids
                # New cells get new ids (never one handed out before).
                newer = await add(ana, 1)
                assert newer[0] > max(ids + more)
                async with Client(server.room("past")) as late:
                    data = await late.next("data")
                    assert data["cells"]["label"] == ["Valjean", "Javert", "Fantine"]
                    assert late.hello["params"]["charge"] == 55
                    assert late.hello["pinned"] == [ids[2]]
                # The restore is in the history, and the moment before it can be restored too.
                listing = await history(bo)
                assert [e for e in listing["events"] if e["kind"] == "restored"] == [
                    {k: v for k, v in restored.items() if k not in ("type", "ids", "data", "pinned")} | {"n": 3}]
                await bo.send({"type": "restore", "at": restored["at"] - 1})
                undone = await ana.event("restored", by=bo.id)
                assert undone["ids"] == []
        run(scenario())


def test_a_viewer_may_scrub_but_not_restore():
    with RunningServer("--default-access", "view") as server:
        async def scenario():
            async with Client(server.room("watch")) as owner:
                await add(owner, 2)
                async with Client(server.room("watch")) as viewer:
                    assert viewer.hello["role"] == "viewer"
                    seen = await moment(viewer, now_ms())
                    assert len(seen["ids"]) == 2
                    await viewer.send({"type": "restore", "at": 0, "ref": "r"})
                    assert (await viewer.error("forbidden"))["ref"] == "r"
        run(scenario())


def test_no_history_when_it_is_off():
    with RunningServer("--history-bytes", "0") as server:
        async def scenario():
            async with Client(server.room("none")) as client:
                await add(client, 1)
                await client.send({"type": "moment", "at": now_ms(), "ref": "m"})
                error = await client.error("unavailable")
                assert "no history" in error["message"] and error["ref"] == "m"
                await client.send({"type": "restore", "at": now_ms()})
                await client.error("unavailable")
        run(scenario())


def test_an_undo_takes_back_ones_own_restore_unless_someone_changed_the_room_since():
    with RunningServer() as server:
        async def scenario():
            async with Client(server.room("back")) as ana, Client(server.room("back")) as bo:
                ids = await labelled(ana, ["one", "two"])
                await asyncio.sleep(0.05)
                whole = now_ms()
                await asyncio.sleep(0.05)
                await ana.send({"type": "clear"})
                await bo.event("cleared", by=ana.id)
                more = await add(ana, 3)
                await bo.send({"type": "restore", "at": whole})
                restored = await ana.event("restored", by=bo.id)
                assert restored["ids"] == ids
                undoable = await bo.next("undoable")
                assert undoable["count"] == 1 and "restore" in undoable["next"], undoable
                # bo takes it back: the room is as it was just before (ana's three cells).
                await bo.send({"type": "undo"})
                back = await ana.event("restored", by=bo.id)
                assert back["ids"] == more and back["undo"] == restored["seq"]
                # Undoing that undo restores again.
                await bo.send({"type": "undo"})
                again = await ana.event("restored", by=bo.id)
                assert again["ids"] == ids
                # Once ana changed the room, bo's restore stays.
                await add(ana, 1)
                await bo.send({"type": "undo", "ref": "u"})
                error = await bo.error("conflict")
                assert ana.id in error["message"] and "restored" in error["message"], error
        run(scenario())


def test_a_restore_that_brings_back_other_parameters_tells_them_in_a_params_event():
    """Clients keep the room's parameters from `hello` and `params` events: a restore (or its
    undo) that changes them says so, or a page would show values the room no longer has."""
    with RunningServer() as server:
        async def scenario():
            async with Client(server.room("tuned")) as ana, Client(server.room("tuned")) as bo:
                await add(ana, 3)
                await set_params(ana, charge=20, stiffness=0.05)
                await asyncio.sleep(0.05)
                then = now_ms()
                await asyncio.sleep(0.05)
                await set_params(ana, charge=70)
                await bo.event("params", by=ana.id)
                await bo.send({"type": "restore", "at": then})
                restored = await ana.event("restored", by=bo.id)
                params = await ana.next("event")
                assert params["kind"] == "params" and params["by"] == bo.id and params["seq"] == restored["seq"] + 1, params
                assert params["params"]["charge"] == 20 and params["changed"] == ["charge"], params
                # Taken back: the parameters before it come back the same way.
                await bo.send({"type": "undo"})
                back = await ana.event("restored", by=bo.id)
                again = await ana.next("event")
                assert (again["kind"], again["params"]["charge"], again["changed"]) == ("params", 70, ["charge"]), again
                assert again["seq"] == back["seq"] + 1
                # A restore that leaves them as they are says nothing of them.
                await bo.send({"type": "restore", "at": now_ms()})
                await ana.event("restored", by=bo.id)
                await add(ana, 1)
                assert not [m for m in ana.since(0, "event") if m["kind"] == "params" and m["seq"] > again["seq"]]
        run(scenario())


def test_a_pinned_cell_an_update_moved_is_where_it_moved_it_in_the_past():
    """The `updated` event says where an `update` put a cell; a moment after it shows the pin
    there (it kept the old pin until the next checkpoint before), and a moment before, the old."""
    with RunningServer() as server:
        async def scenario():
            async with Client(server.room("moved")) as ana:
                ids = await labelled(ana, ["Cosette", "Marius"])
                await ana.send({"type": "pin", "id": ids[0], "x": 10, "y": -20})
                await ana.event("pinned", by=ana.id)
                await asyncio.sleep(0.05)
                before = now_ms()
                await asyncio.sleep(0.05)
                await ana.send({"type": "update", "cells": [{"id": ids[0], "x": 33.5, "y": 44}, {"id": ids[1], "label": "M."}]})
                updated = await ana.event("updated", by=ana.id)
                assert updated["cells"] == [{"id": ids[0], "label": "Cosette", "x": 33.5, "y": 44}, {"id": ids[1], "label": "M."}]
                await asyncio.sleep(0.05)
                for at, place in ((before, (10, -20)), (now_ms(), (33.5, 44))):
                    shown = await moment(ana, at)
                    assert shown["pinned"] == [ids[0]]
                    i = shown["ids"].index(ids[0])
                    assert (shown["x"][i], shown["y"][i]) == place, (at, shown)
                    assert "x" not in shown["cells"] and "y" not in shown["cells"], "a place is not the cells' data"
        run(scenario())


def data_of(answer):
    """A moment's cells ({id: label}) and links ({(low, high)}), from its whole columns."""
    cells = dict(zip(answer["cells"]["id"], answer["cells"].get("label", [None] * len(answer["cells"]["id"]))))
    links = {tuple(sorted(pair)) for pair in zip(answer["links"]["source"], answer["links"]["target"])}
    return cells, links


def patched(cells, links, patch):
    """The data taken back by a `patch`, as docs/protocol.md says a client applies it."""
    cells, links = dict(cells), set(links)
    for gone in patch["gone"]:
        cells.pop(gone, None)
        links = {link for link in links if gone not in link}
    links -= {tuple(sorted(pair)) for pair in zip(patch["unlinked"]["source"], patch["unlinked"]["target"])}
    cells.update(zip(patch["cells"]["id"], patch["cells"].get("label", [None] * len(patch["cells"]["id"]))))
    links |= {tuple(sorted(pair)) for pair in zip(patch["links"]["source"], patch["links"]["target"])}
    return cells, links


def test_a_handle_dragged_back_gets_what_takes_its_data_back():
    with RunningServer() as server:
        async def scenario():
            async with Client(server.room("back")) as ana:
                a, b, c = await labelled(ana, ["A", "B", "C"])
                await ana.send({"type": "link", "links": [{"source": a, "target": b}, {"source": b, "target": c}]})
                await ana.event("linked", by=ana.id)
                await asyncio.sleep(0.05)
                earlier = now_ms()
                await asyncio.sleep(0.05)
                await ana.send({"type": "remove", "ids": [b]})
                await ana.event("removed", by=ana.id)
                await ana.send({"type": "link", "links": [{"source": c, "target": a}]})
                await ana.event("linked", by=ana.id)
                d = (await labelled(ana, ["D"]))[0]
                await asyncio.sleep(0.05)
                later = await moment(ana, now_ms())
                assert data_of(later) == ({a: "A", c: "C", d: "D"}, {(a, c)})
                whole = await moment(ana, earlier)
                assert data_of(whole) == ({a: "A", b: "B", c: "C"}, {(a, b), (b, c)})
                back = await moment(ana, earlier, have=later["dataSeq"], patch=True)
                assert back["base"] == later["dataSeq"] and back["dataSeq"] == whole["dataSeq"]
                assert "cells" not in back and "links" not in back
                patch = back["patch"]
                # B comes back with its links, A-C goes, D goes
                assert patch["cells"]["id"] == [b] and patch["cells"]["label"] == ["B"], patch
                assert patch["gone"] == [d]
                assert sorted(zip(patch["links"]["source"], patch["links"]["target"])) == [(a, b), (b, c)]
                assert list(zip(patch["unlinked"]["source"], patch["unlinked"]["target"])) == [(a, c)]
                assert patched(*data_of(later), patch) == data_of(whole)
                # ids and positions are the moment's, as without `have`
                assert back["ids"] == whole["ids"] and back["x"] == whole["x"]
        run(scenario())
