"""The cross-language fixtures the server's own tests write (Tests/fixtures/,
GoldenFixturesTests.swift): this suite's v2 decoder reads the golden frames as the v1 frame
of the same layout says, and a server started with no options says in its hello what the
fixtures say (paramSpecs, limits), so the fixtures the node tests read are the server's."""
import json
from pathlib import Path

from client import Client, run
from frame_v2 import decode, step

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def test_the_golden_v2_frames_decode_as_their_v1_frame_says():
    v1 = json.loads((FIXTURES / "frame-v1-membership.json").read_text())
    full = decode((FIXTURES / "frame-v2-membership.bin").read_bytes())
    bare = decode((FIXTURES / "frame-v2-bare.bin").read_bytes())
    for frame in (full, bare):
        assert (frame["tick"], frame["v"], frame["at"]) == (v1["tick"], v1["v"], v1["at"])
        assert max(abs(a - b) for a, b in zip(frame["xy"], v1["xy"])) <= step(frame) / 2 + 0.05
    assert full["ids"] == v1["ids"] and full["owners"] == v1["owners"]
    assert "ids" not in bare and bare["xy"] == full["xy"]
    assert json.loads((FIXTURES / "frame-v1-bare.json").read_text()) == {key: v1[key] for key in v1 if key not in ("ids", "owners")}


def test_a_default_servers_hello_is_what_the_fixtures_say(server):
    async def scenario():
        async with Client(server.ws) as client:
            return client.hello
    hello = run(scenario())
    assert hello["paramSpecs"] == json.loads((FIXTURES / "hello-paramspecs.json").read_text())
    assert hello["limits"] == json.loads((FIXTURES / "hello-limits.json").read_text())
