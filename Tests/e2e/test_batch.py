"""Batches (docs/protocol.md, `batch`): a connection that sent `{"type":"batch","on":true}` gets
the text messages that wait for it together as one `batch` message, each element the message
as it would have come alone, in order; others never get one.

The test holds a reader's socket full (a small receive buffer, and it stops reading) while
messages pile up for it on the server: big `updated` events, then twenty clients joining and
leaving (the burst of a server of a cluster draining). Once it reads again, what piled up comes
batched, and the events it unpacks are exactly those a reader without batches got, in order."""
import asyncio
import json
import socket

import websockets

from client import Client, run
from room_tools import add
from server import RunningServer

ATTRS = {"note": "x" * 900}  # an `updated` event of about 1 KB


async def held_reader(url, batches):
    """A v1 connection whose socket fills fast: a 4 KiB receive buffer, and websockets reads
    nothing more while one message waits unread."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    host, port = url.split("//")[1].split("/")[0].split(":")
    sock.connect((host, int(port)))
    sock.setblocking(False)
    ws = await websockets.connect(url, sock=sock, subprotocols=["forcelayout.v1"], max_size=None,
                                  max_queue=1, read_limit=2048, ping_interval=None)
    hello = json.loads(await ws.recv())
    assert hello["type"] == "hello"
    if batches:
        await ws.send(json.dumps({"type": "batch", "on": True, "ref": "b"}))
    return ws


async def read_until_marker(ws, marker_charge, timeout=20):
    """Every message until the `params` event setting charge to `marker_charge`, batches
    unpacked: (messages, sizes of the batches that came)."""
    messages, batches = [], []
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        raw = await asyncio.wait_for(ws.recv(), max(0.1, deadline - loop.time()))
        if isinstance(raw, bytes):
            continue
        message = json.loads(raw)
        if message.get("type") == "batch":
            assert isinstance(message["messages"], list) and len(message["messages"]) >= 2, message
            assert set(message) == {"type", "messages"}, message
            batches.append(len(message["messages"]))
            unpacked = message["messages"]
            assert all(isinstance(each, dict) and each.get("type") not in (None, "frame", "batch") for each in unpacked), \
                "a batch holds messages, never a frame"
        else:
            unpacked = [message]
        for each in unpacked:
            messages.append(each)
            if each.get("type") == "event" and each["kind"] == "params" and each["params"].get("charge") == marker_charge:
                return messages, batches


def events(messages):
    return [(m["seq"], m["kind"]) for m in messages if m.get("type") == "event"]


async def pile_up(server, room, writer, cell, marker_charge):
    """Forty `updated` events of about 1 KB, twenty clients joining and all leaving at once, then
    the marker `params` event."""
    for index in range(40):
        await writer.send({"type": "update", "cells": [{"id": cell, "attrs": {**ATTRS, "n": index}}]})
    for _ in range(40):
        await writer.event("updated", by=writer.id)
    visitors = [await Client(server.room(room)).__aenter__() for _ in range(20)]
    await asyncio.gather(*(visitor.socket.close() for visitor in visitors))
    for _ in range(20):
        await writer.event("left")
    await writer.send({"type": "params", "charge": marker_charge})
    await writer.event("params", by=writer.id)


def test_what_waits_comes_batched_in_order_only_for_who_asked():
    with RunningServer() as server:
        async def scenario():
            room = "batches"
            async with Client(server.room(room)) as writer:
                await writer.send({"type": "params", "paused": True})
                [cell] = await add(writer, 1)
                batched = await held_reader(server.room(room), batches=True)
                plain = await held_reader(server.room(room), batches=False)
                await asyncio.sleep(0.3)  # the batch request is applied before the pile-up
                start = len(writer.messages)
                await pile_up(server, room, writer, cell, marker_charge=77)
                got, batches = await read_until_marker(batched, 77)
                got_plain, batches_plain = await read_until_marker(plain, 77)
                expected = events(writer.messages[start:])
                # The reader that asked got what piled up batched: events in order, none missing.
                assert batches and max(batches) >= 10, batches
                assert events(got)[-len(expected):] == expected
                assert len(events(got)) == len({seq for seq, _ in events(got)}), "no event twice"
                kinds = [kind for _, kind in expected]
                assert kinds.count("updated") == 40 and kinds.count("joined") == 20 and kinds.count("left") == 20
                # The one that did not ask got the same, one message each.
                assert batches_plain == []
                assert events(got_plain)[-len(expected):] == expected
                # Off again: what piles up next comes one by one.
                await batched.send(json.dumps({"type": "batch", "on": False}))
                await asyncio.sleep(0.3)
                start = len(writer.messages)
                await pile_up(server, room, writer, cell, marker_charge=78)
                got, batches = await read_until_marker(batched, 78)
                assert batches == []
                assert events(got)[-len(events(writer.messages[start:])):] == events(writer.messages[start:])
                await batched.close()
                await plain.close()
        run(scenario())


def test_a_bad_batch_request_is_refused_and_changes_nothing():
    with RunningServer() as server:
        async def scenario():
            async with Client(server.room("asks")) as client:
                await client.send({"type": "batch", "on": "yes", "ref": "bad"})
                error = await client.error("bad_request")
                assert error["ref"] == "bad" and "true or false" in error["message"], error
                await client.send({"type": "batch", "ref": "none"})
                error = await client.error("bad_request")
                assert error["ref"] == "none" and "on" in error["message"], error
                # Batching stayed off: what waits still comes one message each.
                start = len(client.messages)
                await add(client, 3)
                await client.quiet(0.3)
                assert not [m for m in client.raw[start:] if isinstance(m, str) and m.startswith('{"type":"batch"')]
        run(scenario())
