"""Hostile input, end to end: every malformed, mistyped, out-of-range or oversized message and
every odd WebSocket framing we could think of, sent to the real binary over a raw socket.

For each case the test checks the answer (the `error` code of docs/protocol.md, or the close
status) AND that nothing changed: a fresh client's `hello` and first `frame` (parameters, pins,
tick, ids, membership version, every position) and `GET /stats` match the layout as it was,
and a watcher connected during the case saw no event and no frame. The layout is paused, so
positions must not move by a single tenth. The hostile connection must still work afterwards
(a barrier message gets its answer), except in the cases that close it, and the server must
still be running and serving fresh clients.

The client is a few lines over a plain socket rather than python3-websockets, so it can send
what a well-behaved client library refuses to: invalid UTF-8 in text frames, fragments with
control frames between them, reserved bits and opcodes, unmasked frames.
"""
import dataclasses
import struct
import json
import os
import threading
import time
import urllib.request

import pytest

from raw_websocket import Closed, RawWebSocket
from server import RunningServer

# ---------------------------------------------------------------------------------------------
# The layout under attack, and what "nothing changed" means


LAYOUT_IDS = [1, 2, 3, 4, 5, 6]
PINNED = 2
UNKNOWN_ID = 987654321  # never a cell of these layouts


@dataclasses.dataclass
class Layout:
    server: RunningServer
    baseline: dict

    @property
    def port(self):
        return self.server.port


def snapshot(server):
    """Everything a fresh client learns about the layout, and /stats."""
    with RawWebSocket(server.port) as fresh:
        hello, frame = fresh.hello, fresh.first_frame
    with urllib.request.urlopen(f"{server.http}/stats", timeout=10) as response:
        stats = json.loads(response.read())
    return {"params": hello["params"], "pinned": sorted(hello["pinned"]), "tick": hello["tick"],
            "settled": hello["settled"], "ids": frame["ids"], "v": frame["v"], "xy": frame["xy"],
            "owners": frame.get("owners"), "stats": {key: stats[key] for key in ("cells", "v", "paused", "tick")}}


def prepare(server):
    """Six cells (ids 1-6), cell 2 pinned at (10, 20), charge 12, paused: nothing moves."""
    with RawWebSocket(server.port) as setup:
        setup.send({"type": "params", "paused": True, "charge": 12})
        setup.next("event", kind="params")
        setup.send({"type": "add", "count": 6})
        assert setup.next("event", kind="added")["ids"] == LAYOUT_IDS
        setup.send({"type": "pin", "id": PINNED, "x": 10, "y": 20})
        setup.next("event", kind="pinned")
    time.sleep(0.2)  # let the last frame be published
    return snapshot(server)


@pytest.fixture(scope="module")
def layout():
    with RunningServer() as server:
        yield Layout(server, prepare(server))


def assert_alive(server):
    """The server process runs and serves a fresh client its hello and first frame."""
    assert server.process.poll() is None, "the server died:\n" + server.log[-3000:]
    with RawWebSocket(server.port) as fresh:
        assert fresh.hello["type"] == "hello" and "ids" in fresh.first_frame


def barrier(connection):
    """Proves the connection still works and that the simulation thread has handled everything
    it sent before: an `unpin` of an unknown cell is answered by that thread, in order."""
    connection.send({"type": "unpin", "id": UNKNOWN_ID, "ref": "barrier"})
    error = connection.next("error")
    assert error.get("ref") == "barrier", f"an unexpected second error: {error}"
    assert error["code"] == "bad_request"


def assert_unchanged(layout, watcher):
    """The watcher saw no change, a fresh client sees the layout as it was, the server lives."""
    watcher.send({"type": "replay", "count": 1})
    start = len(watcher.messages)
    watcher.next("replay")
    seen = watcher.messages[start:-1]
    changes = [m for m in seen if m["type"] == "frame" or (m["type"] == "event" and m["kind"] not in ("joined", "left"))]
    assert not changes, f"the layout changed: {json.dumps(changes)[:1000]}"
    assert layout.server.process.poll() is None, "the server died:\n" + layout.server.log[-3000:]
    assert snapshot(layout.server) == layout.baseline  # (a fresh client is served)


def assert_unchanged_without_watcher(layout):
    assert layout.server.process.poll() is None, "the server died:\n" + layout.server.log[-3000:]
    assert snapshot(layout.server) == layout.baseline


# Expectations
@dataclasses.dataclass(frozen=True)
class Error:
    code: str
    ref: str = None       # the ref the error must echo


@dataclasses.dataclass(frozen=True)
class Close:
    status: int           # None: the server may drop the TCP connection without a close frame


@dataclasses.dataclass(frozen=True)
class ErrorOrClose:
    """Either answer is right: this error (and the connection goes on), or this close status."""
    error: Error
    status: int


# Invalid UTF-8 in a text frame: RFC 6455 (8.1) says fail the connection with 1007; the server
# answers `bad_json` (docs/protocol.md) as long as libwebsockets does not validate UTF-8 itself
# (LWS_SERVER_OPTION_VALIDATE_UTF8).
BAD_UTF8 = ErrorOrClose(Error("bad_json"), 1007)


@dataclasses.dataclass(frozen=True)
class Reply:
    type: str             # a normal answer of this type (the message worked)


def attack(layout, send, expect):
    """Runs one case: `send(connection)` sends the hostile input on a fresh connection."""
    with RawWebSocket(layout.port) as watcher, RawWebSocket(layout.port) as connection:
        send(connection)
        if isinstance(expect, Close):
            status = connection.until_closed()
            assert status == expect.status, (status, connection.messages[-3:])
        elif isinstance(expect, ErrorOrClose):
            try:
                error = connection.next("error")
            except Closed:
                assert connection.close_frame and connection.close_frame[0] == expect.status, connection.close_frame
            else:
                assert error["code"] == expect.error.code and error["message"], error
                assert error.get("ref") == expect.error.ref, error
                barrier(connection)
        elif isinstance(expect, Reply):
            connection.next(expect.type)
            errors = [m for m in connection.messages if m["type"] == "error"]
            assert not errors, errors
            barrier(connection)
        else:
            error = connection.next("error")
            assert error["code"] == expect.code, error
            assert isinstance(error["message"], str) and error["message"], error
            assert len(error["message"]) <= 400, f"an error message of {len(error['message'])} characters"
            assert error.get("ref") == expect.ref, error
            barrier(connection)
        assert_unchanged(layout, watcher)


# ---------------------------------------------------------------------------------------------
# The cases: (id, payload, expectation). A str payload is sent as UTF-8, bytes as they are,
# both in one text frame.


def obj(*pairs):
    """A JSON object from (key, raw JSON text) pairs, so values can be what json.dumps cannot
    write (1e400, -0, 2^53+1) and keys can repeat."""
    return "{" + ",".join(f"{json.dumps(key)}:{value}" for key, value in pairs) + "}"


CASES = []


def case(name, payload, expect):
    CASES.append(pytest.param(payload, expect, id=name))


# Not JSON at all, or not an object
for name, text in [
    ("words", "not json"), ("empty", ""), ("space", " "), ("whitespace", "\t\r\n "), ("open-brace", "{"),
    ("close-brace", "}"), ("unterminated", '{"type":"clear"'), ("extra-brace", '{"type":"clear"}}'),
    ("trailing-garbage", '{"type":"clear"} x'), ("two-objects", '{"type":"clear"}{"type":"clear"}'),
    ("single-quotes", "{'type':'clear'}"), ("bare-key", '{type:"clear"}'), ("trailing-comma", '{"type":"clear",}'),
    ("array-trailing-comma", '{"type":"remove","ids":[1,]}'), ("missing-colon", '{"type" "clear"}'),
    ("missing-value", '{"type":}'), ("leading-comma", '{,"type":"clear"}'),
    ("NaN", '{"type":"params","charge":NaN}'), ("Infinity", '{"type":"params","charge":Infinity}'),
    ("-Infinity", '{"type":"params","threshold":-Infinity}'), ("nan", '{"type":"params","charge":nan}'),
    ("plus", '{"type":"params","charge":+1}'), ("leading-zero", '{"type":"params","charge":01}'),
    ("dot-first", '{"type":"params","charge":.5}'), ("dot-last", '{"type":"params","charge":1.}'),
    ("hex", '{"type":"params","charge":0x10}'), ("bare-exponent", '{"type":"params","charge":1e}'),
    ("double-minus", '{"type":"params","charge":--1}'), ("comment", '/* hi */{"type":"clear"}'),
    ("line-comment", '{"type":"clear"} // hi'), ("invalid-escape", r'{"type":"cl\x65ar"}'),
    ("short-unicode-escape", r'{"type":"\u12"}'), ("lone-high-surrogate", r'{"type":"\ud800"}'),
    ("lone-low-surrogate", r'{"type":"\udc00"}'), ("high-surrogate-then-letter", r'{"type":"\ud800\u0041"}'),
    ("truncated-literal", '{"type":"params","collide":tru}'), ("capital-literal", '{"type":"params","collide":True}'),
    ("undefined", '{"type":"params","charge":undefined}'),
    ("array", "[]"), ("array-of-message", '[{"type":"clear"}]'), ("numbers", "[1,2,3]"), ("string", '"clear"'),
    ("number", "42"), ("negative", "-1"), ("null", "null"), ("true", "true"), ("false", "false"),
    ("duplicate-type", '{"type":"clear","type":"clear"}'),
    ("duplicate-parameter", '{"type":"params","charge":1,"charge":2}'),
    ("duplicate-ref", '{"type":"clear","ref":"a","ref":"b"}'),
    ("duplicate-in-spawn", '{"type":"add","spawn":{"x":1,"x":2,"y":3}}'),
    ("duplicate-escaped", r'{"type":"clear","t\u0079pe":"clear"}'),
    ("nesting-33", '{"type":"subscribe","kinds":' + "[" * 32 + "]" * 32 + "}"),
    ("brackets-60k", "[" * 60000), ("objects-12k", '{"a":' * 12000),
    ("brackets-closed-60k", "[" * 30000 + "]" * 30000),
]:
    case("bad_json-" + name, text, Error("bad_json"))

for name, raw in [
    ("bom", b'\xef\xbb\xbf{"type":"clear"}'), ("nul-after", b'{"type":"clear"}\x00'),
    ("nul-in-string", b'{"type":"cl\x00ear"}'), ("control-in-string", b'{"type":"cl\x01ear"}'),
    ("newline-in-string", b'{"type":"cl\near"}'), ("nbsp-whitespace", b'{"type":\xc2\xa0"clear"}'),
]:
    case("bad_json-" + name, raw, Error("bad_json"))

# Invalid UTF-8 in a text frame
for name, raw in [
    ("ff-in-ref", b'{"type":"clear","ref":"\xff"}'), ("overlong-slash", b'{"type":"\xc0\xaf"}'),
    ("overlong-3", b'{"type":"\xe0\x80\xaf"}'), ("surrogate", b'{"type":"\xed\xa0\x80"}'),
    ("past-10ffff", b'{"type":"\xf4\x90\x80\x80"}'), ("f5-lead", b'{"type":"\xf5\x80\x80\x80"}'),
    ("lone-continuation", b'{"type":"clear","ref":"\x80"}'), ("truncated-at-end", b'{"type":"clear"}\xe2\x82'),
    ("truncated-in-string", b'{"type":"\xe2\x82"}'), ("in-key", b'{"\xff":1,"type":"clear"}'),
    ("before-object", b'\xff{"type":"clear"}'), ("latin-1", '{"type":"clear","ref":"caf\xe9"}'.encode("latin-1")),
]:
    case("utf8-" + name, raw, BAD_UTF8)

# `type`
case("unknown_type-missing", "{}", Error("unknown_type"))
case("unknown_type-missing-with-fields", '{"count":1}', Error("unknown_type"))
case("unknown_type-missing-with-ref", '{"ref":"t"}', Error("unknown_type", ref="t"))
for name, value in [
    ("number", "1"), ("null", "null"), ("true", "true"), ("array", '["clear"]'), ("object", '{"type":"clear"}'),
    ("upper", '"CLEAR"'), ("space", '"clear "'), ("empty", '""'), ("nul", r'"clear\u0000"'),
    ("hello", '"hello"'), ("frame", '"frame"'), ("error", '"error"'), ("event", '"event"'), ("stats", '"stats"'),
    ("explode", '"explode"'), ("long", json.dumps("x" * 20000)), ("accented", '"clé"'),
]:
    case("unknown_type-" + name, obj(("type", value), ("ref", '"t"')), Error("unknown_type", ref="t"))

# Wrong values for every field of every message type. Each message is otherwise valid (and
# would change the layout if the bad field slipped through); all carry ref "h".
WRONG_TYPES = [("string", '"1"'), ("true", "true"), ("false", "false"), ("null", "null"), ("array", "[1]"),
               ("object", '{"n":1}'), ("empty-array", "[]")]
NOT_POSITIVE_INTEGERS = [("zero", "0"), ("minus-one", "-1"), ("minus-zero", "-0"), ("minus-zero-float", "-0.0"),
                         ("fraction", "1.5"), ("half", "0.5"), ("nearly-one", "1.0000000001"),
                         ("underflow", "1e-400"), ("overflow", "1e400"), ("minus-overflow", "-1e400"),
                         ("2^53+1", "9007199254740993"), ("-2^53-1", "-9007199254740993"), ("1e20", "1e20"),
                         ("1e300", "1e300"), ("minus-huge", "-1e20")]
BAD_COORDINATES = WRONG_TYPES + [("overflow", "1e400"), ("minus-overflow", "-1e400"), ("1e10", "1e10"),
                                 ("minus-1e10", "-1e10"), ("just-past-1e9", "1000000000.0001"),
                                 ("1e308", "1.7e308")]
BAD_KINDS = [("none", '"none"'), ("ALL", '"ALL"'), ("space-all", '" all"'), ("number", "1"), ("null", "null"),
             ("true", "true"), ("object", '{"added":true}'), ("unknown-kind", '["added","bogus"]'),
             ("number-kind", '["added",1]'), ("null-kind", "[null]"), ("nested", '[["added"]]'),
             ("capital-kind", '["Added"]'), ("empty-kind", '[""]'), ("frame-kind", '["frame"]'),
             ("long-kind", json.dumps(["x" * 5000]))]


def field_cases(type_, fields, field, values, code="bad_request"):
    for name, value in values:
        pairs = [("type", json.dumps(type_))] + [(k, value if k == field else v) for k, v in fields] + [("ref", '"h"')]
        if field not in dict(fields):
            pairs.insert(1, (field, value))
        case(f"{type_}.{field}-{name}", obj(*pairs), Error(code, ref="h"))


ADD = [("count", "2"), ("spawn", '"center"')]
field_cases("add", ADD, "count", WRONG_TYPES + NOT_POSITIVE_INTEGERS)
field_cases("add", ADD, "count", [("1001", "1001"), ("1e6", "1e6"), ("1e15", "1e15")],
            code="limit")
field_cases("add", ADD, "spawn", [
    ("number", "1"), ("true", "true"), ("null", "null"), ("empty-array", "[]"), ("pair", "[1,2]"),
    ("capital", '"Center"'), ("empty", '""'), ("space", '"random "'), ("left", '"left"'),
    ("empty-object", "{}"), ("only-x", '{"x":1}'), ("only-y", '{"y":1}'), ("string-x", '{"x":"1","y":2}'),
    ("null-y", '{"x":1,"y":null}'), ("overflow-x", '{"x":1e400,"y":0}'), ("minus-overflow-y", '{"x":0,"y":-1e400}'),
    ("far-x", '{"x":1e10,"y":0}'), ("far-y", '{"x":0,"y":-1000000000.5}'), ("extra-z", '{"x":1,"y":2,"z":3}'),
    ("bool-x", '{"x":true,"y":1}'), ("array-x", '{"x":[1],"y":1}'), ("nested", '{"x":{"x":1},"y":1}'),
])
field_cases("add", ADD, "cont", [("typo", "5")])
field_cases("add", ADD, "ids", [("foreign-field", "[1]")])

REMOVE_IDS = [("ids", "[3,4]")]
field_cases("remove", REMOVE_IDS, "ids", [("string", '"3"'), ("number", "3"), ("object", '{"3":true}'), ("null", "null"),
                                         ("true", "true"), ("empty", "[]")])
for name, value in WRONG_TYPES + NOT_POSITIVE_INTEGERS:
    case(f"remove.ids-element-{name}", obj(("type", '"remove"'), ("ids", f"[3,{value},4]"), ("ref", '"h"')),
         Error("bad_request", ref="h"))
field_cases("remove", [("count", "1")], "count", WRONG_TYPES + NOT_POSITIVE_INTEGERS)
field_cases("remove", REMOVE_IDS, "count", [("both-ids-and-count", "1")])
field_cases("remove", REMOVE_IDS, "idz", [("typo", "[3]")])
case("remove-nothing", obj(("type", '"remove"'), ("ref", '"h"')), Error("bad_request", ref="h"))
case("remove-one-unknown-of-many", obj(("type", '"remove"'), ("ids", f"[3,4,5,{UNKNOWN_ID}]"), ("ref", '"h"')),
     Error("bad_request", ref="h"))
case("remove-all-and-one-unknown", obj(("type", '"remove"'), ("ids", f"[1,2,3,4,5,6,{UNKNOWN_ID}]"), ("ref", '"h"')),
     Error("bad_request", ref="h"))
case("remove-unknown-first", obj(("type", '"remove"'), ("ids", f"[{UNKNOWN_ID},1,2]"), ("ref", '"h"')),
     Error("bad_request", ref="h"))
case("remove-7000-unknown", obj(("type", '"remove"'), ("ids", json.dumps([1] + list(range(10**6, 10**6 + 7000)))),
                                ("ref", '"h"')), Error("bad_request", ref="h"))

field_cases("clear", [], "all", [("true", "true")])
field_cases("clear", [], "ids", [("list", "[1]")])

PARAMETER_RANGES = {
    "stiffness": [("zero", "0"), ("minus-zero", "-0"), ("underflow-to-zero", "1e-400"), ("negative", "-0.001"),
                  ("above", "1.0000001"), ("two", "2")],
    "charge": [("negative", "-0.001"), ("minus-one", "-1"), ("above", "1000.0001"), ("1e6", "1e6")],
    "cellSize": [("zero", "0"), ("below", "0.999"), ("negative", "-1"), ("above", "200.001")],
    "threshold": [("negative", "-0.001"), ("above", "1000000.1"), ("1e7", "1e7")],
    "tickRate": [("zero", "0"), ("below", "0.999"), ("negative", "-20"), ("above", "120.001"), ("121", "121")],
    "theta": [("negative", "-0.001"), ("above", "2.001"), ("ten", "10")],
    "edgeLength": [("zero", "0"), ("below", "0.999"), ("negative", "-30"), ("above", "1000.001"), ("1e6", "1e6")],
    "linkStrength": [("negative", "-0.001"), ("minus-one", "-1"), ("above", "5.0001"), ("six", "6")],
}
for parameter, values in PARAMETER_RANGES.items():
    generic = [("overflow", "1e400"), ("minus-overflow", "-1e400"), ("1.8e308", "1.8e308"), ("huge", "1e300"),
               ("minus-huge", "-1e300")] + WRONG_TYPES
    field_cases("params", [("charge", "12")], parameter, values + generic)
for flag in ("collide", "paused"):
    field_cases("params", [("charge", "12")], flag, [
        ("zero", "0"), ("one", "1"), ("string-true", '"true"'), ("string-false", '"false"'), ("null", "null"),
        ("array", "[]"), ("object", "{}"), ("yes", '"yes"'), ("array-true", "[true]")])
field_cases("params", [("charge", "12")], "model", [
    ("unknown", '"spiral"'), ("capitalised", '"Graph"'), ("upper", '"AUTO"'), ("spaced", '" graph"'), ("empty", '""'),
    ("trailing-nul", '"graph\\u0000"'), ("long", json.dumps("graph" * 2000)), ("number", "1"), ("zero", "0"),
    ("true", "true"), ("null", "null"), ("array", '["graph"]'), ("object", '{"name":"graph"}')])
field_cases("params", [("charge", "12")], "gravity", [("unknown", "1")])
field_cases("params", [("charge", "12")], "Charge", [("case", "30")])
field_cases("params", [("charge", "12")], "type2", [("lookalike", '"params"')])
case("params-none", obj(("type", '"params"'), ("ref", '"h"')), Error("bad_request", ref="h"))
# Mixed valid and invalid: nothing may be applied (each valid part alone would change something)
for name, pairs in [
    ("unpause-and-bad-charge", [("paused", "false"), ("charge", "2000")]),
    ("charge-and-bad-stiffness", [("charge", "30"), ("stiffness", "5")]),
    ("charge-and-unknown", [("charge", "30"), ("gravity", "1")]),
    ("unknown-first", [("gravity", "1"), ("charge", "30")]),
    ("collide-and-bad-theta", [("collide", "true"), ("theta", '"fast"')]),
    ("model-and-bad-charge", [("model", '"graph"'), ("charge", "2000")]),
    ("charge-and-bad-model", [("charge", "30"), ("model", '"sfdp"')]),
    ("all-valid-but-one", [("stiffness", "0.5"), ("charge", "100"), ("cellSize", "50"), ("threshold", "1"),
                           ("tickRate", "60"), ("theta", "0"), ("collide", "true"), ("paused", "false"),
                           ("bogus", "true")]),
    ("all-valid-last-bad", [("stiffness", "0.5"), ("charge", "100"), ("paused", "false"), ("tickRate", "1e400")]),
]:
    case("params-mixed-" + name, obj(("type", '"params"'), *pairs, ("ref", '"h"')), Error("bad_request", ref="h"))

PIN = [("id", "3"), ("x", "100"), ("y", "-100")]
field_cases("pin", PIN, "id", WRONG_TYPES + NOT_POSITIVE_INTEGERS)
field_cases("pin", PIN, "x", BAD_COORDINATES)
field_cases("pin", PIN, "y", BAD_COORDINATES)
field_cases("pin", PIN, "z", [("extra", "0")])
for missing in ("id", "x", "y"):
    case(f"pin-without-{missing}", obj(("type", '"pin"'), *[(k, v) for k, v in PIN if k != missing], ("ref", '"h"')),
         Error("bad_request", ref="h"))
case("pin-unknown-cell", obj(("type", '"pin"'), ("id", str(UNKNOWN_ID)), ("x", "1"), ("y", "1"), ("ref", '"h"')),
     Error("bad_request", ref="h"))
case("pin-never-added-cell", obj(("type", '"pin"'), ("id", "7"), ("x", "1"), ("y", "1"), ("ref", '"h"')),
     Error("bad_request", ref="h"))

UNPIN = [("id", str(PINNED))]
field_cases("unpin", UNPIN, "id", WRONG_TYPES + NOT_POSITIVE_INTEGERS)
field_cases("unpin", UNPIN, "x", [("extra", "0")])
case("unpin-without-id", obj(("type", '"unpin"'), ("ref", '"h"')), Error("bad_request", ref="h"))
case("unpin-unknown-cell", obj(("type", '"unpin"'), ("id", str(UNKNOWN_ID)), ("ref", '"h"')),
     Error("bad_request", ref="h"))

field_cases("subscribe", [("kinds", '["added"]')], "kinds", BAD_KINDS)
field_cases("subscribe", [("kinds", '["added"]')], "kind", [("typo", '"all"')])

REPLAY = [("count", "5"), ("kinds", '"all"')]
field_cases("replay", REPLAY, "count", WRONG_TYPES + NOT_POSITIVE_INTEGERS + [("257", "257"), ("1e6", "1e6")])
field_cases("replay", REPLAY, "kinds", BAD_KINDS)
field_cases("replay", REPLAY, "kind", [("typo", '"all"')])
case("replay-without-count", obj(("type", '"replay"'), ("ref", '"h"')), Error("bad_request", ref="h"))

# `ref`: a string of at most 64 characters (Unicode code points); a bad ref is not echoed
for name, value in [("65", json.dumps("r" * 65)), ("65-accented", json.dumps("é" * 65)),
                    ("65-emoji", json.dumps("😀" * 65)), ("one-grapheme-of-300", json.dumps("e" + "\u0301" * 300)),
                    ("10k", json.dumps("r" * 10000)), ("number", "1"), ("null", "null"), ("true", "true"),
                    ("array", '["a"]'), ("object", '{"a":1}')]:
    case("ref-" + name, obj(("type", '"add"'), ("ref", value)), Error("bad_request"))
    case("ref-" + name + "-bad-message", obj(("type", '"explode"'), ("ref", value)), Error("bad_request"))

# Limits
case("limit-add-1001", obj(("type", '"add"'), ("count", "1001"), ("ref", '"h"')), Error("limit", ref="h"))


@pytest.mark.parametrize("payload, expect", CASES)
def test_hostile_message(layout, payload, expect):
    attack(layout, lambda connection: connection.text(payload), expect)


def test_the_table_is_large_and_named_uniquely():
    names = [param.id for param in CASES]
    assert len(names) == len(set(names)), [n for n in names if names.count(n) > 1]
    assert len(names) > 400


# ---------------------------------------------------------------------------------------------
# Framing: sizes, fragments, control frames, binary frames, protocol violations

REPLAY_ONE = b'{"type":"replay","count":1}'
LIMIT = 65536


def split(data, parts):
    size = -(-len(data) // parts)
    return [data[index:index + size] for index in range(0, len(data), size)]


FRAMINGS = [
    # (id, send, expectation)
    ("binary", lambda c: c.frame(0x2, REPLAY_ONE), Error("bad_json")),
    ("binary-empty", lambda c: c.frame(0x2, b""), Error("bad_json")),
    ("binary-fragmented", lambda c: c.fragments(split(REPLAY_ONE, 3), opcode=0x2), Error("bad_json")),
    ("binary-not-utf8", lambda c: c.frame(0x2, b"\xff\x00\x01"), Error("bad_json")),
    ("empty-text", lambda c: c.frame(0x1, b""), Error("bad_json")),
    ("empty-fragments", lambda c: c.fragments([b"", b"", b""]), Error("bad_json")),
    ("exactly-64KiB", lambda c: c.text(REPLAY_ONE.ljust(LIMIT)), Reply("replay")),
    ("64KiB-plus-one", lambda c: c.text(REPLAY_ONE.ljust(LIMIT + 1)), Close(1009)),
    ("brackets-100k", lambda c: c.text(b"[" * 100000), Close(1009)),
    ("one-megabyte", lambda c: c.text(b" " * (1 << 20)), Close(1009)),
    ("fragments", lambda c: c.fragments(split(REPLAY_ONE, 3)), Reply("replay")),
    ("fragments-empty-first-and-last", lambda c: c.fragments([b""] + split(REPLAY_ONE, 2) + [b""]), Reply("replay")),
    ("fragments-one-byte-each", lambda c: c.fragments(split(REPLAY_ONE.ljust(2000), 2000)), Reply("replay")),
    ("fragments-exactly-64KiB", lambda c: c.fragments(split(REPLAY_ONE.ljust(LIMIT), 5)), Reply("replay")),
    ("fragments-64KiB-plus-one", lambda c: c.fragments(split(REPLAY_ONE.ljust(LIMIT + 1), 5)), Close(1009)),
    ("fragments-5x20000", lambda c: c.fragments([b" " * 20000] * 5 + [REPLAY_ONE]), Close(1009)),
    ("fragments-over-limit-one-byte-each", lambda c: c.fragments([b" "] * (LIMIT + 1)), Close(1009)),
    # A client that goes on sending after passing the limit: more frames of the message, more
    # messages, or its own close frame follow the byte that passed it (docs/protocol.md, Closing).
    ("fragments-200x1000", lambda c: c.fragments([b" " * 1000] * 200), Close(1009)),
    ("fragments-2000x100", lambda c: c.fragments([b" " * 100] * 2000), Close(1009)),
    ("over-limit-then-messages", lambda c: (c.text(b" " * (LIMIT + 1)), [c.text(REPLAY_ONE) for _ in range(50)]),
     Close(1009)),
    ("over-limit-then-close", lambda c: (c.fragments([b" " * 1000] * 70), c.frame(0x8, struct.pack("!H", 1000))),
     Close(1009)),
    ("fragments-ping-between", lambda c: c.fragments(split(REPLAY_ONE, 3), between={0: (0x9, b"hi"), 1: (0x9, b"")}),
     Reply("replay")),
    ("fragments-pong-between", lambda c: c.fragments(split(REPLAY_ONE, 2), between={0: (0xA, b"unasked")}),
     Reply("replay")),
    ("fragments-64KiB-ping-between", lambda c: c.fragments(split(REPLAY_ONE.ljust(LIMIT), 4), between={1: (0x9, b"x")}),
     Reply("replay")),
    ("fragments-bad-json", lambda c: c.fragments([b'{"type":', b'"clear"', b'}}']), Error("bad_json")),
    ("fragments-bad-request-with-ref", lambda c: c.fragments(
        [b'{"type":"params","ref":"fr', b'ag","charge":', b'"12"}']), Error("bad_request", ref="frag")),
    ("fragments-split-inside-characters", lambda c: c.fragments(  # é (2 bytes), € (3), 😀 (4), cut inside each
        [b'{"type":"pin","id":987654321,"x":0,"y":0,"ref":"\xc3', b'\xa9\xe2\x82', b'\xac\xf0\x9f',
         b'\x98\x80"}']), Error("bad_request", ref="é€😀")),
    ("fragments-invalid-utf8", lambda c: c.fragments([b'{"type":"clear",', b'"ref":"\xff"}']), BAD_UTF8),
    ("fragments-truncated-character", lambda c: c.fragments([b'{"type":"clear","ref":"\xe2\x82', b'"}']),
     BAD_UTF8),
    # RFC 6455 (5.1): a server must close on an unmasked client frame (1002); libwebsockets 4.1.6
    # accepts it as an ordinary message and does not tell us it was unmasked (docs/protocol.md,
    # Closing; test_unmasked_frame_fails_the_connection below).
    ("unmasked", lambda c: c.frame(0x1, b'{"type":"add","count":3,"spawn":"up","ref":"u"}', mask=False),
     ErrorOrClose(Error("bad_request", ref="u"), 1002)),
    ("rsv1-without-extension", lambda c: c.frame(0x1, b'{"type":"clear"}', rsv=4), Close(1002)),
    ("rsv3", lambda c: c.frame(0x1, b'{"type":"clear"}', rsv=1), Close(1002)),
    ("reserved-data-opcode", lambda c: c.frame(0x3, b'{"type":"clear"}'), Close(1002)),
    ("reserved-control-opcode", lambda c: c.frame(0xB, b"x"), Close(1002)),
    ("continuation-without-start", lambda c: c.frame(0x0, b'{"type":"clear"}'), Close(1002)),
    ("new-message-inside-fragments", lambda c: (c.frame(0x1, b'{"type":', fin=False), c.frame(0x1, b'{"type":"clear"}')),
     Close(1002)),
    ("fragmented-ping", lambda c: c.frame(0x9, b"x", fin=False), Close(1002)),
    ("ping-over-125-bytes", lambda c: c.frame(0x9, b"x" * 200), Close(None)),
    ("close-between-fragments", lambda c: (c.frame(0x1, b'{"type":', fin=False), c.frame(0x8, struct.pack("!H", 1000))),
     Close(1000)),
    ("close-after-half-a-message", lambda c: (c.frame(0x1, b'{"type":"clear"', fin=False), c.frame(0x8, b"")),
     Close(None)),
]


@pytest.mark.parametrize("send, expect", [pytest.param(s, e, id=n) for n, s, e in FRAMINGS])
def test_hostile_framing(layout, send, expect):
    attack(layout, send, expect)


def test_a_client_sending_on_and_on_past_the_limit_gets_1009(layout):
    """While it reads, a client that keeps streaming fragments after its message passed the
    limit gets the 1009 close (its sender only stops once the close has arrived)."""
    with RawWebSocket(layout.port) as watcher, RawWebSocket(layout.port) as connection:
        stop = threading.Event()

        def keep_sending():
            connection.frame(0x1, b" " * 1000, fin=False)
            while not stop.is_set():
                connection.frame(0x0, b" " * 1000, fin=False)

        sender = threading.Thread(target=keep_sending, daemon=True)
        sender.start()
        try:
            assert connection.until_closed() == 1009, (connection.close_frame, connection.messages[-3:])
        finally:
            stop.set()
            sender.join(10)
        assert_unchanged(layout, watcher)


def test_answers_on_their_way_go_out_before_the_1009(layout):
    """A client that sends everything before it reads (its small receive buffer full of answers
    meanwhile) gets all its answers, then the 1009 close: ending the connection throws none of
    what was already sent away."""
    with RawWebSocket(layout.port) as watcher, RawWebSocket(layout.port, receive_buffer=4096) as connection:
        for _ in range(40):
            connection.send({"type": "replay", "count": 256})
        time.sleep(0.5)  # the server writes the answers (its socket buffer holds what we do not read)
        connection.fragments([b" " * 1000] * 100)
        assert connection.until_closed() == 1009, (connection.close_frame, len(connection.messages))
        assert sum(message["type"] == "replay" for message in connection.messages) == 40
        assert_unchanged(layout, watcher)


# ---------------------------------------------------------------------------------------------
# Close frames from the client (RFC 6455 5.5.1, 7.1.6, 7.4): a valid one is echoed; an invalid
# status code or a 1-byte payload fails the connection with 1002, a reason that is not UTF-8
# with 1007 (docs/protocol.md, Closing).


def close_payload(code, reason=b""):
    return struct.pack("!H", code) + reason


CLOSE_FRAMES = [
    ("empty", b"", Close(None)),  # echoed as it came: no status
    *[(f"valid-{code}", close_payload(code, "au revoir é".encode()), Close(code))
      for code in (1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999)],
    # Registered with IANA after RFC 6455, so valid; libwebsockets 4.1.6 overwrites them with 1002
    # before the server sees the frame, so they are answered 1002.
    *[(f"lws-rewrites-{code}", close_payload(code), Close(1002)) for code in (1012, 1013, 1014)],
    *[(f"invalid-{code}", close_payload(code, b"bye"), Close(1002))
      for code in (0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535)],
    ("one-byte", b"\x03", Close(1002)),
    *[(f"reason-{name}", close_payload(1000, reason), Close(1007))
      for name, reason in [("ff", b"\xff"), ("truncated", b"ok \xe2\x82"), ("surrogate", b"\xed\xa0\x80"),
                           ("overlong", b"\xc0\xaf"), ("above-10ffff", b"\xf4\x90\x80\x80")]],
    ("invalid-code-and-reason", close_payload(5000, b"\xff"), Close(1002)),
    ("reason-123-bytes", close_payload(1000, "é".encode() + b"r" * 121), Close(1000)),
    # 126 bytes need an extended length, which a control frame may not have: libwebsockets drops
    # the connection without a close frame.
    ("reason-124-bytes", close_payload(1000, b"r" * 124), Close(None)),
]


@pytest.mark.parametrize("payload, expect", [pytest.param(p, e, id=n) for n, p, e in CLOSE_FRAMES])
def test_close_frame(layout, payload, expect):
    attack(layout, lambda connection: connection.frame(0x8, payload), expect)


def test_close_answers_say_why(layout):
    """The echo keeps the client's reason; a failed close names what was wrong."""
    for payload, answer in [(close_payload(4000, "fini é".encode()), (4000, "fini é")),
                            (close_payload(5000, b"bye"), (1002, "invalid close code 5000")),
                            (b"\x03", (1002, "close frame with a 1-byte payload")),
                            (close_payload(1000, b"\xff"), (1007, "close reason is not UTF-8"))]:
        with RawWebSocket(layout.port) as connection:
            connection.frame(0x8, payload)
            connection.until_closed()
            assert connection.close_frame == answer
    assert_alive(layout.server)


@pytest.mark.xfail(strict=True, reason="libwebsockets 4.1.6 does not tell the server a frame was unmasked: "
                                       "it is processed like a masked one (docs/protocol.md, Closing)")
def test_unmasked_frame_fails_the_connection(layout):
    with RawWebSocket(layout.port) as connection:
        connection.frame(0x1, json.dumps({"type": "replay", "count": 1}), mask=False)
        assert connection.until_closed(timeout=2) == 1002  # today: the replay is answered
    assert_alive(layout.server)


def test_ping_between_fragments_is_answered(layout):
    # (of two pings in a row, libwebsockets 4.1 may answer only the first: RFC 6455 lets it skip)
    with RawWebSocket(layout.port) as connection:
        connection.fragments(split(REPLAY_ONE, 3), between={1: (0x9, b"mid-message")})
        connection.next("replay")
        barrier(connection)
        assert connection.pongs == [b"mid-message"]
    assert_alive(layout.server)


# ---------------------------------------------------------------------------------------------
# Subscriptions, rate limits and limits: all or nothing too


def test_rejected_subscribe_keeps_the_subscription(layout):
    with RawWebSocket(layout.port) as quiet, RawWebSocket(layout.port) as loud:
        quiet.send({"type": "subscribe", "kinds": []})
        quiet.send({"type": "subscribe", "kinds": ["joined", "bogus"], "ref": "s"})
        assert quiet.next("error")["ref"] == "s"
        loud.send({"type": "subscribe", "kinds": [], "extra": 1, "ref": "s"})
        assert loud.next("error")["ref"] == "s"
        start_quiet, start_loud = len(quiet.messages), len(loud.messages)
        with RawWebSocket(layout.port) as newcomer:
            loud.next("event", kind="joined", client=newcomer.hello["client"])
        quiet.send({"type": "replay", "count": 1})
        quiet.next("replay")
        assert not [m for m in quiet.messages[start_quiet:] if m["type"] == "event"]
        assert len(loud.messages) > start_loud
    assert_unchanged_without_watcher(layout)


def test_rate_limited_messages_change_nothing():
    """200 adds at once: each is either applied (an `added` event) or answered `rate_limited`,
    never both, never half; the count of cells matches the events."""
    with RunningServer() as server, RawWebSocket(server.port) as connection:
        for index in range(200):
            connection.send({"type": "add", "count": 1, "ref": f"a{index}"})
        added, limited = [], 0
        deadline = time.monotonic() + 20
        while len(added) + limited < 200 and time.monotonic() < deadline:
            message = connection.receive()
            if message["type"] == "error":
                assert message["code"] == "rate_limited", message
                assert "second" in message["message"]
                limited += 1
            elif message["type"] == "event" and message["kind"] == "added":
                assert message["by"] == connection.hello["client"] and len(message["ids"]) == 1
                added.append(message["ids"][0])
        assert len(added) + limited == 200
        assert 120 <= len(added) < 200 and limited > 0
        assert added == sorted(added) and len(set(added)) == len(added)
        time.sleep(0.3)
        assert len(snapshot(server)["ids"]) == len(added)
        # a rate-limited bad message is answered rate_limited (the limit comes first), and the
        # connection works again after a pause
        time.sleep(2.5)
        connection.send({"type": "replay", "count": 1})
        connection.next("replay")
        assert_alive(server)


def test_limits_reject_whole_messages():
    with RunningServer("--max-cells", "10") as server, RawWebSocket(server.port) as connection:
        connection.send({"type": "add", "count": 8})
        ids = connection.next("event", kind="added")["ids"]
        for message in [{"type": "add", "count": 3, "ref": "l"},
                        {"type": "remove", "ids": list(range(1, 12)), "ref": "l"}]:
            connection.send(message)
            error = connection.next("error")
            assert error["code"] == "limit" and error["ref"] == "l", error
        time.sleep(0.3)
        assert snapshot(server)["ids"] == ids
        connection.send({"type": "add", "count": 2})
        assert len(connection.next("event", kind="added")["ids"]) == 2
        assert_alive(server)


def test_edge_values_are_accepted():
    """The other side of every boundary: these are valid and must work."""
    with RunningServer() as server, RawWebSocket(server.port) as connection:
        def accepted(raw, kind):
            connection.text(raw)
            return connection.next("event", kind=kind)

        params = accepted('{"type":"params","charge":-0,"theta":-0.0,"threshold":1e-400}', "params")["params"]
        assert params["charge"] == 0 and params["theta"] == 0 and params["threshold"] == 0
        params = accepted('{"type":"params","stiffness":1,"cellSize":200,"tickRate":120,"theta":2,"threshold":1e6}',
                          "params")["params"]
        assert (params["stiffness"], params["cellSize"], params["tickRate"], params["theta"]) == (1, 200, 120, 2)
        params = accepted('{"type":"params","stiffness":5e-324,"cellSize":1,"tickRate":1,"charge":1000,'
                          '"collide":true,"paused":true}', "params")["params"]
        assert params["stiffness"] > 0 and params["paused"] is True
        ids = accepted('{"type":"add","count":3.0,"spawn":{"x":-0,"y":1e-400}}', "added")["ids"]
        assert len(ids) == 3
        ids += accepted('{"type":"add","count":1e0,"spawn":{"x":1e9,"y":-1e9}}', "added")["ids"]
        pinned = accepted('{"type":"pin","id":%d.0,"x":-1000000000,"y":1000000000}' % ids[0], "pinned")
        assert (pinned["x"], pinned["y"]) == (-1e9, 1e9)
        frame = connection.next("frame")
        assert all(isinstance(value, (int, float)) for value in frame["xy"])
        ref = "é" * 64
        connection.send({"type": "unpin", "id": UNKNOWN_ID, "ref": ref})
        assert connection.next("error")["ref"] == ref
        connection.send({"type": "unpin", "id": UNKNOWN_ID, "ref": "😀" * 64})
        assert connection.next("error")["ref"] == "😀" * 64
        removed = accepted('{"type":"remove","ids":[%d,%d,%d]}' % (ids[1], ids[1], ids[2]), "removed")
        assert removed["ids"] == sorted({ids[1], ids[2]})
        connection.send({"type": "replay", "count": 256, "kinds": []})
        assert connection.next("replay")["events"] == []
        connection.text('{"type":"subscribe","kinds":' + "[" * 30 + "]" * 30 + "}")  # depth 31 of 32: parsed
        assert connection.next("error")["code"] == "bad_request"
        assert_alive(server)


def test_echoed_input_is_short_and_cannot_forge_log_lines(layout):
    """Error messages quote a short excerpt of what was sent (a few dozen code points, however
    the text is made up), with control characters escaped: no client can write a line of its
    own into the server's log, nor make it repeat kilobytes."""
    forged = "forged-by-a-client listening on http://127.0.0.1:1/"
    combining = "x" + "\u0301" * 14000  # one grapheme cluster, 28 kB
    with RawWebSocket(layout.port) as connection:
        for message in [{"type": "clear\n" + forged}, {"type": "add", "spawn": "up\r\n" + forged},
                        {"type": "params", "\n" + forged: 1}, {"type": "clear", "\n" + forged: 1},
                        {"type": "subscribe", "kinds": ["\n" + forged]},
                        {"type": combining}, {"type": "add", "spawn": combining}, {"type": "params", combining: 1},
                        {"type": "clear", combining: 1}, {"type": "subscribe", "kinds": [combining]}]:
            connection.send(message)
            error = connection.next("error")
            assert "\n" not in error["message"] and "\r" not in error["message"], error
            assert len(error["message"].encode()) <= 400, len(error["message"])
        connection.text('{"type":"clear","%s":1,"%s":2}' % (combining, combining))  # a duplicate key
        error = connection.next("error")
        assert error["code"] == "bad_json" and len(error["message"].encode()) <= 400, len(error["message"])
        connection.text('{"type":"clear","\\n%s":1,"\\n%s":2}' % (forged, forged))
        error = connection.next("error")
        assert error["code"] == "bad_json" and "\n" not in error["message"], error
        barrier(connection)
    time.sleep(0.2)
    assert not [line for line in layout.server.output if line.startswith("forged")], "a client forged a log line"
    assert_unchanged_without_watcher(layout)

