"""The recipes of docs/deploy/, tried as they are written: the systemd unit (verified, and its
command started), nginx in front of two servers over TLS (a page, a WebSocket, /metrics kept
in, a drained server's client back through nginx on the other), the cluster's Redis (a room
kept across restarts of Redis and of its server), and the alert rules (every metric they name
is one the servers expose)."""
import asyncio
import re
import shlex
import signal
import ssl
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

from client import Client, run
from prometheus_client.parser import text_string_to_metric_families
from nginx_recipe import RunningNginx, recipe_site, self_signed
from redis_server import RunningRedis
from server import BINARY, RunningServer, free_port
from waiting import wait_until, wait_until_async

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "docs" / "deploy"
TOKEN = "deploy-token-0123456789abcdefghijkl"
ORIGIN = "https://layout.example.org"


def unit_command(unit_text):
    """The words of the unit's ExecStart (its continuation lines joined)."""
    joined = unit_text.replace("\\\n", " ")
    line = next(line for line in joined.splitlines() if line.startswith("ExecStart="))
    return shlex.split(line[len("ExecStart="):])


def test_the_systemd_unit_verifies_and_its_command_serves(tmp_path):
    unit = (DEPLOY / "forcelayout.service").read_text().replace("/usr/local/bin/forcelayout", str(BINARY))
    path = tmp_path / "forcelayout.service"
    path.write_text(unit)
    verified = subprocess.run(["systemd-analyze", "verify", str(path)], capture_output=True, text=True)
    assert verified.returncode == 0, verified.stderr
    assert "forcelayout.service" not in verified.stderr, verified.stderr  # no warning about it

    credentials = tmp_path / "credentials"
    credentials.mkdir()
    (credentials / "admin-token").write_text(TOKEN + "\n")
    state = tmp_path / "state"
    state.mkdir()
    port = free_port()
    words = [word.replace("%d", str(credentials)).replace("/var/lib/forcelayout", str(state))
             .replace("/usr/local/share/forcelayout/Public", str(ROOT / "Public")) for word in unit_command(unit)]
    words[words.index("--port") + 1] = str(port)
    process = subprocess.Popen(words, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout.readline().startswith(f"listening on http://127.0.0.1:{port}/")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=5) as reply:
            assert reply.status == 200
        request = urllib.request.Request(f"http://127.0.0.1:{port}/metrics", headers={"Authorization": "Bearer " + TOKEN})
        with urllib.request.urlopen(request, timeout=5) as reply:
            assert b"forcelayout_build_info" in reply.read()
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=25) == 0
        log = process.stderr.read()
        assert log.lstrip().startswith("{"), "--log-format json: " + log[:300]
        assert TOKEN not in log
    finally:
        if process.poll() is None:
            process.kill()


def get(url, context):
    try:
        with urllib.request.urlopen(url, context=context, timeout=5) as reply:
            return reply.status, reply.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()
    except OSError:
        return None, b""


def test_nginx_in_front_of_two_servers_over_tls(tmp_path):
    certificate, key = self_signed(tmp_path)
    tls_port, plain_port = free_port(), free_port()
    with RunningRedis() as redis:
        flags = ("--allow-origin", ORIGIN, "--default-access", "view", "--max-connections-per-address", "4096",
                 "--redis", redis.url)
        servers = [RunningServer(*flags, "--node", node, log_file=True) for node in "ab"]
        nginx = RunningNginx(tmp_path, recipe_site([server.port for server in servers], tls_port, plain_port,
                                                   certificate, key))
        context = ssl.create_default_context(cafile=str(certificate))
        context.check_hostname = False
        base = f"https://127.0.0.1:{tls_port}"
        try:
            assert wait_until(lambda: get(base + "/healthz", context)[0] == 200, timeout=10)
            status, page = get(base + "/r/deploy", context)
            assert status == 200 and b"<canvas" in page
            assert get(base + "/metrics", context)[0] == 404, "the operator's figures stay in"

            async def scenario():
                socket_url = f"wss://127.0.0.1:{tls_port}/ws/deploy"
                first = await Client(socket_url, headers={"Origin": ORIGIN}, ssl=context).__aenter__()
                await first.send({"type": "add", "count": 5})
                ids = set((await first.event("added", by=first.id))["ids"])
                node = first.id.split("@")[1]
                drained = servers["ab".index(node)]
                await asyncio.sleep(1)
                drained.process.send_signal(signal.SIGTERM)
                await wait_until_async(lambda: first.closed, timeout=10)
                assert first.closed[0] == 1012, first.closed
                # back through nginx, as the page comes back: on the other server, the same room
                again = await Client(socket_url, headers={"Origin": ORIGIN}, ssl=context).__aenter__()
                assert again.id.split("@")[1] != node, again.id
                frame = await again.frame_with(sorted(ids), timeout=10)
                assert ids <= set(frame["ids"])
                await again.__aexit__(None, None, None)
                assert drained.wait(timeout=15) == 0
            run(scenario())
        finally:
            nginx.close()
            for server in servers:
                server.close()


def test_the_redis_recipe_keeps_rooms_across_restarts_of_redis_and_servers(tmp_path):
    with RunningRedis(directory=tmp_path / "redis", config=DEPLOY / "redis.conf") as redis:
        assert redis.call("CONFIG", "GET", "appendonly") == [b"appendonly", b"yes"]
        assert redis.call("CONFIG", "GET", "maxmemory-policy") == [b"maxmemory-policy", b"noeviction"]

        async def fill(server):
            async with Client(server.room("kept")) as client:
                await client.send({"type": "add", "count": 20})
                return set((await client.event("added", by=client.id))["ids"])

        async def cells(server):
            async with Client(server.room("kept")) as client:
                return set((await client.next("frame"))["ids"])

        with RunningServer("--redis", redis.url, "--node", "a") as server:
            ids = run(fill(server))
            time.sleep(1.5)  # written within 0.75 s, fsynced within a second
        time.sleep(1.2)
        redis.stop()  # kill -9: what the append-only log has survives
        redis.start()
        with RunningServer("--redis", redis.url, "--node", "a") as server:
            assert ids <= run(cells(server))


def test_every_metric_the_recipes_and_readme_name_is_exposed():
    with RunningServer() as server:
        with urllib.request.urlopen(server.http + "/metrics", timeout=5) as reply:
            families = {family.name for family in text_string_to_metric_families(reply.read().decode())}
    # a cluster's figures are there only in a cluster
    with RunningRedis() as redis, RunningServer("--redis", redis.url, "--node", "m") as server:
        with urllib.request.urlopen(server.http + "/metrics", timeout=5) as reply:
            families |= {family.name for family in text_string_to_metric_families(reply.read().decode())}
    named = set()
    for document in (DEPLOY / "alerts.yml", DEPLOY / "README.md", ROOT / "README.md", ROOT / "docs" / "protocol.md"):
        named |= set(re.findall(r"\b(forcelayout_[a-z_]+[a-z])\b", document.read_text()))
    assert named, "the documents name metrics"
    for name in sorted(named):
        base = re.sub(r"_(bucket|count|sum)$", "", name)
        family = re.sub(r"_total$", "", base)
        assert base in families or family in families, f"{name} is named in the documents but not exposed"
