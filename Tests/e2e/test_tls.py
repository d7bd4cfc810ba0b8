"""TLS through libwebsockets' own (`serve --tls-cert FILE --tls-key FILE`): https and wss on
one port, with a self-signed certificate made here with openssl; links work over it as over
plain http, and plain http on that port is not served."""
import json
import shutil
import socket
import ssl
import subprocess
import urllib.request

import pytest

from client import Client, run
from room_tools import add
from server import RunningServer

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command")


def certificate(folder):
    """A self-signed certificate for localhost and 127.0.0.1, valid one day: (cert, key)."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-days", "1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    return cert, key


def trusting(cert):
    """A client context that trusts this certificate alone (and checks the name)."""
    context = ssl.create_default_context(cafile=str(cert))
    return context


def test_https_and_wss_on_one_port(tmp_path):
    cert, key = certificate(tmp_path)
    context = trusting(cert)
    with RunningServer("--tls-cert", str(cert), "--tls-key", str(key)) as server:
        assert f"listening on https://127.0.0.1:{server.port}/" in server.log
        https = f"https://127.0.0.1:{server.port}"
        with urllib.request.urlopen(https + "/", context=context, timeout=10) as reply:
            assert reply.status == 200 and b"<canvas" in reply.read()
        with urllib.request.urlopen(https + "/r/demo", context=context, timeout=10) as reply:
            assert reply.status == 200

        async def scenario():
            wss = f"wss://127.0.0.1:{server.port}/ws/secure"
            async with Client(wss, ssl=context, subprotocols=("forcelayout.v2",)) as owner:
                assert owner.hello["role"] == "owner"
                links = owner.hello["links"]
                await add(owner, 3)
                await owner.send({"type": "access", "access": "private"})
                await owner.event("access", by=owner.id)
                async with Client(wss, ssl=context, key=links["view"]) as viewer:
                    assert viewer.hello["role"] == "viewer"
                    frame = await viewer.next("frame")
                    assert len(frame["ids"]) == 3
                request = urllib.request.Request(https + "/export/secure.json", headers={"Authorization": f"Bearer {links['view']}"})
                with urllib.request.urlopen(request, context=context, timeout=10) as reply:
                    assert len(json.load(reply)["nodes"]) == 3
                return links
        links = run(scenario())
        # Plain http on the TLS port gets no page.
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as plain:
            plain.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            try:
                answer = plain.recv(4096)
            except (ConnectionResetError, socket.timeout):
                answer = b""
            assert b"<canvas" not in answer
        assert not any(secret in server.log for secret in links.values())


def test_tls_flags_go_together(tmp_path):
    cert, key = certificate(tmp_path)
    for flags, words in ((("--tls-cert", str(cert)), "--tls-cert and --tls-key go together"),
                         (("--tls-cert", str(cert), "--tls-key", str(tmp_path / "none.pem")), "no readable file there")):
        server = RunningServer(*flags, expect_failure=True)
        try:
            assert server.wait() != 0
            assert words in server.log, server.log
        finally:
            server.close()
