"""Who may open a WebSocket: same-site pages and tools, never a cross-site page, a
DNS-rebinding page or one client more than --max-clients."""
import asyncio
import socket

from client import Client, run
from raw_websocket import status_line, upgrade_request
from server import RunningServer, wait_until


def handshake(port, origin=None, host=None, path="/ws"):
    """Status line of a raw WebSocket handshake with exactly these headers."""
    request = upgrade_request(port, "dGhlIHNhbXBsZSBub25jZQ==", path=path, host=host, origin=origin)
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(request)
        return status_line(connection).decode(errors="replace")


def status(line):
    parts = line.split()
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None


def test_same_site_pages_and_tools_are_served(server):
    assert status(handshake(server.port)) == 101
    assert status(handshake(server.port, origin=f"http://127.0.0.1:{server.port}")) == 101
    assert status(handshake(server.port, origin=f"http://localhost:{server.port}", host=f"localhost:{server.port}")) == 101


def test_cross_site_pages_are_refused_with_403(server):
    for origin in ["http://evil.example", f"http://127.0.0.1:{server.port + 1}", "null",
                   f"http://127.0.0.1:{server.port}.evil.example"]:
        assert status(handshake(server.port, origin=origin)) == 403, origin
    assert wait_until(lambda: "cross-site Origin http://evil.example" in server.log), server.log
    # and nothing of the layout was reachable: the server still has no clients
    assert "c1 connected" not in server.log


def test_dns_rebinding_is_refused_on_loopback(server):
    rebound = f"rebind.example:{server.port}"
    assert status(handshake(server.port, origin=f"http://{rebound}", host=rebound)) == 403
    assert status(handshake(server.port, host=rebound)) == 403


def test_allow_origin_adds_origins():
    with RunningServer("--allow-origin", "https://dash.example.com") as server:
        assert status(handshake(server.port, origin="https://dash.example.com")) == 101
        assert status(handshake(server.port, origin="https://other.example.com")) == 403
    refused = RunningServer("--allow-origin", "dash.example.com", expect_failure=True)
    assert refused.wait() != 0
    assert "--allow-origin dash.example.com: expected scheme://host[:port]" in refused.log


def test_one_client_more_than_max_clients_is_refused_with_503():
    async def scenario(server):
        async with Client(server.ws) as first, Client(server.ws) as second:
            assert first.hello["limits"]["maxClients"] == 2
            assert status(handshake(server.port)) == 503
            # the log line may reach the pipe after the 503 reaches us
            assert wait_until(lambda: "2 clients already (--max-clients)" in server.log), server.log
            await second.send({"type": "add"})  # the others are unaffected
            await first.event("added")
        # once one leaves there is room again
        assert wait_until(lambda: "c2 disconnected" in server.log)
        async with Client(server.ws) as third:
            assert third.hello["clients"] == 1
    with RunningServer("--max-clients", "2") as server:
        run(scenario(server))


def test_exposed_bind_is_logged_as_a_choice():
    """Off loopback, new rooms are view rooms by default (anyone watches, edit links change
    them), and plain http is warned about: links would cross the network in clear."""
    server = RunningServer("--host", "0.0.0.0", expect_failure=True)
    try:
        assert wait_until(lambda: "listening on" in server.log, timeout=20), server.log
        assert "rooms made from now on are view (anyone may watch; edit links change them): --default-access" in server.log
        assert "over plain http: room links and the admin token cross the network in clear" in server.log
    finally:
        server.stop()
    server = RunningServer("--host", "0.0.0.0", "--default-access", "open", expect_failure=True)
    try:
        assert wait_until(lambda: "not loopback only, with --default-access open" in server.log, timeout=20), server.log
    finally:
        server.stop()


def test_limits_are_flags_and_reported_in_hello():
    flags = ["--max-cells", "500", "--max-add-per-message", "50", "--max-message-bytes", "4096",
             "--messages-per-second", "5", "--message-burst", "8", "--replay-buffer", "16", "--replay-bytes", "50000", "--max-event-backlog", "64",
             "--max-clients", "9", "--max-connections", "40", "--max-connections-per-address", "20",
             "--max-queued-bytes", "100000", "--request-timeout", "7", "--max-rooms", "12",
             "--rooms-per-minute", "3", "--max-total-cells", "700", "--room-idle-seconds", "30", "--max-links", "77",
             "--max-exports-per-address", "3", "--max-export-bytes", "2000000", "--undo-depth", "9",
             "--history-bytes", "1000000", "--history-seconds", "3600", "--history-batch", "20"]

    async def scenario(server):
        async with Client(server.ws) as client:
            assert client.hello["limits"] == {"maxCells": 500, "maxAddPerMessage": 50, "maxLinks": 77, "maxMessageBytes": 4096, "maxAttrBytes": 1024,
                                              "replayBuffer": 16, "replayBytes": 50000, "historyBytes": 1000000, "historySeconds": 3600,
                                              "historyBatch": 20, "messagesPerSecond": 5, "messageBurst": 8,
                                              "maxEventBacklog": 64, "maxClients": 9, "maxConnections": 40,
                                              "maxConnectionsPerAddress": 20, "maxQueuedBytes": 100000,
                                              "requestTimeout": 7, "maxRooms": 12, "roomsPerMinute": 3, "maxRoomsPerAddress": 12,
                                              "maxTotalCells": 700, "roomIdleSeconds": 30,
                                              "maxExportsPerAddress": 3, "maxExportBytes": 2000000, "undoDepth": 9}
            await client.send({"type": "add", "count": 51})
            assert "50" in (await client.error("limit"))["message"]
            for _ in range(12):
                await client.send({"type": "subscribe"})
            await client.error("rate_limited")
    with RunningServer(*flags) as server:
        run(scenario(server))
    for flags, named in [(["--max-add-per-message", "0"], "--max-add-per-message"),
                         (["--max-clients", "50", "--max-connections", "40"], "--max-connections"),
                         (["--max-connections-per-address", "0"], "--max-connections-per-address"),
                         (["--max-queued-bytes", "1000"], "--max-queued-bytes"),
                         (["--request-timeout", "0"], "--request-timeout"),
                         (["--max-rooms", "0"], "--max-rooms"),
                         (["--rooms-per-minute", "0"], "--rooms-per-minute"),
                         (["--max-total-cells", "0"], "--max-total-cells"),
                         (["--room-idle-seconds", "0"], "--room-idle-seconds"),
                         (["--room-forget-seconds", "0"], "--room-forget-seconds"),
                         (["--step-threads", "0"], "--step-threads")]:
        bad = RunningServer(*flags, expect_failure=True)
        assert bad.wait() != 0 and named in bad.log, flags


def http_status(port, path, host=None, origin=None):
    """Status of a plain GET with exactly this Host (and Origin, if given)."""
    lines = [f"GET {path} HTTP/1.1", f"Host: {host or f'127.0.0.1:{port}'}"]
    if origin is not None:
        lines.append(f"Origin: {origin}")
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        return status(status_line(connection).decode(errors="replace"))


ENDPOINTS = ["/rooms", "/stats", "/export/main.json", "/export/main.gexf", "/", "/index.html", "/r/main", "/r/main.js"]


def test_one_origin_rule_for_every_endpoint(server):
    """DNS rebinding and cross-site pages get 403 from every endpoint, files included, and the
    same requests with a loopback Host are served."""
    run(add_one(server))
    rebound = f"rebind.example:{server.port}"
    for path in ENDPOINTS:
        assert http_status(server.port, path) == 200, path
        assert http_status(server.port, path, host=f"localhost:{server.port}") == 200, path
        assert http_status(server.port, path, host=rebound) == 403, path
        assert http_status(server.port, path, host=rebound, origin=f"http://{rebound}") == 403, path
        assert http_status(server.port, path, origin="http://evil.example") == 403, path
    assert status(handshake(server.port, host=rebound)) == 403
    assert wait_until(lambda: "refused GET /rooms" in server.log and "not a loopback name" in server.log), server.log


def test_exposed_server_takes_any_host():
    """Listening beyond loopback, the Host names whatever the clients reached it by."""
    server = RunningServer("--host", "0.0.0.0", expect_failure=True)
    try:
        assert wait_until(lambda: f"listening on http://0.0.0.0:{server.port}/" in server.log, timeout=20), server.log
        for path in ["/rooms", "/stats", "/"]:
            assert http_status(server.port, path, host="layout.example") == 200, path
    finally:
        server.stop()


async def add_one(server):
    async with Client(server.ws) as client:
        await client.send({"type": "add", "count": 1})
        await client.event("added", by=client.id)


def offer_status(port, offer):
    """(status, body) of a handshake whose Sec-WebSocket-Protocol header is exactly `offer`."""
    request = upgrade_request(port, "dGhlIHNhbXBsZSBub25jZQ==", subprotocol=offer)
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(request)
        reply = b""
        while True:
            chunk = connection.recv(65536)
            if not chunk:
                break
            reply += chunk
            if reply.startswith(b"HTTP/1.1 101"):
                break
    head = reply.split(b"\r\n")[0].decode(errors="replace")
    return status(head), reply


def test_subprotocol_offers_nobody_speaks_get_400(server):
    for offer, reason in [("chat", b"unknown subprotocol"), ("chat, superchat", b"unknown subprotocol"),
                          ("forcelayout.v3", b"unknown subprotocol"), ("FORCELAYOUT.V1", b"unknown subprotocol"),
                          ("forcelayout.v1 x", b"malformed"), ("a/b, forcelayout.v1", b"malformed"),
                          ("forcelayout.v1;q=1", b"malformed"), ('"forcelayout.v1"', b"malformed"),
                          (", ".join(f"p{i}" for i in range(9)) + ", forcelayout.v1", b"too many"),
                          (",".join(["a"] * 200), b"too long"), ("x" * 64 + ", forcelayout.v1", b"malformed")]:
        code, reply = offer_status(server.port, offer)
        assert code == 400, (offer, reply[:300])
        assert reason in reply, (offer, reply[:500])
    assert wait_until(lambda: "no subprotocol offered is spoken here" in server.log), server.log


def test_an_offer_naming_one_we_speak_gets_it(server):
    for offer, chosen in [("chat, forcelayout.v2", b"forcelayout.v2"), ("chat,forcelayout.v1,forcelayout.v2", b"forcelayout.v1"),
                          (" forcelayout.v2 ,, chat ", b"forcelayout.v2"),
                          (", ".join(f"p{i}" for i in range(7)) + ",forcelayout.v1", b"forcelayout.v1")]:
        code, reply = offer_status(server.port, offer)
        assert code == 101, (offer, reply[:300])
        assert b"Sec-WebSocket-Protocol: " + chosen in reply, (offer, reply[:300])


def test_offers_on_many_header_lines_get_400_too(server):
    """Forty Sec-WebSocket-Protocol lines are one offer of forty names (libwebsockets joins
    them): too many. (Past about 80 header lines libwebsockets cuts the head itself, without a
    status, as it does a head over 4096 bytes: see docs/protocol.md.)"""
    lines = "".join("Sec-WebSocket-Protocol: chat\r\n" for _ in range(40))
    request = (f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n{lines}\r\n")
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as connection:
        connection.sendall(request.encode())
        assert status(status_line(connection).decode(errors="replace")) == 400
