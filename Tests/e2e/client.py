"""A small protocol client over python3-websockets for the end-to-end tests."""
import asyncio
import json
import time

import websockets

from frame_v2 import decode as decode_binary_frame


class Client:
    """Reads every message in the background; tests wait for the ones they care about."""

    def __init__(self, url, subprotocols=("forcelayout.v1",), source=None, key=None, headers=None, ssl=None):
        """source: the local address to connect from (such as "127.0.0.2"), so a test can stand
        for another machine (the server counts connections and new rooms per address).
        key: a room's link (or the admin token), offered as the page offers it: one more
        subprotocol name, `forcelayout.key.KEY`. headers: more request headers (`Authorization`)."""
        self.url = url
        self.subprotocols = list(subprotocols) if subprotocols else None
        if key is not None:
            self.subprotocols = (self.subprotocols or []) + ["forcelayout.key." + key]
        self.headers = headers
        self.ssl = ssl
        self.source = source
        self.messages = []      # everything received, in order
        self.raw = []           # the same, as the bytes or text that came (a batch's element: its JSON)
        self.batches = []       # how many messages each `batch` that came held (docs/protocol.md)
        self.times = []         # when each came (time.monotonic())
        self.cursor = 0         # where `next` continues from
        self.closed = None      # (code, reason) once the connection ended
        self.arrived = asyncio.Event()

    async def __aenter__(self):
        options = {"local_addr": (self.source, 0)} if self.source else {}
        if self.headers:
            options["extra_headers"] = self.headers
        if self.ssl:
            options["ssl"] = self.ssl
        self.socket = await websockets.connect(self.url, subprotocols=self.subprotocols, max_size=None,
                                               ping_interval=None, **options)
        self.reader = asyncio.create_task(self._read())
        self.hello = await self.next("hello", timeout=10)
        self.id = self.hello["client"]
        return self

    async def __aexit__(self, *exc):
        self.reader.cancel()
        await self.socket.close()

    async def _read(self):
        try:
            async for raw in self.socket:
                now = time.monotonic()
                # v2 frames are binary: decoded to the shape of a v1 frame (see frame_v2).
                message = decode_binary_frame(raw) if isinstance(raw, bytes) else json.loads(raw)
                if message.get("type") == "batch":  # asked for by offering forcelayout.batch
                    self.batches.append(len(message["messages"]))
                    arrived = [(json.dumps(each, separators=(",", ":")), each) for each in message["messages"]]
                else:
                    arrived = [(raw, message)]
                for text, each in arrived:
                    self.raw.append(text)
                    self.times.append(now)
                    self.messages.append(each)
                self.arrived.set()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed = (self.socket.close_code, self.socket.close_reason)
            self.arrived.set()

    async def send(self, message):
        await self.socket.send(message if isinstance(message, (str, bytes)) else json.dumps(message))

    async def next(self, type_=None, timeout=10, **fields):
        """The next message from the cursor on matching `type_` and `fields`; earlier
        non-matching messages are skipped."""
        return await self.find(lambda m: matches(m, type_, fields), timeout)

    async def find(self, predicate, timeout=10):
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            while self.cursor < len(self.messages):
                message = self.messages[self.cursor]
                self.cursor += 1
                if predicate(message):
                    return message
            if self.closed is not None:
                raise AssertionError(f"connection closed {self.closed} while waiting")
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError("timed out; last messages: " + json.dumps(self.messages[-5:])[:2000])
            self.arrived.clear()
            try:
                await asyncio.wait_for(self.arrived.wait(), remaining)
            except asyncio.TimeoutError:
                pass

    async def event(self, kind, timeout=10, **fields):
        return await self.next("event", timeout, kind=kind, **fields)

    async def error(self, code=None, timeout=10):
        message = await self.next("error", timeout)
        if code is not None:
            assert message["code"] == code, message
        return message

    def since(self, start, type_=None, **fields):
        return [m for m in self.messages[start:] if matches(m, type_, fields)]

    async def frame_with(self, ids, timeout=10):
        """The next frame whose membership holds exactly `ids` (as a set)."""
        return await self.find(lambda m: m.get("type") == "frame" and "ids" in m and set(m["ids"]) == set(ids), timeout)

    async def quiet(self, seconds):
        await asyncio.sleep(seconds)


def matches(message, type_, fields):
    if type_ is not None and message.get("type") != type_:
        return False
    return all(message.get(key) == value for key, value in fields.items())


def positions(frame):
    """{id: (x, y)} from a frame that carries ids."""
    xy = frame["xy"]
    return {cell: (xy[2 * index], xy[2 * index + 1]) for index, cell in enumerate(frame["ids"])}


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, 120))
