"""A room remembers (issue 27): the page's timeline, restore, undo and video in real headless
Chromium against the real server.

    /usr/bin/python3 -m pytest Tests/web/test_history.py

Two windows on one room. The first imports Les Misérables, then clears the room; the second
opens the timeline (`h`), steps back (←) before the clear and sees the graph as it was (its 77
cells, their labels and 254 links, drawn instead of the live room, its room-changing controls
waiting), while the first stays live and empty, and adds cells the second's live state follows
underneath; Live returns at once; dragging the handle asks one moment at a time and shows each
(their times printed). Restore this moment (an editor's button; a viewer's page
has none) makes the room that moment again for both. Ctrl+Z in each window undoes its own
last change, one at a time. Record and Stop save a WebM of the canvas (an EBML header, more
than a few kilobytes).
"""
import base64
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from test_access import choose_access
from test_browser import add_cells, connected
from test_data import data_sizes
from test_finding import imported, last_saved, lesmis, saved_files


def timeline(page):
    return page.js("return window.forcelayout.timeline()")


def drawn(page):
    return page.js("return window.forcelayout.drawnCells()")


def undo_key(page):
    page.find("body").send_keys(Keys.CONTROL, "z")


def press(page, *keys):
    """Keys to the timeline's handle, focused (an element's send_keys would click it first:
    a click on the track moves the handle there)."""
    page.js("document.querySelector('#timeline-track').focus()")
    ActionChains(page.driver).send_keys(*keys).perform()


def test_scrub_back_before_a_clear_and_restore_it(server, pages, tmp_path):
    url = f"{server.http}/r/history-scrub"
    a, b = pages(url, size=(1280, 860)), pages(url, size=(1280, 860))
    connected(a)
    connected(b)
    imported(a, lesmis(tmp_path))
    for page in (a, b):
        page.wait(lambda: data_sizes(page) == [77, 254], "the graph in both windows")
    time.sleep(1.5)  # the layout moves on: keyframes of it
    a.js("window.confirm = () => true")
    a.find('button[data-action="clear"]').click()
    for page in (a, b):
        page.wait(lambda: page.cells() == 0, "the clear in both windows")

    # the second window goes back before the clear; the first stays live
    b.find("body").send_keys("h")
    b.wait(lambda: b.js("return document.activeElement.id") == "timeline-track", "h to open the timeline, its handle focused")
    b.wait(lambda: timeline(b)["events"] > 0, "the room's past")
    track = b.find("#timeline-track")
    assert track.get_attribute("role") == "slider"
    assert track.get_attribute("aria-valuetext") == "Live"
    press(b, Keys.ARROW_LEFT)  # the clear: the moment just after it
    b.wait(lambda: "cleared 77 cells" in b.find("#past").text, "the line to name the clear")
    press(b, Keys.ARROW_LEFT)  # the last change before it
    b.wait(lambda: timeline(b)["shown"] is not None and drawn(b) == 77, "the graph as it was before the clear")
    assert b.js("return window.forcelayout.state.moment.data.links.size") == 254
    assert b.js("return [...window.forcelayout.state.moment.data.cells.values()].some((c) => c.label === 'Valjean')")
    assert b.find("#past").text.startswith("Viewing ")
    assert track.get_attribute("aria-valuetext").startswith("Viewing ")
    assert b.find("#past-live").is_displayed() and b.find("#past-restore").is_displayed()
    assert b.find('button[data-action="add"]').get_attribute("disabled") is not None, "the room's controls wait"
    assert a.cells() == 0 and drawn(a) == 0 and timeline(a)["at"] is None, "the first window stays live"
    b.screenshot("history-viewing.png")
    # the room goes on: the second window's live state follows it under the moment it shows
    add_cells(a, 5)
    b.wait(lambda: b.cells() == 5, "the live state underneath")
    assert drawn(b) == 77

    # Live: at once; dragging the handle shows moment after moment, one request at a time
    b.find("#past-live").click()
    b.wait(lambda: drawn(b) == 5 and timeline(b)["at"] is None, "Live to show the room as it is")
    box = track.rect
    chain = ActionChains(b.driver).move_to_element_with_offset(track, -box["width"] // 2 + 4, 0).click_and_hold()
    for step in range(1, 30):
        chain.move_by_offset(int((box["width"] - 12) / 30), 0).pause(0.03)
    chain.perform()
    b.wait(lambda: timeline(b)["figures"]["answers"] >= 2, "moments while dragging")
    ActionChains(b.driver).release().perform()
    figures = timeline(b)["figures"]
    print(f"moments while dragging: {figures['answers']} answered, {figures['meanMs']:.1f} ms mean, {figures['maxMs']:.1f} ms max")

    # restore the graph: both windows show it, live
    press(b, Keys.HOME)
    b.wait(lambda: timeline(b)["shown"] is not None, "the oldest moment")
    press(b, Keys.END)
    b.wait(lambda: timeline(b)["at"] is None, "End: live")
    press(b, Keys.ARROW_LEFT, Keys.ARROW_LEFT, Keys.ARROW_LEFT)  # a's 5 cells, the clear, the graph
    b.wait(lambda: drawn(b) == 77 and timeline(b)["shown"] is not None, "before the clear again")
    b.js("window.confirm = () => true")
    b.find("#past-restore").click()
    for page in (a, b):  # a's 5 cells go: they came after
        page.wait(lambda: page.cells() == 77 and data_sizes(page) == [77, 254], "the restored graph in both windows")
    b.wait(lambda: timeline(b)["at"] is None, "the restore brings its window live")
    assert any("restored the room as it was at" in line for line in a.log_lines())
    b.screenshot("history-restored.png")


def test_ctrl_z_undoes_each_windows_own_change(server, pages):
    url = f"{server.http}/r/history-undo"
    a, b = pages(url), pages(url)
    connected(a)
    connected(b)
    add_cells(a, 77)
    b.wait(lambda: b.cells() == 77, "a's cells in b")
    assert a.find("#undo").is_displayed()
    add_cells(a, 10)
    a.wait(lambda: "add" in (a.find("#undo").get_attribute("title") or ""), "Undo to say what it undoes")
    add_cells(b, 5)
    undo_key(a)
    for page in (a, b):
        page.wait(lambda: page.cells() == 82, "a's add undone, b's kept")
    assert any(line.startswith(f"{a.field('client')} undid") for line in b.log_lines()), b.log_lines()
    undo_key(b)
    for page in (a, b):
        page.wait(lambda: page.cells() == 77, "b's add undone")


def test_a_viewer_scrubs_but_has_no_restore(server, pages):
    url = f"{server.http}/r/history-viewer"
    owner = pages(url)
    connected(owner)
    choose_access(owner, "view")  # the room's maker owns it: anyone else watches
    add_cells(owner, 12)
    owner.js("window.confirm = () => true")
    owner.find('button[data-action="clear"]').click()
    owner.wait(lambda: owner.cells() == 0, "the clear")
    viewer = pages(url)
    connected(viewer)
    viewer.wait(lambda: viewer.js("return window.forcelayout.state.role") == "viewer", "the view link's role")
    viewer.find("#history-toggle").click()
    viewer.wait(lambda: timeline(viewer)["events"] > 0, "the room's past")
    press(viewer, Keys.ARROW_LEFT, Keys.ARROW_LEFT)
    viewer.wait(lambda: drawn(viewer) == 12, "the cells before the clear")
    assert not viewer.find("#past-restore").is_displayed()
    assert not viewer.find("#undo").is_displayed()


def test_record_saves_a_webm_of_the_canvas(server, pages):
    a = pages(f"{server.http}/r/history-video")
    connected(a)
    saved_files(a)
    add_cells(a, 30)
    a.find("body").send_keys("r")
    a.wait(lambda: a.find("#record").get_attribute("aria-pressed") == "true", "r to start recording")
    add_cells(a, 30)  # something moves
    time.sleep(2.5)
    a.find("#record").click()
    a.wait(lambda: a.js("return window.__saved.length") == 1, "the video saved")
    kind, data = last_saved(a)
    assert kind == "video/webm"
    assert data[:4] == bytes.fromhex("1a45dfa3"), data[:16].hex()
    assert len(data) > 5000, len(data)
    assert a.find("#import-status").text.startswith("Saved the video as forcelayout-history-video-")
