"""Cell ids are never handed out twice, even across kill -9, and crashed writes leave no
temporary state files behind (issue 9, items 4 and 5)."""
import json
import os
import shutil
import signal
import subprocess

from client import Client, run
from server import RunningServer
from waiting import wait_until_async


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

    async def scenario(running):
        async with Client(running.ws) as client:
            # Room main opens with its first client, and reserves a block at once.
            assert await wait_until_async(lambda: reservation() > 1), running.log
            reserved = reservation()
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
            return reserved, reservation()

    with RunningServer("--state", str(state)) as running:
        reserved, written = run(scenario(running))
        assert written > reserved, "the add waited for its reservation to be written"
        running.stop()
        # A folder in place of the file: not the file this server wrote, so it is left alone.
        assert "not saving" in running.log or "saving state failed" in running.log, running.log
    with RunningServer("--state", str(state)) as running:
        assert run(add_cells(running, adds=1, count=1)) == [written]


def dead_pid():
    """The pid of a process that has ended (and been reaped)."""
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def test_stale_temporary_state_files_are_removed_at_start(tmp_path):
    state = tmp_path / "layout.json"
    dead = dead_pid()
    stale = [tmp_path / f".layout.json.{dead}.tmp", tmp_path / f".layout.json.{dead_pid()}.tmp"]
    kept = [
        tmp_path / f".layout.json.{os.getpid()}.tmp",   # a live process's write in progress
        tmp_path / f".other.json.{dead}.tmp",           # another state file's
        tmp_path / f"layout.json.{dead}.tmp",           # no leading dot
        tmp_path / f".layout.json.{dead}.tmp.bak",
        tmp_path / f".layout.json.{dead}.tmpx",
        tmp_path / ".layout.json.abc.tmp",
        tmp_path / f".layout.json.0{dead}.tmp",         # not how a pid is written
        tmp_path / f".layout.json.-{dead}.tmp",
        tmp_path / "notes.txt",
    ]
    for path in stale + kept:
        path.write_text(f"content of {path.name}")
    folder = tmp_path / f".layout.json.{dead_pid()}.tmp"  # our name, but a folder: not a file we wrote
    folder.mkdir()
    (folder / "inside").write_text("x")
    with RunningServer("--state", str(state)) as running:
        assert running.terminate() == 0, running.log
    for path in stale:
        assert not path.exists(), path
        assert path.name in running.log, running.log
    for path in kept:
        assert path.read_text() == f"content of {path.name}", path
    assert (folder / "inside").read_text() == "x"
    assert sorted(p.name for p in tmp_path.glob(".layout.json.*.tmp")) == sorted(
        [folder.name] + [p.name for p in kept if p.name.startswith(".layout.json.") and p.name.endswith(".tmp")])


def test_a_crash_mid_write_leaves_nothing_after_the_next_start(tmp_path):
    """A server killed while it writes leaves its temporary file; the next start removes it."""
    state = tmp_path / "layout.json"
    with RunningServer("--state", str(state)) as running:
        run(add_cells(running, adds=1, count=1))
        pid = running.process.pid
        running.process.send_signal(signal.SIGSTOP)
        # Stand in for the half-written file its write would leave at this instant.
        (tmp_path / f".layout.json.{pid}.tmp").write_text('{"format":"forcelayout-st')
        running.stop()
    with RunningServer("--state", str(state)) as running:
        assert running.terminate() == 0, running.log
    # Beside the state file: its client ids' reservation and its history, nothing else.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["layout.history", "layout.json", "layout.json.clients"], \
        list(tmp_path.iterdir())
