"""Rooms that belong to someone (issue 25) in real headless Chromium against the real server.

    /usr/bin/python3 -m pytest Tests/web/test_access.py

The same launcher and browser windows as test_browser.py. The page that makes a room owns it
and keeps its owner's secret in the browser; a stranger's page in a view room watches the
layout live with every control that would change it disabled, and changes nothing; the edit
link (in the address's fragment) makes an editor; the owner makes the room private and a
stranger's page is refused with a notice that says why; the page works over https too
(`serve --tls-cert/--tls-key`, a certificate made here with openssl).
"""
import shutil
import subprocess
import time

import pytest
from selenium.webdriver.common.actions.action_builder import ActionBuilder

from test_browser import BIN, Page, add_cells, connected
from server import RunningServer


def role(page):
    return page.js("return document.body.dataset.role")


def owned_room(server, pages, name, cells):
    """A room made by a page of its own (its owner), holding `cells` cells: (its URL, the page)."""
    url = f"{server.http}/r/{name}"
    owner = pages(url)
    connected(owner)
    owner.wait(lambda: role(owner) == "owner", "the room's maker to own it")
    add_cells(owner, cells)
    return url, owner


def choose_access(page, mode):
    page.js("const el = document.querySelector('#access-mode'); el.value = arguments[0];"
            "el.dispatchEvent(new Event('change', {bubbles: true}));", mode)
    page.wait(lambda: page.js("return document.body.dataset.access") == mode, f"the room to be {mode}")


def test_a_viewer_watches_live_and_cannot_change_the_room(server, pages):
    url, owner = owned_room(server, pages, "b-viewing", 10)
    assert owner.find("#access .owner-controls").is_displayed()
    choose_access(owner, "view")

    viewer = pages(url)
    connected(viewer)
    viewer.wait(lambda: role(viewer) == "viewer", "a stranger to watch only")
    assert "View only" in viewer.find("#role-note").text
    assert viewer.js("return document.querySelector('button[data-action=add]').disabled")
    assert viewer.js("return [...document.querySelectorAll('#params input, #params select')].every((e) => e.disabled)")
    assert viewer.js("return document.querySelector('#import-button').disabled")
    assert not viewer.find("#access .owner-controls").is_displayed()
    viewer.wait(lambda: viewer.cells() == 10, "the viewer to see the cells")

    # Whatever the viewer tries changes nothing: a click, the keys, a drag of a cell.
    viewer.js("document.querySelector('button[data-action=add]').click()")
    viewer.find("body").send_keys("a")
    cell = viewer.js("return window.forcelayout.state.ids[0]")
    x, y = viewer.js("return window.forcelayout.cellClientPosition(arguments[0])", cell)
    drag = ActionBuilder(viewer.driver, duration=40)
    drag.pointer_action.move_to_location(int(x), int(y)).pointer_down()
    for i in range(1, 6):
        drag.pointer_action.move_to_location(int(x) + 12 * i, int(y) + 8 * i)
    drag.pointer_action.pointer_up()
    drag.perform()
    time.sleep(1)
    assert owner.cells() == 10 and viewer.cells() == 10
    assert not owner.js("return window.forcelayout.state.pinned.size"), "the viewer's drag pinned nothing"
    assert viewer.js("return window.forcelayout.state.rejected") is None, "the page sent nothing the server had to refuse"

    # Export: the owner's page fetches the document with its link; a viewer without one is
    # told it needs one (a view room exports only to link holders).
    capture = ("window.__exported = null; const real = URL.createObjectURL.bind(URL);"
               "URL.createObjectURL = (blob) => { window.__exported = blob.size; return real(new Blob([''])); };"
               "document.querySelector('#export-link').click()")
    owner.js(capture)
    owner.wait(lambda: (owner.js("return window.__exported") or 0) > 100, "the owner's export fetched with its link")
    viewer.js(capture)
    viewer.wait(lambda: "needs one of this room" in viewer.find("#import-status").text, "the viewer told why it cannot export")
    assert viewer.js("return window.__exported") is None

    # It still sees the room live: the owner's change reaches it.
    add_cells(owner, 5)
    viewer.wait(lambda: viewer.cells() == 15, "the owner's new cells on the viewer's page")
    assert not viewer.severe(), viewer.severe()

    # The edit link the owner copies makes an editor, who changes the room for everyone.
    edit = owner.js("return window.forcelayout.state.links.edit")
    editor = pages(f"{url}#edit={edit}")
    connected(editor)
    editor.wait(lambda: role(editor) == "editor", "the edit link to make an editor")
    assert editor.find("[data-copy=view]").is_displayed(), "an editor hands on the view link"
    add_cells(editor, 5)
    owner.wait(lambda: owner.cells() == 20, "the editor's cells on the owner's page")
    viewer.wait(lambda: viewer.cells() == 20, "the editor's cells on the viewer's page")


def test_the_owner_makes_the_room_private_and_a_stranger_is_refused(server, pages):
    url, owner = owned_room(server, pages, "b-private", 4)
    stranger = pages(url)
    connected(stranger)
    choose_access(owner, "private")
    stranger.wait(lambda: stranger.js("return document.body.dataset.connection") == "refused", "the stranger turned away")
    assert "private" in stranger.find("#notice").text
    assert not stranger.find("#layout").is_displayed(), "the layout it saw is no longer shown"
    late = pages(url)
    late.wait(lambda: late.js("return document.body.dataset.connection") == "refused", "a late stranger refused")
    assert "private" in late.find("#notice").text and late.cells() == 0
    # The owner, reloading, is still the owner (its secret kept in this browser, never in
    # the address), and the view link lets a guest in.
    owner.driver.get(url)
    connected(owner)
    owner.wait(lambda: role(owner) == "owner", "the owner after a reload")
    assert owner.js("return location.hash") == ""
    view = owner.js("return window.forcelayout.state.links.view")
    guest = pages(f"{url}#view={view}")
    connected(guest)
    guest.wait(lambda: role(guest) == "viewer" and guest.cells() == 4, "the view link to let a guest watch")
    # Rotating ends that link: the guest is told, and (the room being private) stays out.
    guest_before = guest.js("return document.body.dataset.connection")
    owner.js("window.confirm = () => true; document.querySelector('#rotate-links').click()")
    guest.wait(lambda: guest.js("return document.body.dataset.connection") == "refused", "the rotated link to stop working")
    assert guest_before == "connected"
    assert "private" in guest.find("#notice").text


def certificate(folder):
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-days", "1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    return cert, key


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command")
def test_the_page_over_https(tmp_path):
    cert, key = certificate(tmp_path)
    with RunningServer("--tls-cert", str(cert), "--tls-key", str(key), binary=BIN, workdir=True) as tls:
        page = Page(f"https://127.0.0.1:{tls.port}/r/b-secure", extra_args=("--ignore-certificate-errors",))
        try:
            connected(page)
            page.wait(lambda: role(page) == "owner", "the maker over https to own the room")
            assert page.js("return window.forcelayout.protocol()") == "forcelayout.v2"
            add_cells(page, 3)
            assert page.js("return location.protocol") == "https:"
            assert not page.severe(), page.severe()
        finally:
            page.quit()


def test_the_owner_deletes_the_room_for_everyone(server, pages):
    url, owner = owned_room(server, pages, "b-deleting", 3)
    other = pages(url)
    connected(other)
    assert not other.find("#delete-room").is_displayed(), "only the owner sees Delete room"
    owner.js("window.confirm = () => true; document.querySelector('#delete-room').click()")
    for page in (owner, other):
        page.wait(lambda: page.js("return document.body.dataset.connection") == "refused", "the deleted room to close")
        assert "deleted" in page.find("#notice").text
