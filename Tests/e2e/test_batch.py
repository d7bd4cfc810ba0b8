"""Batches (docs/protocol.md, `batch`): a connection whose handshake offered `forcelayout.batch`
gets the text messages that wait for it together as one `batch` message, each element the
message as it would have come alone, in order; others never get one.

The test holds a reader's socket full (a small receive buffer, and it stops reading) while
messages pile up for it on the server: big `updated` events, then twenty clients joining and
leaving (the burst of a server of a cluster draining). Once it reads again, what piled up comes
batched, and the events it unpacks are exactly those a reader without batches got, in order."""
import asyncio
import json
import socket

import websockets

from client import Client, run
from raw_websocket import status_code, status_line, upgrade_request
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
    offer = ["forcelayout.v1", "forcelayout.batch"] if batches else ["forcelayout.v1"]
    ws = await websockets.connect(url, sock=sock, subprotocols=offer, max_size=None,
                                  max_queue=1, read_limit=2048, ping_interval=None)
    assert ws.subprotocol == "forcelayout.v1", "the server binds a subprotocol, never the batch offer"
    hello = json.loads(await ws.recv())
    assert hello["type"] == "hello"
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
                for _ in range(2):
                    await writer.event("joined")  # both readers are in before the pile-up
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
                await batched.close()
                await plain.close()
        run(scenario())


def test_a_batch_offer_alone_is_refused_and_a_v2_reader_gets_batches_beside_binary_frames():
    with RunningServer() as server:
        async def scenario():
            # the offer asks for batches; it is no subprotocol: alone, it is refused as any
            # offer that names none this server speaks
            status = handshake_status(server.port, "/ws/alone", "forcelayout.batch")
            assert status == 400, status
            async with Client(server.room("v2"), subprotocols=("forcelayout.v2", "forcelayout.batch")) as reader:
                assert reader.socket.subprotocol == "forcelayout.v2"
                await add(reader, 3)
                await reader.quiet(0.5)
                assert any(isinstance(raw, bytes) for raw in reader.raw), "v2's frames, binary, beside the batches"
        run(scenario())


def handshake_status(port, path, offer):
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(upgrade_request(port, "dGhlIHNhbXBsZSBub25jZQ==", path=path, subprotocol=offer))
        return status_code(status_line(connection))
