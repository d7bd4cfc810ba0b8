"""A page behind docs/deploy/nginx.conf (TLS, two servers of a cluster) whose server drains:
told `reconnect`, it opens its next connection through nginx, which finds the other server,
and moves to it without ever showing itself disconnected: the same room, the same cells."""
import re
import signal
import time

import test_browser  # noqa: F401  (puts Tests/e2e on the path)
from nginx_recipe import RunningNginx, recipe_site, self_signed
from redis_server import RunningRedis
from server import RunningServer, free_port


def client_id(page):
    return page.field("client") or ""


def test_a_page_whose_server_drains_comes_back_through_the_proxy_on_another(pages, tmp_path):
    certificate, key = self_signed(tmp_path)
    tls_port, plain_port = free_port(), free_port()
    origin = f"https://127.0.0.1:{tls_port}"  # the public name, in this test
    with RunningRedis() as redis:
        flags = ("--allow-origin", origin, "--default-access", "open", "--max-connections-per-address", "4096",
                 "--redis", redis.url)
        servers = [RunningServer(*flags, "--node", node, log_file=True) for node in "ab"]
        nginx = RunningNginx(tmp_path, recipe_site([s.port for s in servers], tls_port, plain_port, certificate, key))
        try:
            page = pages(f"{origin}/r/drain", extra_args=("--ignore-certificate-errors",))
            page.wait(lambda: page.field("connection") == "connected" and re.fullmatch(r"c\d+@[ab]", client_id(page)),
                      "connected through nginx, to a server of the cluster")
            page.find('button[data-action="add"]').click()
            page.wait(lambda: page.cells() > 0, "cells added")
            count = page.cells()
            before = client_id(page)
            node = before.split("@")[1]
            drained = servers["ab".index(node)]
            time.sleep(1)
            page.js("window.__states = []; const s = window.forcelayout.state;"
                    "s.on('connection', () => window.__states.push(s.connection));")
            drained.process.send_signal(signal.SIGTERM)
            signalled = time.monotonic()
            page.wait(lambda: re.fullmatch(r"c\d+@[ab]", client_id(page)) and client_id(page).split("@")[1] != node
                      and page.field("connection") == "connected", "the page back, on the other server", timeout=15)
            took = time.monotonic() - signalled
            page.wait(lambda: page.cells() == count, "the same cells")
            assert drained.wait(timeout=15) == 0
            assert took < 5, f"the page came back after {took:.1f} s"
            states = page.js("return window.__states")
            assert "reconnecting" not in states, f"the page showed itself disconnected: {states}"
            assert "1012" not in drained.log.split("draining:")[1], "the page moved before the window ran out"
        finally:
            nginx.close()
            for server in servers:
                server.close()
