"""The rolling-restart row of `make load-cluster`: three servers and Redis, `rooms` rooms of
`cells` moving cells (placed over the servers), readers dealt out over rooms and servers, and a
writer in each room adding a cell every 0.2 s; readers and writers ask for batches, as the
page does. Each server in turn gets SIGTERM (it drains: its clients are told `reconnect`, and
each room it steps goes to another server once its clients here have moved), is started again
once it exited, and the next one waits until it answers /readyz. Figures:

- pause: each reader's longest gap between two frames over the whole run, moves included (a
  reader told `reconnect` moves as the page does: within 100 ms it opens its next connection,
  through what a load balancer does, trying the servers in turn from its own until one lets it
  in, and closes the old one at the new one's hello; one closed with 1012 comes back within
  100 ms); the p99 of those, the median and the worst;
- cells lost: cells the room had, or whose `added` a writer got, that are not in the room at
  the end (its export, from any server);
- each drain's time (SIGTERM to exit).

Readers are python3-websockets clients that read v2 frames without decoding them, in processes
of READERS_A_PROCESS each (a restart reconnects a third of them at once: one event loop doing
hundreds of handshakes would be the bottleneck); their CPU is printed."""
import asyncio
import json
import multiprocessing
import random
import resource
import statistics
import time
import urllib.request

import websockets

from cluster import Cluster

JITTER = 0.1  # the page's RESTART_JITTER_MS (Public/net.js)
READERS_A_PROCESS = 100
OFFER = ["forcelayout.v2", "forcelayout.batch"]  # batches asked for, as the page does


class Reconnecting:
    """A v2 connection to `room` through `urls`, starting at `first`, that moves as the page
    does: told `reconnect` (its server drains), it opens its next connection within JITTER,
    trying the servers in turn from its own (what a load balancer does: the draining one
    answers 503), and closes the old one at the new one's hello; the old one streams until
    then. Closed instead (1012: within JITTER; else after 0.25 s), it connects again."""

    def __init__(self, urls, room, first):
        self.urls, self.room, self.index = urls, room, first
        self.reconnects = 0
        self.moves = 0
        self.socket = None

    async def connect(self, stop):
        """A connection to the first server in turn from `index` that lets us in; None once
        `stop` is set."""
        attempt = 0
        while not stop.is_set():
            url = f"{self.urls[self.index % len(self.urls)]}/ws/{self.room}"
            try:
                return await websockets.connect(url, subprotocols=OFFER, max_size=None,
                                                ping_interval=None, open_timeout=3, close_timeout=1)
            except (OSError, asyncio.TimeoutError, websockets.InvalidHandshake):
                self.index += 1  # what a load balancer does: the next server
                await asyncio.sleep(0.01 if attempt < len(self.urls) else 0.25)
                attempt += 1
        return None

    async def successor(self, stop, old):
        """Opens the next connection; at its hello, closes `old`: (socket, hello), or None."""
        await asyncio.sleep(random.random() * JITTER)
        ws = await self.connect(stop)
        if ws is None:
            return None
        try:
            hello = await ws.recv()
        except websockets.ConnectionClosed:
            return None
        await old.close()
        return ws, hello

    async def run(self, stop, on_message):
        ws, first = None, None
        while not stop.is_set():
            if ws is None:
                ws = await self.connect(stop)
                if ws is None:
                    return
            self.socket = ws
            await on_message(None, ws)
            if first is not None:
                await on_message(first, ws)
            moving = None
            try:
                async for message in ws:
                    if moving is None and isinstance(message, str) and '"type":"reconnect"' in message:
                        moving = asyncio.create_task(self.successor(stop, ws))
                    await on_message(message, ws)
                    if stop.is_set():
                        break
            except websockets.ConnectionClosed:
                pass
            if stop.is_set():
                await ws.close()  # now: unread frames would fill its queue and stall the close
                return
            code = ws.close_code
            moved = await moving if moving is not None else None
            if moved is not None:
                ws, first = moved
                self.moves += 1
                continue
            ws, first = None, None
            self.reconnects += 1
            await asyncio.sleep(random.random() * JITTER if code == 1012 else 0.25)


class Reader:
    def __init__(self, urls, room, first):
        self.connection = Reconnecting(urls, room, first)
        self.last = None
        self.longest = 0.0
        # the longest gap across a reconnect, and within one connection (a room handed off)
        self.longest_reconnecting = 0.0
        self.longest_connected = 0.0
        self.reconnected = False
        self.frames = 0
        self.texts = 0  # everything else: hello, events (joined, left, …), data, stats

    async def message(self, message, ws):
        if isinstance(message, str):
            self.texts += 1
        if message is None:  # a new connection
            self.reconnected = self.last is not None
        elif isinstance(message, bytes):  # a v2 frame
            now = time.monotonic()
            if self.last is not None:
                gap = now - self.last
                self.longest = max(self.longest, gap)
                if self.reconnected:
                    self.longest_reconnecting = max(self.longest_reconnecting, gap)
                else:
                    self.longest_connected = max(self.longest_connected, gap)
            self.reconnected = False
            self.last = now
            self.frames += 1


class Writer:
    """Adds a cell every `every` seconds; keeps the ids of the adds it was told of."""

    def __init__(self, urls, room, first, every=0.2):
        self.connection = Reconnecting(urls, room, first)
        self.every = every
        self.client = None
        self.acknowledged = set()
        self.sent = 0

    async def message(self, message, ws):
        if message is None or isinstance(message, bytes):
            return
        data = json.loads(message)
        for each in data["messages"] if data.get("type") == "batch" else [data]:
            if each.get("type") == "hello":
                self.client = each["client"]
            elif each.get("type") == "event" and each.get("kind") == "added" and each.get("by") == self.client:
                self.acknowledged |= set(each["ids"])

    async def keep_adding(self, stop):
        while not stop.is_set():
            await asyncio.sleep(self.every)
            socket = getattr(self.connection, "socket", None)
            if socket is not None and self.client is not None:
                try:
                    await socket.send(json.dumps({"type": "add", "count": 1}))
                    self.sent += 1
                except websockets.ConnectionClosed:
                    pass


async def close_all(clients):
    """Closes the connection each of `clients` (readers, writers) holds now."""
    for client in clients:
        socket = getattr(client.connection, "socket", None)
        if socket is not None:
            await socket.close()


def read_in_process(urls, assignments, stop, results):
    """A process's readers (`assignments`: (room, first server) each) until `stop` is set; puts
    each one's figures and the process's CPU seconds on `results`."""
    async def main():
        done = asyncio.Event()
        reading = [Reader(urls, room, first) for room, first in assignments]
        tasks = [asyncio.create_task(r.connection.run(done, r.message)) for r in reading]
        while not stop.is_set():
            await asyncio.sleep(0.1)
        done.set()
        await close_all(reading)
        await asyncio.wait(tasks, timeout=10)
        return [(r.longest, r.longest_connected, r.longest_reconnecting, r.frames, r.connection.reconnects, r.texts,
                 r.connection.moves) for r in reading]
    figures = asyncio.run(main())
    usage = resource.getrusage(resource.RUSAGE_SELF)
    results.put((figures, usage.ru_utime + usage.ru_stime))


def export_ids(server, room):
    with urllib.request.urlopen(f"{server.http}/export/{room}.json", timeout=10) as reply:
        return {node["id"] for node in json.load(reply)["nodes"]}


def ready(server):
    try:
        with urllib.request.urlopen(f"{server.http}/readyz", timeout=2) as reply:
            return reply.status == 200
    except OSError:
        return False


async def fill(server, room, cells, tick_rate):
    """Makes `room` (stepped where the cluster places it) with `cells` moving cells; their ids."""
    ids = set()
    async with websockets.connect(f"{server.ws}/{room}", subprotocols=["forcelayout.v1"], max_size=None,
                                  ping_interval=None) as ws:
        me = None
        while me is None:  # a room of the cluster takes messages once its hello came
            data = json.loads(await ws.recv())
            me = data.get("client") if data.get("type") == "hello" else None
        await ws.send(json.dumps({"type": "params", "threshold": 0, "tickRate": tick_rate}))
        for start in range(0, cells, 1000):
            await ws.send(json.dumps({"type": "add", "count": min(1000, cells - start)}))
        while len(ids) < cells:
            data = json.loads(await ws.recv())
            if data.get("type") == "event" and data.get("kind") == "added" and data.get("by") == me:
                ids |= set(data["ids"])
    return ids


async def rolling_restart(binary, rounds=1, rooms=3, cells=1000, readers=30, tick_rate=20):
    with Cluster(binary, extra=("--max-connections-per-address", "4096")) as cluster:
        servers = cluster.servers
        urls = [server.http.replace("http://", "ws://") for server in servers]
        names = [f"rolling{index}" for index in range(rooms)]
        initial = {}
        for index, name in enumerate(names):
            initial[name] = await fill(servers[index % len(servers)], name, cells, tick_rate)
        stop = asyncio.Event()
        # every room has readers on every server
        assignments = [(names[index % rooms], (index // rooms) % len(urls)) for index in range(readers)]
        stop_readers = multiprocessing.Event()
        results = multiprocessing.Queue()
        processes = [multiprocessing.Process(target=read_in_process, daemon=True,
                                             args=(urls, assignments[start:start + READERS_A_PROCESS], stop_readers, results))
                     for start in range(0, readers, READERS_A_PROCESS)]
        for process in processes:
            process.start()
        writing = [Writer(urls, name, (index + 1) % len(urls)) for index, name in enumerate(names)]
        tasks = [asyncio.create_task(w.connection.run(stop, w.message)) for w in writing]
        tasks += [asyncio.create_task(w.keep_adding(stop)) for w in writing]
        cpu_before = resource.getrusage(resource.RUSAGE_SELF)
        started = time.monotonic()
        await asyncio.sleep(3)
        owners = {entry["name"]: entry.get("node") for entry in servers[0].rooms()}
        drains = []
        for _ in range(rounds):
            for server in servers:
                signalled = time.monotonic()
                code = await asyncio.to_thread(server.terminate)
                drains.append((time.monotonic() - signalled, code))
                server.start()
                while not ready(server):
                    await asyncio.sleep(0.1)
                await asyncio.sleep(3)
        stop.set()
        stop_readers.set()
        await close_all(writing)
        await asyncio.wait(tasks, timeout=10)
        elapsed = time.monotonic() - started
        cpu_after = resource.getrusage(resource.RUSAGE_SELF)
        reading, reader_cpu = [], 0.0
        for _ in processes:
            figures_, cpu = await asyncio.to_thread(results.get, True, 30)
            reading += figures_
            reader_cpu += cpu
        for process in processes:
            process.join(5)
        await asyncio.sleep(1)
        lost, added, sent = 0, 0, 0
        for name, writer in zip(names, writing):
            final = export_ids(servers[0], name)
            lost += len((initial[name] | writer.acknowledged) - final)
            added += len(writer.acknowledged)
            sent += writer.sent
        def figures(values):
            values = sorted(values)
            p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
            return {"p99": p99 * 1e3, "median": statistics.median(values) * 1e3, "max": values[-1] * 1e3}
        return {
            "pauseMs": figures(r[0] for r in reading),
            "pauseConnectedMs": figures(r[1] for r in reading),
            "pauseReconnectingMs": figures(r[2] for r in reading),
            "cellsLost": lost, "cellsAdded": added, "addsSent": sent,
            "drains": [{"seconds": round(seconds, 3), "exit": code} for seconds, code in drains],
            "reconnects": sum(r[4] for r in reading),
            "moves": sum(r[6] for r in reading),
            "framesPerReader": min(r[3] for r in reading) / elapsed,
            "textMessagesPerReader": statistics.median(r[5] for r in reading),
            "toolCPUCores": ((cpu_after.ru_utime + cpu_after.ru_stime) - (cpu_before.ru_utime + cpu_before.ru_stime)
                             + reader_cpu) / elapsed,
            "ownersAtStart": owners,
        }
