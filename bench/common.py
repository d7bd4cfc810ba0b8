"""What the bench drivers (run.py, page.py, load.py, load_rooms.py, attack.py) share: the
launcher of the real server and the binary's path (from Tests/e2e/server.py, the one every
suite uses), argument types, a process's figures from /proc, and the header line that says
where and on what a run was made. Stdlib only."""
import argparse
import datetime
import os
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

sys.path.insert(0, str(ROOT / "Tests" / "e2e"))
from server import RunningServer, ServerDidNotStart, find_binary, free_port, wait_until  # noqa: E402,F401


def positive_int(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}")
    if value < 1:
        raise argparse.ArgumentTypeError("must be >= 1")
    return value


def positive_float(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}")
    if not value > 0:
        raise argparse.ArgumentTypeError("must be > 0")
    return value


def int_list(text):
    """"1000,10000" -> [1000, 10000]; every value >= 1."""
    values = [positive_int(part.strip()) for part in text.split(",") if part.strip()]
    if not values:
        raise argparse.ArgumentTypeError("no sizes")
    return values


def proc_figures(pid):
    """(open descriptors, CPU seconds (user + system), RSS MB) of process `pid`, from /proc."""
    fds = len(os.listdir(f"/proc/{pid}/fd"))
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    with open(f"/proc/{pid}/status") as status:
        rss = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024
    return fds, cpu, rss


def machine_busy_seconds():
    """CPU seconds the whole machine has spent busy (the `cpu` line of /proc/stat but idle and
    iowait), to set against one process's share of a window on this shared machine."""
    with open("/proc/stat") as stat:
        ticks = [int(value) for value in next(line for line in stat if line.startswith("cpu ")).split()[1:9]]
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


def commit():
    """The checkout's short commit, "+changes" when Sources/ or Public/ differ from it."""
    try:
        done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                              capture_output=True, text=True, timeout=10)
        name = done.stdout.strip() if done.returncode == 0 else "unknown"
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "Public", "Sources"],
                               cwd=ROOT, capture_output=True, text=True, timeout=10)
        if dirty.returncode == 0 and dirty.stdout.strip():
            name += "+changes"
        return name
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"


def header(title, extra=""):
    """"forcelayout bench: 2026-11-21 16:00 UTC, nproc 2, commit abc1234, x86_64 (avx2 build), load …"."""
    now = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    # The Makefile sets FORCELAYOUT_NATIVE when it builds the engine for this CPU (Package.swift).
    build = f"{os.environ['FORCELAYOUT_NATIVE']} build" if os.environ.get("FORCELAYOUT_NATIVE") else "portable build"
    line = (f"{title}: {now}, nproc {os.cpu_count()}, commit {commit()}, {platform.machine()} ({build}), "
            f"load {load}")
    return f"{line}; {extra}" if extra else line


def exit_status(failures):
    """Prints the failures (stderr), one a line, and returns the exit status: 1 if any, else 0."""
    if not failures:
        return 0
    print(f"\n{len(failures)} failure(s):", file=sys.stderr)
    for failure in failures:
        print(f"- {failure}", file=sys.stderr)
    return 1
