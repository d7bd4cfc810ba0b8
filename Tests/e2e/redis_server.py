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

    def __init__(self, port=None, directory=None, extra=(), auth=None, config=None):
        """directory: where its log goes (default: a temporary directory, removed by close()).
        extra: more redis-server arguments (such as ("--requirepass", PASSWORD)).
        config: a configuration file to start from (its port, address and folder replaced),
        persistence as it says; without one, nothing is saved.
        auth: the words of the AUTH this class sends before each command (("PASSWORD",) or
        ("USER", "PASSWORD")), for a Redis that asks for one."""
        self.port = port or free_port()
        self.extra = list(extra)
        self.auth = tuple(auth) if auth else None
        self.keep_directory = directory is not None
        if directory:
            os.makedirs(directory, exist_ok=True)
        self.directory = str(directory) if directory else tempfile.mkdtemp(prefix="forcelayout-redis-")
        self.config = config
        self.process = None
        self.start()

    @property
    def url(self):
        return f"redis://127.0.0.1:{self.port}"

    def start(self):
        start = [str(self.config)] if self.config else []
        persistence = [] if self.config else ["--save", "", "--appendonly", "no"]
        self.process = subprocess.Popen(
            ["redis-server", *start, "--port", str(self.port), "--bind", "127.0.0.1", *persistence,
             "--dir", self.directory, "--logfile", f"{self.directory}/redis.log", *self.extra],
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
        try:
            reply = self.call(*words)
        except OSError:
            return None
        if isinstance(reply, RedisError):
            return f"-{reply}"
        if isinstance(reply, int):
            return f":{reply}"
        if isinstance(reply, bytes):
            return "+" + reply.decode(errors="replace")
        return reply

    def call(self, *words):
        """One command (words: str or bytes), its reply parsed: bytes, int, None, a list, or a
        RedisError. Raises OSError if Redis does not answer."""
        requests = ([("AUTH", *self.auth)] if self.auth else []) + [words]
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as connection:
            connection.sendall(b"".join(encode_command(request) for request in requests))
            reader = connection.makefile("rb")
            replies = [read_reply(reader) for _ in requests]
        return replies[-1]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class RedisError(Exception):
    """An error reply."""


def encode_command(words):
    parts = [word if isinstance(word, bytes) else str(word).encode() for word in words]
    return f"*{len(parts)}\r\n".encode() + b"".join(b"$%d\r\n%s\r\n" % (len(part), part) for part in parts)


def read_reply(reader):
    line = reader.readline()
    if not line:
        raise OSError("Redis closed the connection")
    kind, rest = line[:1], line[1:-2]
    if kind == b"+":
        return rest
    if kind == b"-":
        return RedisError(rest.decode(errors="replace"))
    if kind == b":":
        return int(rest)
    if kind == b"$":
        length = int(rest)
        if length < 0:
            return None
        data = reader.read(length + 2)
        return data[:-2]
    if kind == b"*":
        count = int(rest)
        return None if count < 0 else [read_reply(reader) for _ in range(count)]
    raise OSError(f"not a RESP reply: {line[:40]!r}")
