"""Protocol v2's binary frame, decoded into the same shape as a v1 `frame` message (plus
`box`, `bytes` and `binary`), for the end-to-end tests."""
import json
import struct

HEAD = struct.Struct("<BBHIIdffffI")  # kind, flags, reserved, tick, v, at, minX, minY, maxX, maxY, n


def decode(data):
    kind, flags, reserved, tick, version, at, min_x, min_y, max_x, max_y, n = HEAD.unpack_from(data, 0)
    assert kind == 1 and reserved == 0, (kind, reserved)
    frame = {"type": "frame", "tick": tick, "v": version, "at": at, "binary": True, "bytes": len(data),
             "box": (min_x, min_y, max_x, max_y)}
    offset = HEAD.size
    if flags & 1:
        frame["ids"] = list(struct.unpack_from(f"<{n}I", data, offset))
        offset += 4 * n
        (length,) = struct.unpack_from("<I", data, offset)
        offset += 4
        frame["owners"] = json.loads(bytes(data[offset:offset + length]).decode())
        offset += length
    quantized = struct.unpack_from(f"<{2 * n}H", data, offset)
    offset += 4 * n
    assert offset == len(data), (offset, len(data))
    step_x, step_y = (max_x - min_x) / 65535, (max_y - min_y) / 65535
    xy = []
    for index in range(n):
        xy += [min_x + quantized[2 * index] * step_x, min_y + quantized[2 * index + 1] * step_y]
    frame["xy"] = xy
    return frame


def step(frame):
    """The largest distance between two neighbouring quantized values of this frame."""
    min_x, min_y, max_x, max_y = frame["box"]
    return max(max_x - min_x, max_y - min_y) / 65535
