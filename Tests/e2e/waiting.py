"""Waiting for a condition, the one way every test and bench driver polls. Stdlib only."""
import asyncio
import time


def wait_until(predicate, timeout=10, interval=0.05):
    """Calls `predicate` every `interval` seconds until it returns something true, and returns
    that; after `timeout` seconds, returns what one last call returns (false when it never held)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    return predicate()


async def wait_until_async(predicate, timeout=10, interval=0.05):
    """`wait_until` for asyncio code: sleeps without blocking the event loop, so what the
    predicate looks at (a client's reader task) keeps running."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        await asyncio.sleep(interval)
    return predicate()


def drain(results, quiet=2):
    """Everything `results` (a queue the workers put their outcomes in) holds, taken until
    nothing more comes for `quiet` seconds."""
    import queue
    taken = []
    while True:
        try:
            taken.append(results.get(timeout=quiet))
        except queue.Empty:
            return taken
