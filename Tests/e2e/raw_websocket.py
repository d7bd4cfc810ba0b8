"""A WebSocket client over a raw socket that can send anything (hand-built frames), for the
hostile-input suite and for clients that stop reading."""
import base64
import hashlib
import json
import os
import socket
import struct
import time

from frame_v2 import decode as decode_binary_frame


def upgrade_request(port, key, path="/ws", host=None, origin=None, subprotocol="forcelayout.v1"):
    """The bytes of a WebSocket handshake with exactly these headers."""
    lines = [f"GET {path} HTTP/1.1", f"Host: {host or f'127.0.0.1:{port}'}", "Upgrade: websocket",
             "Connection: Upgrade", f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
    if subprotocol:
        lines.append(f"Sec-WebSocket-Protocol: {subprotocol}")
    if origin is not None:
        lines.append(f"Origin: {origin}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def status_line(connection):
    """The first line of the reply on `connection` (b"" if it closes first)."""
    reply = b""
    while b"\r\n" not in reply:
        chunk = connection.recv(4096)
        if not chunk:
            break
        reply += chunk
    return reply.split(b"\r\n")[0]


def response_head(connection):
    """The reply's head on `connection` up to and including its blank line, read a byte at a
    time so that nothing after it (a frame the server sends at once, such as a close) is
    consumed; b"" if it closes first."""
    head = b""
    while not head.endswith(b"\r\n\r\n"):
        byte = connection.recv(1)
        if not byte:
            break
        head += byte
    return head


def head_then_missing(port, path):
    """HEAD `path` then GET /nope on one connection; returns (HEAD's head, what follows it). A
    HEAD answered with no body leaves the GET's status line right after its headers."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as connection:
        connection.sendall(f"HEAD {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
                           + b"GET /nope HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        reply = b""
        while reply.count(b"\r\n\r\n") < 2:
            chunk = connection.recv(65536)
            assert chunk, reply
            reply += chunk
    return tuple(reply.split(b"\r\n\r\n", 1))


def status_code(line):
    """The status of an HTTP status line, or None when it is not one."""
    parts = line.split()
    return int(parts[1]) if len(parts) > 1 and parts[0].startswith(b"HTTP/") and parts[1].isdigit() else None




def frame_bytes(opcode, payload=b"", fin=True, mask=True, rsv=0):
    """One frame exactly as described, masked with a random key unless told not to."""
    if isinstance(payload, str):
        payload = payload.encode()
    header = bytes([(0x80 if fin else 0) | (rsv << 4) | opcode])
    bit = 0x80 if mask else 0
    if len(payload) < 126:
        header += bytes([bit | len(payload)])
    elif len(payload) < 65536:
        header += bytes([bit | 126]) + struct.pack("!H", len(payload))
    else:
        header += bytes([bit | 127]) + struct.pack("!Q", len(payload))
    if mask:
        key = os.urandom(4)
        header += key
        payload = bytes(byte ^ key[index % 4] for index, byte in enumerate(payload))
    return header + payload


class Closed(Exception):
    pass


class RawWebSocket:
    """A blocking WebSocket client over a raw socket: frames are built by hand."""

    GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    def __init__(self, port, subprotocol="forcelayout.v1", receive_buffer=None, read_size=65536, path="/ws"):
        # A small receive buffer, set before connecting, keeps the kernel from growing it:
        # a client that then stops reading stalls the server's writes quickly.
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if receive_buffer:
            self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.socket.settimeout(2)
        self.read_size = read_size  # bytes taken from the socket at a time
        self.socket.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.socket.sendall(upgrade_request(port, key, path=path, subprotocol=subprotocol))
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.socket.recv(4096)
            if not chunk:
                raise Closed("closed during the handshake")
            self.buffer += chunk
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 101 "), head
        accept = base64.b64encode(hashlib.sha1((key + self.GUID).encode()).digest())
        assert b"Sec-WebSocket-Accept: " + accept in head, head
        self.messages = []      # every message received, in order
        self.sizes = []         # each one's payload size in bytes
        self.pongs = []         # payloads of the pongs received
        self.close_frame = None  # (code, reason) of the server's close frame
        self.partial = None     # a fragmented message being reassembled
        self.partial_binary = False
        self.hello = self.next("hello")
        self.first_frame = self.next("frame")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        try:
            self.socket.close()
        except OSError:
            pass

    # sending

    def frame(self, opcode, payload=b"", fin=True, mask=True, rsv=0):
        """Sends one frame exactly as described (masked with a random key unless told not to)."""
        try:
            self.socket.sendall(frame_bytes(opcode, payload, fin, mask, rsv))
        except (BrokenPipeError, ConnectionResetError, socket.timeout):
            pass  # the server closed (or stopped reading) first, 1009 while we still sent: read why

    def text(self, payload):
        """One text frame; `payload` may be bytes that are not UTF-8."""
        self.frame(0x1, payload)

    def send(self, message):
        self.text(json.dumps(message, ensure_ascii=False))

    def fragments(self, parts, opcode=0x1, between=None):
        """A message in len(parts) frames; `between[i]` = (opcode, payload) of a control frame
        sent after part i."""
        for index, part in enumerate(parts):
            self.frame(opcode if index == 0 else 0x0, part, fin=index == len(parts) - 1)
            if between and index in between:
                self.frame(*between[index])

    # receiving

    def _exact(self, count, deadline):
        while len(self.buffer) < count:
            if time.monotonic() > deadline:
                raise TimeoutError("timed out; last messages: " + json.dumps(self.messages[-5:])[:1500])
            try:
                chunk = self.socket.recv(self.read_size)
            except socket.timeout:
                continue
            except ConnectionResetError:
                chunk = b""
            if not chunk:
                raise Closed("end of stream")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def receive(self, timeout=10):
        """The next message (a dict), answering pings. Raises Closed on a close frame or the end
        of the stream (self.close_frame tells which)."""
        deadline = time.monotonic() + timeout
        while True:
            first, second = self._exact(2, deadline)
            assert not second & 0x80, "the server masked a frame"
            length = second & 0x7F
            if length == 126:
                length = struct.unpack("!H", self._exact(2, deadline))[0]
            elif length == 127:
                length = struct.unpack("!Q", self._exact(8, deadline))[0]
            payload = self._exact(length, deadline)
            opcode = first & 0x0F
            if opcode == 0x8:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                self.close_frame = (code, payload[2:].decode(errors="replace"))
                self.frame(0x8, payload[:2])  # the closing handshake
                raise Closed(f"closed with {self.close_frame}")
            if opcode == 0x9:
                self.frame(0xA, payload)
                continue
            if opcode == 0xA:
                self.pongs.append(payload)
                continue
            assert opcode in (0x0, 0x1, 0x2), f"unexpected opcode {opcode} from the server"
            if opcode != 0x0:
                self.partial_binary = opcode == 0x2
            self.partial = payload if opcode != 0x0 else self.partial + payload
            if first & 0x80:
                # v2 frames are binary: decoded to the shape of a v1 frame (see frame_v2).
                message = decode_binary_frame(self.partial) if self.partial_binary else json.loads(self.partial.decode("utf-8"))
                self.sizes.append(len(self.partial))
                self.partial = None
                self.messages.append(message)
                return message

    def next(self, type_, timeout=10, **fields):
        """The next message of `type_` with these field values; others are skipped (kept in
        self.messages)."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.receive(max(0.0, deadline - time.monotonic()))
            if message.get("type") == type_ and all(message.get(k) == v for k, v in fields.items()):
                return message

    def until_closed(self, timeout=10):
        """Reads until the server closes; returns its close status (None: no close frame)."""
        deadline = time.monotonic() + timeout
        try:
            while True:
                self.receive(max(0.0, deadline - time.monotonic()))
        except Closed:
            return self.close_frame[0] if self.close_frame else None
