#!/usr/bin/python3
"""`make cluster`: a local Redis (a free loopback port, no persistence, its log in
.state/redis) and three servers sharing it on ports 8080, 8081 and 8082 (nodes a, b, c),
built in release; prints their URLs and runs until Ctrl-C, which stops all of them. A server
killed meanwhile (kill -9, to watch a failover) is reported and the others go on.

Also the launcher `bench/load_cluster.py` uses (`Cluster`). Stdlib only."""
import signal
import sys
import threading

import common
from common import ROOT, RunningServer

sys.path.insert(0, str(ROOT / "Tests" / "e2e"))
from redis_server import RunningRedis  # noqa: E402


class Cluster:
    """A redis-server and `nodes` servers on `ports` (free ones by default), each
    `forcelayout serve --redis … --node NAME *extra`; close() stops them all."""

    def __init__(self, binary, ports=None, nodes="abc", extra=(), redis_directory=None, log_file=True):
        self.redis = RunningRedis(directory=redis_directory)
        self.servers = []
        try:
            for index, node in enumerate(nodes):
                port = ports[index] if ports else None
                self.servers.append(RunningServer("--redis", self.redis.url, "--node", node, *extra, port=port,
                                                  binary=binary, log_file=log_file))
        except BaseException:
            self.close()
            raise

    def close(self):
        for server in self.servers:
            server.close()
        self.redis.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def main():
    binary = common.find_binary("release")
    stop = threading.Event()
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with Cluster(binary, ports=[8080, 8081, 8082], redis_directory=ROOT / ".state" / "redis", log_file=None) as cluster:
        print(f"redis on {cluster.redis.url} (no persistence; log in .state/redis)")
        for node, server in zip("abc", cluster.servers):
            print(f"node {node}: {server.url}")
        print("open a room on one and the same room on another (…/r/demo); Ctrl-C stops all", flush=True)
        gone = set()
        while not stop.wait(0.5):
            for node, server in zip("abc", cluster.servers):
                if node not in gone and server.process.poll() is not None:
                    # Killing one is how to watch a failover: the others go on.
                    gone.add(node)
                    print(f"node {node} exited ({server.process.returncode}); the others go on", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
