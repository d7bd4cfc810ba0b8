import sys
import pathlib

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))

from server import RunningServer  # noqa: E402


@pytest.fixture
def server():
    with RunningServer() as running:
        yield running
