"""Cell ids are never handed out twice, even across kill -9 (issue 9, item 4)."""
import json
import shutil

from client import Client, run
from server import RunningServer, wait_until


async def add_cells(running, adds=4, count=5):
    """`adds` adds of `count` cells in quick succession; the ids of every `added` event."""
    ids = []
    async with Client(running.ws) as client:
        for _ in range(adds):
            await client.send({"type": "add", "count": count})
            ids += (await client.event("added"))["ids"]
    return ids


def test_ids_are_never_handed_out_twice_across_kill_9(tmp_path):
    """Ten rounds: add cells, kill -9 at once (well inside the unsaved second), restart."""
    state = tmp_path / "layout.json"
    first_round = {}  # id -> the round that handed it out
    for round_ in range(10):
        with RunningServer("--state", str(state)) as running:
            ids = run(add_cells(running))
            running.stop()  # SIGKILL right after the last acknowledgement
        again = sorted(cell for cell in ids if cell in first_round)
        assert not again, f"round {round_} handed out again {again} (first in rounds {sorted({first_round[c] for c in again})})"
        assert len(set(ids)) == len(ids)
        first_round.update((cell, round_) for cell in ids)


def test_a_clean_restart_skips_no_ids(tmp_path):
    """SIGTERM writes the exact next id: numbering continues right after the last one."""
    state = tmp_path / "layout.json"
    with RunningServer("--state", str(state)) as running:
        before = run(add_cells(running, adds=2, count=3))
        assert running.terminate() == 0, running.log
    with RunningServer("--state", str(state)) as running:
        after = run(add_cells(running, adds=1, count=2))
    assert after == [max(before) + 1, max(before) + 2], (before, after)


def test_an_add_whose_ids_cannot_be_reserved_is_refused(tmp_path):
    """When the state file cannot be written, an add that needs a new reservation hands out
    nothing (`unavailable`); once it can, the add goes through."""
    state = tmp_path / "layout.json"

    def reservation():
        try:
            return json.loads(state.read_text()).get("reservation", 0)
        except (OSError, ValueError):
            return 0

    async def scenario(running, reserved):
        async with Client(running.ws) as client:
            # A folder in place of the file: every write fails at the rename.
            state.unlink()
            state.mkdir()
            (state / "keep").write_text("x")
            ids = []
            for count in (1000, reserved - 1 - 1000):  # exactly the ids reserved at start
                await client.send({"type": "add", "count": count})
                ids += (await client.event("added"))["ids"]
            assert ids == list(range(1, reserved))
            await client.send({"type": "add", "count": 1, "ref": "over"})
            error = await client.error("unavailable")
            assert error["ref"] == "over" and "state file" in error["message"], error
            assert not client.since(0, "event", kind="added", ids=[reserved])
            shutil.rmtree(state)
            await client.send({"type": "add", "count": 1})
            assert (await client.event("added"))["ids"] == [reserved]
            return reservation()

    with RunningServer("--state", str(state)) as running:
        assert wait_until(lambda: reservation() > 1), running.log
        reserved = reservation()
        written = run(scenario(running, reserved))
        assert written > reserved, "the add waited for its reservation to be written"
        running.stop()
        assert "saving state failed" in running.log, running.log
    with RunningServer("--state", str(state)) as running:
        assert run(add_cells(running, adds=1, count=1)) == [written]
