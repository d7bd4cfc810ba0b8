"""The one launcher of the real forcelayout binary. The end-to-end suite (conftest.py), the
browser tests (Tests/web/test_browser.py) and the bench drivers (bench/common.py) all start
`forcelayout serve` through `RunningServer`, and find the binary with `find_binary`.
Stdlib only, for /usr/bin/python3."""
import json
import os
import pathlib
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import urllib.request

from waiting import wait_until, wait_until_async  # noqa: F401  (tests import them from here too)

REPO = pathlib.Path(__file__).resolve().parents[2]


def find_binary(build="debug"):
    """$FORCELAYOUT_BIN (a relative path is taken from the checkout's root), else the checkout's
    .build/<build>/forcelayout."""
    chosen = os.environ.get("FORCELAYOUT_BIN")
    if not chosen:
        return REPO / ".build" / build / "forcelayout"
    path = pathlib.Path(chosen)
    return path if path.is_absolute() else REPO / path


BINARY = str(find_binary())


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class ServerDidNotStart(RuntimeError):
    """The server exited, or did not print its `listening on` line in time."""


class RunningServer:
    """`forcelayout serve --host 127.0.0.1 --port PORT --public <checkout>/Public *extra`, on a
    free loopback port unless `port` is given, started at once and waited for until it prints
    `listening on`. What it prints is collected in `log`.

    binary: the executable (default: the debug build, or $FORCELAYOUT_BIN).
    prefix: a command to run it under, such as ["prlimit", "--nofile=512:512"].
    workdir: run it in a temporary directory of its own, kept across restarts, so whatever it
        writes there (saved state) stays out of the checkout.
    log_file: its log (stderr) goes to this file rather than through a pipe, so however much it
        logs it never waits for a reader; True: a file in a temporary directory of its own.
    own_session: its own process group, out of reach of a terminal's Ctrl-C; a kill takes
        whatever it started too.
    expect_failure: do not wait for it to listen (read `wait()` and `log`).
    env: environment variables added to this process's own (such as a Redis password).
    start_timeout: seconds to wait for `listening on` before ServerDidNotStart.

    Stopping: stop() kills it at once (SIGKILL; what the end of a `with` block does);
    terminate(sig) sends a signal and returns the exit status; shutdown() sends SIGTERM and
    kills it if it has not exited in time. close() shuts it down and removes its temporary
    directories (as does the end of a `with`). start() starts it again, on the same port.
    """

    def __init__(self, *extra, port=None, public=None, binary=None, prefix=(), workdir=False,
                 log_file=None, own_session=False, expect_failure=False, start_timeout=30, env=None):
        self.port = port or free_port()
        self.args = [*prefix, str(binary or BINARY), "serve", "--host", "127.0.0.1", "--port", str(self.port),
                     "--public", str(public or REPO / "Public"), *extra]
        self.own_session = own_session
        self.env = {**os.environ, **env} if env else None
        self.start_timeout = start_timeout
        self.output = []
        self.process = None
        self.temporaries = []
        self.workdir = self._temporary("forcelayout-server-") if workdir else None
        if log_file is True:
            log_file = self._temporary("forcelayout-log-") / "server.log"
        self.log_file = pathlib.Path(log_file) if log_file else None
        for attempt in range(3):
            try:
                self.start(wait=not expect_failure)
                break
            except ServerDidNotStart:
                # free_port's port can be taken between its probe and the server's bind (by a
                # server or a client of a test running beside this one): another free port.
                if port or attempt == 2 or "cannot listen on" not in self.log:
                    raise
                self.port = free_port()
                self.args[self.args.index("--port") + 1] = str(self.port)
                self.output = []

    def _temporary(self, prefix):
        path = pathlib.Path(tempfile.mkdtemp(prefix=prefix))
        self.temporaries.append(path)
        return path

    def start(self, wait=True):
        """Starts the process (again, after it stopped); with `wait`, returns once it listens."""
        stderr = subprocess.STDOUT
        if self.log_file:
            stderr = open(self.log_file, "a" if self.process else "w")
        try:
            self.process = subprocess.Popen(self.args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                            stderr=stderr, text=True, cwd=self.workdir, env=self.env,
                                            start_new_session=self.own_session)
        finally:
            if self.log_file:
                stderr.close()
        self.listening = threading.Event()
        self.reader = threading.Thread(target=self._read, args=(self.process, self.listening), daemon=True)
        self.reader.start()
        if wait:
            wait_until(lambda: self.listening.is_set() or self.process.poll() is not None,
                       self.start_timeout, interval=0.1)
            if not self.listening.is_set():
                code = self.process.poll()
                self.stop()
                raise ServerDidNotStart(f"server did not start (exit code {code}): {' '.join(self.args)}\n"
                                        + self.log[-4000:])
        return self

    def _read(self, process, listening):
        # Reads to the end, so the server never blocks on a full pipe.
        # Whatever the address (--host 0.0.0.0 too): this port's banner.
        for line in process.stdout:
            self.output.append(line)
            if line.startswith(("listening on http://", "listening on https://")) and line.rstrip().endswith(f":{self.port}/"):
                listening.set()

    @property
    def log(self):
        text = "".join(self.output)
        if self.log_file and self.log_file.exists():
            text += self.log_file.read_text(errors="replace")
        return text

    @property
    def pid(self):
        return self.process.pid

    @property
    def http(self):
        return f"http://127.0.0.1:{self.port}"

    @property
    def url(self):
        return self.http + "/"

    @property
    def ws(self):
        return f"ws://127.0.0.1:{self.port}/ws"

    def room(self, name):
        """The WebSocket address of room `name` (`/ws/NAME`; `/ws` is room `main`)."""
        return f"{self.ws}/{name}"

    def stats(self):
        """GET /stats, as JSON."""
        with urllib.request.urlopen(self.http + "/stats", timeout=5) as reply:
            return json.load(reply)

    def rooms(self):
        """GET /rooms: the rooms in memory, as a list of {name, clients, cells, settled, tick}."""
        with urllib.request.urlopen(self.http + "/rooms", timeout=5) as reply:
            return json.load(reply)["rooms"]

    def wait(self, timeout=15):
        code = self.process.wait(timeout)
        self.reader.join(5)
        return code

    def terminate(self, sig=signal.SIGTERM, timeout=15):
        if self.process.poll() is None:
            self.process.send_signal(sig)
        return self.wait(timeout)

    def stop(self):
        if self.process and self.process.poll() is None:
            self._kill()
            self.process.wait(10)
        if self.process:
            self.reader.join(5)  # so `log` holds everything the process printed

    def shutdown(self, timeout=10):
        """SIGTERM (clients closed with 1012, state saved), SIGKILL after `timeout` seconds."""
        if self.process is None:
            return None
        try:
            return self.terminate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self._kill()
            return self.wait(5)

    def _kill(self):
        if self.own_session:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        else:
            self.process.kill()

    def close(self):
        self.shutdown()
        self._remove_temporaries()

    def _remove_temporaries(self):
        for path in self.temporaries:
            shutil.rmtree(path, ignore_errors=True)
        self.temporaries = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
        self._remove_temporaries()
