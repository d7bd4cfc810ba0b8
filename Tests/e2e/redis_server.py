"""A throwaway redis-server for the cluster tests and benchmarks: on a free loopback port, no
persistence, its files in a temporary directory; never the system's instance. Stdlib only."""
import os
import shutil
import socket
import subprocess
import tempfile
import time

from server import free_port


class RunningRedis:
    """`redis-server` on 127.0.0.1:PORT (a free one unless given), waited for until it answers.
    stop() kills it (SIGKILL), start() starts it again on the same port (empty: nothing is
    saved), close() stops it and removes its directory."""

    def __init__(self, port=None, directory=None):
        """directory: where its log goes (default: a temporary directory, removed by close())."""
        self.port = port or free_port()
        self.keep_directory = directory is not None
        if directory:
            os.makedirs(directory, exist_ok=True)
        self.directory = str(directory) if directory else tempfile.mkdtemp(prefix="forcelayout-redis-")
        self.process = None
        self.start()

    @property
    def url(self):
        return f"redis://127.0.0.1:{self.port}"

    def start(self):
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", self.directory, "--logfile", f"{self.directory}/redis.log"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.command("PING") == "+PONG":
                return self
            time.sleep(0.05)
        raise RuntimeError(f"redis-server did not start on port {self.port}")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def close(self):
        self.stop()
        if not self.keep_directory:
            shutil.rmtree(self.directory, ignore_errors=True)

    def command(self, *words):
        """One command in RESP, the first line of the reply (None if Redis does not answer)."""
        request = f"*{len(words)}\r\n" + "".join(f"${len(w.encode())}\r\n{w}\r\n" for w in words)
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=2) as connection:
                connection.sendall(request.encode())
                return connection.recv(65536).decode(errors="replace").split("\r\n")[0]
        except OSError:
            return None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
