"""GET /rooms (the rooms in memory: most clients first, at most 100, JSON, not cached, HEAD)
and GET /stats (room main's figures, plus every room's totals), with several rooms."""
import json

from client import Client, run
from raw_websocket import head_then_missing
from room_tools import add, handshake, request
from server import RunningServer, wait_until, wait_until_async


def test_rooms_lists_the_rooms_in_memory_most_clients_first():
    with RunningServer() as server:
        async def scenario():
            held = [Client(server.room(name)) for name in ["zeta", "zeta", "zeta", "beta", "delta", "alpha", "gamma"]]
            for client in held:
                await client.__aenter__()
            try:
                await add(held[3], 4)  # beta
                await add(held[4], 4)  # delta
                expected = [("zeta", 3, 0), ("beta", 1, 4), ("delta", 1, 4), ("alpha", 1, 0), ("gamma", 1, 0)]

                def mine():
                    return [(room["name"], room["clients"], room["cells"]) for room in server.rooms() if room["name"] != "main"]
                assert await wait_until_async(lambda: mine() == expected, timeout=5), mine()
                status, headers, body = request(server.port, "/rooms")
                assert status == 200
                assert headers["content-type"].startswith("application/json"), headers
                assert headers.get("cache-control") == "no-store", headers
                rooms = json.loads(body)["rooms"]
                for room in rooms:
                    assert isinstance(room["name"], str) and isinstance(room["settled"], bool), room
                    assert all(isinstance(room[key], int) and not isinstance(room[key], bool) for key in ("clients", "cells", "tick")), room
                order = [(-room["clients"], -room["cells"], room["name"]) for room in rooms]
                assert order == sorted(order), rooms
                assert len({room["name"] for room in rooms}) == len(rooms)
            finally:
                for client in held:
                    await client.__aexit__(None, None, None)
        run(scenario())
        # leaving shows at once in the counts
        assert wait_until(lambda: all(room["clients"] == 0 for room in server.rooms()), timeout=5), server.rooms()


def test_head_of_rooms_is_headers_only(server):
    head, rest = head_then_missing(server.port, "/rooms")
    assert head.startswith(b"HTTP/1.1 200 "), head
    assert b"application/json" in head.lower() and b"cache-control: no-store" in head.lower(), head
    assert rest.startswith(b"HTTP/1.1 404 "), rest[:100]


def test_rooms_lists_at_most_100():
    with RunningServer("--rooms-per-minute", "1000") as server:
        names = [f"r{n:03}" for n in range(104)]
        for name in names:
            assert handshake(server.port, f"/ws/{name}") == 101, name
        status, held = handshake(server.port, "/ws/zz-last", hold=True)
        try:
            assert status == 101
            assert wait_until(lambda: server.stats()["rooms"] >= 105, timeout=5), server.stats()
            rooms = server.rooms()
            assert len(rooms) == 100, len(rooms)
            assert rooms[0]["name"] == "zz-last" and rooms[0]["clients"] == 1, rooms[0]
            rest = [room["name"] for room in rooms[1:]]
            assert rest == sorted(rest) and all(room["clients"] == 0 and room["cells"] == 0 for room in rooms[1:])
        finally:
            held.close()


def test_stats_counts_every_room_and_main_alone():
    with RunningServer() as server:
        async def scenario():
            async with Client(server.ws) as m, Client(server.room("one")) as one, \
                    Client(server.room("two")) as two, Client(server.room("two")) as two_b:
                await add(m, 2)
                await add(one, 3)
                await add(two, 4)

                def figures():
                    stats = server.stats()
                    return {key: stats.get(key) for key in ("cells", "clients", "totalClients", "rooms", "totalCells")}
                expected = {"cells": 2, "clients": 1, "totalClients": 4, "rooms": 3, "totalCells": 9}
                assert await wait_until_async(lambda: figures() == expected, timeout=5), figures()
                # the WebSocket stats of room two: its own figures, the server's totals
                stats = await two_b.find(lambda m: m.get("type") == "stats" and m.get("cells") == 4 and m.get("totalCells") == 9)
                assert stats["room"] == "two" and stats["clients"] == 2 and stats["totalClients"] == 4 and stats["rooms"] == 3, stats
                assert stats["connections"] >= 4, stats
        run(scenario())
