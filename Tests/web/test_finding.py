"""Finding your way in a shared graph (issue 26) in real headless Chromium against the real server.

    /usr/bin/python3 -m pytest Tests/web/test_finding.py

Les Misérables imported through the page: the search field finds Valjean however he is typed
and the camera frames him; a picked cell highlights its neighbours and lists them in the panel,
Esc clears; a legend group highlights its cells; pointing at a cell shows in the other window
with the pointer's name; a view link opens another window at the same place with the same
cell selected; the PNG picture is a valid PNG of the canvas's size (twice it at 2x), the SVG
holds every cell and link. First contact: the empty room says what to do, `-` zooms out and
removes nothing, Clear asks first, Pause shows in the status line, and importing into a room
with cells asks whether to replace them or add.
"""
import base64
import json
import struct
import time
import urllib.request
import xml.etree.ElementTree as ET

import networkx as nx
import pytest
from networkx.readwrite import json_graph
from selenium.webdriver.common.keys import Keys

from test_browser import add_cells, connected
from test_data import data_sizes

SVG = "{http://www.w3.org/2000/svg}"


def lesmis(tmp_path):
    path = tmp_path / "lesmis.json"
    path.write_text(json.dumps(json_graph.node_link_data(nx.les_miserables_graph())))
    return path


def send_file(page, path):
    page.js("document.querySelector('#import-file').hidden = false")
    page.find("#import-file").send_keys(str(path))
    page.js("document.querySelector('#import-file').hidden = true")


def imported(page, path):
    send_file(page, path)
    page.wait(lambda: page.find("#import-status").get_attribute("data-kind") in ("done", "warning", "error"),
              "the import to end", timeout=60)
    return page.find("#import-status").text


def cell_named(page, label):
    return page.js("for (const [id, d] of window.forcelayout.state.data.cells) if (d.label === arguments[0]) return id;", label)


def in_view(page, cell):
    """Whether cell `cell` is drawn inside the canvas's free part, and the camera's scale."""
    return page.js(
        "const [x, y] = window.forcelayout.cellClientPosition(arguments[0]);"
        "const r = document.querySelector('#layout').getBoundingClientRect();"
        "const panel = document.querySelector('#panel').getBoundingClientRect();"
        "return x > r.left && y > r.top && x < Math.min(r.right, panel.left) && y < r.bottom;", cell)


def saved_files(page):
    """Captures what the page hands the browser to save: window.__saved holds the blobs."""
    page.js("window.__saved = []; const make = URL.createObjectURL;"
            "URL.createObjectURL = (b) => { window.__saved.push(b); return make.call(URL, b); };")


def last_saved(page):
    """The last saved blob as (type, bytes)."""
    kind, data = page.driver.execute_async_script(
        "const done = arguments[arguments.length - 1]; const b = window.__saved.at(-1);"
        "const r = new FileReader(); r.onload = () => done([b.type, r.result.split(',')[1]]); r.readAsDataURL(b);")
    return kind, base64.b64decode(data)


@pytest.fixture(scope="module")
def room(server, tmp_path_factory):
    """A room holding Les Misérables, imported once for the module's tests."""
    return f"{server.http}/r/lesmis-finding"


def test_search_flies_to_valjean_highlights_his_neighbours_and_esc_clears(server, pages, tmp_path):
    url = f"{server.http}/r/find-valjean"
    a = pages(url, size=(1280, 860))
    connected(a)
    assert imported(a, lesmis(tmp_path)) == "Imported 77 cells and 254 links from lesmis.json."
    a.wait(lambda: data_sizes(a) == [77, 254], "the graph")
    time.sleep(2)
    valjean = cell_named(a, "Valjean")

    # the camera somewhere else first, far from him
    a.js("window.forcelayout.state.selectedId = null")
    box = a.find("#find")
    a.find("body").send_keys("/")
    a.wait(lambda: a.js("return document.activeElement.id") == "find", "/ to put the cursor in the search field")
    box.send_keys("VALJ")
    a.wait(lambda: a.js("return document.querySelectorAll('#find-results [role=option]').length") >= 1, "matches listed")
    assert box.get_attribute("aria-expanded") == "true"
    first = a.js("return document.querySelector('#find-results [role=option]').textContent")
    assert first.startswith("Valjean"), first
    box.send_keys(Keys.ENTER)
    a.wait(lambda: a.js("return window.forcelayout.state.selectedId") == valjean, "Valjean selected")
    time.sleep(0.3)  # a query still waiting for its animation frame must not open the list again
    assert box.get_attribute("aria-expanded") == "false" and not a.find("#find-results").is_displayed()
    a.wait(lambda: in_view(a, valjean), "the camera to frame Valjean")
    time.sleep(1)
    assert in_view(a, valjean)
    assert a.js("return window.forcelayout.camera().mode") == "manual"

    # accents and case do not matter: "eponine" finds Éponine's entry as written in the graph
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys("mme thenardier")
    a.wait(lambda: "MmeThenardier" in (a.js("return document.querySelector('#find-results')?.textContent") or "")
           or a.find("#find-note").text != "", "an answer")

    # his neighbours: highlighted and listed, each a button that selects it
    expected = sorted(nx.les_miserables_graph().neighbors("Valjean"))
    listed = a.js("return [...document.querySelectorAll('#selection .neighbours button')].map((b) => b.textContent)")
    assert sorted(listed) == expected
    assert a.find("#selection [data-part=what]").text == f"Valjean \u00b7 {len(expected)} links"
    assert sorted(a.js("return window.forcelayout.highlighted()")) == sorted([valjean] + [cell_named(a, n) for n in expected])
    a.find("#selection [data-part=hops]").click()
    a.wait(lambda: len(a.js("return window.forcelayout.highlighted()")) > len(expected) + 1, "two hops highlight more")
    a.screenshot("finding-valjean.png")
    a.js("[...document.querySelectorAll('#selection .neighbours button')].find((b) => b.textContent === 'Javert').click()")
    a.wait(lambda: a.js("return window.forcelayout.state.selectedId") == cell_named(a, "Javert"), "a neighbour selects")
    a.find("body").send_keys(Keys.ESCAPE)
    a.wait(lambda: a.js("return window.forcelayout.highlighted()") == [], "Esc to clear the highlight")
    assert not a.find("#selection").is_displayed()


def camera_at_rest(page, still=0.25):
    """Waits until the camera has not moved for `still` seconds (a search glides it to the cell
    over many animation frames, longer on a busy machine) and returns it."""
    last = {"camera": None, "since": 0.0}

    def resting():
        camera = page.js("return window.forcelayout.camera()")
        if camera != last["camera"]:
            last.update(camera=camera, since=time.monotonic())
        return time.monotonic() - last["since"] >= still and camera

    return page.wait(resting, "the camera to come to rest")


def test_pointing_shows_in_the_other_window_and_a_view_link_opens_there(server, pages, tmp_path):
    url = f"{server.http}/r/find-point"
    a, b = pages(url, size=(1280, 860)), pages(url, size=(1280, 860))
    connected(a)
    connected(b)
    imported(a, lesmis(tmp_path))
    for page in (a, b):
        page.wait(lambda: data_sizes(page) == [77, 254], "the graph in both windows")
    cosette = cell_named(a, "Cosette")
    a.js("window.forcelayout.state.selectedId = null")
    a.js("document.querySelector('#find').focus()")
    a.find("#find").send_keys("Cosette", Keys.ENTER)
    a.wait(lambda: a.js("return window.forcelayout.state.focused"), "Cosette picked")
    name = a.find("#selection [data-part=name]")
    name.send_keys("Ana", Keys.TAB)
    a.find("#selection [data-part=point]").click()
    me = a.field("client")
    b.wait(lambda: b.js("return [...window.forcelayout.state.pointers]") == [[me, {"id": cosette, "name": "Ana"}]],
           "the other window to see Ana pointing at Cosette")
    assert a.find("#selection [data-part=point]").get_attribute("aria-pressed") == "true"
    b.screenshot("finding-pointer.png")

    # a view link: the same place and the same cell in a new window (the link of a camera at
    # rest: copied while it still glided, it named a place the camera then left)
    camera_at_rest(a)
    a.js("window.__copied = null; navigator.clipboard.writeText = async (t) => { window.__copied = t; };")
    a.find("#view-copy").click()
    a.wait(lambda: a.js("return window.__copied"), "the view's link copied")
    link = a.js("return window.__copied")
    assert "#at=" in link and f"select={cosette}" in link, link
    cam = a.js("return window.forcelayout.camera()")
    c = pages(link, size=(1280, 860))
    connected(c)
    c.wait(lambda: c.js("return window.forcelayout.state.selectedId") == cosette, "the view's cell selected")
    seen = c.js("return window.forcelayout.camera()")
    assert seen["mode"] == "manual"
    for k in ("cx", "cy"):
        assert abs(seen[k] - cam[k]) * cam["scale"] < 1, (seen, cam)
    assert abs(seen["scale"] / cam["scale"] - 1) < 1e-3

    # stopping ends it for everyone
    a.find("#selection [data-part=point]").click()
    b.wait(lambda: b.js("return window.forcelayout.state.pointers.size") == 0, "the pointer gone")

    # on touch: a finger held on a cell points at it
    javert = cell_named(b, "Javert")
    b.js("window.forcelayout.state.selectedId = null")
    b.find("#find").send_keys("Javert", Keys.ENTER)
    b.wait(lambda: in_view(b, javert), "Javert in b's view")
    time.sleep(1)
    x, y = b.js("return window.forcelayout.cellClientPosition(arguments[0])", javert)
    b.driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    time.sleep(0.9)
    b.driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    other = b.field("client")
    a.wait(lambda: a.js("return [...window.forcelayout.state.pointers]") == [[other, {"id": javert, "name": None}]],
           "a long press in b to point at Javert for a")


def test_pictures_png_at_the_canvas_size_and_svg_with_every_cell_and_link(server, pages, tmp_path):
    url = f"{server.http}/r/find-pictures"
    a = pages(url, size=(1100, 760))
    connected(a)
    imported(a, lesmis(tmp_path))
    a.wait(lambda: data_sizes(a) == [77, 254], "the graph")
    saved_files(a)
    width, height = a.js("const c = document.querySelector('#layout'); return [c.width, c.height]")
    for scale, factor in (("screen", 1), ("2", 2)):
        a.js("document.querySelector('#picture-scale').value = arguments[0]", scale)
        a.find("#picture-png").click()
        a.wait(lambda: a.js("return window.__saved.length") >= (1 if factor == 1 else 2), "a PNG saved")
        kind, png = last_saved(a)
        assert kind == "image/png"
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        w, h = struct.unpack(">II", png[16:24])
        assert (w, h) == (width * factor, height * factor), (w, h, width, height, factor)
    a.find("#picture-svg").click()
    a.wait(lambda: a.js("return window.__saved.length") == 3, "an SVG saved")
    kind, svg = last_saved(a)
    assert kind == "image/svg+xml"
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert len(root.findall(f".//{SVG}circle")) == 77
    assert len(root.findall(f".//{SVG}line")) == 254
    labels = {t.text for t in root.iter(f"{SVG}text")}
    assert {"Valjean", "Javert", "Cosette"} <= labels

    # the server's drawing for scripts is the same drawing: cells in the same colours, the same labels
    with urllib.request.urlopen(f"{server.http}/export/find-pictures.svg") as reply:
        served = ET.fromstring(reply.read())
    fills = lambda r: sorted(c.get("fill") for c in r.iter(f"{SVG}circle"))  # noqa: E731
    assert fills(served) == fills(root)
    assert {t.text for t in served.iter(f"{SVG}text")} == labels
    assert len(served.findall(f".//{SVG}line")) == 254


def test_first_contact_empty_room_keys_clear_pause_and_import_replace_or_add(server, pages, tmp_path):
    url = f"{server.http}/r/find-first"
    a = pages(url, size=(1280, 860))
    connected(a)
    a.wait(lambda: a.find("#empty").is_displayed(), "the empty room to say what to do")
    assert "import a graph" in a.find("#empty").text
    a.find('#empty [data-empty="add"]').click()
    a.wait(lambda: a.cells() == 10, "its Add button to add ten cells")
    assert not a.find("#empty").is_displayed()

    # - zooms out, and removes nothing. The auto camera follows the ten cells as they settle
    # (it can zoom in by more than the key zooms out meanwhile): read it once it is still.
    a.wait(lambda: a.field("motion") == "settled", "the ten cells to settle")
    def still():
        before = a.js("return window.forcelayout.camera().scale")
        time.sleep(0.3)
        return a.js("return window.forcelayout.camera().scale") == before
    a.wait(still, "the camera to be still")
    scale = a.js("return window.forcelayout.camera().scale")
    a.find("body").send_keys("-")
    a.wait(lambda: a.js("return window.forcelayout.camera().scale") < scale, "- to zoom out")
    time.sleep(0.5)
    assert a.cells() == 10

    # Pause shows in the status line
    a.find('button[data-action="pause"]').click()
    a.wait(lambda: a.field("motion") == "paused", "paused in the status line")
    a.find('button[data-action="pause"]').click()
    a.wait(lambda: a.field("motion") != "paused", "no longer paused")

    # Clear asks first: no, and nothing happens
    a.js("window.confirm = () => false")
    a.find('button[data-action="clear"]').click()
    time.sleep(0.5)
    assert a.cells() == 10

    # an import into a room with cells asks: add keeps them, replace takes their place
    path = lesmis(tmp_path)
    send_file(a, path)
    a.wait(lambda: a.find("#import-choice").is_displayed(), "the import to ask replace or add")
    assert "has 10 cells" in a.find("#import-choice").text
    a.find('#import-choice button[value="add"]').click()
    a.wait(lambda: a.find("#import-status").get_attribute("data-kind") == "done", "the import to end")
    a.wait(lambda: a.cells() == 87, "the graph added beside the cells")
    send_file(a, path)
    a.wait(lambda: a.find("#import-choice").is_displayed(), "asked again")
    a.find('#import-choice button[value="replace"]').click()
    a.wait(lambda: a.find("#import-status").text.startswith("Imported"), "the import to end")
    a.wait(lambda: a.cells() == 77 and data_sizes(a) == [77, 254], "the graph in place of everything")
    send_file(a, path)
    a.wait(lambda: a.find("#import-choice").is_displayed(), "asked again")
    a.find('#import-choice button[value="cancel"]').click()
    a.wait(lambda: "cancelled" in a.find("#import-status").text, "a cancelled import says so")
    assert a.cells() == 77

    a.js("window.confirm = () => true")
    a.find('button[data-action="clear"]').click()
    a.wait(lambda: a.cells() == 0, "Clear, confirmed, clears")
    a.wait(lambda: a.find("#empty").is_displayed(), "the empty room again")
