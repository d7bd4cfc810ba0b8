import sys
import pathlib

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))

from redis_server import RunningRedis  # noqa: E402
from server import RunningServer  # noqa: E402


# Modules whose tests hold the server to wall-clock figures (gaps between frames, frames or
# downloads in so many seconds, a bound on a resync) while they load it themselves. `make
# test-e2e` runs them one at a time, after the rest has run in parallel (pytest-xdist): beside
# other tests their figures would measure the neighbours, not the server. Their tests are marked
# `alone`; a new module of that kind belongs here.
ALONE = {
    "test_amplification.py", "test_cluster_redis_restart.py", "test_export_load.py", "test_graph_layout.py",
    "test_room_stepping.py", "test_settle_history.py", "test_slow_clients.py", "test_unsaved.py",
}


def pytest_configure(config):
    config.addinivalue_line("markers", "alone: measures wall-clock figures; run without other tests beside it")


def pytest_collection_modifyitems(items):
    for item in items:
        if item.path.name in ALONE:
            item.add_marker(pytest.mark.alone)


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
