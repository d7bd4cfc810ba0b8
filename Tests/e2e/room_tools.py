"""What the room tests (test_rooms*.py, test_room_*.py) share: plain HTTP requests and raw
WebSocket handshakes from a chosen source address (the server counts new rooms per address),
a look at a room as a fresh client sees it, and the /rooms listing by name."""
import base64
import http.client
import json
import os
import re
import socket
import time

from client import Client
from raw_websocket import response_head, status_code, status_line, upgrade_request

ROOM_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")


def request(port, path, method="GET", source="127.0.0.1", headers=None):
    """(status, {lower-case header: value}, body) of one request on a connection of its own."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
    try:
        connection.request(method, path, headers=headers or {})
        response = connection.getresponse()
        body = response.read()
        return response.status, {key.lower(): value for key, value in response.getheaders()}, body
    finally:
        connection.close()


def handshake(port, path, source="127.0.0.1", hold=False):
    """The HTTP status a WebSocket handshake at `path` gets. With `hold`, (status, socket): the
    connection stays open (a client in the room, as long as the socket lives; it never reads)."""
    connection = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    connection.settimeout(10)
    connection.bind((source, 0))
    connection.connect(("127.0.0.1", port))
    connection.sendall(upgrade_request(port, base64.b64encode(os.urandom(16)).decode(), path=path))
    if hold:
        # Only the head: a frame sent right after the 101 stays for the caller to read.
        return status_code(response_head(connection).split(b"\r\n")[0]), connection
    status = status_code(status_line(connection))
    connection.close()
    return status


def listed(server):
    """GET /rooms as {name: entry}."""
    return {room["name"]: room for room in server.rooms()}


async def add(client, count, **fields):
    """Adds `count` cells from `client`; the ids of its `added` event."""
    await client.send({"type": "add", "count": count, **fields})
    return (await client.event("added", by=client.id))["ids"]


async def set_params(client, **params):
    """Sets parameters and waits for this client's `params` event; returns it."""
    await client.send({"type": "params", **params})
    return await client.event("params", by=client.id)


def hello_params(hello):
    """The room's parameters as a joiner takes them (docs/protocol.md, `hello`): `params`, then
    the replayed `params` events after the last `failover` (the status may be a moment older)."""
    events = hello.get("events", [])
    failovers = [index for index, event in enumerate(events) if event["kind"] == "failover"]
    params = dict(hello["params"])
    for event in events[(failovers[-1] + 1 if failovers else 0):]:
        if event["kind"] == "params":
            params.update(event["params"])
    return params


def hello_pinned(hello):
    """The cells pinned as a joiner takes them: `pinned`, then the replayed events in order."""
    pinned = set(hello["pinned"])
    for event in hello.get("events", []):
        kind = event["kind"]
        if kind == "pinned":
            pinned.add(event["id"])
        elif kind == "unpinned":
            pinned.discard(event["id"])
        elif kind in ("removed", "cleared"):
            pinned -= set(event["ids"])
        elif kind in ("failover", "restored"):
            pinned = set(event["pinned"])
    return pinned


async def settle(client, after, timeout=30):
    """Waits for a `settled` event later than the event `after` (a dict with `seq`)."""
    return await client.find(lambda m: m.get("type") == "event" and m["kind"] == "settled" and m["seq"] > after["seq"],
                             timeout)


async def look(url, source=None):
    """A fresh client's view of a room: (hello, its first full frame)."""
    async with Client(url, source=source) as client:
        frame = await client.next("frame")
        return client.hello, frame


def view(hello, frame):
    """What must survive an unload or a restart exactly: parameters, pins, ids, positions."""
    return {"params": hello["params"], "pinned": sorted(hello["pinned"]), "ids": frame["ids"], "xy": frame["xy"]}


def saved_cells(path):
    """The number of cells in a room's state file, or None while it cannot be read."""
    try:
        return len(json.loads(path.read_text())["layout"]["cells"])
    except (OSError, ValueError, KeyError):
        return None


# A server bug found by these tests (the rooms wiring, ac15cb7): Server.eventMessages, the one
# EventMessages (Network/EventMessages.swift) every Mailbox shares, reuses the last encoded
# event when the next envelope has the same seq, but seq numbers are per room now: a room's
# event whose seq equals the one encoded last in another room is delivered as that other
# room's event (its own `joined` or `added` never arrives, another room's does).


def first_join(port, path, timeout=30):
    """What the first handshake to a room on disk gets: its HTTP status, and for a 101 the
    close code the server ends it with (None: a hello came, the room was served). A room is
    loaded off the service thread: the handshake is admitted at once, and a file found
    unusable closes the connection with 1011 before any hello."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    try:
        connection.sendall(upgrade_request(port, base64.b64encode(os.urandom(16)).decode(), path=path))
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = connection.recv(65536)
            if not chunk:
                return status_code(data.split(b"\r\n")[0]), None
            data += chunk
        head, data = data.split(b"\r\n\r\n", 1)
        status = status_code(head.split(b"\r\n")[0])
        if status != 101:
            return status, None
        while True:
            while len(data) >= 2:
                length, offset = data[1] & 0x7F, 2
                if length == 126:
                    length, offset = int.from_bytes(data[2:4], "big"), 4
                elif length == 127:
                    length, offset = int.from_bytes(data[2:10], "big"), 10
                if len(data) < offset + length:
                    break
                opcode, payload, data = data[0] & 0x0F, data[offset:offset + length], data[offset + length:]
                if opcode == 0x8:
                    return 101, int.from_bytes(payload[:2], "big") if len(payload) >= 2 else None
                if opcode == 0x1 and b'"type":"hello"' in payload:
                    return 101, None
            chunk = connection.recv(65536)
            if not chunk:
                return 101, None
            data += chunk
    finally:
        connection.close()


def now_ms():
    """The wall clock in ms since 1970, rounded to the nearest as the server rounds an event's
    `at` (`LayoutEvent.now`): truncated, a time read just after an event could fall 1 ms
    before the event's own, and a moment asked for then would not hold it yet."""
    return round(time.time() * 1000)


async def history(client, **fields):
    """A `history` answer (the room's past changes)."""
    await client.send({"type": "history", **fields})
    return await client.next("history")


async def moment(client, at, **fields):
    """A `moment` answer: the room as it was at `at`."""
    await client.send({"type": "moment", "at": at, **fields})
    return await client.next("moment")
