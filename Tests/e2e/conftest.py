import sys
import pathlib

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))

from redis_server import RunningRedis  # noqa: E402
from server import RunningServer  # noqa: E402


@pytest.fixture
def server():
    with RunningServer() as running:
        yield running


@pytest.fixture
def redis():
    """A redis-server of its own, on a free loopback port."""
    with RunningRedis() as running:
        yield running


@pytest.fixture
def cluster(redis):
    """Three servers (nodes a, b, c) sharing `redis`."""
    servers = [RunningServer("--redis", redis.url, "--node", node, log_file=True) for node in "abc"]
    yield servers
    for server in servers:
        server.close()
