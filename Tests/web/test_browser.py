"""The page in real headless Chromium against the real server.

    /usr/bin/python3 -m pytest Tests/web/test_browser.py

Starts `<bin> serve --host 127.0.0.1 --port <free port> --public <repo>/Public` with the
launcher every suite shares (Tests/e2e/server.py), <bin> from $FORCELAYOUT_BIN (default
<repo>/.build/debug/forcelayout), which waits for it to print
`listening on http://127.0.0.1:<port>/`; drives two pages with selenium, and stops the
server with SIGTERM. Screenshots go to $SCREENSHOT_DIR when it is set; test_screenshot saves
the page with a few hundred settled cells to $FORCELAYOUT_SCREENSHOT when that is set
(`make screenshot`: docs/screenshot.png). Connections besides the pages: control.py.
Needs the Debian packages python3-selenium, python3-pytest, chromium, chromium-driver.
"""
import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
from control import Control  # noqa: E402  (Tests/web/control.py)
from server import RunningServer, ServerDidNotStart, find_binary  # noqa: E402  (Tests/e2e/server.py)
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.actions.action_builder import ActionBuilder  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

BIN = find_binary()
CHROMIUM = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver")
WAIT = 15  # seconds for anything the page should show


def start_server():
    """The server on a free port, in a temporary working directory of its own, so whatever it
    writes there (saved state) stays out of the repository; kept across a restart so a
    restore finds it."""
    require_tools()
    try:
        return RunningServer(binary=BIN, workdir=True, start_timeout=60)
    except ServerDidNotStart as error:
        pytest.fail(str(error))


def require_tools():
    if not BIN.exists():
        pytest.fail(f"server binary not found at {BIN} (build it, or set FORCELAYOUT_BIN)")
    for tool in (CHROMIUM, CHROMEDRIVER):
        if not shutil.which(tool):
            pytest.fail(f"{tool} not installed (apt-get install chromium chromium-driver)")


@pytest.fixture(scope="module")
def server():
    srv = start_server()
    try:
        yield srv.url
    finally:
        srv.close()


class Page:
    """One browser window on the page, with the console messages it logged so far."""

    def __init__(self, url, size=(1200, 800), scale=None, viewport=None, extra_args=()):
        opts = webdriver.ChromeOptions()
        opts.binary_location = CHROMIUM
        for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", f"--window-size={size[0]},{size[1]}", *extra_args):
            opts.add_argument(arg)
        if scale is not None:
            opts.add_argument(f"--force-device-scale-factor={scale}")
        opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
        self.logs = []
        self.driver.get(url)
        if viewport:  # the window's own frame takes some of --window-size: grow it by that
            outer_w, outer_h, inner_w, inner_h = self.js("return [outerWidth, outerHeight, innerWidth, innerHeight]")
            self.driver.set_window_size(viewport[0] + outer_w - inner_w, viewport[1] + outer_h - inner_h)
            self.wait(lambda: self.js("return [innerWidth, innerHeight]") == list(viewport),
                      f"a {viewport[0]}x{viewport[1]} viewport")

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def find(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def wait(self, predicate, what, timeout=WAIT):
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(lambda d: predicate())
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

    def choose(self, name, option):
        """Picks `option` in the menu select[name=`name`] as a person would (a change event)."""
        self.js(
            "const el = document.querySelector(`select[name='${arguments[0]}']`);"
            "el.value = arguments[1];"
            "el.dispatchEvent(new Event('input', {bubbles: true}));"
            "el.dispatchEvent(new Event('change', {bubbles: true}));",
            name, option,
        )

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
        try:
            self.driver.quit()
        except Exception:  # quit already (a test closed the window itself)
            pass


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
    assert first.driver.title == "main \u00b7 forcelayout"  # the room's name first (test_rooms.py)
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


def test_controls_are_built_from_the_servers_specs(server, first):
    """Every parameter of hello.paramSpecs has its control, labelled and described as the
    server says; an emptied number box shows the server's value again when left."""
    connected(first)
    with Control(server) as other:
        specs = other.hello["paramSpecs"]
        params = other.hello["params"]
    assert [s["name"] for s in specs] == list(params)
    shown = first.js(
        "return [...document.querySelectorAll('#params [name]')].map((e) => ({name: e.name, type: e.type,"
        " label: e.tagName === 'SELECT' ? e.previousElementSibling.textContent.trim() : e.closest('label').textContent.trim(),"
        " title: e.title, min: e.min, max: e.max, step: e.step,"
        " options: e.tagName === 'SELECT' ? [...e.options].map((o) => [o.value, o.textContent]) : null, value: e.value}))")
    by_name = {c["name"]: c for c in shown}
    assert len(shown) == len(specs), shown
    for spec in specs:
        c = by_name[spec["name"]]
        assert c["label"] == spec["label"], (c, spec)
        assert c["title"] == spec["description"], (c, spec)
        kind = {"slider": "range", "field": "number", "toggle": "checkbox", "menu": "select-one"}[spec["control"]]
        assert c["type"] == kind, (c, spec)
        if spec["control"] == "menu":
            assert c["options"] == [[o, o] for o in spec["options"]], (c, spec)
            assert c["value"] == params[spec["name"]], (c, spec)
        if spec["control"] == "slider":
            low = spec["min"] + spec["step"] if spec.get("minExclusive") else spec["min"]
            assert math.isclose(float(c["min"]), low) and float(c["max"]) == spec["max"], (c, spec)
            assert float(c["step"]) == spec["step"], (c, spec)
            box = first.find(f'input[data-for="{spec["name"]}"]')
            assert box.get_attribute("aria-label") == f'{spec["label"]} value'
    # sliders first, then number fields, then menus, then the row of toggles
    order = {"slider": 0, "field": 1, "menu": 2, "toggle": 3}
    expected = [s["name"] for s in sorted(specs, key=lambda s: order[s["control"]])]
    assert [c["name"] for c in shown] == expected
    before = first.find('input[data-for="charge"]').get_attribute("value")
    first.js("const el = document.querySelector('input[data-for=charge]'); el.focus(); el.value = '';"
             "el.dispatchEvent(new Event('input', {bubbles: true})); el.dispatchEvent(new Event('change', {bubbles: true}));"
             "el.blur();")
    assert first.find('input[data-for="charge"]').get_attribute("value") == before
    assert first.severe() == []


def test_a_menu_choice_shows_on_the_other_page(server, first, second):
    """A choice parameter (model) is a menu of its options on both pages; picking one on the
    first page sets it for everyone: the second page's menu follows and both logs say so. A
    choice the server refuses (a newer page's option, say) leaves the menu on the server's."""
    connected(first)
    connected(second)
    with Control(server) as other:
        spec = next(s for s in other.hello["paramSpecs"] if s["name"] == "model")
        current = other.hello["params"]["model"]
    menu = 'select[name="model"]'
    assert [o.get_attribute("value") for o in second.driver.find_elements(By.CSS_SELECTOR, f"{menu} option")] == spec["options"]
    second.wait(lambda: second.find(menu).get_attribute("value") == current, f"model {current} on the second page")
    target = "graph" if current != "graph" else "cells"
    first.choose("model", target)
    second.wait(lambda: second.find(menu).get_attribute("value") == target, f"model {target} on the second page")
    for page in (first, second):
        page.wait(lambda: any(re.fullmatch(rf"c\d+ set model to {target}", t) for t in page.log_lines()),
                  "a 'set model' log line")
    # and back, from the second page (the room is shared by the other tests of this module)
    second.choose("model", current)
    first.wait(lambda: first.find(menu).get_attribute("value") == current, f"model {current} on the first page")
    # An option the server did not list (put in the menu by hand) is not sent: the menu shows
    # the server's choice again.
    first.js("document.querySelector('select[name=model]').append(new Option('spiral', 'spiral'))")
    first.choose("model", "spiral")
    first.wait(lambda: first.find(menu).get_attribute("value") == current, "the menu back on the server's choice")
    with Control(server) as other:
        assert other.hello["params"]["model"] == current
    assert first.severe() == [] and second.severe() == []


def test_a_refused_choice_or_toggle_shows_the_servers_value_again():
    """A server that takes one message per 10 s: the first pick goes through, the next ones
    are refused (rate_limited), and the menu and the checkbox go back to what the room holds."""
    require_tools()
    srv = RunningServer("--messages-per-second", "0.1", "--message-burst", "1", binary=BIN, workdir=True, start_timeout=60)
    page = None
    try:
        page = Page(srv.url)
        connected(page)
        menu = 'select[name="model"]'
        page.choose("model", "graph")
        page.wait(lambda: any(re.fullmatch(r"c\d+ set model to graph", t) for t in page.log_lines()), "the accepted pick")
        page.choose("model", "cells")
        page.wait(lambda: "rate_limited" in page.find("#notice").get_attribute("textContent"), "the refusal's notice")
        page.wait(lambda: page.find(menu).get_attribute("value") == "graph", "the menu back on the room's choice")
        page.find('input[name="collide"]').click()
        page.wait(lambda: page.find('input[name="collide"]').is_selected() is False, "the checkbox back on the room's value")
        with Control(srv.url) as other:
            assert other.hello["params"]["model"] == "graph" and other.hello["params"]["collide"] is False
    finally:
        if page:
            page.quit()
        srv.close()


def test_the_node_fixture_is_the_servers_specs(server):
    """Tests/web/paramspecs.mjs, the node tests' copy of hello.paramSpecs, is what the server
    sends: a row added to the table is added there too, or this fails."""
    node = shutil.which("node")
    if not node:
        pytest.fail("node not installed (apt-get install nodejs)")
    fixture = Path(__file__).resolve().parent / "paramspecs.mjs"
    out = subprocess.run([node, "--input-type=module", "-e",
                          f"import {{ SPECS }} from {json.dumps(fixture.as_uri())}; console.log(JSON.stringify(SPECS));"],
                         capture_output=True, text=True, timeout=30, check=True).stdout
    with Control(server) as other:
        assert json.loads(out) == other.hello["paramSpecs"]


def test_no_controls_before_hello(server):
    """A page that cannot connect has no parameter controls, and says nothing is wrong."""
    page = Page(server)
    try:
        page.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {
            "source": "window.WebSocket = class { constructor() { throw new DOMException('no', 'SecurityError'); } };"})
        page.driver.get(server)
        page.wait(lambda: page.js("return document.readyState") == "complete", "the page loaded")
        time.sleep(0.5)
        assert page.js("return document.querySelectorAll('#params input').length") == 0
        assert not page.find("#params").is_displayed()
        assert page.field("connection") != "connected"
    finally:
        page.quit()


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


# ---- helpers for the tests below ----

def cell_xy(page, cell):
    """The page's world position of a cell, [x, y], or None when it does not know the cell."""
    return page.js(
        "const s = window.forcelayout.state; const i = s.index.get(arguments[0]);"
        "return i === undefined ? null : [s.xy[2 * i], s.xy[2 * i + 1]];", cell)


def is_pinned(page, cell):
    return page.js("return window.forcelayout.state.pinned.has(arguments[0])", cell)


def client_position(page, cell):
    return page.js("return window.forcelayout.cellClientPosition(arguments[0])", cell)


def near(a, b, tolerance):
    return a is not None and b is not None and abs(a[0] - b[0]) <= tolerance and abs(a[1] - b[1]) <= tolerance


def add_cells(page, count):
    before = page.cells()
    page.set_input("count", count)
    page.find('button[data-action="add"]').click()
    page.wait(lambda: page.cells() == before + count, f"{before + count} cells")


def ensure_cells(page, at_least):
    if page.cells() < at_least:
        add_cells(page, at_least - page.cells())


def settled(page, timeout=90):
    page.wait(lambda: page.js("return document.body.dataset.motion") == "settled",
              "the layout to settle", timeout)


def steady_position(page, cell, still=3):
    """The client position of a cell once it (and the camera) stopped moving: the same, to a
    tenth of a pixel, in `still` readings in a row 100 ms apart."""
    readings = []

    def steady():
        readings.append(client_position(page, cell))
        if readings[-1] is None:
            raise AssertionError(f"cell {cell} is not on the page")
        recent = readings[-still:]
        if len(recent) == still and all(near(r, recent[0], 0.1) for r in recent):
            return recent[-1]
        time.sleep(0.1)
        return None

    return page.wait(steady, f"cell {cell} to stand still on the page", 30)


def free_view(page):
    """The part of the canvas not under the panel (client px): [left, top, right, bottom]."""
    return page.js(
        "const c = document.querySelector('#layout').getBoundingClientRect();"
        "const p = document.querySelector('#panel').getBoundingClientRect();"
        "const right = p.width > 0 && p.left > c.left + 100 ? Math.min(c.right, p.left) : c.right;"
        "return [c.left, c.top, right, c.bottom];")


def pick_cell(page, far=True):
    """An unpinned cell inside the free view: the farthest from its centre (far) or the
    nearest. Returns (id, [x, y] client, [cx, cy] centre of the free view)."""
    left, top, right, bottom = free_view(page)
    centre = ((left + right) / 2, (top + bottom) / 2)
    candidates = []
    for cell in page.js("return window.forcelayout.state.ids.slice(0, 200)"):
        if is_pinned(page, cell):
            continue
        p = client_position(page, cell)
        if p and left + 30 < p[0] < right - 30 and top + 30 < p[1] < bottom - 30:
            candidates.append((math.hypot(p[0] - centre[0], p[1] - centre[1]), cell))
    assert candidates, "no unpinned cell inside the free part of the canvas"
    cell = max(candidates)[1] if far else min(candidates)[1]
    return cell, centre


def release_pointer(page):
    """Lets go of every pressed button (after a failure mid-drag)."""
    try:
        ActionChains(page.driver).reset_actions()
    except Exception:
        pass


# ---- the strip's ARIA values, dragging, double-click ----

def strip_value(page):
    strip = page.find("#strip")
    text = strip.get_attribute("aria-valuetext")
    m = re.fullmatch(r"Cell (\d+), (\d+) of (\d+)", text or "")
    assert m, f"aria-valuetext {text!r} does not read like 'Cell 12, 3 of 40'"
    return int(m[1]), int(m[2]), int(m[3]), strip.get_attribute("aria-valuemax")


def test_strip_aria_values_follow_adds_and_removes(server, first, second):
    connected(first)
    connected(second)
    ensure_cells(first, 6)
    strip = first.find("#strip")
    strip.click()
    strip.send_keys(Keys.HOME)
    strip.send_keys(Keys.ARROW_RIGHT)
    strip.send_keys(Keys.ARROW_RIGHT)
    first.wait(lambda: strip.get_attribute("aria-valuenow") == "3", "the third cell selected")
    ids = first.js("return window.forcelayout.state.ids.slice()")
    chosen = ids[2]
    n = len(ids)
    assert strip_value(first) == (chosen, 3, n, str(n))
    assert first.js("return document.body.dataset.selected") == str(chosen)

    # cells added by another page come after it (ids ascend): same cell, same place
    second.set_input("count", 4)
    second.find('button[data-action="add"]').click()
    first.wait(lambda: strip_value(first) == (chosen, 3, n + 4, str(n + 4)),
               f"'Cell {chosen}, 3 of {n + 4}' after 4 cells were added elsewhere")

    # another connection removes a cell before it and one after it: the same cell, one place back
    with Control(server) as other:
        ids = first.js("return window.forcelayout.state.ids.slice()")
        other.send({"type": "remove", "ids": [ids[0], ids[-1]]})
        other.event("removed")
        first.wait(lambda: strip_value(first) == (chosen, 2, n + 2, str(n + 2)),
                   f"'Cell {chosen}, 2 of {n + 2}' after cells before and after it were removed")
        # and the newest few, by count, from the other page
        second.set_input("count", 2)
        second.find('button[data-action="remove"]').click()
        first.wait(lambda: strip_value(first) == (chosen, 2, n, str(n)),
                   f"'Cell {chosen}, 2 of {n}' after the newest 2 were removed")
        assert other.errors() == []
    assert first.js("return document.body.dataset.selected") == str(chosen)
    assert strip.get_attribute("aria-valuenow") == "2"
    assert first.severe() == [] and second.severe() == []


def test_dragging_a_cell_pins_it_for_everyone(first, second):
    connected(first)
    connected(second)
    ensure_cells(first, 8)
    second.wait(lambda: second.cells() == first.cells(), "the second page to show every cell")
    settled(first)
    cell, centre = pick_cell(first, far=True)
    x, y = steady_position(first, cell)
    # toward the middle of the free view, at least 60 px
    dx, dy = (centre[0] - x) * 0.6, (centre[1] - y) * 0.6
    if math.hypot(dx, dy) < 60:
        dx, dy = (60 if x < centre[0] else -60), 0
    start = (int(round(x)), int(round(y)))
    steps = [(int(round(x + dx * i / 8)), int(round(y + dy * i / 8))) for i in range(1, 9)]
    end = steps[-1]

    drag = ActionBuilder(first.driver, duration=40)
    drag.pointer_action.move_to_location(*start).pointer_down()
    for point in steps:
        drag.pointer_action.move_to_location(*point)
    released = False
    try:
        drag.perform()  # the button stays down until the release below
        second.wait(lambda: is_pinned(second, cell),
                    f"cell {cell} pinned on the second page while the first drags it "
                    f"(pinned there: {second.js('return [...window.forcelayout.state.pinned]')})")
        # on the dragging page the cell is under the pointer; the other page has it at the
        # same world position
        first.wait(lambda: near(client_position(first, cell), end, 3),
                   f"cell {cell} under the pointer at {end} (it is at {client_position(first, cell)})")
        held = cell_xy(first, cell)
        second.wait(lambda: near(cell_xy(second, cell), held, 1.0),
                    f"cell {cell} at the pointer's world position {held} on the second page "
                    f"(it is at {cell_xy(second, cell)})")
        assert is_pinned(first, cell)

        drop = ActionBuilder(first.driver)
        drop.pointer_action.pointer_up()
        drop.perform()
        released = True
    finally:
        if not released:
            release_pointer(first)
    second.wait(lambda: not is_pinned(second, cell), f"cell {cell} released on the second page after the drop")
    first.wait(lambda: not is_pinned(first, cell), f"cell {cell} released on the first page after the drop")
    assert first.severe() == [] and second.severe() == []


def test_a_page_closed_mid_drag_leaves_the_cell_free_for_everyone(pages, second):
    dragger = pages()
    connected(dragger)
    connected(second)
    ensure_cells(dragger, 8)
    second.wait(lambda: second.cells() == dragger.cells(), "the second page to show every cell")
    settled(dragger)
    cell, _ = pick_cell(dragger, far=True)
    x, y = steady_position(dragger, cell)
    drag = ActionBuilder(dragger.driver, duration=40)
    drag.pointer_action.move_to_location(int(round(x)), int(round(y))).pointer_down()
    for i in range(1, 5):
        drag.pointer_action.move_to_location(int(round(x + 12 * i)), int(round(y)))
    drag.perform()  # the button stays down: the tab closes mid-drag
    second.wait(lambda: is_pinned(second, cell), f"cell {cell} pinned on the second page while the first drags it")
    dragger.driver.quit()
    second.wait(lambda: not is_pinned(second, cell), f"cell {cell} released once the dragging page closed")
    assert second.severe() == []


def test_double_click_pins_a_cell_in_place_and_again_releases_it(first, second):
    connected(first)
    connected(second)
    ensure_cells(first, 8)
    settled(first)
    cell, _ = pick_cell(first, far=False)
    x, y = steady_position(first, cell)
    before = cell_xy(first, cell)

    click = ActionBuilder(first.driver)
    click.pointer_action.move_to_location(int(round(x)), int(round(y))).double_click()
    click.perform()
    second.wait(lambda: is_pinned(second, cell), f"cell {cell} pinned on the second page after a double-click")
    first.wait(lambda: is_pinned(first, cell), f"cell {cell} pinned on the first page")
    # pinned where it stood (the layout had settled), not somewhere else
    second.wait(lambda: near(cell_xy(second, cell), before, 2.0),
                f"cell {cell} pinned in place at {before} (it is at {cell_xy(second, cell)})")

    x, y = steady_position(first, cell)
    click = ActionBuilder(first.driver)
    click.pointer_action.move_to_location(int(round(x)), int(round(y))).double_click()
    click.perform()
    second.wait(lambda: not is_pinned(second, cell), f"cell {cell} released on the second page after a second double-click")
    first.wait(lambda: not is_pinned(first, cell), f"cell {cell} released on the first page")
    assert first.severe() == [] and second.severe() == []


# The page's first `new WebSocket` throws (a blocked port, a browser policy); the second works.
FIRST_SOCKET_THROWS = r"""
(() => {
  const Native = window.WebSocket;
  window.__socketAttempts = 0;
  window.WebSocket = class extends Native {
    constructor(...args) {
      if (window.__socketAttempts++ === 0) throw new DOMException('blocked for the test', 'SecurityError');
      super(...args);
    }
  };
})();
"""


def test_a_websocket_that_cannot_be_created_is_retried(server):
    """The connection is retried from a timer: the page's wiring is complete before it hears
    anything (a throwing constructor used to reach a part of the page not made yet)."""
    page = Page(server)
    try:
        page.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FIRST_SOCKET_THROWS})
        page.driver.get(server)
        connected(page)
        assert page.js("return window.__socketAttempts") == 2
        add_cells(page, 1)
        assert page.find('button[data-action="add"]').get_attribute("disabled") is None
        assert page.severe() == []
    finally:
        page.quit()


def test_reconnects_after_a_server_restart():
    """A separate server: stop it under an open page, start it again on the same port."""
    srv = start_server()
    page = None
    try:
        page = Page(srv.url)
        connected(page)
        page.set_input("count", 3)
        page.find('button[data-action="add"]').click()
        page.wait(lambda: page.cells() == 3, "3 cells")
        page.js("document.querySelector('input[name=charge]').dataset.before = 'restart'")
        srv.shutdown()
        page.wait(lambda: page.field("connection") == "reconnecting", "the status to say reconnecting")
        assert page.find('button[data-action="add"]').get_attribute("disabled") is not None
        srv.start()
        page.wait(lambda: page.field("connection") == "connected", "connected again")
        expected = srv.stats()["cells"]  # a server that restores its state may have kept them
        page.wait(lambda: page.cells() == expected, f"{expected} cells after the restart")
        # the same server, the same specs: the controls were not built again
        assert page.find('input[name="charge"]').get_attribute("data-before") == "restart"
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


# ---- protocol v2, and v1 for an older server ----

# Before the page's scripts: counts the binary messages its sockets receive.
COUNT_BINARY = """
(() => {
  const Native = window.WebSocket;
  window.__binaryFrames = 0;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => { if (e.data instanceof ArrayBuffer) window.__binaryFrames++; });
    }
  };
})();
"""

# Before the page's scripts: the page's socket offers only v1, as to a server without v2.
OFFER_V1_ONLY = """
(() => {
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(url, protocols) {
      window.__offered = protocols;
      super(url, 'forcelayout.v1');
    }
  };
})();
"""


def assert_near_v1(frame, ids, xy):
    """The page's positions (`ids`, `xy`) within the v2 precision (half a step of the box,
    and its f32 rounding) plus v1's rounding of the positions of a v1 `frame` (which carries
    ids when the membership changed; otherwise it is in the page's order)."""
    order = frame.get("ids") or ids
    ref = {cell: (frame["xy"][2 * i], frame["xy"][2 * i + 1]) for i, cell in enumerate(order)}
    assert sorted(ref) == sorted(ids)
    tolerance = []
    for axis in (0, 1):
        values = [p[axis] for p in ref.values()]
        tolerance.append((max(values) - min(values)) / 131070 * 1.01 + 1e-6 * max(1, max(map(abs, values))))

    def v1_rounding(v):  # v1 writes tenths below 1000 in magnitude, whole units from there
        return 0.05 if abs(v) < 1000 else 0.5

    for i, cell in enumerate(ids):
        for axis in (0, 1):
            want = ref[cell][axis]
            assert abs(xy[2 * i + axis] - want) <= tolerance[axis] + v1_rounding(want), (cell, xy[2 * i:2 * i + 2], ref[cell])


def test_page_speaks_v2_and_its_positions_match_v1(own_server):
    """The page offers v2 then v1; the server picks v2, frames come as binary messages, are
    decoded in the page (timed in the perf figures) and land within the v2 precision of the
    positions a v1 client reads."""
    page = Page(own_server.url)
    try:
        page.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": COUNT_BINARY})
        page.driver.get(own_server.url + "?perf")
        connected(page)
        assert page.js("return window.forcelayout.protocol()") == "forcelayout.v2"
        with Control(own_server.url) as other:
            other.send({"type": "add", "count": 300})
            page.wait(lambda: page.cells() == 300, "300 cells on the page")
            page.wait(lambda: page.js("return window.__binaryFrames") >= 3, "binary frames")
            page.wait(lambda: page.js("return window.forcelayout.perf().decodeMs") is not None, "a decode time")
            # The panel shows it at its next refresh.
            page.wait(lambda: page.find('#perf [data-perf="decodeMs"]').text not in ("", "\u2013"),
                      "the decode time in the perf panel")
            other.send({"type": "params", "paused": True})
            other.event("params")
            time.sleep(0.5)  # the last step's frame reaches both
            frame = other.last_frame()
            ids = page.js("return window.forcelayout.state.ids.slice()")
            xy = page.js("return Array.from(window.forcelayout.state.xy)")
        assert_near_v1(frame, ids, xy)
        assert page.severe() == []
    finally:
        page.quit()


def test_page_works_with_a_server_that_answers_v1(server):
    """A server without v2 answers v1: frames come as JSON text and the page draws them."""
    page = Page(server)
    try:
        page.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": OFFER_V1_ONLY})
        page.driver.get(server)
        connected(page)
        offered = page.js("return window.__offered")
        assert offered[:2] == ["forcelayout.v2", "forcelayout.v1"] and offered[-1] == "forcelayout.batch", offered
        assert page.js("return window.forcelayout.protocol()") == "forcelayout.v1"
        before = page.cells()
        add_cells(page, 4)
        page.wait(lambda: page.cells() == before + 4, f"{before + 4} cells")
        page.wait(lambda: page.js("return window.forcelayout.perf().framesPerSecond") > 0, "frames counted")
        assert page.js("return window.forcelayout.perf().decodeMs") is None  # JSON frames: nothing decoded
        assert page.js("return window.forcelayout.state.xy.length") == 2 * (before + 4)
        assert page.js("return window.forcelayout.cellClientPosition(window.forcelayout.state.ids[0])") is not None
        assert page.severe() == []
    finally:
        page.quit()


# ---- pages of their own server ----

@pytest.fixture
def own_server():
    srv = start_server()
    try:
        yield srv
    finally:
        srv.close()


def test_page_survives_extreme_but_allowed_messages(own_server):
    """Another client sends what the protocol allows at its edges; the page keeps up."""
    page = Page(own_server.url)
    try:
        connected(page)
        with Control(own_server.url) as other:
            for message in (
                {"type": "add", "count": 40},
                {"type": "params", "cellSize": 200, "charge": 1000, "stiffness": 1, "theta": 2,
                 "tickRate": 120, "collide": True},
                {"type": "add", "count": 20, "spawn": {"x": 1e9, "y": -1e9}},
                {"type": "add", "count": 20, "spawn": "border"},
                {"type": "params", "cellSize": 1, "charge": 0, "theta": 0, "collide": False},
                {"type": "subscribe", "kinds": []},
                {"type": "replay", "count": 256},
            ):
                other.send(message)
            other.next("replay")
            ids = page.wait(lambda: page.cells() == 80 and page.js("return window.forcelayout.state.ids.slice()"),
                            "80 cells on the page")
            other.send({"type": "subscribe", "kinds": "all"})
            other.send({"type": "pin", "id": ids[0], "x": 1e9, "y": 1e9})
            other.send({"type": "pin", "id": ids[1], "x": -1e9, "y": -1e9})
            other.send({"type": "pin", "id": ids[2], "x": 0.05, "y": -0.05})
            other.event("pinned", id=ids[2])
            page.wait(lambda: all(is_pinned(page, i) for i in ids[:3]), "three pinned cells on the page")
            page.wait(lambda: near(cell_xy(page, ids[0]), (1e9, 1e9), 1), "a cell at (1e9, 1e9)")
            # every position finite, every cell placed somewhere on (or off) the screen
            assert page.js("return window.forcelayout.state.xy.every(Number.isFinite)")
            for i in ids[:3]:
                p = client_position(page, i)
                assert p is not None and all(math.isfinite(v) for v in p), (i, p)
            other.send({"type": "params", "threshold": 1e6, "paused": True})
            other.event("params")
            other.send({"type": "remove", "ids": ids[:2]})
            other.event("removed")
            page.wait(lambda: page.cells() == 78, "78 cells after the far ones were removed")
            assert other.errors() == []
        # the page still works
        add_cells(page, 2)
        page.wait(lambda: page.field("cells") == "80", "80 cells in the status line")
        assert page.field("connection") == "connected"
        assert page.severe() == []
    finally:
        page.quit()


def test_screenshot(own_server):
    """The page with a few hundred cells from two clients, once settled. Saved to
    $FORCELAYOUT_SCREENSHOT when it is set (make screenshot), else only checked."""
    pages = []
    try:
        a = Page(own_server.url, size=(1280, 800), scale=1, viewport=(1280, 800))
        pages.append(a)
        b = Page(own_server.url, size=(1280, 800), scale=1, viewport=(1280, 800))
        pages.append(b)
        connected(a)
        connected(b)
        add_cells(a, 180)
        add_cells(b, 120)
        a.wait(lambda: a.cells() == 300, "300 cells on the first page")
        a.wait(lambda: a.field("clients") == "2", "2 clients")
        settled(a)
        ids = a.js("return window.forcelayout.state.ids.slice()")
        for cell in (ids[0], ids[len(ids) // 2], ids[-1]):
            steady_position(a, cell)  # the camera has come to rest
        assert a.field("motion") == "settled"
        assert a.js("return [innerWidth, innerHeight]") == [1280, 800]
        assert a.severe() == [] and b.severe() == []
        target = os.environ.get("FORCELAYOUT_SCREENSHOT")
        if target:
            path = Path(target)
            path.parent.mkdir(parents=True, exist_ok=True)
            assert a.driver.save_screenshot(str(path)), f"could not write {path}"
            with open(path, "rb") as f:
                head = f.read(24)
            assert head[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
            assert struct.unpack(">II", head[16:24]) == (1280, 800), struct.unpack(">II", head[16:24])
    finally:
        for p in pages:
            p.quit()
