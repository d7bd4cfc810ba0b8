"""Start-up, shutdown and --state persistence of the real binary."""
import asyncio
import json
import signal
import time

from client import Client, positions, run
from server import RunningServer, wait_until, wait_until_async


def test_sigterm_closes_clients_with_1012_and_exits_0():
    async def scenario(running):
        async with Client(running.ws) as client:
            running.process.send_signal(signal.SIGTERM)
            await wait_until_async(lambda: client.closed, timeout=5)
            assert client.closed and client.closed[0] == 1012, client.closed
    with RunningServer() as running:
        run(scenario(running))
        assert running.wait() == 0, running.log


def test_sigint_exits_0():
    with RunningServer() as running:
        assert running.terminate(signal.SIGINT) == 0, running.log


def test_port_in_use_fails_clearly():
    with RunningServer() as first:
        second = RunningServer(port=first.port, expect_failure=True)
        code = second.wait()
        assert code != 0
        assert str(first.port) in second.log, second.log


def test_log_lines_for_connections_and_rejections():
    async def scenario(running):
        async with Client(running.ws) as client:
            await client.send("nope")
            await client.error("bad_json")
    with RunningServer() as running:
        run(scenario(running))
        running.terminate()
        assert "connected" in running.log and "disconnected" in running.log, running.log
        assert "rejected message" in running.log and "bad_json" in running.log, running.log


def test_state_survives_a_restart(tmp_path):
    state = tmp_path / "layout.json"

    async def build(running):
        async with Client(running.ws) as client:
            await client.send({"type": "params", "charge": 14, "paused": True})
            await client.event("params")
            await client.send({"type": "add", "count": 5})
            ids = (await client.event("added"))["ids"]
            await client.send({"type": "remove", "ids": [ids[-1]]})
            await client.event("removed")
            await client.send({"type": "pin", "id": ids[0], "x": 50, "y": 60})
            await client.event("pinned")
            # The pin moved a cell: a frame shows it (one written before the pin's turn ended,
            # the remove's, may come first on a busy machine).
            def held(message):
                return message.get("type") == "frame" and \
                    positions({"ids": message.get("ids", ids[:-1]), "xy": message["xy"]})[ids[0]] == (50, 60)
            frame = await client.find(held)
            return ids, positions({"ids": frame.get("ids", ids[:-1]), "xy": frame["xy"]})

    async def check(running, ids, before):
        async with Client(running.ws) as client:
            assert client.hello["params"]["charge"] == 14 and client.hello["params"]["paused"] is True
            frame = await client.next("frame")
            assert sorted(frame["ids"]) == sorted(ids[:-1])
            after = positions(frame)
            assert after[ids[0]] == (50, 60)
            for cell in ids[:-1]:
                assert abs(after[cell][0] - before[cell][0]) <= 0.11 and abs(after[cell][1] - before[cell][1]) <= 0.11
            await client.send({"type": "add", "count": 1})
            fresh = (await client.event("added"))["ids"]
            assert fresh[0] > max(ids), "ids continue after the highest, never reused"

    with RunningServer("--state", str(state)) as running:
        ids, before = run(build(running))
        assert running.terminate() == 0, running.log
    saved = json.loads(state.read_text())
    assert saved["format"] == "forcelayout-state"
    with RunningServer("--state", str(state)) as running:
        run(check(running, ids, before))


def test_state_is_saved_within_about_a_second(tmp_path):
    state = tmp_path / "layout.json"

    async def scenario(running):
        async with Client(running.ws) as client:
            await client.send({"type": "add", "count": 3})
            await client.event("added")
    with RunningServer("--state", str(state)) as running:
        run(scenario(running))
        assert wait_until(lambda: state.exists() and len(json.loads(state.read_text())["layout"]["cells"]) == 3, 3)
        running.stop()  # SIGKILL: what was saved stays


def test_corrupt_state_stops_startup_and_is_untouched(tmp_path):
    state = tmp_path / "layout.json"
    for content in ['{"format": "something-else", "version": 1}', "not json at all", '{"format":"forcelayout-state","version":99}']:
        state.write_text(content)
        running = RunningServer("--state", str(state), expect_failure=True)
        assert running.wait() != 0
        assert "state file" in running.log, running.log
        assert state.read_text() == content


def test_kill_9_loses_at_most_the_last_second(tmp_path):
    """Changes keep coming; after SIGKILL the restored state holds everything acknowledged
    more than a second (plus scheduling slack) before the kill."""
    state = tmp_path / "layout.json"
    acknowledged = []  # (monotonic time, charge) of each params event

    async def stream(running):
        async with Client(running.ws) as client:
            for step in range(1, 41):
                await client.send({"type": "params", "charge": step})
                await client.event("params", changed=["charge"])
                acknowledged.append((time.monotonic(), step))
                await asyncio.sleep(0.08)
            running.stop()  # SIGKILL right after the last acknowledgement
    killed_at = None
    with RunningServer("--state", str(state)) as running:
        run(stream(running))
        killed_at = time.monotonic()
    restored = json.loads(state.read_text())["layout"]["parameters"]["charge"]
    safe = max(step for at, step in acknowledged if at <= killed_at - 1.25)
    assert restored >= safe, (restored, safe)


def test_sigterm_loses_nothing(tmp_path):
    state = tmp_path / "layout.json"

    async def change(running):
        async with Client(running.ws) as client:
            await client.send({"type": "add", "count": 7})
            await client.event("added")
            await client.send({"type": "params", "charge": 33})
            await client.event("params")
            assert running.terminate() == 0  # at once: no second for the periodic save
    with RunningServer("--state", str(state)) as running:
        run(change(running))
    saved = json.loads(state.read_text())["layout"]
    assert len(saved["cells"]) == 7 and saved["parameters"]["charge"] == 33
