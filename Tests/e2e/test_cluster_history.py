"""A room's history in a cluster (docs/cluster.md, "History"): its owner writes it to a Redis
stream, so a relay's client scrubs it as the owner's do, and a server taking the room over after
its owner was killed goes on from it: a client there scrubs back to before the owner died and
restores that moment. Each test starts a real redis-server and three servers (a, b, c)."""
import asyncio
import time

from client import Client, run
from room_tools import history, moment, now_ms
from test_cluster import join_in_order, leave, owner_of



async def labelled(client, labels, seen_by):
    await client.send({"type": "add", "cells": [{"label": label} for label in labels]})
    return (await seen_by.event("added", by=client.id))["ids"]


def links_of(message):
    return sorted(zip(message["links"]["source"], message["links"]["target"]))


def test_a_relays_client_scrubs_the_owners_history_and_restores_through_it(cluster, redis):
    async def scenario():
        a, b, c = await join_in_order(cluster, "relayed-past")
        try:
            assert owner_of(cluster[1], "relayed-past") == "a"
            start = now_ms()
            await asyncio.sleep(0.05)
            ids = await labelled(a, ["Valjean", "Javert", "Fantine"], b)
            await a.send({"type": "link", "links": [{"source": ids[0], "target": ids[1]},
                                                    {"source": ids[1], "target": ids[2]}]})
            await b.event("linked", by=a.id)
            await a.send({"type": "pin", "id": ids[2], "x": 10, "y": -20})
            await b.event("pinned", by=a.id)
            await asyncio.sleep(0.3)
            whole = now_ms()
            await asyncio.sleep(0.3)
            more = await labelled(c, ["Cosette", "Marius"], b)
            await asyncio.sleep(0.1)
            five = now_ms()
            await asyncio.sleep(0.1)
            await a.send({"type": "clear"})
            cleared = await b.event("cleared", by=a.id)

            # The relay's client lists what the owner's client lists (the stream is read at
            # each request: the clear just made is there once the owner's write of it reached
            # Redis, which may come a moment after b heard the event).
            owned = await history(a)
            for _ in range(50):
                relayed = await history(b)
                if any(e["seq"] == cleared["seq"] for e in relayed["events"]):
                    break
                await asyncio.sleep(0.1)
            def upto_clear(listing):
                return [e for e in listing["events"] if e["seq"] <= cleared["seq"]]
            assert upto_clear(relayed) == upto_clear(owned), (relayed["events"], owned["events"])
            kinds = [(e["kind"], e.get("n")) for e in upto_clear(relayed) if e["kind"] not in ("woke", "settled")]
            assert kinds == [("added", 3), ("linked", 2), ("pinned", None), ("added", 2), ("cleared", 5)], kinds
            assert relayed["from"] <= start and relayed["more"] is False
            page = await history(c, before=cleared["seq"], count=2)
            assert [e["seq"] for e in page["events"]] == [e["seq"] for e in upto_clear(relayed)][-3:-1] and page["more"]

            # Three moments, from both relays, as the owner's client sees them.
            for client in (b, c):
                empty = await moment(client, start)
                assert empty["ids"] == [] and empty["cells"]["id"] == [], empty
                then = await moment(client, whole)
                assert then["ids"] == ids and then["cells"]["label"] == ["Valjean", "Javert", "Fantine"]
                assert links_of(then) == [(ids[0], ids[1]), (ids[1], ids[2])]
                assert then["pinned"] == [ids[2]] and then["owners"] == [[a.id, ids[0], ids[-1]]]
                at = then["ids"].index(ids[2])
                assert (then["x"][at], then["y"][at]) == (10, -20)
                again = await moment(client, whole, have=then["dataSeq"])
                assert "cells" not in again and again["ids"] == ids
                fifth = await moment(client, five)
                assert fifth["ids"] == ids + more and fifth["cells"]["label"][3:] == ["Cosette", "Marius"]
                assert (await moment(client, now_ms()))["ids"] == []
                mine = await moment(a, five)
                assert {k: v for k, v in fifth.items() if k != "at"} == {k: v for k, v in mine.items() if k != "at"}

            # Scrubbing: many requests, only the last is sure to be answered, and it is.
            for offset in range(20):
                await b.send({"type": "moment", "at": start + offset, "ref": f"s{offset}"})
            await b.send({"type": "moment", "at": five, "ref": "last"})
            last = await b.next("moment", ref="last")
            assert last["ids"] == ids + more

            # A relay's editor restores: the owner restores from its own history.
            await c.send({"type": "restore", "at": whole})
            restored = await a.event("restored", by=c.id)
            assert restored["moment"] == whole and restored["ids"] == ids
            assert (await b.event("restored", by=c.id))["seq"] == restored["seq"]
            frame = await b.frame_with(ids)
            assert sorted(frame["ids"]) == sorted(ids)
            # The restore reaches the relays' history too: the owner writes its history to
            # Redis on a connection of its own, so the stream may trail the live event a little.
            for _ in range(50):
                listing = await history(b)
                if any(e["kind"] == "restored" for e in listing["events"]):
                    break
                await asyncio.sleep(0.1)
            assert [e["seq"] for e in listing["events"] if e["kind"] == "restored"] == [restored["seq"]]
            # The stream gone under it (by hand here; a trim past what it read does the same):
            # the relay reads it again from its start rather than answer from its stale copy.
            redis.call("DEL", "fl:{relayed-past}:history")
            await b.send({"type": "moment", "at": whole, "ref": "gone"})
            assert (await b.error("unavailable"))["ref"] == "gone"
        finally:
            await leave([a, b, c])
    run(scenario())


def test_after_the_owner_is_killed_the_new_owner_scrubs_back_and_restores_what_was_cleared(cluster, redis):
    async def scenario():
        a, b, c = await join_in_order(cluster, "survives")
        try:
            await a.send({"type": "params", "charge": 22})
            await b.event("params", by=a.id)
            ids = await labelled(a, ["Cosette", "Marius", "Eponine", "Gavroche"], b)
            await a.send({"type": "link", "links": [{"source": ids[0], "target": ids[1]},
                                                    {"source": ids[2], "target": ids[3], "distance": 50}]})
            await b.event("linked", by=a.id)
            await asyncio.sleep(0.5)
            before = now_ms()
            await asyncio.sleep(0.3)
            await a.send({"type": "clear"})
            cleared = await b.event("cleared", by=a.id)
            await asyncio.sleep(1.5)  # the state in Redis is at most 0.75 s old; the history as made
            assert owner_of(cluster[1], "survives") == "a"
            assert int(redis.command("XLEN", "fl:{survives}:history")[1:]) >= 4
            cluster[0].stop()  # kill -9
            failover = await b.event("failover", timeout=8)
            assert failover["previous"] == "a" and failover["seq"] > cleared["seq"]
            assert (await c.event("failover"))["seq"] == failover["seq"]
            owner_client, relay_client = (b, c) if failover["node"] == "b" else (c, b)
            await asyncio.sleep(0.3)

            # The new owner's history holds the dead owner's: the clear, the moment before it.
            listing = await history(owner_client)
            kinds = [e["kind"] for e in listing["events"] if e["kind"] not in ("woke", "settled")]
            assert kinds[:4] == ["params", "added", "linked", "cleared"], kinds
            # and the failover itself, told in the room's turn like any event
            assert [e["seq"] for e in listing["events"] if e["kind"] == "failover"] == [failover["seq"]], kinds
            for client in (owner_client, relay_client):
                then = await moment(client, before)
                assert then["ids"] == ids and then["cells"]["label"] == ["Cosette", "Marius", "Eponine", "Gavroche"]
                assert links_of(then) == [(ids[0], ids[1]), (ids[2], ids[3])]
                assert then["params"]["charge"] == 22
                assert (await moment(client, now_ms()))["ids"] == []

            # Restored on the new owner: every cell, id and link back, for everyone.
            await owner_client.send({"type": "restore", "at": before})
            restored = await relay_client.event("restored", by=owner_client.id)
            assert restored["ids"] == ids and restored["seq"] > failover["seq"]
            assert restored["data"]["cells"]["label"] == ["Cosette", "Marius", "Eponine", "Gavroche"]
            assert links_of(restored["data"]) == [(ids[0], ids[1]), (ids[2], ids[3])]
            assert restored["data"]["links"]["distance"] == [None, 50]
            for client in (owner_client, relay_client):
                frame = await client.frame_with(ids)
                assert sorted(frame["ids"]) == sorted(ids)
            await owner_client.send({"type": "add", "count": 1})
            newer = await relay_client.event("added", by=owner_client.id, timeout=3)
            assert newer["ids"][0] > max(ids), "a new cell never takes an id handed out before"
            # The listing of rooms and the stats are as before: the room, its cells, its server.
            deadline = time.monotonic() + 4
            while time.monotonic() < deadline:
                listed = {e["name"]: e for e in cluster[2].rooms()}
                if listed.get("survives", {}).get("cells") == len(ids) + 1:
                    break
                await asyncio.sleep(0.2)
            assert listed["survives"]["cells"] == len(ids) + 1 and listed["survives"]["node"] == failover["node"]
            stats = cluster[1].stats()
            assert stats["node"] == "b" and "history" not in stats
        finally:
            await leave([b, c])
    run(scenario())


def test_a_deleted_rooms_history_stream_goes_and_a_new_room_of_its_name_starts_empty(cluster, redis):
    async def scenario():
        owner = await Client(cluster[0].room("brief-past")).__aenter__()
        await owner.send({"type": "add", "count": 3})
        await owner.event("added", by=owner.id)
        await asyncio.sleep(0.5)
        assert int(redis.command("XLEN", "fl:{brief-past}:history")[1:]) >= 2
        await owner.send({"type": "delete"})
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and redis.command("EXISTS", "fl:{brief-past}:history") != ":0":
            await asyncio.sleep(0.2)
        assert redis.command("EXISTS", "fl:{brief-past}:history") == ":0"
        async with Client(cluster[1].room("brief-past")) as fresh:
            assert fresh.hello["role"] == "owner"
            listing = await history(fresh)
            assert [e for e in listing["events"] if e["kind"] in ("added", "deleted")] == [], listing
    run(scenario())
