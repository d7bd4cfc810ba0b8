"""Running the server as a service: GET /metrics (Prometheus's text format, read with
prometheus_client's own parser), its guard, /healthz and /readyz through a drain, and the
1012 every client is closed with when the server stops."""
import asyncio
import shutil
import signal
import socket
import time

from prometheus_client.parser import text_string_to_metric_families

from client import Client, run
from raw_websocket import RawWebSocket
from room_tools import handshake, request
from server import RunningServer, wait_until

TOKEN = "metrics-token-0123456789abcdefghij"


def scrape(server, headers=None):
    """{(name, frozenset(labels)): value} of every sample, checked by Prometheus's parser."""
    status, headers_, body = request(server.port, "/metrics", headers=headers)
    assert status == 200, (status, body)
    assert headers_["content-type"].startswith("text/plain; version=0.0.4"), headers_["content-type"]
    samples = {}
    families = {}
    for family in text_string_to_metric_families(body.decode()):
        families[family.name] = family
        for sample in family.samples:
            samples[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return samples, families


def value(samples, name, **labels):
    return samples.get((name, frozenset(labels.items())), 0)


def test_metrics_parse_and_count_a_scripted_run():
    async def scenario(server):
        async with Client(server.room("ops"), subprotocols=("forcelayout.v1",)) as text, \
                Client(server.room("ops"), subprotocols=("forcelayout.v2",)) as binary:
            await text.send({"type": "add", "count": 3})
            await text.event("added")
            await text.send({"type": "params", "charge": 14})
            await text.event("params")
            await text.send("nope")
            await text.error("bad_json")
            await text.send({"type": "fly"})
            await text.error("unknown_type")
            await binary.frame_with([], timeout=10)
            await binary.socket.close(code=1000, reason="done")
            await text.socket.close(code=4000, reason="a status the server does not use")

    with RunningServer() as server:
        before, families = scrape(server)
        # every family is named as Prometheus's conventions say, and says what it counts
        for name, family in families.items():
            assert name.startswith(("forcelayout_", "process_")), name
            assert family.documentation, f"{name} has no HELP"
            if family.type == "counter":
                assert (name + "_total", frozenset()) in before or any(s[0] == name + "_total" for s in before), name
        assert families["forcelayout_step_seconds"].type == "histogram"
        assert value(before, "forcelayout_build_info", version=families["forcelayout_build_info"].samples[0].labels["version"],
                     build=families["forcelayout_build_info"].samples[0].labels["build"]) == 1

        run(scenario(server))
        assert handshake(server.port, "/ws/Not_A_Room!") == 404
        assert wait_until(lambda: value(scrape(server)[0], "forcelayout_closes_total", code="other") == 1, timeout=10)
        after, _ = scrape(server)

        def delta(name, **labels):
            return value(after, name, **labels) - value(before, name, **labels)
        assert delta("forcelayout_messages_received_total", type="add") == 1
        assert delta("forcelayout_messages_received_total", type="params") == 1
        assert delta("forcelayout_messages_received_total", type="invalid") == 2
        assert delta("forcelayout_messages_refused_total", code="bad_json") == 1
        assert delta("forcelayout_messages_refused_total", code="unknown_type") == 1
        assert delta("forcelayout_closes_total", code="1000") == 1
        assert delta("forcelayout_closes_total", code="other") == 1, "a client's own status: counted, not named"
        assert delta("forcelayout_handshakes_refused_total", status="404") == 1
        assert delta("forcelayout_frames_sent_total", form="binary") >= 1
        assert delta("forcelayout_frames_sent_total", form="text") >= 1
        assert delta("forcelayout_sent_bytes_total", form="text") > delta("forcelayout_messages_sent_total", form="text") * 10
        assert delta("forcelayout_sent_bytes_total", form="binary") > 0
        assert delta("forcelayout_step_seconds_count") >= 1
        assert delta("forcelayout_encode_seconds_count") >= 1
        assert value(after, "forcelayout_cells") == 3
        assert value(after, "forcelayout_rooms", state="moving") + value(after, "forcelayout_rooms", state="settled") >= 1
        assert value(after, "process_resident_memory_bytes") > 1e6


def local_address():
    """An address of this machine that is not loopback, or None."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the route's source
        address = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") else address


def test_metrics_are_for_the_admin_token_or_this_machine(tmp_path):
    token_file = tmp_path / "admin-token"
    token_file.write_text(TOKEN + "\n")
    with RunningServer("--admin-token-file", str(token_file)) as server:
        status, headers, body = request(server.port, "/metrics")
        assert status == 401 and headers["www-authenticate"] == "Bearer", (status, body)
        assert b"admin token" in body
        status, _, body = request(server.port, "/metrics", headers={"Authorization": "Bearer " + "x" * 40})
        assert status == 403, (status, body)
        scrape(server, {"Authorization": "Bearer " + TOKEN})
        assert TOKEN not in server.log

    address = local_address()
    if address is None:
        return  # a machine with loopback only: the guard's other half is XCTest's (OperatorAccess)
    with RunningServer() as server:  # a request from this machine's other address stands for another machine's
        status, _, body = request(server.port, "/metrics", source=address)
        assert status == 403 and b"only this machine" in body, (status, body)
        status, _, _ = request(server.port, "/healthz", source=address)
        assert status == 200
        scrape(server)  # from 127.0.0.1


def test_healthz_and_readyz_through_a_drain(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    with RunningServer("--state-dir", str(state), "--drain-seconds", "5") as server:
        status, _, body = request(server.port, "/healthz")
        assert status == 200 and b'"alive":true' in body
        status, _, body = request(server.port, "/readyz")
        assert (status, body) == (200, b'{"ready":true}')

        # a state folder that went away: not ready, and it says why
        shutil.move(str(state), str(tmp_path / "moved"))
        status, _, body = request(server.port, "/readyz")
        assert status == 503 and b"state folder is not writable" in body, body
        shutil.move(str(tmp_path / "moved"), str(state))
        assert request(server.port, "/readyz")[0] == 200

        closes = []

        async def watcher():
            async with Client(server.room("drain")) as client:
                closes.append(client)
                while client.closed is None:
                    await asyncio.sleep(0.05)

        stuck = RawWebSocket(server.port, path="/ws/drain")  # holds the drain open: it never reads its close
        loop = asyncio.new_event_loop()
        task = loop.create_task(watcher())
        loop.run_until_complete(asyncio.sleep(1))
        started = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        assert wait_until(lambda: request(server.port, "/readyz")[0] == 503, timeout=2)
        assert time.monotonic() - started < 1, "/readyz turns 503 at once"
        status, _, body = request(server.port, "/readyz")
        assert b"draining" in body, body
        assert request(server.port, "/healthz")[0] == 200, "alive while it drains"
        assert handshake(server.port, "/ws/late") == 503
        loop.run_until_complete(asyncio.wait_for(task, 10))
        assert closes[0].closed[0] == 1012, closes[0].closed
        assert closes[0].closed[1] == "server restarting: reconnect"
        assert server.wait(timeout=10) == 0, server.log
        assert time.monotonic() - started < 6, "--drain-seconds bounds the stop"
        stuck.close()
        loop.close()
        assert "draining" in server.log


def test_drain_seconds_is_checked():
    for bad in ("0", "3601", "x"):
        server = RunningServer("--drain-seconds", bad, expect_failure=True)
        assert server.wait() != 0
        assert "--drain-seconds" in server.log or "drain-seconds" in server.log, server.log
