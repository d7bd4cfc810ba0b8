"""A cluster whose Redis is written by hand (issue 22, item 7): whoever can write to Redis
controls the cluster, but nothing written there may crash a server. Forged summaries, events
and statuses numbered 2^64 - 1 published on a room's channel, a lease with no expiry: every
server stays up, /stats and /rooms answer, the room goes on. And Redis's credentials: a
password from a file or the environment, an ACL user, never the command line."""
import asyncio
import json
import struct
import time

from client import Client, run
from redis_server import RedisError, RunningRedis
from server import RunningServer

MAX_U64 = 2**64 - 1
MAX_INT = 2**63 - 1


def start_cluster(url, nodes="abc", **options):
    return [RunningServer("--redis", url, "--node", node, log_file=True, **options) for node in nodes]


def all_alive(cluster):
    return all(server.process.poll() is None for server in cluster)


def answers(server):
    """/stats and /rooms of `server` both answer."""
    return server.stats(), server.rooms()


def listed(server, room):
    return [entry for entry in server.rooms() if entry["name"] == room]


def wait_for(predicate, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError(f"not within {timeout} s: {what}")


def wire_text(text):
    data = text.encode()
    return struct.pack("<I", len(data)) + data


def events_broadcast(seq, kind="woke", tick=1):
    """`RoomBroadcast.events` with one event (WireWriter's format: little-endian numbers, u32
    lengths)."""
    event = struct.pack("<Q", seq) + wire_text(kind) + b"\x00" + struct.pack("<q", tick) + struct.pack("<q", 5) \
        + wire_text(f',"kind":"{kind}","tick":{tick}}}')
    return b"\x02" + struct.pack("<q", 1) + event


def status_broadcast(status):
    data = json.dumps(status).encode()
    return b"\x03" + struct.pack("<I", len(data)) + data


def test_forged_summaries_crash_no_server_and_are_not_counted(cluster, redis):
    """A summary claiming Int.max clients, scored ten years ahead and with no expiry, crashed
    all three servers within 2 s (the sum of clients overflowed), and again on /stats after a
    restart."""
    async def scenario():
        a = await Client(cluster[0].room("kept")).__aenter__()
        try:
            await a.send({"type": "add", "count": 3})
            await a.event("added", by=a.id)
            forged = {"node": "evil", "clients": MAX_INT, "relayed": MAX_INT, "uptimeSeconds": MAX_INT,
                      "rooms": [{"name": "ghost", "clients": MAX_INT, "cells": MAX_INT, "settled": True, "tick": MAX_INT}]}
            future = int(time.time() * 1000) + 10 * 365 * 86_400_000
            assert redis.call("SET", "fl:node:evil:summary", json.dumps(forged)) == b"OK"
            redis.call("ZADD", "fl:nodes", str(future), "evil")
            # One that expires as a server's does, but out of bounds; and one under a real name.
            forged["node"] = "evil2"
            redis.call("SET", "fl:node:evil2:summary", json.dumps(forged), "PX", "600000")
            redis.call("ZADD", "fl:nodes", str(int(time.time() * 1000)), "evil2")
            redis.call("SET", "fl:node:evil3:summary", json.dumps({**forged, "node": "evil3"}), "PX", "2500")
            redis.call("ZADD", "fl:nodes", str(int(time.time() * 1000)), "evil3")
            await asyncio.sleep(2.5)
            assert all_alive(cluster)
            for server in cluster:
                stats, rooms = answers(server)
                nodes = {node["node"] for node in stats["cluster"]["nodes"]}
                assert nodes == {"a", "b", "c"}, stats["cluster"]
                assert stats["cluster"]["clients"] == 1
                assert [entry["name"] for entry in rooms] == ["kept"], rooms
            # A name scored a minute or more ahead is no server's: it is removed.
            assert redis.call("ZSCORE", "fl:nodes", "evil") is None
            # The room goes on.
            await a.send({"type": "add", "count": 2})
            await a.event("added", by=a.id)
            assert "ignored in Redis" in cluster[0].log
        finally:
            await a.__aexit__(None, None, None)
        # A server restarted meanwhile answers /stats too.
        cluster[1].stop()
        cluster[1].start()
        time.sleep(2.2)
        assert cluster[1].process.poll() is None and answers(cluster[1])
    run(scenario())


def test_a_sequence_number_of_2_64_on_a_rooms_channel_crashes_no_relay(cluster, redis):
    """One PUBLISH of an event or a status numbered 2^64 - 1 crashed every relay of the room
    (EventBus: seq + 1 overflowed)."""
    async def scenario():
        a = await Client(cluster[0].room("numbered")).__aenter__()
        b = await Client(cluster[1].room("numbered")).__aenter__()
        c = await Client(cluster[2].room("numbered")).__aenter__()
        try:
            await b.send({"type": "add", "count": 2})
            before = (await c.event("added", by=b.id))["seq"]
            await asyncio.sleep(1)  # the status is in Redis
            status = json.loads(redis.call("HGET", "fl:{numbered}:mirror", "status"))
            channel = "fl:{numbered}:out"
            for payload in [events_broadcast(MAX_U64), events_broadcast(2**53 + 1), events_broadcast(MAX_U64 - 1),
                            status_broadcast({**status, "lastSeq": MAX_U64}),
                            status_broadcast({**status, "layout": {**status["layout"], "tick": MAX_INT}}),
                            status_broadcast({**status, "clients": MAX_INT})]:
                assert redis.call("PUBLISH", channel, payload) == 2  # the two relays
            await asyncio.sleep(1)
            assert all_alive(cluster)
            for server in cluster:
                answers(server)
            # The room goes on, numbered as before, for every client (none was closed).
            await c.send({"type": "add", "count": 1})
            seqs = {(await client.event("added", by=c.id))["seq"] for client in (a, b, c)}
            assert len(seqs) == 1 and before < seqs.pop() < before + 50
            assert all(client.closed is None for client in (a, b, c))
            assert "dropped what no server wrote" in cluster[1].log + cluster[2].log
        finally:
            for client in (a, b, c):
                await client.__aexit__(None, None, None)
    run(scenario())


def test_a_lease_set_by_hand_with_no_expiry_costs_the_room_a_failover_not_its_life(cluster, redis):
    async def scenario():
        a = await Client(cluster[0].room("leased")).__aenter__()
        b = await Client(cluster[1].room("leased")).__aenter__()
        try:
            await a.send({"type": "add", "count": 4})
            await b.event("added", by=a.id)
            await asyncio.sleep(1.2)  # the state is in Redis
            assert redis.call("SET", "fl:{leased}:lease", "nobody") == b"OK"  # no PX
            # Within the lease period after it was seen, a server steps the room again.
            wait_for(lambda: redis.call("GET", "fl:{leased}:lease") in (b"a", b"b", b"c"), 10, "the lease taken back")
            ttl = redis.call("PTTL", "fl:{leased}:lease")
            assert 0 < ttl <= 3000, ttl
            assert all_alive(cluster)
        finally:
            for client in (a, b):
                await client.__aexit__(None, None, None)
        # The room goes on, with its cells, for whoever joins it anywhere.
        async with Client(cluster[2].room("leased")) as joiner:
            await joiner.send({"type": "add", "count": 1})
            added = await joiner.event("added", by=joiner.id, timeout=10)
            assert len(added["ids"]) == 1
            frame = await joiner.find(lambda m: m.get("type") == "frame" and "ids" in m and len(m["ids"]) == 5, timeout=10)
            assert len(frame["ids"]) == 5
            wait_for(lambda: [entry["node"] for entry in listed(cluster[1], "leased")] in (["a"], ["b"], ["c"]), 3,
                     "the room listed once")
    run(scenario())


def test_rooms_lists_each_room_once_with_the_server_that_steps_it(cluster):
    """A relay's room was listed beside its owner's, as a 0-cell entry naming the relay."""
    async def scenario():
        await asyncio.sleep(1.5)  # every server has reported once
        clients = []
        try:
            # Joined on c first, then on a and b, which relay it.
            for server in (cluster[2], cluster[0], cluster[1]):
                clients.append(await Client(server.room("once")).__aenter__())
            await clients[0].send({"type": "add", "count": 3})
            await clients[1].event("added")
            await asyncio.sleep(0.5)
            owner = listed(cluster[2], "once")
            for _ in range(30):  # over three seconds of summaries, at every server
                for server in cluster:
                    entries = listed(server, "once")
                    assert len(entries) <= 1, entries
                    if entries:
                        assert entries[0]["node"] == owner[0]["node"]
                await asyncio.sleep(0.1)
            for server in cluster:
                entries = listed(server, "once")
                assert len(entries) == 1 and entries[0]["cells"] == 3 and entries[0]["clients"] == 3, entries
        finally:
            for client in clients:
                await client.__aexit__(None, None, None)
    run(scenario())


PASSWORD = "pw-Zq7x!f9"


def shares_a_room(servers):
    async def scenario():
        first = await Client(servers[0].room("secured")).__aenter__()
        second = await Client(servers[1].room("secured")).__aenter__()
        try:
            await second.send({"type": "add", "count": 2})
            await first.event("added", by=second.id)
        finally:
            await first.__aexit__(None, None, None)
            await second.__aexit__(None, None, None)
    run(scenario())


def test_a_redis_with_a_password_takes_it_from_a_file_or_the_environment_never_the_url(tmp_path):
    with RunningRedis(extra=("--requirepass", PASSWORD), auth=(PASSWORD,)) as redis:
        secret = tmp_path / "redis-password"
        secret.write_text(PASSWORD + "\n")
        secret.chmod(0o600)
        servers = [RunningServer("--redis", redis.url, "--node", "a", "--redis-password-file", str(secret), log_file=True),
                   RunningServer("--redis", redis.url, "--node", "b", log_file=True,
                                 env={"FORCELAYOUT_REDIS_PASSWORD": PASSWORD})]
        try:
            shares_a_room(servers)
            assert all(PASSWORD not in server.log for server in servers)
        finally:
            for server in servers:
                server.close()
        none = RunningServer("--redis", redis.url, expect_failure=True)
        assert none.wait() == 2 and "asks for a password" in none.log, none.log
        wrong = RunningServer("--redis", redis.url, expect_failure=True, env={"FORCELAYOUT_REDIS_PASSWORD": "not-it-123"})
        assert wrong.wait() == 2 and "refused the credentials" in wrong.log and "not-it-123" not in wrong.log, wrong.log
        in_url = RunningServer("--redis", f"redis://:{PASSWORD}@127.0.0.1:{redis.port}", expect_failure=True)
        assert in_url.wait() == 64 and "--redis-password-file" in in_url.log and PASSWORD not in in_url.log, in_url.log
        both = RunningServer("--redis", redis.url, "--redis-password-file", str(secret), expect_failure=True,
                             env={"FORCELAYOUT_REDIS_PASSWORD": PASSWORD})
        assert both.wait() == 64 and "twice" in both.log


def test_an_acl_user_limited_to_the_clusters_keys_serves_the_cluster():
    with RunningRedis(extra=("--requirepass", PASSWORD), auth=(PASSWORD,)) as redis:
        assert redis.call("ACL", "SETUSER", "layout", "reset", "on", f">{PASSWORD}-layout", "~fl:*", "&fl:*",
                          "+@all", "-@dangerous") == b"OK"
        url = f"redis://layout@127.0.0.1:{redis.port}"
        servers = start_cluster(url, nodes="ab", env={"FORCELAYOUT_REDIS_PASSWORD": f"{PASSWORD}-layout"})
        try:
            shares_a_room(servers)
            assert all_alive(servers)
            redis.call("ACL", "SETUSER", "other", "on", ">x", "~other:*", "+@all")
        finally:
            for server in servers:
                server.close()
        wrong = RunningServer("--redis", url, expect_failure=True, env={"FORCELAYOUT_REDIS_PASSWORD": PASSWORD})
        assert wrong.wait() == 2 and "refused the credentials (WRONGPASS)" in wrong.log, wrong.log
        # A user that may not touch the cluster's keys: said at once.
        limited = RunningServer("--redis", f"redis://other@127.0.0.1:{redis.port}", expect_failure=True,
                                env={"FORCELAYOUT_REDIS_PASSWORD": "x"})
        assert limited.wait() == 2 and "NOPERM" in limited.log, limited.log
