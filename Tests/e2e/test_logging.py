"""The server's log (issue 28): `--log-level` says the least a line must weigh to be written;
a level that is none stops start-up, naming the levels. `--log-format json` writes each line as
one JSON object (time, level, label, message) for tools."""
import json

from client import Client, run
from room_tools import add
from server import RunningServer

LEVELS = ("trace", "debug", "info", "notice", "warning", "error", "critical")


def test_log_level_is_a_flag_and_warning_leaves_out_each_connection():
    bad = RunningServer("--log-level", "loud", expect_failure=True)
    assert bad.wait() == 64 and f"--log-level must be one of {', '.join(LEVELS)}" in bad.log, bad.log
    for level, said in (("info", True), ("warning", False)):
        with RunningServer("--log-level", level) as server:
            async def go():
                async with Client(server.room("quiet")) as a:
                    await add(a, 1)
            run(go())
            assert server.terminate() == 0, server.log
            assert ("connected from" in server.log) is said, (level, server.log)


def test_log_format_json_writes_one_object_a_line_with_stable_keys():
    bad = RunningServer("--log-format", "xml", expect_failure=True)
    assert bad.wait() == 64 and "--log-format must be text or json" in bad.log, bad.log
    with RunningServer("--log-format", "json") as server:
        async def go():
            async with Client(server.room("tools")) as a:
                await add(a, 2)
        run(go())
        assert server.terminate() == 0, server.log
    lines = [line for line in server.log.splitlines() if line and not line.startswith("listening on ")]
    records = [json.loads(line) for line in lines]
    assert records and all({"time", "level", "label", "message"} <= set(r) for r in records), lines
    assert all(r["time"].endswith("Z") and r["level"] in LEVELS for r in records), lines
    assert any("connected from" in r["message"] for r in records) and any(r["message"] == "stopped" for r in records), lines
