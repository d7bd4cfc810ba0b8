"""Cells that carry data: `add` with `cells`, `update`, `link`, `unlink`, their events, the
`data` message a late joiner gets after hello, the state file keeping all of it, and every
bad input refused with a clear error that changes nothing."""
import json

import pytest

from client import Client, run
from server import RunningServer


@pytest.fixture(scope="module")
def data_server():
    with RunningServer("--max-links", "6", "--max-add-per-message", "8") as server:
        yield server


async def add_cells(client, cells, **extra):
    await client.send({"type": "add", "cells": cells, **extra})
    return await client.event("added", by=client.id)


async def refused(client, message, code="bad_request", says=None):
    """Sends `message` with a ref; returns the error, after checking nothing happened."""
    start = len(client.messages)
    await client.send({**message, "ref": "r"})
    error = await client.next("error", ref="r")
    assert error["code"] == code, error
    if says:
        assert says in error["message"], error
    await client.quiet(0.2)
    events = [m for m in client.since(start, "event") if m["kind"] not in ("settled", "woke", "joined", "left")]
    assert events == [], events
    return error


def test_cells_come_with_their_data_and_a_late_joiner_gets_all_of_it(data_server):
    async def go():
        room = data_server.room("data-one")
        async with Client(room) as a, Client(room, subprotocols=("forcelayout.v2",)) as b:
            added = await add_cells(a, [
                {"label": "Valjean", "group": "1", "color": "#FF0000", "radius": 12},
                {"label": "Javert", "x": 40, "y": -20},
                {},
            ])
            first, second, third = added["ids"]
            assert added["cells"] == [
                {"id": first, "label": "Valjean", "radius": 12, "color": "#ff0000", "group": "1"},
                {"id": second, "label": "Javert"},
            ]
            assert (await b.event("added", by=a.id))["cells"] == added["cells"]
            await a.send({"type": "link", "links": [{"source": first, "target": second},
                                                    {"source": second, "target": third, "distance": 80, "strength": 0.5}]})
            linked = await b.event("linked", by=a.id)
            # `distance` only when the link has its own (else it follows the room's edgeLength).
            assert linked["links"] == [{"source": first, "target": second},
                                       {"source": second, "target": third, "distance": 80, "strength": 0.5}]
            await b.send({"type": "update", "cells": [{"id": first, "label": "M. Madeleine", "color": None, "radius": None},
                                                      {"id": third, "group": "2"}]})
            updated = await a.event("updated", by=b.id)
            assert updated["cells"] == [{"id": first, "label": "M. Madeleine", "group": "1"}, {"id": third, "group": "2"}]
            await a.send({"type": "unlink", "links": [{"source": third, "target": second}]})
            assert (await b.event("unlinked", by=a.id))["links"] == [{"source": third, "target": second}]

            async with Client(room) as late:
                data = await late.next("data")
                assert data["cells"] == {"id": [first, second, third],
                                         "label": ["M. Madeleine", "Javert", None],
                                         "group": ["1", None, "2"]}
                assert data["links"] == {"source": [first], "target": [second]}
                # The data comes after hello and the first frame.
                kinds = [m["type"] for m in late.messages]
                assert kinds.index("hello") < kinds.index("frame") < kinds.index("data")

            await a.send({"type": "remove", "ids": [second]})
            await a.event("removed", by=a.id)
            async with Client(room) as later:
                data = await later.next("data")
                assert data["links"] == {"source": [], "target": []}
                assert data["cells"]["id"] == [first, third]
    run(go())


def test_a_room_without_data_sends_no_data_message(data_server):
    async def go():
        room = data_server.room("data-none")
        async with Client(room) as a:
            await a.send({"type": "add", "count": 3})
            await a.event("added", by=a.id)
            async with Client(room) as late:
                await late.next("frame")
                await late.quiet(0.4)
                assert late.since(0, "data") == []
    run(go())


def test_bad_cells_updates_and_links_are_refused_and_change_nothing(data_server):
    async def go():
        async with Client(data_server.room("data-bad")) as a:
            ids = (await add_cells(a, [{"label": "a"}, {"label": "b"}, {}]))["ids"]
            one, two, three = ids
            await a.send({"type": "link", "links": [{"source": one, "target": two}]})
            await a.event("linked", by=a.id)
            cases = [
                ({"type": "add", "cells": [{"label": "x" * 81}]}, "bad_request", "at most 80"),
                ({"type": "add", "cells": [{"label": "tab\there"}]}, "bad_request", "control"),
                ({"type": "add", "cells": [{"label": 5}]}, "bad_request", "must be a string"),
                ({"type": "add", "cells": [{"color": "red"}]}, "bad_request", "#rrggbb"),
                ({"type": "add", "cells": [{"color": "#12345g"}]}, "bad_request", "#rrggbb"),
                ({"type": "add", "cells": [{"radius": 0.5}]}, "bad_request", "radius"),
                ({"type": "add", "cells": [{"radius": 201}]}, "bad_request", "radius"),
                ({"type": "add", "cells": [{"group": "g" * 41}]}, "bad_request", "at most 40"),
                ({"type": "add", "cells": [{"x": 3}]}, "bad_request", "both x and y"),
                ({"type": "add", "cells": [{"x": 3, "y": 1e10}]}, "bad_request", "1e9"),
                ({"type": "add", "cells": [{"size": 3}]}, "bad_request", "unknown field \"size\" in add.cells[0]"),
                ({"type": "add", "cells": [{}, 7]}, "bad_request", "add.cells[1] must be an object"),
                ({"type": "add", "cells": []}, "bad_request", "empty"),
                ({"type": "add", "cells": {}}, "bad_request", "array"),
                ({"type": "add", "cells": [{}], "count": 2}, "bad_request", "not both"),
                ({"type": "add", "cells": [{}] * 9}, "limit", "maxAddPerMessage"),
                ({"type": "update", "cells": [{"id": one, "label": "ok"}, {"id": 999}]}, "bad_request", "unknown cell id 999"),
                ({"type": "update", "cells": [{"label": "no id"}]}, "bad_request", "needs id"),
                ({"type": "update", "cells": [{"id": "1"}]}, "bad_request", "positive integer"),
                ({"type": "update", "cells": [{"id": one, "color": "#fff"}]}, "bad_request", "#rrggbb"),
                ({"type": "update", "cells": [{"id": one, "radius": -1}]}, "bad_request", "radius"),
                ({"type": "update"}, "bad_request", "needs cells"),
                ({"type": "link", "links": [{"source": one, "target": one}]}, "bad_request", "itself"),
                ({"type": "link", "links": [{"source": two, "target": one}]}, "bad_request", "already linked"),
                ({"type": "link", "links": [{"source": two, "target": three}, {"source": three, "target": two}]},
                 "bad_request", "already linked"),
                ({"type": "link", "links": [{"source": one, "target": 999}]}, "bad_request", "unknown cell id 999"),
                ({"type": "link", "links": [{"source": one, "target": three, "distance": -1}]}, "bad_request", "distance"),
                ({"type": "link", "links": [{"source": one, "target": three, "strength": 2}]}, "bad_request", "strength"),
                ({"type": "link", "links": [{"source": one}]}, "bad_request", "needs target"),
                ({"type": "link", "links": [{"source": one, "target": three, "weight": 1}]}, "bad_request", "unknown field"),
                ({"type": "link", "links": []}, "bad_request", "empty"),
                ({"type": "unlink", "links": [{"source": one, "target": three}]}, "bad_request", "no link"),
                ({"type": "unlink", "links": [{"source": one, "target": two, "distance": 3}]}, "bad_request", "unknown field"),
            ]
            for message, code, says in cases:
                await refused(a, message, code, says)
            async with Client(data_server.room("data-bad")) as late:
                data = await late.next("data")
                assert data["cells"] == {"id": [one, two], "label": ["a", "b"]}
                assert data["links"]["source"] == [one]
    run(go())


def test_a_room_holds_at_most_max_links(data_server):
    async def go():
        async with Client(data_server.room("data-max")) as a:
            assert a.hello["limits"]["maxLinks"] == 6
            ids = (await add_cells(a, [{}] * 8))["ids"]
            chain = [{"source": ids[k], "target": ids[k + 1]} for k in range(7)]
            await refused(a, {"type": "link", "links": chain}, "limit", "maxLinks (6)")
            await a.send({"type": "link", "links": chain[:6]})
            await a.event("linked", by=a.id)
            await refused(a, {"type": "link", "links": chain[6:]}, "limit", "maxLinks")
    run(go())


def test_labels_radii_and_links_survive_a_restart(tmp_path):
    state = tmp_path / "state"
    with RunningServer("--state-dir", str(state)) as server:
        async def build():
            async with Client(server.room("kept")) as a:
                ids = (await add_cells(a, [{"label": "Cosette", "radius": 9, "group": "2", "color": "#00aa00"}, {"label": "Marius"}]))["ids"]
                await a.send({"type": "link", "links": [{"source": ids[0], "target": ids[1], "distance": 50}]})
                await a.event("linked", by=a.id)
                return ids
        ids = run(build())
        server.shutdown()
        saved = json.loads((state / "kept.json").read_text())
        assert saved["version"] == 6
        assert saved["layout"]["links"] == [{"distance": 50, "source": ids[0], "target": ids[1]}]
        first = saved["layout"]["cells"][0]
        assert list(first) == sorted(first) and first["label"] == "Cosette" and first["radius"] == 9
        server.start()

        async def check():
            async with Client(server.room("kept")) as late:
                data = await late.next("data")
                assert data["cells"] == {"id": ids, "label": ["Cosette", "Marius"], "radius": [9, None],
                                         "color": ["#00aa00", None], "group": ["2", None]}
                assert data["links"] == {"source": [ids[0]], "target": [ids[1]], "distance": [50]}
        run(check())


def test_keys_and_attrs_travel_with_cells_and_links_and_bad_ones_are_refused(data_server):
    async def go():
        room = data_server.room("data-attrs")
        async with Client(room) as a, Client(room) as b:
            hello = next(m for m in a.messages if m["type"] == "hello")
            assert hello["limits"]["maxAttrBytes"] == 1024
            added = await add_cells(a, [{"key": 0, "attrs": {"club": "Mr. Hi", "deep": {"a": [1, 2.5, None, True]}}},
                                        {"key": "Napoleon", "label": "N"}])
            first, second = added["ids"]
            assert added["cells"] == [{"id": first, "key": 0, "attrs": {"club": "Mr. Hi", "deep": {"a": [1, 2.5, None, True]}}},
                                      {"id": second, "label": "N", "key": "Napoleon"}]
            await a.send({"type": "link", "links": [{"source": first, "target": second, "attrs": {"weight": 4}}]})
            linked = await b.event("linked", by=a.id)
            assert linked["links"] == [{"source": first, "target": second, "attrs": {"weight": 4}}]
            async with Client(room) as late:
                data = await late.next("data")
                assert data["cells"]["key"] == [0, "Napoleon"]
                assert data["cells"]["attrs"] == [{"club": "Mr. Hi", "deep": {"a": [1, 2.5, None, True]}}, None]
                assert data["links"]["attrs"] == [{"weight": 4}]
            # update sets and resets them ({} is no attrs, as null).
            await b.send({"type": "update", "cells": [{"id": first, "key": "zero", "attrs": {}}, {"id": second, "key": None}]})
            updated = await a.event("updated", by=b.id)
            assert updated["cells"] == [{"id": first, "key": "zero"}, {"id": second, "label": "N"}]

            too_big = {"blob": "x" * 1100}
            for message, code, says in [
                ({"type": "add", "cells": [{"key": True}]}, "bad_request", "key must be a string or a number"),
                ({"type": "add", "cells": [{"key": "k" * 201}]}, "bad_request", "at most 200 bytes"),
                ({"type": "add", "cells": [{"attrs": [1]}]}, "bad_request", "must be an object"),
                ({"type": "add", "cells": [{"attrs": "x"}]}, "bad_request", "must be an object"),
                ({"type": "add", "cells": [{"attrs": too_big}]}, "limit", "maxAttrBytes (1024)"),
                ({"type": "add", "cells": [{"attrs": {"a": [[[[[[[[["deep"]]]]]]]]]}}]}, "bad_request", "nested at most 8"),
                ({"type": "link", "links": [{"source": first, "target": second, "attrs": too_big}]}, "limit", "maxAttrBytes"),
                ({"type": "update", "cells": [{"id": first, "attrs": too_big}]}, "limit", "maxAttrBytes"),
                ({"type": "update", "cells": [{"id": first, "key": {"a": 1}}]}, "bad_request", "key must be"),
            ]:
                await refused(a, message, code, says)
            # The link's attrs go with the link (unlink) and with its cells (remove).
            await a.send({"type": "unlink", "links": [{"source": second, "target": first}]})
            await a.event("unlinked", by=a.id)
            await a.send({"type": "link", "links": [{"source": first, "target": second}]})
            await a.event("linked", by=a.id)
            async with Client(room) as late:
                data = await late.next("data")
                assert "attrs" not in data["links"]
    run(go())


def test_max_attr_bytes_is_a_flag_announced_in_hello():
    bad = RunningServer("--max-attr-bytes", "1", expect_failure=True)
    assert bad.wait() == 64 and "--max-attr-bytes" in bad.log, bad.log
    with RunningServer("--max-attr-bytes", "64") as server:
        async def go():
            async with Client(server.room("small")) as a:
                hello = next(m for m in a.messages if m["type"] == "hello")
                assert hello["limits"]["maxAttrBytes"] == 64
                fits = {"a": "x" * 56}  # {"a":"…"} is 64 bytes
                added = await add_cells(a, [{"attrs": fits}])
                assert added["cells"][0]["attrs"] == fits
                await refused(a, {"type": "add", "cells": [{"attrs": {"a": "x" * 57}}]}, "limit", "is 65 bytes encoded, over maxAttrBytes (64)")
        run(go())
