"""A protocol connection beside the pages, for the browser tests: "another client".

    with Control(server_url) as other:
        other.send({"type": "remove", "ids": [3]})
        other.event("removed")

`room` names the room to join (`/ws/NAME`); by default room main (`/ws`).

A python3-websockets client on its own thread's event loop, so the (blocking) selenium tests
can use it with plain calls. It speaks protocol v1 (JSON frames: the reference the page's
binary v2 frames are compared with), parses every message but frames (counted, the last one
kept as text: `last_frame()` parses it) and keeps them; `event` and `error` wait for the next
matching one after the last one taken.
"""
import asyncio
import json
import threading
import time

import websockets


class Control:
    def __init__(self, http_url, timeout=15, room=None):
        self.url = http_url.replace("http://", "ws://", 1).rstrip("/") + ("/ws" if room is None else f"/ws/{room}")
        self.timeout = timeout
        self.messages = []  # every message but frames, in order
        self.frames = 0
        self.frame_text = None
        self.cursor = 0
        self.closed = None
        self.changed = threading.Condition()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.socket = self._run(self._connect())
        self.loop.call_soon_threadsafe(lambda: self.loop.create_task(self._read()))
        self.hello = self.next("hello")
        self.id = self.hello["client"]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _run(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(self.timeout)

    async def _connect(self):
        return await websockets.connect(self.url, subprotocols=["forcelayout.v1"], max_size=None,
                                        ping_interval=None)

    async def _read(self):
        try:
            async for raw in self.socket:
                with self.changed:
                    if raw.startswith('{"type":"frame"'):
                        self.frames += 1
                        self.frame_text = raw
                    else:
                        self.messages.append(json.loads(raw))
                    self.changed.notify_all()
        except websockets.ConnectionClosed:
            pass
        finally:
            with self.changed:
                self.closed = (self.socket.close_code, self.socket.close_reason)
                self.changed.notify_all()

    def send(self, message):
        self._run(self.socket.send(json.dumps(message)))

    def next(self, type_, timeout=None, **fields):
        """The next message of `type_` with these field values, after the last one taken."""
        deadline = time.monotonic() + (timeout or self.timeout)
        with self.changed:
            while True:
                while self.cursor < len(self.messages):
                    message = self.messages[self.cursor]
                    self.cursor += 1
                    if message.get("type") == type_ and all(message.get(k) == v for k, v in fields.items()):
                        return message
                left = deadline - time.monotonic()
                if self.closed is not None:
                    raise AssertionError(f"connection closed {self.closed} while waiting for {type_} {fields}")
                if left <= 0:
                    raise AssertionError(f"timed out waiting for {type_} {fields}; last messages: "
                                         + json.dumps(self.messages[-5:])[:1500])
                self.changed.wait(left)

    def event(self, kind, timeout=None, **fields):
        return self.next("event", timeout, kind=kind, **fields)

    def last_frame(self):
        """The last frame received, parsed (None before the first)."""
        with self.changed:
            text = self.frame_text
        return None if text is None else json.loads(text)

    def errors(self):
        with self.changed:
            return [m for m in self.messages if m.get("type") == "error"]

    def close(self):
        try:
            self._run(self.socket.close())
        except Exception:
            pass
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()
