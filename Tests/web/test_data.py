"""Cells that carry data (issue 13) in real headless Chromium against the real server.

    /usr/bin/python3 -m pytest Tests/web/test_data.py

Les Misérables (networkx's own copy) imported through the page's Import button: every window
in the room gets the characters with their names and links; the strip and the tooltip name
the selected cell by its label; dragging Valjean pins him for everyone; Export is the room's
node-link JSON. A d3-style file with groups colours by group and the legend lists them; a file
with problems says what it left out; drag-and-drop imports too.
"""
import json
import math
import os
import pathlib
import time
import urllib.request

import networkx as nx
import pytest
from networkx.readwrite import json_graph
from selenium.webdriver.common.actions.action_builder import ActionBuilder

from control import Control
from test_browser import connected


def import_file(page, path):
    page.js("document.querySelector('#import-file').hidden = false")
    page.find("#import-file").send_keys(str(path))
    page.js("document.querySelector('#import-file').hidden = true")
    page.wait(lambda: page.find("#import-status").get_attribute("data-kind") in ("done", "warning", "error"),
              "the import to end", timeout=60)
    return page.find("#import-status").text


def data_sizes(page):
    return page.js("const d = window.forcelayout.state.data; return [d.cells.size, d.links.size]")


def test_les_miserables_imported_in_one_window_shows_in_both_and_valjean_drags_for_everyone(server, pages, tmp_path):
    path = tmp_path / "lesmis.json"
    path.write_text(json.dumps(json_graph.node_link_data(nx.les_miserables_graph())))
    url = f"{server.http}/r/lesmis"
    a, b = pages(url, size=(1280, 860)), pages(url, size=(1000, 700))
    connected(a)
    connected(b)
    said = import_file(a, path)
    assert said == "Imported 77 cells and 254 links from lesmis.json.", said
    assert a.find("#import-progress").get_attribute("hidden") is not None
    for page in (a, b):
        page.wait(lambda: data_sizes(page) == [77, 254], "every label and link in both windows")
        page.wait(lambda: page.cells() == 77, "77 cells")
    time.sleep(4)  # let it spread out, then look
    a.screenshot("lesmis.png")

    # the strip names the selected cell by its label
    valjean = a.js("for (const [id, d] of window.forcelayout.state.data.cells) if (d.label === 'Valjean') return id;")
    a.js("window.forcelayout.state.selectedId = null")
    index = a.js("return window.forcelayout.state.ids.indexOf(arguments[0])", valjean)
    strip = a.find("#strip")
    a.js("arguments[0].focus()", strip)
    for _ in range(index + 1):
        strip.send_keys("\ue014")  # arrow right
        if a.js("return document.body.dataset.selected") == str(valjean):
            break
    a.wait(lambda: strip.get_attribute("aria-valuetext") == f"Valjean, {index + 1} of 77",
           f"the strip saying Valjean, {index + 1} of 77 (it says {strip.get_attribute('aria-valuetext')})")

    # drag Valjean: held where the pointer is, in every window, while the drag lasts
    with Control(server.http, room="lesmis") as other:
        x, y = a.js("return window.forcelayout.cellClientPosition(arguments[0])", valjean)
        drag = ActionBuilder(a.driver, duration=40)
        drag.pointer_action.move_to_location(int(x), int(y)).pointer_down()
        for i in range(1, 6):
            drag.pointer_action.move_to_location(int(x) + 12 * i, int(y) + 6 * i)
        drag.perform()
        try:
            pinned = other.event("pinned")
            assert pinned["id"] == valjean and pinned["by"] == a.js("return window.forcelayout.state.client")
            b.wait(lambda: b.js("return window.forcelayout.state.pinned.has(arguments[0])", valjean),
                   "Valjean held in the other window")
            held = a.js("const s = window.forcelayout.state; const i = s.index.get(arguments[0]); return [s.xy[2*i], s.xy[2*i+1]]", valjean)
            b.wait(lambda: math.dist(held, b.js("const s = window.forcelayout.state; const i = s.index.get(arguments[0]); return [s.xy[2*i], s.xy[2*i+1]]", valjean)) < 1,
                   "Valjean where the pointer holds him, in the other window")
        finally:
            drop = ActionBuilder(a.driver)
            drop.pointer_action.pointer_up()
            drop.perform()

    # the tooltip names him too
    x, y = b.js("return window.forcelayout.cellClientPosition(arguments[0])", valjean)
    hover = ActionBuilder(b.driver)
    hover.pointer_action.move_to_location(int(x), int(y))
    hover.perform()
    b.wait(lambda: b.find("#tooltip").text.startswith("Valjean"), "the tooltip naming Valjean")

    # Export: the room's node-link JSON, every character and link
    href = a.find("#export-link").get_attribute("href")
    assert href.endswith("/export/lesmis.json")
    with urllib.request.urlopen(href) as response:
        exported = json.load(response)
    assert sorted(n["label"] for n in exported["nodes"]) == sorted(nx.les_miserables_graph().nodes)
    assert len(exported["links"]) == 254
    assert a.severe() == [] and b.severe() == []


def test_the_karate_club_as_an_edge_list_through_the_page_comes_back_whole(server, pages, tmp_path):
    karate = nx.karate_club_graph()
    path = tmp_path / "karate.tsv"
    nx.write_edgelist(karate, path, delimiter="\t", data=False)
    page = pages(f"{server.http}/r/karate")
    connected(page)
    assert import_file(page, path) == "Imported 34 cells and 78 links from karate.tsv."
    with urllib.request.urlopen(f"{server.http}/export/karate.json") as response:
        exported = json.load(response)
    labels = {n["id"]: n["label"] for n in exported["nodes"]}
    assert sorted(labels.values()) == sorted(str(n) for n in karate.nodes)
    assert {frozenset((labels[l["source"]], labels[l["target"]])) for l in exported["links"]} \
        == {frozenset((str(a), str(b))) for a, b in karate.edges}


def test_the_karate_club_as_node_link_json_through_the_page_comes_back_with_its_ids_and_attributes(server, pages, tmp_path):
    karate = nx.karate_club_graph()
    path = tmp_path / "karate.json"
    path.write_text(json.dumps(json_graph.node_link_data(karate)))
    page = pages(f"{server.http}/r/karate-ids")
    connected(page)
    assert import_file(page, path) == "Imported 34 cells and 78 links from karate.json."
    with urllib.request.urlopen(f"{server.http}/export/karate-ids.json") as response:
        exported = json.load(response)
    nodes = {n["id"]: n for n in exported["nodes"]}
    assert set(nodes) == set(karate.nodes) and all(type(i) is int for i in nodes)
    assert all(nodes[n]["club"] == data["club"] for n, data in karate.nodes(data=True))
    weights = {frozenset((l["source"], l["target"])): l["weight"] for l in exported["links"]}
    assert weights == {frozenset((a, b)): data["weight"] for a, b, data in karate.edges(data=True)}


def test_groups_colour_the_cells_and_the_legend_lists_them(server, pages, tmp_path):
    path = tmp_path / "groups.json"
    path.write_text(json.dumps({"nodes": [{"id": f"n{i}", "group": i % 3} for i in range(12)] + [{"id": "red", "color": "#ff0000"}],
                                "links": [{"source": f"n{i}", "target": f"n{(i + 1) % 12}"} for i in range(12)]}))
    page = pages(f"{server.http}/r/groups")
    connected(page)
    assert import_file(page, path).startswith("Imported 13 cells and 12 links")
    page.wait(lambda: page.js("return document.querySelector('#legend').dataset.by") == "group", "a legend by group")
    rows = page.js("return [...document.querySelectorAll('#legend li')].map((li) => li.textContent)")
    assert rows == ["04", "14", "24", "no group1"], rows
    swatches = page.js("return [...document.querySelectorAll('#legend .swatch')].slice(0, 3).map((s) => s.style.background)")
    assert len(set(swatches)) == 3, swatches


def test_a_file_with_problems_says_what_it_left_out_and_drop_imports(server, pages, tmp_path):
    page = pages(f"{server.http}/r/odd")
    connected(page)
    path = tmp_path / "odd.csv"
    path.write_text("source,target\na,b\nb,a\nc,c\n" + "x" * 90 + ",a\n")
    said = import_file(page, path)
    assert said.startswith("Imported 4 cells and 2 links from odd.csv. Not imported:"), said
    assert "1 repeated link(s)" in said and "1 self link(s)" in said and "cut to 80 characters" in said, said
    bad = tmp_path / "bad.json"
    bad.write_text('{"nodes": 3')
    assert import_file(page, bad).startswith("Cannot import bad.json: not valid JSON")

    # a file dropped on the page
    page.js("""
        const file = new File(['p,q\\nq,r\\n'], 'dropped.csv', {type: 'text/csv'});
        const data = new DataTransfer();
        data.items.add(file);
        document.body.dispatchEvent(new DragEvent('dragover', {dataTransfer: data, bubbles: true, cancelable: true}));
        document.body.dispatchEvent(new DragEvent('drop', {dataTransfer: data, bubbles: true, cancelable: true}));
    """)
    # the room holds cells already: the page asks whether the file replaces them or joins them
    page.wait(lambda: page.find("#import-choice").is_displayed(), "the import to ask replace or add")
    page.find('#import-choice button[value="add"]').click()
    page.wait(lambda: page.find("#import-status").text == "Imported 3 cells and 2 links from dropped.csv.", "the dropped file imported")
    assert page.severe() == []


@pytest.mark.skipif(not os.environ.get("FORCELAYOUT_LESMIS_SCREENSHOT"), reason="make screenshot only")
def test_lesmis_screenshot(server, pages, tmp_path):
    """docs/lesmis.png: Les Misérables imported through the page, its communities (networkx's
    greedy modularity) as groups, settled, in a 1280x800 window."""
    graph = nx.les_miserables_graph()
    for group, members in enumerate(nx.algorithms.community.greedy_modularity_communities(graph), start=1):
        for name in members:
            graph.nodes[name]["group"] = group
    path = tmp_path / "les-miserables.json"
    path.write_text(json.dumps(json_graph.node_link_data(graph)))
    page = pages(f"{server.http}/r/les-miserables", viewport=(1280, 800))
    connected(page)
    assert import_file(page, path).startswith("Imported 77 cells and 254 links")
    page.wait(lambda: page.field("motion") == "settled", "the layout to settle", timeout=120)
    time.sleep(1.5)
    page.driver.save_screenshot(os.environ["FORCELAYOUT_LESMIS_SCREENSHOT"])


def test_an_import_through_the_page_survives_the_rooms_owner_being_killed(pages, tmp_path):
    """Issue 22: the page's import went on waiting for the answer a killed owner never gave.
    Through a relay, with the owner killed mid-import, it now ends with every node and link
    once (the room's data after the failover says what arrived)."""
    import sys
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "e2e"))
    from redis_server import RunningRedis
    from server import RunningServer, wait_until
    from raw_websocket import RawWebSocket

    nodes = 2000
    edges = [{"source": n, "target": (n + 1) % nodes} for n in range(nodes)]
    path = tmp_path / "ring.json"
    path.write_text(json.dumps({"nodes": [{"id": n} for n in range(nodes)], "links": edges}))
    slow = ["--messages-per-second", "4", "--message-burst", "2", "--max-add-per-message", "200"]
    with RunningRedis() as redis:
        servers = [RunningServer("--redis", redis.url, "--node", node, *slow, log_file=True) for node in "ab"]
        try:
            owner, relay = servers
            with RawWebSocket(owner.port, path="/ws/ring"):
                assert wait_until(lambda: any(r["name"] == "ring" and r.get("node") == "a" for r in relay.rooms()), timeout=5)
            page = pages(f"{relay.http}/r/ring")
            page.wait(lambda: page.field("client").endswith("@b"), "a client id of server b")
            page.js("document.querySelector('#import-file').hidden = false")
            page.find("#import-file").send_keys(str(path))
            page.wait(lambda: page.cells() >= 600, "the import under way", timeout=30)
            owner.stop()  # kill -9, mid-import
            page.wait(lambda: page.find("#import-status").get_attribute("data-kind") in ("done", "warning", "error"),
                      "the import to end", timeout=90)
            said = page.find("#import-status").text
            assert said.startswith(f"Imported {nodes} cells and {nodes} links from ring.json."), said
            print(said)
            with urllib.request.urlopen(f"{relay.http}/export/ring.json", timeout=10) as response:
                document = json.loads(response.read())
            assert sorted(node["id"] for node in document["nodes"]) == list(range(nodes)), "every node once"
            assert len(document["links"]) == nodes
        finally:
            for server in servers:
                server.close()


def test_a_legend_of_many_groups_sums_up_the_rest_and_counts_them_again_in_place(server, pages):
    page = pages(f"{server.http}/r/manygroups")
    connected(page)
    with Control(server.http, room="manygroups") as control:
        control.send({"type": "add", "cells": [{"group": f"g{i:02}"} for i in range(15)]})
        control.event("added")
        page.wait(lambda: page.js("return document.querySelectorAll('#legend li').length") == 12, "11 groups and a line for the rest")
        rows = page.js("return [...document.querySelectorAll('#legend li')].map((li) => li.textContent)")
        assert rows == [f"g{i:02}1" for i in range(11)] + ["4 more: 4"], rows
        page.js("document.querySelector('#legend li').dataset.kept = 'yes'")
        control.send({"type": "add", "cells": [{"group": "g14"}] * 3 + [{"group": "g00"}]})
        control.event("added")
        page.wait(lambda: page.js("return document.querySelector('#legend .more').textContent") == "4 more: 7", "the rest counted again")
        assert page.js("return document.querySelector('#legend .n').textContent") == "2"
        assert page.js("return document.querySelector('#legend li').dataset.kept") == "yes", "the same lines: counted in place, not made again"
