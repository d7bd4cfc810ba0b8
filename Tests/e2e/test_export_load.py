"""Exports and loads of large rooms do not stall the server (issue 22): a room that is only on
disk is read, checked and encoded off the service thread, every download is whole, exports
nobody reads hold at most the documented budget, and a bad room file is read once until it
changes. Sizes are smaller than the issue's (20k cells, 40k links) to suit a debug build."""
import http.client
import json
import multiprocessing
import socket
import statistics
import threading
import time
import xml.etree.ElementTree as ET

from raw_websocket import RawWebSocket, status_code, status_line, upgrade_request
from room_tools import first_join, handshake
from server import RunningServer, wait_until
from waiting import drain
from state_files import write_room

CELLS, LINKS = 20_000, 40_000


def download(port, path, source="127.0.0.1"):
    """(status, headers, body) of one GET on a connection of its own."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0))
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, {key.lower(): value for key, value in response.getheaders()}, response.read()
    finally:
        connection.close()


def whole(path, headers, body):
    """Whether a download is the whole document: its length as announced, and it parses with
    every cell and link."""
    if int(headers.get("content-length", -1)) != len(body):
        return False
    if path.endswith(".json"):
        document = json.loads(body)
        return len(document["nodes"]) == CELLS and len(document["links"]) == LINKS
    root = ET.fromstring(body)
    namespace = "{http://www.gexf.net/1.2draft}"
    return len(root.findall(f".//{namespace}node")) == CELLS and len(root.findall(f".//{namespace}edge")) == LINKS


def hello_time(port):
    """Seconds from connecting to the hello of room main."""
    started = time.monotonic()
    with RawWebSocket(port):
        return time.monotonic() - started


def rss_bytes(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def export_loop(port, source, formats, seconds, results):
    """Downloads exports from `source` for `seconds`, each checked whole; runs in a process of
    its own, so parsing the documents never holds up the probe's measurements."""
    count, end = 0, time.monotonic() + seconds
    while time.monotonic() < end:
        path = f"/export/big.{formats[count % len(formats)]}"
        count += 1
        try:
            status, headers, body = download(port, path, source)
            results.put((path, status, status == 200 and whole(path, headers, body), None))
        except OSError as error:
            results.put((path, None, False, repr(error)))


def test_export_loops_leave_other_clients_served_and_every_download_whole(tmp_path):
    write_room(tmp_path / "big.json", CELLS)
    with RunningServer("--state-dir", str(tmp_path)) as server:
        baseline = [hello_time(server.port) for _ in range(5)]
        results = multiprocessing.Queue()
        loops = [multiprocessing.Process(target=export_loop, args=(server.port, f"127.0.0.{2 + index}", formats, 12, results))
                 for index, formats in enumerate([("gexf",), ("json",), ("gexf", "json")])]
        for process in loops:
            process.start()
        hellos = []
        deadline = time.monotonic() + 12
        while time.monotonic() < deadline:
            hellos.append(hello_time(server.port))
            time.sleep(0.05)
        for process in loops:
            process.join(120)
        downloads = drain(results)
        assert len(downloads) >= 6, downloads
        assert all(status == 200 and error is None for _, status, _, error in downloads), \
            [d for d in downloads if d[1] != 200][:5]
        assert all(ok for _, _, ok, _ in downloads), "a download was not whole"
        hellos.sort()
        p99 = hellos[min(len(hellos) - 1, int(len(hellos) * 0.99))]
        print(f"\nexports: {len(downloads)} whole; probe hello median {statistics.median(hellos) * 1000:.1f} ms, "
              f"p99 {p99 * 1000:.1f} ms, max {hellos[-1] * 1000:.1f} ms ({len(hellos)} hellos; idle median "
              f"{statistics.median(baseline) * 1000:.1f} ms)")
        # The target is 100 ms; a debug build on a shared 2-core machine gets room.
        assert p99 < 0.5, hellos[-10:]


def unread_export(port, source, fmt):
    """A GET of an export whose answer is never read past its status line: (socket, status)."""
    connection = socket.socket()
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    connection.settimeout(30)
    connection.bind((source, 0))
    connection.connect(("127.0.0.1", port))
    connection.sendall(f"GET /export/big.{fmt} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    return connection, status_code(status_line(connection))


def test_exports_nobody_reads_hold_at_most_the_budget(tmp_path):
    write_room(tmp_path / "big.json", CELLS)
    budget = 4 << 20
    with RunningServer("--state-dir", str(tmp_path), "--max-export-bytes", str(budget), "--request-timeout", "3") as server:
        status, headers, body = download(server.port, "/export/big.gexf")
        assert status == 200 and whole("/export/big.gexf", headers, body)
        document = len(body)
        del body
        time.sleep(1.5)  # the sweep gives freed memory back
        before = rss_bytes(server.process.pid)
        # Ten readers that stop after the status line hold the GEXF document (over the budget)...
        held = [unread_export(server.port, f"127.0.1.{1 + index}", "gexf") for index in range(10)]
        assert [status for _, status in held] == [200] * 10, held
        # ...so of fifty more, those of the other format are refused until they let go, and those
        # of the same format share the document held (no new bytes, no new read).
        refused = [unread_export(server.port, f"127.0.2.{1 + index}", "gexf" if index % 2 else "json") for index in range(50)]
        statuses = [status for _, status in refused]
        peak = before
        for _ in range(20):
            peak = max(peak, rss_bytes(server.process.pid))
            time.sleep(0.1)
        grown = peak - before
        print(f"\nunread exports: 10 held, then {statuses.count(503)} of 50 refused, {statuses.count(200)} shared; RSS {before >> 20} MB -> peak "
              f"{peak >> 20} MB (+{grown >> 20} MB; budget {budget >> 20} MB, document {document >> 20} MB)")
        assert statuses == [200 if index % 2 else 503 for index in range(50)], statuses
        assert server.log.count("refused export of big") == 25
        # The document once, plus a chunk per connection in lws, plus what reading and encoding
        # took (freed since, but glibc may keep it until the next sweep).
        assert grown < budget + document + 60 * 65536 + (48 << 20), grown
        # Readers that never read meet the request timeout: closed, their document let go.
        time.sleep(5)
        status, headers, body = download(server.port, "/export/big.json", source="127.0.3.1")
        assert status == 200 and whole("/export/big.json", headers, body)
        for connection, _ in held + refused:
            connection.close()


def test_a_bad_room_file_is_read_once_until_it_changes(tmp_path):
    size = write_room(tmp_path / "bad.json", CELLS, broken=True)
    with RunningServer("--state-dir", str(tmp_path)) as server:
        started = time.monotonic()
        assert first_join(server.port, "/ws/bad") == (101, 1011)
        first = time.monotonic() - started
        later = []
        for _ in range(5):
            started = time.monotonic()
            assert handshake(server.port, "/ws/bad") == 503
            later.append(time.monotonic() - started)
        started = time.monotonic()
        status, _, _ = download(server.port, "/export/bad.json")
        export = time.monotonic() - started
        assert status == 503
        print(f"\nbad file ({size >> 20} MB): first handshake {first * 1000:.0f} ms, then "
              f"{', '.join(f'{t * 1000:.1f}' for t in later)} ms; export {export * 1000:.1f} ms")
        assert max(later) < 0.2 and export < 0.2, (first, later, export)
        assert server.log.count("room bad: state file") == 1, server.log[-3000:]  # read once
        # Fixed: the next handshake reads it again and serves the room.
        write_room(tmp_path / "bad.json", CELLS)
        assert first_join(server.port, "/ws/bad") == (101, None)


def test_loading_a_large_room_leaves_other_clients_served(tmp_path):
    write_room(tmp_path / "big.json", CELLS)
    with RunningServer("--state-dir", str(tmp_path)) as server:
        outcome = {}

        def join():
            started = time.monotonic()
            outcome["join"] = first_join(server.port, "/ws/big", timeout=120)
            outcome["seconds"] = time.monotonic() - started

        def second():
            outcome["second"] = first_join(server.port, "/ws/big", timeout=120)

        joiner = threading.Thread(target=join)
        joiner.start()
        hellos = []
        while joiner.is_alive():
            hellos.append(hello_time(server.port))
            if len(hellos) == 3:  # another client of the room while it loads waits as well
                late = threading.Thread(target=second)
                late.start()
            time.sleep(0.02)
        joiner.join()
        late.join()
        hellos.sort()
        print(f"\nload of big ({CELLS} cells): hello after {outcome['seconds'] * 1000:.0f} ms; meanwhile {len(hellos)} "
              f"probe hellos, max {hellos[-1] * 1000:.1f} ms")
        assert outcome["join"] == (101, None) and outcome["second"] == (101, None), outcome
        assert len(hellos) >= 3 and hellos[-1] < 0.5, hellos[-5:]
        assert wait_until(lambda: "room big loaded (20000 cells" in server.log), server.log[-2000:]


def test_exports_of_a_room_in_memory_nobody_reads_are_bounded_too(tmp_path):
    write_room(tmp_path / "big.json", CELLS)
    budget = 4 << 20
    with RunningServer("--state-dir", str(tmp_path), "--max-export-bytes", str(budget), "--request-timeout", "3") as server:
        member = socket.create_connection(("127.0.0.1", server.port))  # keeps the room in memory
        member.sendall(upgrade_request(server.port, "dGhlIHNhbXBsZSBub25jZQ==", path="/ws/big"))
        assert wait_until(lambda: "room big loaded" in server.log, timeout=60), server.log[-2000:]
        status, headers, body = download(server.port, "/export/big.gexf")
        assert status == 200 and whole("/export/big.gexf", headers, body)
        # Its next document is expected to be as large: one on its way fills the budget.
        unread = [unread_export(server.port, f"127.0.4.{1 + index}", "gexf") for index in range(20)]
        statuses = [status for _, status in unread]
        assert statuses == [200] + [503] * 19, statuses
        for connection, _ in unread:
            connection.close()
        time.sleep(1)
        status, headers, body = download(server.port, "/export/big.json", source="127.0.5.1")
        assert status == 200 and whole("/export/big.json", headers, body)
        member.close()


def test_a_download_slower_than_the_request_timeout_arrives_whole(tmp_path):
    """The body goes out as the client reads, and every chunk it takes restarts the connection's
    deadline: a download that takes several request timeouts is not cut (it was: the request's
    deadline closed the connection under it, one cause of the issue's truncated downloads)."""
    write_room(tmp_path / "big.json", CELLS)
    with RunningServer("--state-dir", str(tmp_path), "--request-timeout", "2") as server:
        connection = socket.socket()
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16384)
        connection.settimeout(30)
        connection.connect(("127.0.0.1", server.port))
        connection.sendall(b"GET /export/big.gexf HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        started, data = time.monotonic(), b""
        while b"\r\n\r\n" not in data:
            data += connection.recv(16384)
        head, body = data.split(b"\r\n\r\n", 1)
        headers = {line.split(b":", 1)[0].decode().lower(): line.split(b":", 1)[1].strip().decode()
                   for line in head.split(b"\r\n")[1:]}
        length = int(headers["content-length"])
        while len(body) < length:
            chunk = connection.recv(16384)
            assert chunk, f"cut after {len(body)} of {length} bytes, {time.monotonic() - started:.1f} s"
            body += chunk
            time.sleep(0.01)  # about 1.5 MB/s: the whole takes a few request timeouts
        took = time.monotonic() - started
        connection.close()
        print(f"\nslow download: {length} bytes in {took:.1f} s (--request-timeout 2)")
        assert took > 4, "the download was meant to outlast the timeout"
        assert whole("/export/big.gexf", headers, body)


def test_one_address_has_at_most_its_exports_under_way(tmp_path):
    write_room(tmp_path / "big.json", CELLS)
    with RunningServer("--state-dir", str(tmp_path), "--max-exports-per-address", "2") as server:
        held = [unread_export(server.port, "127.0.6.1", fmt) for fmt in ("gexf", "json")]
        assert [status for _, status in held] == [200, 200]
        connection = socket.create_connection(("127.0.0.1", server.port), timeout=10, source_address=("127.0.6.1", 0))
        connection.sendall(b"GET /export/big.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        reply = b""
        while b"\r\n\r\n" not in reply:
            reply += connection.recv(4096)
        connection.close()
        assert status_code(reply.split(b"\r\n")[0]) == 429 and b"retry-after: 1" in reply.lower(), reply
        status, headers, body = download(server.port, "/export/big.json", source="127.0.6.2")
        assert status == 200 and whole("/export/big.json", headers, body), "another address is served"
        for connection, _ in held:
            connection.close()
        # Closed, they no longer count.
        assert wait_until(lambda: download(server.port, "/export/big.json", source="127.0.6.1")[0] == 200, timeout=10)
