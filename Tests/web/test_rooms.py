"""Rooms (issue 11) in real headless Chromium against the real server.

    /usr/bin/python3 -m pytest Tests/web/test_rooms.py

The same launcher and browser windows as test_browser.py (its Page, a module of its own
server). Each test uses rooms of its own names: pages in two rooms see two layouts; the
page's room shows in the title, the panel's header and the share link; the switcher lists
the server's rooms (GET /rooms) while it is open, and only then, and moves between them
(Back returns); the name field says what is wrong with an invalid name; the Copy button
copies the room's address with or without the Clipboard API.
"""
import json
import re
import time
import urllib.request

from control import Control
from test_browser import add_cells, connected

DOT = "\u00b7"


def room_url(server, room):
    return server.url if room == "main" else f"{server.http}/r/{room}"


def in_room(page, room):
    """Connected, in `room` (the server's hello.room), its name in the title and header."""
    connected(page)
    page.wait(lambda: page.js("return window.forcelayout.state.room") == room, f"the page in room {room}")
    page.wait(lambda: page.driver.title == f"{room} {DOT} forcelayout", f"the title naming room {room}")
    assert page.find("#room-name").text == room
    assert page.js("return document.body.dataset.room") == room


def listed_rooms(server):
    with urllib.request.urlopen(server.http + "/rooms", timeout=5) as reply:
        return {r["name"]: r for r in json.load(reply)["rooms"]}


def open_switcher(page):
    if page.find("#rooms-toggle").get_attribute("aria-expanded") != "true":
        page.find("#rooms-toggle").click()
    page.wait(lambda: page.find("#rooms").is_displayed(), "the room switcher open")


def switcher_rows(page):
    """{name: (detail, current)} of the switcher's list."""
    rows = page.js(
        "return [...document.querySelectorAll('#room-list li')].map((li) => [li.dataset.room,"
        " li.querySelector('.room-link-detail').textContent, li.querySelector('a').getAttribute('aria-current')])")
    return {name: (detail, current == "page") for name, detail, current in rows}


# A page's calls of fetch('/rooms'), counted (window.__roomsAsked) before any script runs.
COUNT_ROOMS_REQUESTS = r"""
(() => {
  const real = window.fetch;
  window.__roomsAsked = 0;
  window.fetch = function (url, ...rest) {
    if (String(url) === '/rooms') window.__roomsAsked++;
    return real.call(this, url, ...rest);
  };
})();
"""


def test_two_rooms_have_layouts_of_their_own(server, pages):
    a = pages(room_url(server, "alpha"))
    b = pages(room_url(server, "beta"))
    in_room(a, "alpha")
    in_room(b, "beta")
    add_cells(a, 7)
    a.wait(lambda: a.field("cells") == "7", "7 cells in the status line of alpha")
    # the other room hears nothing of it: no cells, no 'added' line, one client each
    with Control(server.url, room="beta") as other:
        other.send({"type": "add", "count": 2})
        other.event("added")
        b.wait(lambda: b.cells() == 2, "beta's own 2 cells on its page")
    time.sleep(0.5)
    assert a.cells() == 7
    assert b.cells() == 2
    assert not any("added 7 cells" in line for line in b.log_lines()), b.log_lines()
    assert a.field("clients") == "1" and b.field("clients") == "1"
    # main has none of them
    with Control(server.url) as main:
        assert main.hello.get("room") == "main"
        main.send({"type": "replay", "count": 256})
        replay = main.next("replay")
        assert not any(e.get("kind") == "added" for e in replay.get("events", [])), replay
    rooms = listed_rooms(server)
    assert rooms["alpha"]["cells"] == 7 and rooms["alpha"]["clients"] == 1
    assert rooms["beta"]["cells"] == 2
    assert a.severe() == [] and b.severe() == []


def test_the_page_of_a_room_loads_under_r_and_says_its_room(server, pages):
    page = pages(room_url(server, "gamma-1"))
    # the name shows from the address before the server says it
    page.wait(lambda: page.js("return window.forcelayout?.state.room") == "gamma-1", "the room named by the address")
    in_room(page, "gamma-1")
    # its assets came from /r/ (relative paths), nothing failed to load
    assets = page.js("return performance.getEntriesByType('resource').map((e) => e.name)")
    assert f"{server.http}/r/style.css" in assets and f"{server.http}/r/main.js" in assets, assets
    assert page.js("return getComputedStyle(document.querySelector('#panel')).position") == "absolute"
    # the share link is the room's absolute address
    link = page.find("#share-link")
    assert link.get_attribute("href") == f"{server.http}/r/gamma-1"
    assert link.text == f"{server.http}/r/gamma-1"
    assert link.get_attribute("target") == "_blank"
    assert page.severe() == []


def test_main_is_at_the_root_and_shares_it(server, pages):
    page = pages(server.url)
    in_room(page, "main")
    assert page.find("#share-link").get_attribute("href") == server.url
    for path in ("/index.html", "/r/main"):
        other = pages(server.http + path)
        in_room(other, "main")
        other.quit()
    assert page.severe() == []


def test_switcher_lists_rooms_and_moves_between_them_and_back_returns(server, pages):
    with Control(server.url, room="delta") as delta:
        delta.send({"type": "add", "count": 3})
        delta.event("added")
        page = pages(room_url(server, "epsilon"))
        in_room(page, "epsilon")
        add_cells(page, 4)
        open_switcher(page)
        page.wait(lambda: switcher_rows(page).get("delta") == (f"1 person {DOT} 3 cells", False),
                  f"delta listed with 1 person and 3 cells: {switcher_rows(page)}")
        page.wait(lambda: switcher_rows(page).get("epsilon") == (f"1 person {DOT} 4 cells", True),
                  f"epsilon listed and marked as this page's room: {switcher_rows(page)}")
        # the list follows the server while it is open
        delta.send({"type": "add", "count": 5})
        page.wait(lambda: switcher_rows(page).get("delta", ("",))[0] == f"1 person {DOT} 8 cells",
                  f"delta's 8 cells in the list within a few seconds: {switcher_rows(page)}")
        assert re.fullmatch(rf"\d+ rooms? {DOT} \d+ (people|person)", page.find("#rooms-summary").text)
        page.screenshot("rooms-switcher.png")

        page.find('#room-list li[data-room="delta"] a').click()
        page.wait(lambda: page.driver.current_url == f"{server.http}/r/delta", "the address of room delta")
        in_room(page, "delta")
        page.wait(lambda: page.cells() == 8, "delta's 8 cells")

        page.driver.back()
        page.wait(lambda: page.driver.current_url == f"{server.http}/r/epsilon", "back at room epsilon")
        in_room(page, "epsilon")
        page.wait(lambda: page.cells() == 4, "epsilon's 4 cells again")
        assert page.severe() == []


def test_open_a_room_by_name_checked_as_the_server_checks_it(server, pages):
    page = pages(room_url(server, "zeta"))
    in_room(page, "zeta")
    open_switcher(page)
    field = page.find('#room-open input[name="room"]')
    error = page.find("#room-error")
    for typed, says in (
        ("Eta", "Room names are lower case. Try \u201ceta\u201d."),
        ("eta room", "Use only a\u2013z, 0\u20139, - and _ (no spaces). Try \u201ceta-room\u201d."),
        ("-eta", "Start with a letter or a digit. Try \u201ceta\u201d."),
        ("e" * 41, f"At most 40 characters. Try \u201c{'e' * 40}\u201d."),
    ):
        field.clear()
        field.send_keys(typed)
        page.wait(lambda: error.text == says, f"{says!r} for {typed!r} (it says {error.text!r})")
        assert field.get_attribute("aria-invalid") == "true"
        page.find('#room-open button[type="submit"]').click()
        time.sleep(0.3)
        assert page.driver.current_url == f"{server.http}/r/zeta", "an invalid name goes nowhere"
        assert error.text == says
    field.clear()
    field.send_keys("\n")
    page.wait(lambda: error.text == "Type a room name.", "'Type a room name.' for an empty field")
    field.send_keys("zeta\n")
    page.wait(lambda: "zeta" in error.text, "a word that this is the room already")
    assert field.get_attribute("aria-invalid") is None
    field.clear()
    field.send_keys("eta\n")
    page.wait(lambda: page.driver.current_url == f"{server.http}/r/eta", "the address of room eta")
    in_room(page, "eta")
    assert page.cells() == 0
    page.driver.back()
    page.wait(lambda: page.driver.current_url == f"{server.http}/r/zeta", "back at room zeta")
    in_room(page, "zeta")
    assert page.severe() == []


def test_rooms_are_asked_for_only_while_the_switcher_is_open(server, pages):
    page = pages(room_url(server, "theta"))
    page.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": COUNT_ROOMS_REQUESTS})
    page.driver.get(room_url(server, "theta"))
    in_room(page, "theta")
    asked = lambda: page.js("return window.__roomsAsked")  # noqa: E731
    time.sleep(4)
    assert asked() == 0, "asked while closed"
    open_switcher(page)
    page.wait(lambda: asked() >= 1, "a request when it opens")
    page.wait(lambda: asked() >= 3, "requests every few seconds while open", timeout=10)
    page.find("#rooms-toggle").click()
    page.wait(lambda: not page.find("#rooms").is_displayed(), "the switcher closed")
    time.sleep(0.2)
    closed_at = asked()
    time.sleep(4)
    assert asked() == closed_at, "asked while closed"
    # open but the panel hidden: not on the screen, not asked
    open_switcher(page)
    page.wait(lambda: asked() > closed_at, "a request when it opens again")
    page.find("#panel-toggle").click()
    page.wait(lambda: not page.find("#rooms").is_displayed(), "the panel hidden")
    time.sleep(0.2)
    hidden_at = asked()
    time.sleep(4)
    assert asked() == hidden_at, "asked while the panel was hidden"
    # Escape closes it
    page.find("#panel-toggle").click()
    page.wait(lambda: page.find("#rooms").is_displayed(), "the switcher back with the panel")
    page.find('#room-open input[name="room"]').send_keys("\ue00c")  # Escape
    page.wait(lambda: not page.find("#rooms").is_displayed(), "Escape closes the switcher")
    assert page.find("#rooms-toggle").get_attribute("aria-expanded") == "false"
    assert page.severe() == []


# No Clipboard API (a page over plain http on a network address), and execCommand('copy')
# answering as told by window.__execCopies.
NO_CLIPBOARD_API = r"""
(() => {
  Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined, configurable: true });
  window.__execCopies = true;
  window.__execCopied = [];
  document.execCommand = (command) => {
    window.__execCopied.push([command, String(document.activeElement?.value ?? '')]);
    return window.__execCopies;
  };
})();
"""


def test_copy_link_with_and_without_the_clipboard_api(server, pages):
    page = pages(room_url(server, "iota"))
    in_room(page, "iota")
    address = f"{server.http}/r/iota"
    note = page.find("#share-note")
    # the Clipboard API (127.0.0.1 is a secure context): the address is on the clipboard
    page.driver.execute_cdp_cmd("Browser.grantPermissions", {
        "origin": server.http, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    page.find("#share-copy").click()
    page.wait(lambda: note.text == "Link copied", "'Link copied'")
    pasted = page.driver.execute_async_script(
        "navigator.clipboard.readText().then(arguments[0], (e) => arguments[0]('refused: ' + e))")
    assert pasted == address

    # no Clipboard API: copied the old way, from a selection of the address
    page.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": NO_CLIPBOARD_API})
    page.driver.get(address)
    in_room(page, "iota")
    assert page.js("return navigator.clipboard") is None
    note = page.find("#share-note")
    page.find("#share-copy").click()
    page.wait(lambda: note.text == "Link copied", "'Link copied' the old way")
    assert page.js("return window.__execCopied") == [["copy", address]]
    assert page.js("return document.querySelectorAll('textarea').length") == 0

    # neither way: the address is left selected, and the note says how to copy it
    page.js("window.__execCopies = false")
    page.find("#share-copy").click()
    page.wait(lambda: "to copy the selected link" in note.text, "the note saying to press Ctrl+C")
    assert page.js("return getSelection().toString()") == address
    assert page.severe() == []
