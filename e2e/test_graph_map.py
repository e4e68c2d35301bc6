"""The whole-library map: its binary block and names over HTTP, and the WebGL drawing in a real
headless Chromium (SwiftShader) on the demo library: the points are drawn, names appear, a tap
picks a node, a wheel turn and a pinch zoom. The 100,000-song first-frame check is in
e2e/long_graph_map.py (`make e2e-long`).
"""

from __future__ import annotations

import struct

import pytest
import requests
from selenium.webdriver.common.by import By

from conftest import launch_browser, open_page, severe_console_entries, wait

KINDS = ["artist", "album", "song"]


@pytest.fixture(scope="module")
def browser():
    """This file's own Chromium: CDP touch events reach its pages whatever earlier files did
    (conftest.launch_browser)."""
    yield from launch_browser()


@pytest.fixture(scope="module")
def mapped(server):
    """The demo library scanned and its map laid out; returns the map status."""
    server.wait_for_library()
    status = {}

    def ready(s):
        nonlocal status
        status = requests.get(s.url("/api/library/graph/map/status"), auth=s.admin, timeout=5).json()
        return status if status["ready"] and not status["computing"] else None

    return wait(server, ready, lambda: f"the map was not laid out: {status}", timeout=120, interval=0.25)


def read_block(data: bytes) -> dict:
    """Decodes the map block as docs/graph.md describes it (independently of the page's reader)."""
    assert data[:4] == b"QGM1"
    flags, n, e = struct.unpack_from("<III", data, 4)
    xy = struct.unpack_from(f"<{2 * n}f", data, 32)
    ids = struct.unpack_from(f"<{n}I", data, 32 + 8 * n)
    kinds = data[32 + 12 * n: 32 + 13 * n]
    at = (32 + 13 * n + 3) // 4 * 4
    edges = struct.unpack_from(f"<{2 * e}I", data, at)
    edge_kinds = data[at + 8 * e: at + 9 * e]
    assert len(data) == (at + 9 * e + 3) // 4 * 4
    return {"flags": flags, "n": n, "e": e, "xy": xy, "ids": ids, "kinds": kinds, "edges": edges, "edge_kinds": edge_kinds}


def test_the_map_block_holds_the_whole_catalog(server, mapped):
    response = requests.get(server.url("/api/library/graph/map"), auth=server.admin, timeout=10)
    assert response.status_code == 200 and response.headers["content-type"] == "application/octet-stream"
    block = read_block(response.content)
    stats = requests.get(server.url("/api/library/stats"), auth=server.admin, timeout=5).json()
    counts = [sum(1 for k in block["kinds"] if k == kind) for kind in range(3)]
    assert counts[1:] == [stats["albums"], stats["songs"]] and counts[0] >= 1
    assert block["n"] == mapped["nodes"] and block["e"] == mapped["edges"] and block["flags"] & 1 == 0
    # Every song has its album link; positions are finite and not all in one place.
    assert sum(1 for k in block["edge_kinds"] if k == 1) == stats["songs"]
    assert all(abs(v) < 1e6 for v in block["xy"]) and len(set(block["xy"])) > block["n"]
    # Unchanged since: 304.
    again = requests.get(server.url("/api/library/graph/map"), auth=server.admin, timeout=10,
                         headers={"If-None-Match": response.headers["etag"]})
    assert again.status_code == 304
    # Names on demand, in the order asked, unknown keys left out; bad keys are a 400.
    songs = [block["ids"][i] for i in range(block["n"]) if block["kinds"][i] == 2][:3]
    keys = ",".join([f"song:{i}" for i in songs] + ["artist:999999"])
    names = requests.get(server.url(f"/api/library/graph/names?nodes={keys}"), auth=server.admin, timeout=5).json()["names"]
    titles = [requests.get(server.url(f"/api/library/songs/{i}"), auth=server.admin, timeout=5).json()["title"] for i in songs]
    assert names == [{"node": f"song:{i}", "name": t} for i, t in zip(songs, titles)]
    for bad in ("", "song:x", "planet:3", ",".join(["song:1"] * 501)):
        answer = requests.get(server.url("/api/library/graph/names"), params={"nodes": bad}, auth=server.admin, timeout=5)
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "invalid_input", bad
    assert requests.get(server.url("/api/library/graph/map"), timeout=5).status_code == 401


def coloured_pixels(driver) -> dict:
    """Counts the canvas pixels near each kind's colour (preserveDrawingBuffer keeps the frame)."""
    return driver.execute_script("""
        const source = document.querySelector('#map-canvas');
        const copy = document.createElement('canvas');
        copy.width = source.width; copy.height = source.height;
        const ctx = copy.getContext('2d');
        ctx.drawImage(source, 0, 0);
        const px = ctx.getImageData(0, 0, copy.width, copy.height).data;
        const colours = {artist: [44, 107, 212], album: [224, 138, 31], song: [46, 158, 74]};
        const counts = {artist: 0, album: 0, song: 0, other: 0};
        for (let i = 0; i < px.length; i += 4) {
          let hit = 'other';
          for (const [kind, c] of Object.entries(colours)) {
            if (Math.abs(px[i] - c[0]) + Math.abs(px[i + 1] - c[1]) + Math.abs(px[i + 2] - c[2]) < 40) hit = kind;
          }
          if (hit !== 'other' || px[i] + px[i + 1] + px[i + 2] < 700) counts[hit]++;
        }
        return counts;""")


def touch(driver, kind, points):
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {
        "type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]})


def test_the_page_draws_the_map_and_a_tap_picks_a_node(server, mapped, browser):
    open_page(browser, server.url("/library/#map"))
    if browser.find_element(By.CSS_SELECTOR, "#signin").is_displayed():
        browser.find_element(By.CSS_SELECTOR, "#signin-name").send_keys(server.admin[0])
        browser.find_element(By.CSS_SELECTOR, "#signin-password").send_keys(server.admin[1])
        browser.find_element(By.CSS_SELECTOR, "#signin-submit").click()
    canvas = wait(browser, lambda d: next(iter(d.find_elements(By.CSS_SELECTOR, "#map-canvas[data-state='drawn']")), None),
                  "the map was not drawn")
    assert int(canvas.get_attribute("data-nodes")) == mapped["nodes"]
    counts = coloured_pixels(browser)
    assert counts["artist"] > 0 and counts["album"] > 0 and counts["song"] > 0, counts
    # A small library is in view whole: names appear, from /api/library/graph/names.
    wait(browser, lambda d: int(canvas.get_attribute("data-labels") or 0) > 0, "no labels appeared")
    labels = {e.get_attribute("textContent") for e in browser.find_elements(By.CSS_SELECTOR, ".map-label")}
    artists = {a["name"] for a in requests.get(server.url("/api/library/artists"), auth=server.admin, timeout=5).json()["artists"]}
    assert labels & artists, labels

    # Tap the first artist (a CDP touch, as a finger would): the pick names it and links to it.
    artist = browser.execute_script("""
        const c = document.querySelector('#map-canvas'), h = c.mapHandle;
        c.scrollIntoView({block: 'center'});
        const i = h.map.kinds.indexOf(0);
        const [sx, sy] = h.toScreen(h.map.xy[2 * i], h.map.xy[2 * i + 1]);
        return {id: h.map.ids[i], sx, sy};""")
    rect = browser.execute_script("const r = document.querySelector('#map-canvas').getBoundingClientRect(); return [r.left, r.top];")
    x, y = rect[0] + artist["sx"], rect[1] + artist["sy"]
    touch(browser, "touchStart", [(x, y)])
    touch(browser, "touchEnd", [])
    link = wait(browser, lambda d: next(iter(d.find_elements(By.CSS_SELECTOR, "#map-picked-link")), None), "the tap picked nothing")
    assert link.get_attribute("href").endswith(f"#artist/{artist['id']}")
    name = requests.get(server.url(f"/api/library/artists/{artist['id']}"), auth=server.admin, timeout=5).json()["artist"]["name"]
    wait(browser, lambda d: link.text == name, f"the pick did not show the artist's name {name!r}")

    # Wheel towards the picked point zooms in; a two-finger spread zooms in further.
    zoom = float(canvas.get_attribute("data-zoom"))
    browser.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": x, "y": y, "deltaX": 0, "deltaY": -300})
    wait(browser, lambda d: float(canvas.get_attribute("data-zoom")) > zoom * 1.3, "the wheel did not zoom in")
    zoom = float(canvas.get_attribute("data-zoom"))
    cx, cy = browser.execute_script(
        "const r = document.querySelector('#map-canvas').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2];")
    touch(browser, "touchStart", [(cx - 20, cy), (cx + 20, cy)])
    for step in range(1, 6):
        touch(browser, "touchMove", [(cx - 20 - 16 * step, cy), (cx + 20 + 16 * step, cy)])
    touch(browser, "touchEnd", [])
    wait(browser, lambda d: float(canvas.get_attribute("data-zoom")) > zoom * 2.5, "the pinch did not zoom in")

    # From the whole library into the explorer: the pick seeds the graph view with that artist.
    browser.find_element(By.CSS_SELECTOR, "#map-picked-explore").click()
    wait(browser, lambda d: d.execute_script(
        "return window.quintetGraph ? quintetGraph.nodes().some((n) => n.kind === 'artist' && n.name === arguments[0]) : false",
        name), f"the explorer did not open on {name!r}")
    assert browser.execute_script("return location.hash") == f"#graph/artist/{artist['id']}"
    assert severe_console_entries(browser) == []
