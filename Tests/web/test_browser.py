"""The page in real headless Chromium against the real server.

    /usr/bin/python3 -m pytest Tests/web/test_browser.py

Starts `<bin> serve --host 127.0.0.1 --port <free port> --public <repo>/Public`, with <bin>
from $FORCELAYOUT_BIN (default <repo>/.build/debug/forcelayout), waits for it to print
`listening on http://127.0.0.1:<port>/`, drives two pages with selenium, and stops the
server with SIGTERM. Screenshots go to $SCREENSHOT_DIR when it is set.
Needs the Debian packages python3-selenium, python3-pytest, chromium, chromium-driver.
"""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.actions.action_builder import ActionBuilder  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
PUBLIC = REPO / "Public"
BIN = Path(os.environ.get("FORCELAYOUT_BIN") or REPO / ".build" / "debug" / "forcelayout")
CHROMIUM = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver")
WAIT = 15  # seconds for anything the page should show


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """The server binary on a port, started and waited for; stopped with SIGTERM."""

    def __init__(self, port):
        self.port = port
        self.url = f"http://127.0.0.1:{port}/"
        self.output = []
        self.proc = None
        # its own working directory, so whatever the server writes there (saved state)
        # stays out of the repository; kept across a restart so a restore finds it
        self.workdir = tempfile.mkdtemp(prefix="forcelayout-web-")

    def start(self):
        self.proc = subprocess.Popen(
            [str(BIN), "serve", "--host", "127.0.0.1", "--port", str(self.port), "--public", str(PUBLIC)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=self.workdir,
        )
        ready = threading.Event()
        banner = f"listening on {self.url}"

        def drain(out):  # keep reading so the server never blocks on a full pipe
            for line in out:
                self.output.append(line)
                if banner in line:
                    ready.set()

        threading.Thread(target=drain, args=(self.proc.stdout,), daemon=True).start()
        deadline = time.monotonic() + 60
        while not ready.wait(0.1):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                code = self.proc.poll()
                self.stop()
                time.sleep(0.2)  # let the reader catch the last lines
                pytest.fail(f"server did not print {banner!r} (exit code {code}); "
                            f"output:\n{''.join(self.output)[-4000:]}")
        return self

    def stop(self):
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
        self.proc = None

    def close(self):
        self.stop()
        shutil.rmtree(self.workdir, ignore_errors=True)

    def stats(self):
        with urllib.request.urlopen(self.url + "stats", timeout=5) as r:
            return json.load(r)


def require_tools():
    if not BIN.exists():
        pytest.fail(f"server binary not found at {BIN} (build it, or set FORCELAYOUT_BIN)")
    for tool in (CHROMIUM, CHROMEDRIVER):
        if not shutil.which(tool):
            pytest.fail(f"{tool} not installed (apt-get install chromium chromium-driver)")


@pytest.fixture(scope="module")
def server():
    require_tools()
    srv = Server(free_port()).start()
    try:
        yield srv.url
    finally:
        srv.close()


class Page:
    """One browser window on the page, with the console messages it logged so far."""

    def __init__(self, url):
        opts = webdriver.ChromeOptions()
        opts.binary_location = CHROMIUM
        for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1200,800"):
            opts.add_argument(arg)
        opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
        self.logs = []
        self.driver.get(url)

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def find(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def wait(self, predicate, what):
        try:
            return WebDriverWait(self.driver, WAIT, poll_frequency=0.05).until(lambda d: predicate())
        except Exception as e:  # a readable failure instead of a bare TimeoutException
            raise AssertionError(f"timed out waiting for {what}; status: {self.status_text()!r}") from e

    def field(self, name):
        return self.find(f'#status [data-field="{name}"]').get_attribute("textContent").strip()

    def status_text(self):
        try:
            return " ".join(self.find("#status").get_attribute("textContent").split())
        except Exception:
            return "?"

    def cells(self):
        return int(self.js("return document.body.dataset.cells || '0'"))

    def log_lines(self):
        return self.js("return [...document.querySelectorAll('#log li span')].map((e) => e.textContent)")

    def set_input(self, name, value):
        self.js(
            "const el = document.querySelector(`input[name='${arguments[0]}']`);"
            "el.value = arguments[1];"
            "el.dispatchEvent(new Event('input', {bubbles: true}));"
            "el.dispatchEvent(new Event('change', {bubbles: true}));",
            name, str(value),
        )

    def severe(self):
        self.logs += self.driver.get_log("browser")
        return [e for e in self.logs if e.get("level") == "SEVERE"]

    def screenshot(self, name):
        d = os.environ.get("SCREENSHOT_DIR")
        if d:
            Path(d).mkdir(parents=True, exist_ok=True)
            self.driver.save_screenshot(str(Path(d) / name))

    def quit(self):
        self.driver.quit()


@pytest.fixture(scope="module")
def pages(server):
    opened = []

    def open_page():
        p = Page(server)
        opened.append(p)
        return p

    yield open_page
    for p in opened:
        p.quit()


@pytest.fixture(scope="module")
def first(pages):
    return pages()


@pytest.fixture(scope="module")
def second(pages, first):
    return pages()


def connected(page):
    page.wait(lambda: page.field("connection") == "connected", "the status to say connected")
    page.wait(lambda: re.fullmatch(r"c\d+", page.field("client")), "a client id in the status line")


def test_page_loads_and_connects(first):
    connected(first)
    assert first.js("return document.body.dataset.connection") == "connected"
    assert first.driver.title == "forcelayout"
    for name in ("stiffness", "charge", "cellSize", "threshold", "tickRate", "theta", "collide", "paused", "count"):
        assert first.find(f'input[name="{name}"]'), name
    for action in ("add", "remove", "clear", "pause"):
        assert first.find(f'button[data-action="{action}"]'), action
    strip = first.find("#strip")
    assert strip.get_attribute("role") == "slider"
    assert strip.get_attribute("tabindex") == "0"
    # the canvas has a HiDPI backing store as large as its CSS box times the pixel ratio
    w, cw, dpr = first.js(
        "const c = document.querySelector('#layout');"
        "return [c.width, c.getBoundingClientRect().width, devicePixelRatio];"
    )
    assert abs(w - round(cw * dpr)) <= 1
    assert first.severe() == []


def test_add_cells(first):
    connected(first)
    before = first.cells()
    first.set_input("count", 5)
    first.find('button[data-action="add"]').click()
    first.wait(lambda: first.cells() == before + 5, f"{before + 5} cells")
    first.wait(lambda: first.field("cells") == str(before + 5), "the status line's cell count")
    first.wait(lambda: any(re.fullmatch(r"c\d+ added 5 cells", t) for t in first.log_lines()), "an 'added' log line")
    strip = first.find("#strip")
    assert strip.get_attribute("aria-valuemax") == str(before + 5)
    assert re.fullmatch(rf"Cell \d+, \d+ of {before + 5}", strip.get_attribute("aria-valuetext"))
    first.screenshot("page-after-add.png")
    assert first.severe() == []


def test_second_page_sees_the_same_layout(first, second):
    connected(second)
    n = first.cells()
    assert n >= 5
    second.wait(lambda: second.cells() == n, f"{n} cells on the second page")
    second.wait(lambda: any(re.fullmatch(r"c\d+ added 5 cells", t) for t in second.log_lines()),
                "the replayed 'added' line on the second page")
    first.wait(lambda: first.field("clients") == "2", "2 clients on the first page")
    assert second.field("clients") == "2"
    assert second.severe() == []


def test_params_change_shows_on_the_other_page(first, second):
    connected(first)
    connected(second)
    current = float(second.find('input[name="charge"]').get_attribute("value"))
    target = 20 if current != 20 else 25
    first.set_input("charge", target)
    second.wait(lambda: float(second.find('input[name="charge"]').get_attribute("value")) == target,
                f"charge {target} on the second page")
    second.wait(lambda: second.find('input[data-for="charge"]').get_attribute("value") == str(target),
                "the value shown beside the slider")
    second.wait(lambda: any(re.fullmatch(rf"c\d+ set charge to {target}", t) for t in second.log_lines()),
                "a 'set charge' log line")
    assert first.severe() == [] and second.severe() == []


def test_strip_keys_and_canvas_click_select_cells(first):
    connected(first)
    strip = first.find("#strip")
    n = first.cells()
    strip.click()
    strip.send_keys(Keys.HOME)
    first.wait(lambda: strip.get_attribute("aria-valuenow") == "1", "the first cell selected")
    strip.send_keys(Keys.ARROW_RIGHT)
    first.wait(lambda: strip.get_attribute("aria-valuenow") == "2", "the second cell selected")
    strip.send_keys(Keys.END)
    first.wait(lambda: strip.get_attribute("aria-valuenow") == str(n), "the last cell selected")

    # click the first cell on the canvas (it may still be moving: try a few times)
    ids = first.js("return window.forcelayout.state.ids.slice(0, 1)")
    for _ in range(10):
        x, y = first.js("return window.forcelayout.cellClientPosition(arguments[0])", ids[0])
        actions = ActionBuilder(first.driver)
        actions.pointer_action.move_to_location(int(round(x)), int(round(y))).click()
        actions.perform()
        if first.js("return document.body.dataset.selected") == str(ids[0]):
            break
        time.sleep(0.2)
    assert first.js("return document.body.dataset.selected") == str(ids[0])
    assert strip.get_attribute("aria-valuenow") == "1"
    first.screenshot("page-selected.png")
    assert first.severe() == []


def test_remove_and_pause(first, second):
    n = first.cells()
    first.set_input("count", 2)
    first.find('button[data-action="remove"]').click()
    second.wait(lambda: second.cells() == n - 2, f"{n - 2} cells on the second page")
    second.wait(lambda: any(re.fullmatch(r"c\d+ removed 2 cells", t) for t in second.log_lines()),
                "a 'removed' log line")
    paused = first.find('input[name="paused"]').is_selected()
    first.find('button[data-action="pause"]').click()
    second.wait(lambda: second.find('input[name="paused"]').is_selected() != paused, "paused toggled")
    first.find('button[data-action="pause"]').click()
    second.wait(lambda: second.find('input[name="paused"]').is_selected() == paused, "paused toggled back")
    first.screenshot("page-final.png")
    second.screenshot("page-second.png")
    assert first.severe() == [] and second.severe() == []


def test_reconnects_after_a_server_restart():
    """A separate server: stop it under an open page, start it again on the same port."""
    require_tools()
    srv = Server(free_port()).start()
    page = None
    try:
        page = Page(srv.url)
        connected(page)
        page.set_input("count", 3)
        page.find('button[data-action="add"]').click()
        page.wait(lambda: page.cells() == 3, "3 cells")
        srv.stop()
        page.wait(lambda: page.field("connection") == "reconnecting", "the status to say reconnecting")
        assert page.find('button[data-action="add"]').get_attribute("disabled") is not None
        srv.start()
        page.wait(lambda: page.field("connection") == "connected", "connected again")
        expected = srv.stats()["cells"]  # a server that restores its state may have kept them
        page.wait(lambda: page.cells() == expected, f"{expected} cells after the restart")
        page.set_input("count", 2)
        page.find('button[data-action="add"]').click()
        page.wait(lambda: page.cells() == expected + 2, f"{expected + 2} cells")
        lines = page.log_lines()
        assert sum(bool(re.fullmatch(r"c\d+ added 3 cells", t)) for t in lines) == 1, lines
        page.screenshot("page-reconnected.png")
    finally:
        if page:
            page.quit()
        srv.close()
