"""Starts the real forcelayout binary on a free loopback port for a test."""
import os
import pathlib
import signal
import socket
import subprocess
import threading
import time

REPO = pathlib.Path(__file__).resolve().parents[2]
BINARY = os.environ.get("FORCELAYOUT_BIN", str(REPO / ".build" / "debug" / "forcelayout"))


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class RunningServer:
    """A server process; its output is collected so tests can read the log."""

    def __init__(self, *extra, port=None, public=None, expect_failure=False):
        self.port = port or free_port()
        self.args = [BINARY, "serve", "--host", "127.0.0.1", "--port", str(self.port),
                     "--public", str(public or REPO / "Public"), *extra]
        self.output = []
        self.process = subprocess.Popen(self.args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.listening = threading.Event()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        if not expect_failure:
            if not self.listening.wait(30):
                self.stop()
                raise RuntimeError("server did not start:\n" + self.log)

    def _read(self):
        for line in self.process.stdout:
            self.output.append(line)
            if line.startswith(f"listening on http://127.0.0.1:{self.port}/"):
                self.listening.set()

    @property
    def log(self):
        return "".join(self.output)

    @property
    def http(self):
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self):
        return f"ws://127.0.0.1:{self.port}/ws"

    def wait(self, timeout=15):
        code = self.process.wait(timeout)
        self.reader.join(5)
        return code

    def terminate(self, sig=signal.SIGTERM, timeout=15):
        if self.process.poll() is None:
            self.process.send_signal(sig)
        return self.wait(timeout)

    def stop(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def wait_until(predicate, timeout=10, interval=0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return predicate()
