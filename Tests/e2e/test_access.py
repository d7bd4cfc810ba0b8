"""Rooms that belong to someone: whoever makes a room is its owner and gets its links (owner,
edit, view) in `hello`; a room's access (open, view, private) and the link a connection brings
decide its role (owner, editor, viewer), on the WebSocket and over HTTP (exports, /rooms); a
viewer's change is refused with `forbidden` and changes nothing; rotating a link ends it; the
server keeps digests only, and no secret reaches its log."""
import asyncio
import base64
import json
import os

import pytest

from client import Client, run
from room_tools import add, request, saved_cells, set_params
from server import RunningServer, wait_until

# Every kind of message a client sends, and the least role that may send it (the protocol's
# table, docs/protocol.md "Roles"). A role's refusal comes before the message is checked
# against the layout, so the cells named need not exist.
MESSAGES = {
    "add": ({"type": "add", "count": 1}, "editor"),
    "update": ({"type": "update", "cells": [{"id": 1, "label": "x"}]}, "editor"),
    "link": ({"type": "link", "links": [{"source": 1, "target": 3}]}, "editor"),
    "unlink": ({"type": "unlink", "links": [{"source": 1, "target": 2}]}, "editor"),
    "remove": ({"type": "remove", "ids": [4]}, "editor"),
    "clear": ({"type": "clear"}, "editor"),
    "params": ({"type": "params", "charge": 12}, "editor"),
    "pin": ({"type": "pin", "id": 2, "x": 5, "y": 5}, "editor"),
    "unpin": ({"type": "unpin", "id": 1}, "editor"),
    "undo": ({"type": "undo"}, "editor"),
    "subscribe": ({"type": "subscribe", "kinds": "all"}, "viewer"),
    "replay": ({"type": "replay", "count": 1}, "viewer"),
    "access": ({"type": "access", "access": "view"}, "owner"),
    "rotate": ({"type": "rotate", "links": ["view"]}, "owner"),
    "history": ({"type": "history", "count": 1}, "viewer"),
    "moment": ({"type": "moment", "at": 0}, "viewer"),
    "restore": ({"type": "restore", "at": 0}, "editor"),
}
RANK = {"viewer": 0, "editor": 1, "owner": 2}
ADMIN_TOKEN = "admin-token-0123456789abcdefghij"


async def closed_before_hello(url, **options):
    """Connects and returns the (code, reason) the server closed with instead of a hello."""
    client = Client(url, **options)
    with pytest.raises(AssertionError, match="connection closed"):
        await client.__aenter__()
    await client.socket.close()
    return client.closed


def bearer(key):
    return {"Authorization": f"Bearer {key}"} if key is not None else None


def export(server, name, key=None, fmt="json"):
    """(status, body) of GET /export/NAME.fmt, with `Authorization: Bearer KEY` when given."""
    status, _, body = request(server.port, f"/export/{name}.{fmt}", headers=bearer(key))
    return status, body


def rooms(server, key=None):
    """GET /rooms as {name: entry}, with `Authorization: Bearer KEY` when given."""
    status, _, body = request(server.port, "/rooms", headers=bearer(key))
    assert status == 200, status
    return {room["name"]: room for room in json.loads(body)["rooms"]}


async def set_access(owner, mode):
    await owner.send({"type": "access", "access": mode})
    event = await owner.event("access", by=owner.id)
    assert event["access"] == mode, event
    return event


def test_the_creator_is_the_owner_and_gets_the_links():
    with RunningServer() as server:
        async def scenario():
            async with Client(server.room("mine")) as owner:
                hello = owner.hello
                assert (hello["role"], hello["access"]) == ("owner", "open"), hello
                links = hello["links"]
                assert set(links) == {"owner", "edit", "view"} and len(set(links.values())) == 3, links
                for secret in links.values():
                    assert len(secret) == 22 and len(base64.urlsafe_b64decode(secret + "==")) == 16, secret
                async with Client(server.room("mine")) as other:
                    assert (other.hello["role"], other.hello["access"]) == ("editor", "open")
                    assert "links" not in other.hello, "only the owner is ever sent the links"
                # The edit link opens it as an editor, who is given the view link to hand on.
                async with Client(server.room("mine"), key=links["edit"]) as editor:
                    assert editor.hello["role"] == "editor"
                    assert editor.hello["links"] == {"edit": links["edit"], "view": links["view"]}
                async with Client(server.room("mine"), key=links["view"]) as viewer:
                    assert viewer.hello["role"] == "editor" and "links" not in viewer.hello
                # The owner's link opens the room as its owner again, with the same links.
                async with Client(server.room("mine"), key=links["owner"]) as again:
                    assert again.hello["role"] == "owner" and again.hello["links"] == links
        run(scenario())


def test_every_message_kind_by_every_role():
    """Viewers are refused every change with `forbidden` (their `ref` echoed), editors the
    owner's messages; nothing refused changes the room, and every connection stays open."""
    assert set(MESSAGES) == {"add", "update", "link", "unlink", "remove", "clear", "params", "pin", "unpin", "undo",
                             "subscribe", "replay", "access", "rotate", "history", "moment", "restore"}, "every client message kind"
    with RunningServer() as server:
        async def scenario():
            owner = await Client(server.room("roles")).__aenter__()
            links = owner.hello["links"]
            await set_access(owner, "view")
            clients = {
                "owner": owner,
                "editor": await Client(server.room("roles"), key=links["edit"]).__aenter__(),
                "viewer": await Client(server.room("roles")).__aenter__(),
                "view link": await Client(server.room("roles"), key=links["view"]).__aenter__(),
            }
            roles = {name: client.hello["role"] for name, client in clients.items()}
            assert roles == {"owner": "owner", "editor": "editor", "viewer": "viewer", "view link": "viewer"}, roles
            for name, client in clients.items():
                for kind, (message, least) in MESSAGES.items():
                    if RANK[roles[name]] >= RANK[least]:
                        continue
                    await client.send({**message, "ref": f"{name}-{kind}"})
                    error = await client.error("forbidden")
                    assert error["ref"] == f"{name}-{kind}", error
                    assert not any(secret in json.dumps(error) for secret in links.values()), error
            # Everything refused changed nothing: the owner heard no event by a refused client
            # before this marker, and every connection is still open and served.
            start = len(owner.messages)
            await set_params(owner, charge=11)
            for name in ("editor", "viewer", "view link"):
                client = clients[name]
                await client.send({"type": "replay", "count": 1})
                await client.next("replay")
                assert client.closed is None
                assert not [m for m in owner.messages[:start] if m.get("type") == "event" and m.get("by") == client.id
                            and m["kind"] not in ("joined", "left")], name
            # What each role may do, it does.
            editor = clients["editor"]
            ids = await add(editor, 4)
            for kind in ("update", "link", "unlink", "pin", "unpin", "params", "remove", "clear"):
                message = dict(MESSAGES[kind][0])
                if kind == "link":
                    message["links"] = [{"source": ids[0], "target": ids[1]}]
                elif kind == "unlink":
                    message["links"] = [{"source": ids[0], "target": ids[1]}]
                elif kind in ("update",):
                    message["cells"] = [{"id": ids[0], "label": "x"}]
                elif kind in ("pin", "unpin"):
                    message["id"] = ids[1]
                elif kind == "remove":
                    message["ids"] = [ids[2]]
                await editor.send({**message, "ref": kind})
                event = await editor.find(lambda m: (m.get("type") == "event" and m.get("by") == editor.id
                                                     and m["kind"] != "added") or m.get("type") == "error")
                assert event["type"] == "event", (kind, event)
            await owner.send({"type": "access", "access": "open"})
            await owner.event("access", by=owner.id)
            for client in clients.values():
                await client.__aexit__(None, None, None)
        run(scenario())


def test_access_modes_over_websocket_and_http():
    with RunningServer() as server:
        async def scenario():
            async with Client(server.room("house")) as owner:
                links = owner.hello["links"]
                await add(owner, 3)
                for mode, stranger_role, export_status in (("open", "editor", 200), ("view", "viewer", 403),
                                                           ("private", None, 404)):
                    if mode != "open":
                        await set_access(owner, mode)
                    if stranger_role:
                        async with Client(server.room("house")) as stranger:
                            assert (stranger.hello["role"], stranger.hello["access"]) == (stranger_role, mode)
                    else:
                        assert await closed_before_hello(server.room("house")) == (4404, "room house not found")
                    status, body = export(server, "house")
                    assert status == export_status, (mode, status, body)
                    if status == 403:
                        assert b"Bearer" in body
                    for kind in ("view", "edit", "owner"):
                        status, body = export(server, "house", key=links[kind])
                        assert status == 200 and len(json.loads(body)["nodes"]) == 3, (mode, kind, status)
                    status, _ = export(server, "house", key=links["view"], fmt="gexf")
                    assert status == 200
                    listing = rooms(server)
                    if mode == "private":
                        assert "house" not in listing, listing
                    else:
                        assert listing["house"]["access"] == mode, listing
        run(scenario())


def test_wrong_truncated_and_rotated_links():
    with RunningServer() as server:
        async def scenario():
            owner = await Client(server.room("keys")).__aenter__()
            links = owner.hello["links"]
            await set_access(owner, "view")
            wrong = base64.urlsafe_b64encode(os.urandom(16)).decode().rstrip("=")
            for key in (wrong, links["edit"][:-1], links["edit"] + "A", "not a secret"):
                assert await closed_before_hello(server.room("keys"), key=key.replace(" ", "-")) == \
                    (4403, "this link does not open room keys"), key
                assert export(server, "keys", key=key)[0] == 403
            editor = await Client(server.room("keys"), key=links["edit"]).__aenter__()
            viewer = await Client(server.room("keys"), key=links["view"]).__aenter__()
            await owner.next("role")  # the change to view
            # Rotating the view link ends it: its connection is closed, it opens nothing any more,
            # and the owner and the editor are sent the new one. The edit link is untouched.
            await owner.send({"type": "rotate", "links": ["view"]})
            event = await owner.event("access", by=owner.id)
            assert event["rotated"] == ["view"] and event["access"] == "view", event
            role = await owner.next("role")
            assert role["links"]["view"] != links["view"], role
            assert (role["links"]["owner"], role["links"]["edit"]) == (links["owner"], links["edit"])
            assert (await editor.next("role"))["links"] == {"edit": links["edit"], "view": role["links"]["view"]}
            await wait_until_closed(viewer)
            assert viewer.closed == (4401, "link rotated")
            assert await closed_before_hello(server.room("keys"), key=links["view"]) == (4403, "this link does not open room keys")
            assert export(server, "keys", key=links["view"])[0] == 403
            assert export(server, "keys", key=role["links"]["view"])[0] == 200
            viewer = await Client(server.room("keys"), key=role["links"]["view"]).__aenter__()
            # Rotating the edit link ends it, and the view link derived from it.
            await owner.send({"type": "rotate", "links": ["edit"]})
            event = await owner.event("access", by=owner.id)
            assert event["rotated"] == ["edit", "view"], event
            role = await owner.next("role")
            assert role["links"]["edit"] != links["edit"] and role["links"]["owner"] == links["owner"]
            for gone in (editor, viewer):
                await wait_until_closed(gone)
                assert gone.closed == (4401, "link rotated")
            assert await closed_before_hello(server.room("keys"), key=links["edit"]) == (4403, "this link does not open room keys")
            async with Client(server.room("keys"), key=role["links"]["edit"]) as editor_again:
                assert editor_again.hello["role"] == "editor"
            viewer = await Client(server.room("keys"), key=role["links"]["view"]).__aenter__()
            # Rotating the owner's link makes every link new: the rotating owner goes on with the
            # new ones, every other connection that came with an old link is closed.
            other_owner = await Client(server.room("keys"), key=links["owner"]).__aenter__()
            await owner.send({"type": "rotate", "links": ["owner"]})
            event = await owner.event("access", by=owner.id)
            assert event["rotated"] == ["owner", "edit", "view"], event
            fresh = (await owner.next("role"))["links"]
            assert not set(fresh.values()) & set(links.values()) and fresh["edit"] != role["links"]["edit"]
            await wait_until_closed(other_owner)
            await wait_until_closed(viewer)
            assert other_owner.closed == viewer.closed == (4401, "link rotated")
            assert owner.closed is None
            async with Client(server.room("keys"), key=fresh["owner"]) as owner_again:
                assert owner_again.hello["role"] == "owner" and owner_again.hello["links"] == fresh
            await owner.__aexit__(None, None, None)
            # A private room is not confirmed to a wrong link either.
        run(scenario())


async def wait_until_closed(client, timeout=5):
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while client.closed is None and loop.time() < deadline:
        await asyncio.sleep(0.05)
    assert client.closed is not None, "still open"


def test_access_changes_promote_demote_and_shut_out():
    with RunningServer() as server:
        async def scenario():
            async with Client(server.room("moods")) as owner, Client(server.room("moods")) as stranger:
                assert stranger.hello["role"] == "editor"
                await set_access(owner, "view")
                assert await stranger.next("role") == {"type": "role", "role": "viewer", "access": "view"}
                await stranger.send({"type": "add", "count": 1})
                await stranger.error("forbidden")
                await set_access(owner, "open")
                assert await stranger.next("role") == {"type": "role", "role": "editor", "access": "open"}
                assert await add(stranger, 1)
                await set_access(owner, "private")
                await wait_until_closed(stranger)
                assert stranger.closed == (4403, "room moods is private now")
                assert owner.closed is None
                # A private room looks like no room to a stranger, whatever link it brings.
                assert await closed_before_hello(server.room("moods")) == (4404, "room moods not found")
                wrong = base64.urlsafe_b64encode(os.urandom(16)).decode().rstrip("=")
                assert await closed_before_hello(server.room("moods"), key=wrong) == (4404, "room moods not found")
                assert export(server, "moods", key=wrong)[0] == 404
        run(scenario())


def test_links_survive_a_restart_as_digests_and_no_secret_is_logged(tmp_path):
    state = tmp_path / "state"
    with RunningServer("--state-dir", str(state)) as server:
        async def build():
            async with Client(server.room("kept")) as owner:
                await add(owner, 5)
                await set_access(owner, "private")
                await owner.send({"type": "rotate"})
                await owner.event("access", by=owner.id)
                links = (await owner.next("role"))["links"]
                # Scripts bring a link in an Authorization header.
                async with Client(server.room("kept"), headers={"Authorization": f"Bearer {links['edit']}"}) as script:
                    assert script.hello["role"] == "editor"
                    await add(script, 1)
                export(server, "kept", key=links["view"])
                export(server, "kept", key="wrong-" + links["view"])
                await closed_before_hello(server.room("kept"), key=links["view"][:-1])
                return links
        links = run(build())
        assert server.terminate() == 0
        saved = json.loads((state / "kept.json").read_text())
        assert saved["version"] == 6 and saved["access"]["mode"] == "private", saved.get("access")
        assert set(saved["access"]) == {"mode", "owner", "edit", "view", "editGeneration", "viewGeneration"}
        assert all(len(saved["access"][kind]) == 64 for kind in ("owner", "edit", "view"))
        text = (state / "kept.json").read_text() + server.log
        for secret in links.values():
            assert secret not in text and secret[:-1] not in text, "a secret reached the state file or the log"
        for kind in ("owner", "edit", "view"):
            assert saved["access"][kind] not in server.log, "a digest reached the log"
        server.start()

        async def after():
            async with Client(server.room("kept"), key=links["view"]) as viewer:
                assert (viewer.hello["role"], viewer.hello["access"]) == ("viewer", "private")
            async with Client(server.room("kept"), key=links["owner"]) as owner:
                assert owner.hello["links"] == links
            assert await closed_before_hello(server.room("kept")) == (4404, "room kept not found")
        run(after())


def test_a_state_file_from_before_links_loads_as_an_open_room_without_owner(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    (state / "old.json").write_text(json.dumps({
        "format": "forcelayout-state", "version": 4, "reservation": 3, "settled": False,
        "layout": {"cells": [{"id": 1, "x": 0, "y": 0, "pinned": False}, {"id": 2, "x": 5, "y": 0, "pinned": False}],
                   "links": [], "nextID": 3, "parameters": {}}}))
    token_file = tmp_path / "token"
    token_file.write_text(ADMIN_TOKEN + "\n")
    with RunningServer("--state-dir", str(state), "--admin-token-file", str(token_file)) as server:
        async def scenario():
            async with Client(server.room("old")) as first:
                assert (first.hello["role"], first.hello["access"]) == ("editor", "open")
                assert "links" not in first.hello
                await first.send({"type": "access", "access": "view"})
                await first.error("forbidden")
            # The admin is every room's owner: rotating gives the room links, and an owner.
            async with Client(server.room("old"), key=ADMIN_TOKEN) as admin:
                assert admin.hello["role"] == "owner" and "links" not in admin.hello
                await admin.send({"type": "rotate"})
                event = await admin.event("access", by=admin.id)
                assert event["rotated"] == ["owner", "edit", "view"]
                links = (await admin.next("role"))["links"]
            async with Client(server.room("old"), key=links["owner"]) as owner:
                assert owner.hello["role"] == "owner"
        run(scenario())
        assert ADMIN_TOKEN not in server.log


def test_admin_token_lists_private_rooms_and_exports_them(tmp_path):
    with RunningServer(env={"FORCELAYOUT_ADMIN_TOKEN": ADMIN_TOKEN}) as server:
        async def scenario():
            async with Client(server.room("hidden")) as owner:
                await add(owner, 2)
                await set_access(owner, "private")
                assert "hidden" not in rooms(server)
                assert "hidden" not in rooms(server, key=owner.hello["links"]["view"])
                assert rooms(server, key=ADMIN_TOKEN)["hidden"]["access"] == "private"
                assert export(server, "hidden", key=ADMIN_TOKEN)[0] == 200
                async with Client(server.room("hidden"), headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}) as admin:
                    assert admin.hello["role"] == "owner"
        run(scenario())


@pytest.mark.parametrize("flags, expected", [((), "open"), (("--default-access", "private"), "private"),
                                             (("--default-access", "view"), "view")])
def test_default_access(flags, expected):
    with RunningServer(*flags) as server:
        assert f"rooms made from now on are {expected}" in server.log
        async def scenario():
            async with Client(server.room("fresh")) as creator:
                assert (creator.hello["role"], creator.hello["access"]) == ("owner", expected)
            async with Client(server.ws) as main_creator:
                assert (main_creator.hello["role"], main_creator.hello["access"]) == ("owner", expected)
        run(scenario())


def test_bad_flags_are_refused_without_echoing_secrets(tmp_path):
    short = tmp_path / "short"
    short.write_text("s3cret-but-short\n")
    for flags, words in ((("--default-access", "public"), "--default-access must be one of open, view, private"),
                         (("--admin-token-file", str(short)), "the admin token must be one line of 22 to 256"),
                         (("--admin-token-file", str(tmp_path / "missing")), "cannot read it")):
        server = RunningServer(*flags, expect_failure=True)
        try:
            server.wait()
            assert words in server.log, server.log
            assert "s3cret-but-short" not in server.log
        finally:
            server.close()


def test_the_owner_deletes_the_room(tmp_path):
    """Only the owner deletes a room: everyone in it is closed with 4410, its cells are kept
    aside as a clear keeps them, and once nobody is in it the next handshake makes a new room
    with a new owner (the old links open nothing)."""
    state = tmp_path / "state"
    with RunningServer("--state-dir", str(state)) as server:
        async def scenario():
            owner = await Client(server.room("gone")).__aenter__()
            links = owner.hello["links"]
            await add(owner, 6)
            editor = await Client(server.room("gone"), key=links["edit"]).__aenter__()
            stranger = await Client(server.room("gone")).__aenter__()
            await editor.send({"type": "delete", "ref": "no"})
            assert (await editor.error("forbidden"))["ref"] == "no"
            assert wait_until(lambda: saved_cells(state / "gone.json") == 6, 5), "the cells on disk"
            await owner.send({"type": "delete"})
            event = await stranger.event("deleted", by=owner.id)
            assert len(event["ids"]) == 6
            for client in (owner, editor, stranger):
                await wait_until_closed(client)
                assert client.closed == (4410, "room gone was deleted by its owner"), client.closed
            # Kept aside with its cells, as a clear keeps them; gone from memory at once.
            assert wait_until(lambda: any((state / ".forgotten").glob("gone.*.json")), 5)
            kept = json.loads(next((state / ".forgotten").glob("gone.*.json")).read_text())
            assert len(kept["layout"]["cells"]) == 6
            assert wait_until(lambda: "gone" not in rooms(server), 5)
            assert wait_until(lambda: "room gone forgotten: deleted by its owner" in server.log, 5)
            async with Client(server.room("gone"), key=links["owner"]) as fresh:
                assert fresh.hello["role"] == "owner" and fresh.hello["links"]["owner"] != links["owner"]
                frame = await fresh.next("frame")
                assert frame["ids"] == []
        run(scenario())
