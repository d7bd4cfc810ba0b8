"""Rooms (issue 11): each room is a layout of its own. Nothing done in one room (cells,
parameters, pins, clear, joins) reaches another's events, frames, hello or stats; /ws and
/ws/main are one room; hello names the room; client ids are unique across the server."""
from client import Client, run
from room_tools import add, look, set_params
from server import wait_until_async

LAYOUT_KINDS = {"added", "removed", "cleared", "params", "pinned", "unpinned"}


def foreign(events, ids):
    """The events caused by, or about, one of the clients `ids`."""
    return [event for event in events if event.get("by") in ids or event.get("client") in ids]


def test_hello_names_the_room_and_counts_its_clients(server):
    async def scenario():
        async with Client(server.ws) as plain, Client(server.room("main")) as named, \
                Client(server.room("demo")) as demo, Client(server.room("demo-2_x")) as other:
            assert plain.hello["room"] == "main" and named.hello["room"] == "main"
            assert demo.hello["room"] == "demo" and other.hello["room"] == "demo-2_x"
            assert plain.hello["clients"] == 1 and named.hello["clients"] == 2
            assert demo.hello["clients"] == 1 and other.hello["clients"] == 1
            async with Client(server.room("demo")) as second:
                assert second.hello["clients"] == 2
                joined = await demo.event("joined", client=second.id)
                assert joined["clients"] == 2
            left = await demo.event("left", client=second.id)
            assert left["clients"] == 1
            # /ws/main's client counts in main's figures, demo's do not
            assert await wait_until_async(lambda: (server.stats()["clients"], server.stats()["totalClients"]) == (2, 4)), server.stats()
    run(scenario())


def test_ws_and_ws_main_are_one_room(server):
    async def scenario():
        async with Client(server.ws) as plain, Client(server.room("main")) as named:
            await named.event("joined", client=named.id)
            ids = await add(plain, 3)
            added = await named.event("added", by=plain.id)
            assert added["ids"] == ids
            await named.frame_with(ids)
            await set_params(named, charge=21)
            event = await plain.event("params", by=named.id)
            assert event["params"]["charge"] == 21
        hello, frame = await look(server.ws)
        assert hello["params"]["charge"] == 21 and frame["ids"] == ids
    run(scenario())


def test_each_room_gets_its_own_events(server):
    async def scenario():
        async with Client(server.room("one")) as one, Client(server.room("two")) as two:
            # both rooms' first event (seq 1) is their own client's `joined`
            assert (await one.event("joined", timeout=3))["client"] == one.id
            assert (await two.event("joined", timeout=3))["client"] == two.id, two.messages
            mine = await add(one, 2)
            await two.send({"type": "add", "count": 3})
            added = await two.event("added", timeout=3)
            assert added["by"] == two.id and len(added["ids"]) == 3, (mine, added)
    run(scenario())


def test_nothing_done_in_one_room_reaches_another(server):
    async def scenario():
        async with Client(server.room("alpha")) as a1, Client(server.room("beta")) as b, Client(server.ws) as m:
            for client in (a1, b, m):
                await client.next("frame")
                await client.event("joined", client=client.id)
            b_start, m_start = len(b.messages), len(m.messages)
            async with Client(server.room("alpha")) as a2:
                await a1.event("joined", client=a2.id)
                await set_params(a1, charge=17, threshold=0)  # alpha keeps stepping: frames flow there
                ids = await add(a1, 5)
                await a1.send({"type": "pin", "id": ids[0], "x": 30, "y": -30})
                await a1.event("pinned", by=a1.id)
                await a1.send({"type": "remove", "ids": [ids[-1]]})
                await a1.event("removed", by=a1.id)
                await a2.frame_with(ids[:-1])
                tick = (await a2.next("frame"))["tick"]
                await a2.find(lambda m: m.get("type") == "frame" and m["tick"] >= tick + 5)
            await a1.event("left", client=a2.id)
            alpha = {a1.id, a2.id}
            # Other rooms' stats carry the server-wide totals, so once they count alpha's cells,
            # whatever alpha did has happened.
            b_stats = await b.find(lambda m: m.get("type") == "stats" and m.get("totalCells") == 4 and m.get("totalClients") == 3)
            m_stats = await m.find(lambda m: m.get("type") == "stats" and m.get("totalCells") == 4 and m.get("totalClients") == 3)
            a_stats = await a1.find(lambda m: m.get("type") == "stats" and m.get("cells") == 4 and m.get("clients") == 1)
            assert b_stats["room"] == "beta" and b_stats["cells"] == 0 and b_stats["clients"] == 1, b_stats
            assert b_stats["tick"] == b.hello["tick"], "beta stepped while alpha did"
            assert m_stats["room"] == "main" and m_stats["cells"] == 0 and m_stats["clients"] == 1, m_stats
            assert a_stats["room"] == "alpha" and a_stats["clients"] == 1, a_stats
            for stats in (a_stats, b_stats, m_stats):
                assert stats["rooms"] == 3 and "connections" in stats, stats
            for client, start in ((b, b_start), (m, m_start)):
                assert not client.since(start, "event"), client.since(start, "event")
                assert not client.since(start, "frame"), "frames of another room"
            # A fresh client of beta or main learns nothing of alpha.
            for url, first in ((server.room("beta"), b), (server.ws, m)):
                hello, frame = await look(url)
                assert hello["params"] == first.hello["params"] and hello["pinned"] == []
                assert frame["ids"] == [] and frame["xy"] == []
                assert not foreign(hello["events"], alpha), hello["events"]
                assert not [e for e in hello["events"] if e["kind"] in LAYOUT_KINDS], hello["events"]
            hello, frame = await look(server.room("alpha"))
            assert hello["params"]["charge"] == 17 and hello["pinned"] == [ids[0]] and frame["ids"] == ids[:-1]
            # Beta's own cells; alpha then clears: neither sees the other's.
            a_start = len(a1.messages)
            mine = await add(b, 3)
            await b.frame_with(mine)
            await a1.send({"type": "clear"})
            cleared = await a1.event("cleared", by=a1.id)
            assert sorted(cleared["ids"]) == sorted(ids[:-1]), "the clear removed only alpha's cells"
            after = a1.since(a_start, "event")
            assert [e["kind"] for e in after if e["kind"] in LAYOUT_KINDS] == ["cleared"], after
            assert not foreign(after, {b.id, m.id}), after
            hello, frame = await look(server.room("beta"))
            assert frame["ids"] == mine
            assert not b.since(b_start, "event", kind="cleared")
            async with Client(server.room("alpha")) as late:
                # A joiner's first frame may still be the one before the clear (it joined
                # within the turn that cleared): the room's next frame is empty.
                frame = await late.next("frame", timeout=5, ids=[])
                assert frame["xy"] == []
            # Beta's replay holds beta's events only, numbered on their own.
            await b.send({"type": "replay", "count": 256})
            events = (await b.next("replay"))["events"]
            assert events and not foreign(events, alpha | {m.id}), events
            seqs = [event["seq"] for event in events]
            assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), f"beta's seq numbers have gaps: {seqs}"
            # main's /stats figures are main's own
            def main_figures():
                stats = server.stats()
                return stats["cells"], stats["clients"], stats["totalCells"]
            assert await wait_until_async(lambda: main_figures() == (0, 1, 3)), server.stats()
    run(scenario())


def test_client_ids_are_unique_across_rooms(server):
    async def scenario():
        seen = []
        for round_ in range(2):
            clients = [Client(server.room(f"room{n}")) for n in range(4) for _ in range(2)] + [Client(server.ws)]
            for client in clients:
                await client.__aenter__()
            seen += [client.id for client in clients]
            for client in clients:
                await client.__aexit__(None, None, None)
        assert len(seen) == 18 and len(set(seen)) == 18, seen
    run(scenario())
