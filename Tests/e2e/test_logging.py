"""The server's log (issue 28): `--log-level` says the least a line must weigh to be written;
a level that is none stops start-up, naming the levels."""
from client import Client, run
from room_tools import add
from server import RunningServer


def test_log_level_is_a_flag_and_warning_leaves_out_each_connection():
    bad = RunningServer("--log-level", "loud", expect_failure=True)
    assert bad.wait() == 64 and "--log-level must be one of trace, debug, info, notice, warning, error, critical" in bad.log, bad.log
    for level, said in (("info", True), ("warning", False)):
        with RunningServer("--log-level", level) as server:
            async def go():
                async with Client(server.room("quiet")) as a:
                    await add(a, 1)
            run(go())
            assert server.terminate() == 0, server.log
            assert ("connected from" in server.log) is said, (level, server.log)
