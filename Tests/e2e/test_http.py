"""Static files, /stats and the WebSocket endpoint's path, over real HTTP."""
import http.client
import json
import subprocess

from server import REPO, RunningServer, wait_until


def get(server, path):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.request("GET", path)
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, response.getheader("content-type") or "", body


def test_index_is_served_at_root(server):
    status, content_type, body = get(server, "/")
    assert status == 200
    assert content_type.startswith("text/html")
    assert body == (REPO / "Public" / "index.html").read_bytes()


def test_page_files_have_their_mime_types(server):
    for path, expected in [("/style.css", "text/css"), ("/dots.js", "javascript"), ("/index.html", "text/html")]:
        status, content_type, body = get(server, path)
        assert status == 200, path
        assert expected in content_type, (path, content_type)
        assert body == (REPO / "Public" / path.lstrip("/")).read_bytes()


def test_unknown_paths_are_404(server):
    for path in ["/nope", "/nope.js", "/dir/", "/stats/more"]:
        status, _, _ = get(server, path)
        assert status == 404, path


def test_no_path_reaches_outside_public(server):
    secret = (REPO / "Package.swift").read_bytes()
    for path in ["/../Package.swift", "/%2e%2e/Package.swift", "/..%2fPackage.swift", "//../Package.swift",
                 "/./../Package.swift", "/../../../../etc/passwd", "/%2e%2e%2f%2e%2e%2fetc/passwd"]:
        status, _, body = get(server, path)
        assert secret not in body and b"root:" not in body, path
        assert status in (400, 403, 404), (path, status)


def test_no_symbolic_link_leads_outside_public(tmp_path):
    public = tmp_path / "public"
    (public / "sub").mkdir(parents=True)
    (public / "index.html").write_text("page")
    (public / "sub" / "a.txt").write_text("inner")
    secret = tmp_path / "secret.txt"
    secret.write_text("secret")
    (public / "leak.txt").symlink_to(secret)
    (public / "outside").symlink_to(tmp_path)
    (public / "inside.txt").symlink_to(public / "sub" / "a.txt")
    with RunningServer(public=public) as server:
        for path in ["/leak.txt", "/outside/secret.txt", "/outside/"]:
            status, _, body = get(server, path)
            assert status == 404 and b"secret" not in body, path
        assert get(server, "/inside.txt")[2] == b"inner"
        assert get(server, "/sub/a.txt")[2] == b"inner"
        assert wait_until(lambda: "refused GET /leak.txt: it resolves outside" in server.log), server.log


def test_stats_endpoint(server):
    status, content_type, body = get(server, "/stats")
    assert status == 200
    assert content_type.startswith("application/json")
    stats = json.loads(body)
    assert stats["type"] == "stats"
    for key in ["cells", "clients", "tick", "settled", "tickMs", "tickMsP99", "tickRate", "frameBytes", "uptimeS"]:
        assert key in stats, key
    assert stats["cells"] == 0 and stats["clients"] == 0 and stats["tickRate"] == 20


def test_listens_on_loopback_only(server):
    sockets = subprocess.run(["ss", "-ltnH"], capture_output=True, text=True).stdout
    mine = [line for line in sockets.splitlines() if line.split()[3].endswith(f":{server.port}")]
    assert mine, sockets
    assert all(line.split()[3] == f"127.0.0.1:{server.port}" for line in mine), mine
