"""Rooms that belong to someone, on three servers over Redis: a room's creator is its owner
whichever server steps it; relays judge handshakes and connections by the room's access, as the
owner keeps it; a relay never forwards a viewer's change (and an owner refuses a relayed one
that says otherwise); rotations and mode changes made on a relay reach every server; the
access survives a failover; Redis keeps digests only, never a secret."""
import asyncio
import base64
import hashlib
from client import Client, run
from test_access import MESSAGES, RANK, closed_before_hello, export, rooms, set_access, wait_until_closed
from waiting import wait_until_async


def redis_bytes(redis, room):
    """Everything Redis holds of a room, as one byte string."""
    found = b""
    for key in redis.call("KEYS", f"fl:{{{room}}}:*"):
        kind = redis.call("TYPE", key)
        if kind == b"string" or kind == "string":
            found += redis.call("GET", key)
        elif kind in (b"hash", "hash"):
            found += b"".join(redis.call("HGETALL", key))
        elif kind in (b"list", "list"):
            found += b"".join(redis.call("LRANGE", key, "0", "-1"))
    return found


def digest(link):
    """What servers keep of a link: its SHA-256 (in hex in a state file, as bytes in the
    mirror hash's `access`)."""
    return hashlib.sha256(base64.urlsafe_b64decode(link + "==")).digest()


async def access_reached_redis(redis, room, link):
    """Until the room's mirror hash holds `link`'s digest: a relay that starts to mirror the
    room from now on (its first client) reads that access, not an older one."""
    def held():
        access = redis.call("HGET", f"fl:{{{room}}}:mirror", "access")
        return access is not None and digest(link) in access
    assert await wait_until_async(held, timeout=5)


async def rotated(owner, links, kind):
    """The links an owner is sent once `kind` differs from `links` (earlier `role` messages,
    for a change of mode, are passed over)."""
    while True:
        role = await owner.next("role", timeout=5)
        if role["links"][kind] != links[kind]:
            return role["links"]


def test_roles_hold_on_every_server(cluster, redis):
    async def scenario():
        # The creator may be on any server, and the room stepped on another: it is the owner.
        owner = await Client(cluster[1].room("shared")).__aenter__()
        assert owner.hello["role"] == "owner"
        links = owner.hello["links"]
        await owner.send({"type": "add", "count": 5})
        await owner.event("added", by=owner.id)
        editors = [await Client(server.room("shared"), key=links["edit"]).__aenter__() for server in cluster]
        assert [e.hello["role"] for e in editors] == ["editor"] * 3
        await set_access(owner, "view")
        # The owner's own server judges by the new access before the owner hears of it; a relay
        # once the owner's broadcast reached it, which comes before the `access` event on the
        # room's channel: the event reaching every server's editor says every server has it.
        for editor in editors:
            await editor.event("access", by=owner.id, access="view")
        viewers = [await Client(server.room("shared")).__aenter__() for server in cluster]
        assert [v.hello["role"] for v in viewers] == ["viewer"] * 3
        # Every change a viewer sends is refused on its own server, and none reaches the room.
        for viewer in viewers:
            for kind, (message, least) in MESSAGES.items():
                if RANK[least] > RANK["viewer"]:
                    await viewer.send({**message, "ref": kind})
                    assert (await viewer.error("forbidden"))["ref"] == kind
        await asyncio.sleep(0.5)
        assert not [m for m in owner.messages if m.get("type") == "event"
                    and m.get("by") in {v.id for v in viewers} and m["kind"] not in ("joined", "left")]
        # Editors change it from any server; only the owner changes its access.
        for editor in editors:
            await editor.send({"type": "add", "count": 1})
            await owner.event("added", by=editor.id)
            await editor.send({"type": "access", "access": "open", "ref": "no"})
            assert (await editor.error("forbidden"))["ref"] == "no"
        # The owner's change, made through whichever server, turns every viewer into an editor.
        await set_access(owner, "open")
        for viewer in viewers:
            assert (await viewer.next("role"))["role"] == "editor"
        await set_access(owner, "private")
        for viewer in viewers:
            await wait_until_closed(viewer)
            assert viewer.closed == (4403, "room shared is private now")
        # A server that does not step the room judges an export by the room's state in Redis,
        # written right after the change (docs/cluster.md, "Access").
        assert await wait_until_async(lambda: b'"mode":"private"' in (redis.call("GET", "fl:{shared}:state") or b""), timeout=5)
        for server in cluster:
            assert await closed_before_hello(server.room("shared")) == (4404, "room shared not found")
            assert export(server, "shared")[0] == 404
            assert export(server, "shared", key=links["view"])[0] == 200
            # A cluster's /rooms lists what the servers' last summaries (one a second) say: a
            # room made private leaves the list with its owner's next summary, not at once.
            assert await wait_until_async(lambda: "shared" not in rooms(server), timeout=5)
        # A rotation made on a relay ends the old edit link on every server.
        await owner.send({"type": "rotate", "links": ["edit"]})
        fresh = {"links": await rotated(owner, links, "edit")}
        for editor in editors:
            await wait_until_closed(editor)
            assert editor.closed == (4401, "link rotated")
        for server in cluster:
            assert await closed_before_hello(server.room("shared"), key=links["edit"]) == (4404, "room shared not found")
            async with Client(server.room("shared"), key=fresh["links"]["edit"]) as editor:
                assert editor.hello["role"] == "editor"
        # Redis holds digests only (the room's state, as its state file would).
        held = redis_bytes(redis, "shared")
        assert await wait_until_async(lambda: digest(fresh["links"]["view"]).hex().encode() in redis_bytes(redis, "shared"), timeout=5)
        for secret in list(links.values()) + list(fresh["links"].values()):
            assert secret.encode() not in held and base64.urlsafe_b64decode(secret + "==") not in held
        await owner.__aexit__(None, None, None)
        return links, fresh["links"]

    links, fresh = run(scenario())
    for server in cluster:
        assert not any(secret in server.log for secret in list(links.values()) + list(fresh.values()))


def test_the_access_survives_a_failover(cluster, redis):
    async def scenario():
        owner = await Client(cluster[0].room("lasting")).__aenter__()
        links = owner.hello["links"]
        await owner.send({"type": "add", "count": 4})
        await owner.event("added", by=owner.id)
        await set_access(owner, "private")
        await owner.send({"type": "rotate"})
        links = await rotated(owner, links, "edit")
        # Which server steps the room: its lease says.
        holder = redis.call("GET", "fl:{lasting}:lease")
        holder = holder.decode() if isinstance(holder, bytes) else holder
        stepping = {"a": 0, "b": 1, "c": 2}[holder]
        others = [i for i in range(3) if i != stepping]
        # The owner's own clients hear of a rotation before its broadcast is in Redis.
        await access_reached_redis(redis, "lasting", links["view"])
        watcher = await Client(cluster[others[0]].room("lasting"), key=links["view"]).__aenter__()
        assert watcher.hello["role"] == "viewer"
        await owner.__aexit__(None, None, None)
        cluster[stepping].stop()
        await watcher.event("failover", timeout=15)
        for index in others:
            server = cluster[index]
            assert await closed_before_hello(server.room("lasting")) == (4404, "room lasting not found")
            async with Client(server.room("lasting"), key=links["owner"]) as again:
                assert again.hello["role"] == "owner" and again.hello["access"] == "private"
                assert again.hello["links"] == links
        await watcher.__aexit__(None, None, None)

    run(scenario())


def test_a_room_deleted_through_a_relay_is_gone_everywhere(cluster, redis):
    async def scenario():
        owner = await Client(cluster[2].room("brief")).__aenter__()
        await owner.send({"type": "add", "count": 3})
        await owner.event("added", by=owner.id)
        others = [await Client(server.room("brief")).__aenter__() for server in cluster[:2]]
        await owner.send({"type": "delete"})
        for client in [owner] + others:
            await wait_until_closed(client, timeout=10)
            assert client.closed == (4410, "room brief was deleted by its owner"), client.closed
        # Redis forgets it; the next client anywhere makes a new room and owns it.
        assert await wait_until_async(lambda: not redis.call("EXISTS", "fl:{brief}:state"), timeout=10)
        async with Client(cluster[1].room("brief")) as fresh:
            assert fresh.hello["role"] == "owner"
            assert (await fresh.next("frame"))["ids"] == []
    run(scenario())


def test_an_owner_refuses_a_relayed_change_its_role_may_not_send(cluster, redis):
    """A request in the room's list that says a viewer sent `clear` (as a relay that let it
    through would forward it): the owner refuses it, and the room keeps its cells."""
    from test_cluster_hostile import wire_text

    async def scenario():
        owner = await Client(cluster[0].room("guarded")).__aenter__()
        await owner.send({"type": "add", "count": 4})
        await owner.event("added", by=owner.id)
        holder = redis.call("GET", "fl:{guarded}:lease")
        holder = holder.decode() if isinstance(holder, bytes) else holder
        for role in ("viewer", "editor"):
            request = b"\x01" + wire_text("b") + wire_text("c99@b") + wire_text(role) + wire_text('{"type":"clear"}')
            redis.call("RPUSH", "fl:{guarded}:requests", request)
            redis.call("PUBLISH", "fl:{guarded}:nudge", "")
            if role == "viewer":
                await asyncio.sleep(1.0)
                assert not [m for m in owner.messages if m.get("type") == "event" and m.get("kind") == "cleared"], \
                    f"{holder} applied a viewer's clear"
        # The same request from an editor does clear it: the refusal was the role's.
        await owner.event("cleared", by="c99@b")
        await owner.__aexit__(None, None, None)

    run(scenario())
