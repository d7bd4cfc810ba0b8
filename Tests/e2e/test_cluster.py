"""Several servers sharing one Redis (`serve --redis`): rooms stepped by one server and
watched from any, exactly as its own clients see them. Each test starts a real redis-server
on a free loopback port and three servers (nodes a, b, c)."""
import asyncio
import signal
import time

from client import Client, run
from room_tools import hello_params, hello_pinned
from server import RunningServer, free_port
from waiting import wait_until_async


async def join_in_order(cluster, room, protocols=("forcelayout.v1",) * 3):
    """A client on each server, the first on a (which then steps the room)."""
    clients = []
    for server, protocol in zip(cluster, protocols):
        client = Client(server.room(room), subprotocols=(protocol,))
        clients.append(await client.__aenter__())
    return clients


def await_data(client):
    return next(m for m in client.messages if m.get("type") == "data")


async def leave(clients):
    for client in clients:
        await client.__aexit__(None, None, None)


def test_an_unreachable_redis_exits_2_and_a_malformed_url_is_a_usage_error():
    unreachable = RunningServer("--redis", f"redis://127.0.0.1:{free_port()}", expect_failure=True)
    assert unreachable.wait() == 2
    assert "cannot reach Redis" in unreachable.log and "Connection refused" in unreachable.log
    for url, why in [("http://127.0.0.1:6379", "only redis://"), ("redis://127.0.0.1:99999", "port"),
                     ("redis://127.0.0.1:6379/x", "database"), ("redis://", "no host")]:
        malformed = RunningServer("--redis", url, expect_failure=True)
        assert malformed.wait() == 64, url
        assert why in malformed.log and "usage" in malformed.log.lower(), malformed.log
    named = RunningServer("--node", "a", expect_failure=True)
    assert named.wait() == 64 and "--redis" in named.log


def test_clients_on_three_servers_see_the_same_ticks_and_identical_frames(cluster):
    async def scenario():
        a, b, c = await join_in_order(cluster, "same", ("forcelayout.v1", "forcelayout.v2", "forcelayout.v1"))
        a2 = await Client(cluster[0].room("same"), subprotocols=("forcelayout.v2",)).__aenter__()
        try:
            assert len({a.id, b.id, c.id, a2.id}) == 4 and a.id.endswith("@a") and b.id.endswith("@b")
            await c.send({"type": "params", "threshold": 0})
            await c.send({"type": "add", "count": 30})
            await a.event("added", by=c.id)
            # Every frame a client got, by tick, as the bytes that came.
            def frames(client):
                seen = {}
                for raw, message in zip(client.raw, client.messages):
                    if message.get("type") == "frame" and "ids" not in message:
                        seen[message["tick"]] = raw
                return seen
            # Ten frames of the same ticks on both sides, however long a busy machine takes
            # to deliver them (about half a second at 20 frames a second).
            await wait_until_async(lambda: len(set(frames(a)) & set(frames(c))) >= 10
                                   and len(set(frames(a2)) & set(frames(b))) >= 10, timeout=10)
            text_a, text_c = frames(a), frames(c)
            binary_a, binary_b = frames(a2), frames(b)
            common = set(text_a) & set(text_c)
            assert len(common) >= 10, (sorted(text_a)[-5:], sorted(text_c)[-5:])
            assert all(text_a[tick] == text_c[tick] for tick in common)
            common = set(binary_a) & set(binary_b)
            assert len(common) >= 10
            assert all(binary_a[tick] == binary_b[tick] for tick in common)
            # The relays got the frames of the same ticks as the owner's clients, not a subset.
            assert len(set(text_a) - set(text_c)) <= 2
        finally:
            await leave([a, b, c, a2])
    run(scenario())


def test_changes_made_on_one_server_reach_the_others_within_500_ms(cluster):
    async def scenario():
        a, b, c = await join_in_order(cluster, "changes")
        try:
            async def timed(sender, message, kind, check=None):
                started = time.monotonic()
                await sender.send(message)
                seqs = set()
                for other in (a, b, c):
                    event = await other.event(kind, by=sender.id, timeout=5)
                    if check:
                        check(event)
                    assert time.monotonic() - started < 0.5, f"{kind} took {time.monotonic() - started:.3f} s"
                    seqs.add(event["seq"])
                # The room's own sequence number, the same on every server.
                assert len(seqs) == 1, seqs
                return event
            added = await timed(b, {"type": "add", "count": 5}, "added")
            ids = added["ids"]
            await timed(c, {"type": "params", "charge": 25}, "params",
                        lambda event: event["params"]["charge"] == 25)
            await timed(b, {"type": "pin", "id": ids[0], "x": 10, "y": 20}, "pinned",
                        lambda event: event["id"] == ids[0])
            await timed(a, {"type": "unpin", "id": ids[0]}, "unpinned")
            await timed(c, {"type": "clear"}, "cleared")
        finally:
            await leave([a, b, c])
    run(scenario())


def test_a_refused_message_on_a_relay_gets_its_error_with_its_ref(cluster):
    async def scenario():
        a, b, _ = await join_in_order(cluster, "refused")
        try:
            await b.send({"type": "pin", "id": 424242, "x": 0, "y": 0, "ref": "pin-1"})
            error = await b.error()
            assert error["ref"] == "pin-1" and error["code"] == "bad_request", error
            await b.send({"type": "nonsense", "ref": "n-1"})
            assert (await b.error("unknown_type"))["ref"] == "n-1"
        finally:
            await leave([a, b, _])
    run(scenario())


def test_a_late_joiner_on_a_relay_gets_hello_pins_replay_data_and_a_full_frame(cluster, redis):
    async def scenario():
        a = await Client(cluster[0].room("late")).__aenter__()
        try:
            await a.send({"type": "params", "charge": 30, "tickRate": 10})
            await a.event("params")
            await a.send({"type": "add", "cells": [{"label": "Valjean", "group": "1"}, {"label": "Javert"}, {}]})
            ids = (await a.event("added", by=a.id))["ids"]
            await a.send({"type": "link", "links": [{"source": ids[0], "target": ids[1]}]})
            await a.event("linked")
            await a.send({"type": "pin", "id": ids[2], "x": 5, "y": 5})
            await a.event("pinned")
            # The owner's clients hear an event before it is in Redis, where a relay that starts
            # to mirror the room reads the room's past (docs/cluster.md, "A room's life").
            assert await wait_until_async(
                lambda: b'"kind":"pinned"' in b"".join(redis.call("LRANGE", "fl:{late}:events", "0", "-1")), timeout=5)
            late = await Client(cluster[2].room("late")).__aenter__()
            try:
                # Counted before the joiner on the owner below (its own `joined` may come first).
                joined = await a.event("joined", by=late.id)
                assert joined["clients"] == 2, joined
                hello = late.hello
                params = hello_params(hello)
                assert params["charge"] == 30 and params["tickRate"] == 10
                assert hello_pinned(hello) == {ids[2]}
                kinds = [event["kind"] for event in hello["events"]]
                assert "added" in kinds and "linked" in kinds and "pinned" in kinds
                frame = await late.next("frame")
                assert set(frame["ids"]) == set(ids)
                data = await late.next("data", timeout=5)
                assert data["cells"]["label"][:2] == ["Valjean", "Javert"]
                assert data["links"]["source"] == [ids[0]]
                # What a joiner on the owner gets, byte for byte.
                async with Client(cluster[0].room("late")) as local:
                    await local.next("data")
                    assert local.raw[local.messages.index(await_data(local))] == late.raw[late.messages.index(data)]
                order = [m["type"] for m in late.messages]
                assert order.index("hello") < order.index("frame") < order.index("data")
            finally:
                await late.__aexit__(None, None, None)
            left = await a.event("left", by=late.id)
            assert left["clients"] == 1, left
        finally:
            await a.__aexit__(None, None, None)
    run(scenario())


def test_killing_the_owner_moves_the_room_to_another_server_within_5_s_with_its_cells(cluster):
    async def scenario():
        a, b, c = await join_in_order(cluster, "failover")
        try:
            await a.send({"type": "params", "threshold": 0, "charge": 22})
            await a.send({"type": "add", "cells": [{"label": "Cosette", "key": 0, "attrs": {"club": "Mr. Hi"}},
                                                   {"label": "Marius", "group": "2"}, {}]})
            ids = (await b.event("added", by=a.id))["ids"]
            await a.send({"type": "link", "links": [{"source": ids[0], "target": ids[1], "attrs": {"weight": 4}}]})
            await b.event("linked", by=a.id)
            await b.send({"type": "pin", "id": ids[2], "x": 1, "y": 2})
            await c.event("pinned")
            await asyncio.sleep(1.5)  # the state in Redis is at most 0.75 s old
            assert owner_of(cluster[1], "failover") == "a"
            seq_before = max(m["seq"] for m in b.messages if m.get("type") == "event")
            tick_before = max(m["tick"] for m in b.messages if m.get("type") == "frame")
            cluster[0].stop()  # kill -9
            killed = time.monotonic()
            failover = await b.event("failover", timeout=8)
            took = time.monotonic() - killed
            assert took < 5, f"the room went on elsewhere after {took:.2f} s"
            assert failover["previous"] == "a" and failover["node"] in ("b", "c")
            assert failover["pinned"] == [ids[2]] and failover["seq"] > seq_before
            # The parameters of the state it went on from, whole, as a `params` event has them.
            assert failover["params"]["charge"] == 22 and failover["params"]["threshold"] == 0
            assert set(failover["params"]) == set(b.hello["params"])
            assert (await c.event("failover"))["seq"] == failover["seq"]
            left = [m for m in b.messages if m.get("kind") == "left" and m.get("by") == a.id]
            assert left, "the dead server's client is gone"
            await asyncio.sleep(0.5)
            for client in (b, c):
                # Everyone gets the room's data again, and a frame of the new membership version.
                moved = next(i for i, m in enumerate(client.messages) if m.get("kind") == "failover")
                after = client.messages[moved:]
                data = [m for m in after if m.get("type") == "data"]
                assert data and data[-1]["cells"]["label"][:2] == ["Cosette", "Marius"]
                # Keys and attributes went through Redis with the rest of the state.
                assert data[-1]["cells"]["key"][:2] == [0, None] and data[-1]["cells"]["attrs"][0] == {"club": "Mr. Hi"}
                assert data[-1]["links"]["attrs"] == [{"weight": 4}]
                frames = [m for m in client.messages if m.get("type") == "frame" and "ids" in m]
                assert sorted(frames[-1]["ids"]) == sorted(ids) and frames[-1]["tick"] >= tick_before
            # The room takes commands again, from either server.
            await c.send({"type": "add", "count": 2})
            assert len((await b.event("added", by=c.id, timeout=3))["ids"]) == 2
        finally:
            await leave([b, c])
    run(scenario())


def test_a_stuck_owner_loses_its_room_and_on_waking_sends_its_clients_to_the_new_one(cluster):
    """SIGSTOP stands for a server that hangs (or is cut off) without dying: its lease runs out,
    a relay takes the room; SIGCONT: it must not step or publish the room again, only hand its
    clients over (1012, and they come back to the room as the new owner steps it)."""
    async def scenario():
        a = await Client(cluster[0].room("stuck")).__aenter__()
        b = await Client(cluster[1].room("stuck")).__aenter__()
        c = await Client(cluster[2].room("stuck")).__aenter__()
        try:
            await a.send({"type": "params", "threshold": 0})
            await a.send({"type": "add", "count": 50})
            await b.event("added", by=a.id)
            await asyncio.sleep(1.5)  # the state in Redis holds the 50
            assert owner_of(cluster[1], "stuck") == "a"
            cluster[0].process.send_signal(signal.SIGSTOP)
            try:
                failover = await b.event("failover", timeout=8)
                assert failover["previous"] == "a" and failover["node"] in ("b", "c")
                await b.send({"type": "add", "count": 10})
                await c.event("added", by=b.id)
                woke = {client: len(client.messages) for client in (b, c)}
            finally:
                cluster[0].process.send_signal(signal.SIGCONT)
            deadline = time.monotonic() + 6
            while a.closed is None and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            assert a.closed and a.closed[0] == 1012, a.closed
            await b.send({"type": "params", "charge": 33})  # the room still moves, and takes commands
            await asyncio.sleep(1.5)
            for client in (b, c):
                # Nothing of a's stale room reached anyone: every frame since has the 60 cells,
                # every event number comes once, in order, and the room stayed where it went.
                frames = [m for m in client.messages[woke[client]:] if m.get("type") == "frame"]
                assert frames and all(len(m["xy"]) == 120 for m in frames), [len(m["xy"]) // 2 for m in frames]
                seqs = [m["seq"] for m in client.messages if m.get("type") == "event"]
                assert seqs == sorted(set(seqs)), seqs
                assert not client.since(woke[client], "event", kind="failover")
                assert client.since(woke[client], "event", kind="params", by=b.id)
                assert client.closed is None
            assert owner_of(cluster[0], "stuck") == failover["node"]
            again = await Client(cluster[0].room("stuck")).__aenter__()
            try:
                frame = await again.next("frame")
                assert len(frame["xy"]) == 120
            finally:
                await leave([again])
        finally:
            await leave([b, c])
    run(scenario())


def test_redis_stopped_and_restarted_serves_every_client_again_with_nothing_lost(cluster, redis):
    async def scenario():
        a, b, _ = await join_in_order(cluster, "outage")
        try:
            await a.send({"type": "params", "threshold": 0})
            await a.send({"type": "add", "count": 6})
            await b.event("added", by=a.id)
            await asyncio.sleep(1)
            redis.stop()
            # The room goes on for its owner's clients; relayed ones are told, and their
            # messages refused, until Redis is back.
            await b.send({"type": "add", "count": 1, "ref": "during"})
            refused = await b.next("error", timeout=5)
            assert refused["code"] == "cluster_unavailable"
            ticks = len(a.since(0, "frame"))
            await a.send({"type": "add", "count": 2})
            during = (await a.event("added", by=a.id))["ids"]
            await asyncio.sleep(1)
            assert len(a.since(0, "frame")) > ticks + 5
            redis.start()
            # The relay's client missed events: it is told to reconnect (1012), and a new
            # connection gets the whole room, with what was added while Redis was away.
            deadline = time.monotonic() + 10
            while b.closed is None and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            assert b.closed and b.closed[0] == 1012, b.closed
            async with Client(cluster[1].room("outage")) as again:
                frame = await again.find(lambda m: m.get("type") == "frame" and len(m.get("ids", [])) == 8, timeout=3)
                assert set(during) <= set(frame["ids"])
                await again.send({"type": "add", "count": 1})
                assert len((await a.event("added", by=again.id, timeout=3))["ids"]) == 1
            assert a.closed is None
        finally:
            await leave([a, _])
    run(scenario())


def owner_of(server, room, timeout=5):
    """The server that steps `room`, as /rooms on `server` says."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for entry in server.rooms():
            if entry["name"] == room:
                return entry["node"]
        time.sleep(0.1)
    raise AssertionError(f"room {room} not listed: {server.rooms()}")


def test_new_rooms_spread_over_the_servers_and_every_server_lists_them_all(cluster):
    async def scenario():
        await asyncio.sleep(1.5)  # every server has said once what it steps
        clients = []
        try:
            for index in range(6):
                client = await Client(cluster[0].room(f"spread-{index}")).__aenter__()
                clients.append(client)
                await client.send({"type": "add", "count": index + 1})
                await client.event("added", by=client.id)
                await asyncio.sleep(1.2)  # the placement sees the room before the next one
            owners = {f"spread-{index}": owner_of(cluster[2], f"spread-{index}") for index in range(6)}
            assert sorted(owners.values()) == ["a", "a", "b", "b", "c", "c"], owners
            expected = {f"spread-{index}": (index + 1, 1, owners[f"spread-{index}"]) for index in range(6)}
            for server in cluster:
                # Each server's view is at most 2 s old.
                deadline = time.monotonic() + 3
                while True:
                    listed = {entry["name"]: (entry["cells"], entry["clients"], entry["node"]) for entry in server.rooms()}
                    if all(listed.get(name) == value for name, value in expected.items()) or time.monotonic() > deadline:
                        break
                    await asyncio.sleep(0.2)
                assert all(listed.get(name) == value for name, value in expected.items()), (listed, expected)
            stats = cluster[1].stats()
            assert stats["node"] == "b"
            nodes = {node["node"]: node for node in stats["cluster"]["nodes"]}
            assert set(nodes) == {"a", "b", "c"}
            assert nodes["a"]["clients"] == 6 and nodes["b"]["clients"] == 0 and nodes["a"]["relayed"] == 4
            assert stats["cluster"]["rooms"] == 6 and stats["cluster"]["clients"] == 6
        finally:
            await leave(clients)
    run(scenario())


def test_export_on_any_server_and_a_room_nobody_has_is_404(cluster):
    import json as jsonlib
    import urllib.error
    import urllib.request

    async def scenario():
        a = await Client(cluster[0].room("exported")).__aenter__()
        try:
            await a.send({"type": "add", "cells": [{"label": "one", "key": 1, "attrs": {"club": "x"}}, {"label": "two", "key": "2"}]})
            await a.event("added", by=a.id)
            await asyncio.sleep(1.2)  # in Redis (at most 0.75 s later)
            for server in cluster:
                with urllib.request.urlopen(f"{server.http}/export/exported.json", timeout=5) as reply:
                    document = jsonlib.load(reply)
                assert sorted(node["label"] for node in document["nodes"]) == ["one", "two"], server.port
                assert sorted((str(n["id"]), n.get("club")) for n in document["nodes"]) == [("1", "x"), ("2", None)], server.port
                assert {type(n["id"]) for n in document["nodes"]} == {int, str}, server.port
            try:
                urllib.request.urlopen(f"{cluster[1].http}/export/nowhere.json", timeout=5)
                raise AssertionError("a room nobody has was exported")
            except urllib.error.HTTPError as error:
                assert error.code == 404
        finally:
            await a.__aexit__(None, None, None)
    run(scenario())


def test_a_second_server_with_a_name_in_use_exits_2_and_a_stopped_ones_name_is_free(cluster, redis):
    time.sleep(1.2)  # every server has reported under its name
    twin = RunningServer("--redis", redis.url, "--node", "b", expect_failure=True)
    assert twin.wait(timeout=15) == 2
    assert "another running server is named b" in twin.log
    cluster[2].shutdown()  # a clean stop gives its name back at once
    started = time.monotonic()
    again = RunningServer("--redis", redis.url, "--node", "c", log_file=True)
    try:
        assert time.monotonic() - started < 3
    finally:
        again.close()
