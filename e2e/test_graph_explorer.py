"""The graph explorer (/library/#graph) in a real Chromium, with touch, mouse and keyboard.

Touch goes through CDP `Input.dispatchTouchEvent` (real touch events, so the page sees
pointer events of type "touch"); mouse and keys through Selenium. Taps are aimed at nodes
with the page's test hook `window.quintetGraph.nodes()` (screen positions of the nodes).
The demo library: "Glass River" by Northern Lights on Polar Drift (six songs), its cover by
Maya Okafor, the same recording on the Quintet Sampler.
"""

from __future__ import annotations

import time

import pytest
import requests
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.select import Select

from conftest import launch_browser, open_page, severe_console_entries, wait

POLAR_DRIFT = ["Glass River", "Aurora Street", "Cold Engine", "Slow Thaw", "Northbound", "Last Ferry"]


# --- Helpers --------------------------------------------------------------------------------



@pytest.fixture(scope="module")
def browser():
    """This file's own Chromium: CDP touch events reach its pages whatever earlier files did
    (conftest.launch_browser)."""
    yield from launch_browser()


def nodes(driver):
    return driver.execute_script("return window.quintetGraph ? quintetGraph.nodes() : []")


def node(driver, name, kind):
    found = [n for n in nodes(driver) if n["name"] == name and n["kind"] == kind]
    return found[0] if found else None


def aim(driver, name, kind):
    """The node, where a tap reaches it: centred first when a panel covers it."""
    found = node(driver, name, kind)
    covered = driver.execute_script("return document.elementFromPoint(arguments[0], arguments[1]) !== "
                                    "document.querySelector('#graph-canvas')", found["x"], found["y"])
    if covered:
        driver.execute_script("quintetGraph.centre(arguments[0])", found["key"])
        wait(driver, settled, "the view did not settle after centring")
        found = node(driver, name, kind)
    return found


def settled(driver):
    return driver.execute_script("return quintetGraph.settled()")


def touch(driver, kind, points):
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {
        "type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]})


def tap(driver, x, y):
    touch(driver, "touchStart", [(x, y)])
    touch(driver, "touchEnd", [])


def click_at(driver, x, y):
    """A mouse click at a viewport point through CDP (the page sees pointer events of type mouse)."""
    for kind, buttons in (("mouseMoved", 0), ("mousePressed", 1), ("mouseReleased", 0)):
        driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left",
                                                            "buttons": buttons, "clickCount": 1})


def drag(driver, start, end, steps=8):
    (x0, y0), (x1, y1) = start, end
    touch(driver, "touchStart", [start])
    for i in range(1, steps + 1):
        touch(driver, "touchMove", [(x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)])
    touch(driver, "touchEnd", [])


def queue_titles(driver):
    return driver.execute_script(
        "return [...document.querySelectorAll('#graph-queue-list li[data-song-id] .graph-queue-title')].map(e => e.textContent)")


def audio(driver):
    return driver.execute_script(
        "const a = document.querySelector('#graph-audio');"
        "return {time: a.currentTime, paused: a.paused, src: a.currentSrc, error: a.error && a.error.code}")


def wait_for_node(driver, name, kind):
    return wait(driver, lambda d: node(d, name, kind), lambda: f"no {kind} node {name!r}: {[n['name'] for n in nodes(driver)]}")


@pytest.fixture(scope="module")
def touch_screen(browser):
    """Touch input for the explorer's walk (the members test clicks with the mouse: on a second
    page of the same session, Chromium delivered no CDP touch events to it)."""
    browser.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    yield
    browser.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})


@pytest.fixture
def explorer(server, browser, touch_screen):
    """The browser on /library/#graph, signed in as admin, the explorer shown and empty."""
    server.wait_for_library()
    open_page(browser, server.url("/library/#graph"))
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#signin").is_displayed()
         or d.find_element(By.CSS_SELECTOR, "#explorer").is_displayed(), "neither sign-in nor the explorer shown")
    if browser.find_element(By.CSS_SELECTOR, "#signin").is_displayed():
        browser.find_element(By.CSS_SELECTOR, "#signin-name").send_keys(server.admin[0])
        browser.find_element(By.CSS_SELECTOR, "#signin-password").send_keys(server.admin[1], Keys.ENTER)
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#graph-canvas").is_displayed(), "the explorer did not appear")
    yield browser
    browser.execute_script("document.querySelector('#graph-audio').pause()")


def subsonic(server, method, **params):
    query = {"u": server.admin[0], "p": server.admin[1], "v": "1.16.1", "c": "e2e", "f": "json", **params}
    answer = requests.get(server.url(f"/rest/{method}.view"), params=query, timeout=10).json()["subsonic-response"]
    assert answer["status"] == "ok", answer
    return answer


# --- The walk through every gesture -----------------------------------------------------------


def test_explorer_search_expand_drag_pinch_play_queue_save_clear(server, explorer):
    driver = explorer
    # Search: songs from 2 characters; the Polar Drift "Glass River" is added with its album.
    box = driver.find_element(By.CSS_SELECTOR, "#graph-search-input")
    box.send_keys("g")
    wait(driver, lambda d: "2" in d.find_element(By.CSS_SELECTOR, ".graph-search-note").text, "no hint below 2 characters")
    assert driver.find_elements(By.CSS_SELECTOR, "#graph-results li") == []
    box.send_keys("lass")
    results = wait(driver, lambda d: [b for b in d.find_elements(By.CSS_SELECTOR, "#graph-results button.song")
                                      if "Polar Drift" in b.text], "no Glass River of Polar Drift in the results")
    assert len(driver.find_elements(By.CSS_SELECTOR, "#graph-results button.song")) == 3  # original, cover, sampler
    results[0].click()
    seed = wait_for_node(driver, "Glass River", "song")
    album = wait_for_node(driver, "Polar Drift", "album")
    assert any(e["edge"] == "song_of" for e in driver.execute_script("return quintetGraph.edges()"))

    # Tap the album: its songs and its artist appear around it.
    wait(driver, settled, "the new nodes did not settle")
    album = aim(driver, "Polar Drift", "album")
    tap(driver, album["x"], album["y"])
    for title in POLAR_DRIFT[1:]:
        wait_for_node(driver, title, "song")
    artist = wait_for_node(driver, "Northern Lights", "artist")
    assert artist["parent"] == album["key"]
    # Tap the artist: it is expanded (its answer fetched; what it adds depends on its links).
    wait(driver, settled, "the album's nodes did not settle")
    before = len(nodes(driver))
    artist = aim(driver, "Northern Lights", "artist")
    label = wait(driver, lambda d: next((l for l in d.execute_script("return quintetGraph.labels()")
                                         if l["key"] == artist["key"]), None), "the artist has no label")
    # A tap on the label's right end, clear of the disc: it counts as a tap on the artist.
    tap(driver, label["x"] + label["w"] - 4, label["y"] + label["h"] / 2)
    wait(driver, lambda d: len(nodes(d)) > before or not node(d, "Northern Lights", "artist")["more"],
         lambda: f"tapping the artist's label did not expand it: {label} {node(driver, 'Northern Lights', 'artist')} "
                 f"{driver.execute_script('return [quintetGraph.focused(), quintetGraph.edges()]')}")
    wait(driver, settled, "the artist's nodes did not settle")

    # Drag the album: it and every node it brought (songs, the artist and its own) move together;
    # the seed song, which brought the album, stays.
    album = aim(driver, "Polar Drift", "album")
    parents = {n["key"]: n["parent"] for n in nodes(driver)}

    def descends(key):
        while key is not None:
            key = parents.get(key)
            if key == album["key"]:
                return True
        return False

    subtree = {key for key in parents if descends(key)}
    assert len(subtree) >= 6  # five songs and the artist, at least
    world = {n["key"]: (n["wx"], n["wy"]) for n in nodes(driver)}
    scale = driver.execute_script("return quintetGraph.camera().scale")
    drag(driver, (album["x"], album["y"]), (album["x"] + 80, album["y"] + 50))
    after = {n["key"]: (n["wx"], n["wy"]) for n in nodes(driver)}
    dx, dy = 80 / scale, 50 / scale
    for key in subtree | {album["key"]}:
        assert abs(after[key][0] - world[key][0] - dx) < 1 and abs(after[key][1] - world[key][1] - dy) < 1, key
    assert after[seed["key"]] == world[seed["key"]]

    # Pinch: two fingers spreading zoom in about their middle.
    cx, cy = driver.execute_script("return [innerWidth / 2, innerHeight / 2]")
    before = driver.execute_script("return quintetGraph.camera().scale")
    touch(driver, "touchStart", [(cx - 30, cy), (cx + 30, cy)])
    for step in range(1, 7):
        touch(driver, "touchMove", [(cx - 30 - 15 * step, cy), (cx + 30 + 15 * step, cy)])
    # The fingers rest until the page has taken every move (the browser hands moves over once
    # a frame), then lift.
    zoom = wait(driver, lambda d: (lambda z: z if z > 3.5 else None)(d.execute_script("return quintetGraph.camera().scale") / before),
                lambda: f"the pinch zoomed {driver.execute_script('return quintetGraph.camera().scale') / before:.2f}×, not 4×")
    touch(driver, "touchEnd", [])
    assert 3.5 < zoom < 4.5, zoom  # fingers 60 → 240 px apart
    assert driver.execute_script("return quintetGraph.camera().scale") / before == zoom  # lifting changes nothing

    driver.execute_script("document.querySelector('#graph-fit').click()")
    wait(driver, settled, "the graph did not settle after fitting")

    # Album mode (the default): a double tap on Aurora Street queues Polar Drift from it, plays it.
    song = aim(driver, "Aurora Street", "song")
    tap(driver, song["x"], song["y"])
    tap(driver, song["x"], song["y"])
    wait(driver, lambda d: queue_titles(d) == POLAR_DRIFT[1:], lambda: f"queue: {queue_titles(driver)}")
    start = wait(driver, lambda d: (lambda a: a if not a["paused"] and a["time"] > 0 else None)(audio(d)),
                 lambda: f"the song did not start: {audio(driver)}")
    wait(driver, lambda d: audio(d)["time"] > start["time"] + 0.3, "the audio's time did not advance")
    assert "/api/library/songs/" in start["src"]
    assert node(driver, "Aurora Street", "song")["playing"]
    assert node(driver, "Cold Engine", "song")["queued"]
    assert driver.find_element(By.CSS_SELECTOR, "#graph-player-title").text == "Aurora Street"

    # Playlist mode: a double tap adds Glass River at the end; Aurora Street plays on.
    driver.find_element(By.CSS_SELECTOR, "#graph-queue-toggle").click()
    driver.find_element(By.CSS_SELECTOR, "label[for=graph-mode-playlist]").click()
    seed = aim(driver, "Glass River", "song")
    tap(driver, seed["x"], seed["y"])
    tap(driver, seed["x"], seed["y"])
    wait(driver, lambda d: queue_titles(d) == POLAR_DRIFT[1:] + ["Glass River"], lambda: f"queue: {queue_titles(driver)}")
    assert driver.find_element(By.CSS_SELECTOR, "#graph-player-title").text == "Aurora Street"

    # Remove: swipe Cold Engine left; Delete on Slow Thaw.
    row = driver.find_elements(By.CSS_SELECTOR, "#graph-queue-list li[data-song-id]")[1]
    r = driver.execute_script("const b = arguments[0].getBoundingClientRect(); return [b.left + b.width / 2, b.top + b.height / 2]", row)
    drag(driver, (r[0] + 60, r[1]), (r[0] - 80, r[1]), steps=6)
    wait(driver, lambda d: queue_titles(d) == ["Aurora Street", "Slow Thaw", "Northbound", "Last Ferry", "Glass River"],
         lambda: f"the swipe did not remove Cold Engine: {queue_titles(driver)}")
    row = driver.find_elements(By.CSS_SELECTOR, "#graph-queue-list li[data-song-id]")[1]
    driver.execute_script("arguments[0].focus()", row)
    row.send_keys(Keys.DELETE)
    wait(driver, lambda d: queue_titles(d) == ["Aurora Street", "Northbound", "Last Ferry", "Glass River"],
         lambda: f"Delete did not remove Slow Thaw: {queue_titles(driver)}")

    # Reorder: drag Glass River's handle above Northbound with the mouse; Alt+↑ moves Last Ferry up.
    rows = driver.find_elements(By.CSS_SELECTOR, "#graph-queue-list li[data-song-id]")
    handle = rows[3].find_element(By.CSS_SELECTOR, ".graph-queue-handle")
    target = rows[1].rect
    offset = target["y"] + target["height"] * 0.25 - (rows[3].rect["y"] + rows[3].rect["height"] / 2)
    ActionChains(driver).click_and_hold(handle).move_by_offset(0, offset / 2).move_by_offset(0, offset / 2).release().perform()
    wait(driver, lambda d: queue_titles(d) == ["Aurora Street", "Glass River", "Northbound", "Last Ferry"],
         lambda: f"the drag did not reorder: {queue_titles(driver)}")
    row = driver.find_elements(By.CSS_SELECTOR, "#graph-queue-list li[data-song-id]")[3]
    driver.execute_script("arguments[0].focus()", row)
    ActionChains(driver).key_down(Keys.ALT).send_keys(Keys.ARROW_UP).key_up(Keys.ALT).perform()
    order = ["Aurora Street", "Glass River", "Last Ferry", "Northbound"]
    wait(driver, lambda d: queue_titles(d) == order, lambda: f"Alt+↑ did not move Last Ferry: {queue_titles(driver)}")

    # Save as a playlist: Subsonic lists it, in the queue's order.
    name = f"Graph e2e {time.time_ns()}"
    driver.find_element(By.CSS_SELECTOR, "#graph-save-name").send_keys(name)
    driver.find_element(By.CSS_SELECTOR, "#graph-save").click()
    wait(driver, lambda d: name in d.find_element(By.CSS_SELECTOR, "#graph-queue-status").text, "no saved message")
    listed = [p for p in subsonic(server, "getPlaylists")["playlists"].get("playlist", []) if p["name"] == name]
    assert len(listed) == 1 and listed[0]["songCount"] == 4, listed
    entries = subsonic(server, "getPlaylist", id=listed[0]["id"])["playlist"]["entry"]
    assert [e["title"] for e in entries] == order

    # Keyboard: the canvas takes focus, arrows move between linked nodes, Enter expands.
    canvas = driver.find_element(By.CSS_SELECTOR, "#graph-canvas")
    driver.execute_script("arguments[0].focus()", canvas)
    first = wait(driver, lambda d: d.execute_script("return quintetGraph.focused()"), "focusing the canvas focused no node")
    moved = None
    for key in (Keys.ARROW_RIGHT, Keys.ARROW_LEFT, Keys.ARROW_DOWN, Keys.ARROW_UP):
        canvas.send_keys(key)
        moved = driver.execute_script("return quintetGraph.focused()")
        if moved != first:
            break
    assert moved != first, "no arrow key moved the focus"
    assert "," in driver.find_element(By.CSS_SELECTOR, "#graph-focus-text").get_attribute("textContent")
    before = len(nodes(driver))
    focused = next(n for n in nodes(driver) if n["key"] == moved)
    canvas.send_keys(Keys.ENTER)
    if focused["more"]:
        wait(driver, lambda d: len(nodes(d)) > before or not next(n for n in nodes(d) if n["key"] == moved)["more"],
             "Enter did not expand the focused node")

    # Play a path: from a song's card, a walk of 4 songs from it fills the queue and plays.
    wait(driver, lambda d: d.execute_script("return quintetGraph.idle()"), "the page did not go idle")
    song = aim(driver, "Northbound", "song")
    tap(driver, song["x"], song["y"])
    wait(driver, lambda d: d.execute_script(
        "return document.querySelector('#graph-card .graph-card-name')?.textContent === 'Northbound'"
        " && !!document.querySelector('#graph-path-length')"), "Northbound's card did not open")
    driver.execute_script("const length = document.querySelector('#graph-path-length'); length.value = '4';"
                          " length.dispatchEvent(new Event('input')); document.querySelector('#graph-card-path').click()")
    path = wait(driver, lambda d: (lambda q: q if q and q[0] == "Northbound" and q != order else None)(queue_titles(d)),
                lambda: f"the path did not fill the queue: {queue_titles(driver)}")
    ids = driver.execute_script("return [...document.querySelectorAll('#graph-queue-list li[data-song-id]')].map(e => e.dataset.songId)")
    assert 2 <= len(path) <= 4 and len(set(ids)) == len(ids), path  # never repeats a song
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#graph-player-title").text == "Northbound", "the path does not play")

    # Clear graph and queue: nothing left, nothing playing.
    driver.find_element(By.CSS_SELECTOR, "#graph-clear").click()
    wait(driver, lambda d: not nodes(d) and not queue_titles(d), "the graph or the queue was not cleared")
    assert audio(driver)["paused"]
    assert severe_console_entries(driver) == []


# --- Band members and a failed lookup -------------------------------------------------------------


class MusicBrainzStandIn:
    """A local stand-in for MusicBrainz's web service: 503 for every request while `failing`,
    else an empty artist search in MusicBrainz's JSON format (no internet in tests)."""

    def __init__(self):
        import http.server
        import threading

        stand_in = self
        self.failing = True
        self.requests = 0

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 (the standard library's name)
                stand_in.requests += 1
                body = b'{"created": "2026-11-26T00:00:00Z", "count": 0, "offset": 0, "artists": []}'
                self.send_response(503 if stand_in.failing else 200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()


def test_member_link_and_failed_lookup_with_retry(server, browser, tmp_path):
    import subprocess

    from conftest import ARTIFACTS, quintet_binary, start_server, stop_server

    # A two-song library (ffmpeg, a second each): the band and the member, scanned at once.
    music = tmp_path / "music"
    music.mkdir()
    for artist, album, title in (("Northern Lights", "Polar Drift", "Glass River"), ("Maya Okafor", "Harbour Songs", "Lanterns")):
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=1",
                        "-c:a", "libmp3lame", "-b:a", "64k", "-metadata", f"artist={artist}", "-metadata", f"album={album}",
                        "-metadata", f"title={title}", str(music / f"{title}.mp3")], check=True, timeout=60)
    stand_in = MusicBrainzStandIn()
    own = start_server(tmp_path / "data", ARTIFACTS / "server-members.log",
                       ("--musicbrainz", stand_in.url, "--library", str(music)))
    try:
        own.wait_for_library()
        subprocess.run([str(quintet_binary()), "library", "members", "add", "Northern Lights", "Maya Okafor",
                        "--data", str(own.data_dir)], check=True, capture_output=True, timeout=60)
        open_page(browser, own.url("/library/#graph"))
        wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#signin").is_displayed()
             or d.find_element(By.CSS_SELECTOR, "#graph-canvas").is_displayed(), "no page")
        if browser.find_element(By.CSS_SELECTOR, "#signin").is_displayed():
            browser.find_element(By.CSS_SELECTOR, "#signin-name").send_keys(own.admin[0])
            browser.find_element(By.CSS_SELECTOR, "#signin-password").send_keys(own.admin[1], Keys.ENTER)
        wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#graph-canvas").is_displayed(), "no explorer")
        browser.find_element(By.CSS_SELECTOR, ".graph-kind[data-kind=artists]").click()
        browser.find_element(By.CSS_SELECTOR, "#graph-search-input").send_keys("Northern")
        wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#graph-results button.artist"), "no artist found")[0].click()
        wait_for_node(browser, "Polar Drift", "album")
        # The lookup of Northern Lights fails at the stand-in: a later tap shows the mark.
        wait(browser, lambda d: stand_in.requests > 0, "the server did not look Northern Lights up")

        def tap_artist(d):
            """Taps Northern Lights (once the page is idle) until it shows both the failed
            lookup and its member; each tap asks again or retries, and shows the next links."""
            if not d.execute_script("return quintetGraph.idle()"):
                return False
            artist = aim(d, "Northern Lights", "artist")
            if artist["lookupFailed"] and node(d, "Maya Okafor", "artist"):
                return artist
            click_at(d, artist["x"], artist["y"])
            return False

        wait(browser, tap_artist, lambda: f"Northern Lights shows no failed lookup and member: "
             f"{node(browser, 'Northern Lights', 'artist')} {[n['name'] for n in nodes(browser)]} "
             f"idle: {browser.execute_script('return quintetGraph.idle()')}")
        # The member link (from `quintet library members add`): Maya Okafor, a blue edge.
        maya = node(browser, "Maya Okafor", "artist")
        assert any(e["edge"] == "member_of" and maya["key"] in (e["a"], e["b"])
                   for e in browser.execute_script("return quintetGraph.edges()"))
        # Retry: the stand-in answers now; a tap retries and the mark goes.
        stand_in.failing = False
        wait(browser, lambda d: d.execute_script("return quintetGraph.idle()"), "the page did not go idle")
        artist = aim(browser, "Northern Lights", "artist")
        click_at(browser, artist["x"], artist["y"])
        wait(browser, lambda d: not node(d, "Northern Lights", "artist")["lookupFailed"],
             "the retried lookup still shows as failed")
    finally:
        stand_in.close()
        stop_server(own)


# --- The card's member editor ---------------------------------------------------------------------


def page_api(driver, path, method="GET"):
    """Calls the API from the page (its session cookie): [status, JSON or null]."""
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch(arguments[0], {method: arguments[1], headers: {'X-Requested-With': 'quintet'}})"
        ".then(async r => done([r.status, r.status === 204 ? null : await r.json()])).catch(e => done([0, String(e)]))",
        path, method)


def member_edge(driver, a, b):
    return any(e["edge"] == "member_of" and {e["a"], e["b"]} == {a, b} for e in driver.execute_script("return quintetGraph.edges()"))


def test_card_adds_and_removes_a_member_link(server, explorer):
    driver = explorer
    driver.find_element(By.CSS_SELECTOR, ".graph-kind[data-kind=artists]").click()
    driver.find_element(By.CSS_SELECTOR, "#graph-search-input").send_keys("Kite")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#graph-results button.artist"), "no Kite & Crane found")[0].click()
    kite = wait_for_node(driver, "Kite & Crane", "artist")
    # The card of the selected artist has the part; the datalist suggests artists from 2 letters.
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#graph-card .graph-card-name").text == "Kite & Crane"
         and d.find_element(By.CSS_SELECTOR, "#graph-members-note").text, "the card has no member part")
    Select(driver.find_element(By.CSS_SELECTOR, "#graph-members-relation")).select_by_value("member")
    name = driver.find_element(By.CSS_SELECTOR, "#graph-members-name")
    name.send_keys("The Paper")
    wait(driver, lambda d: "The Paper Boats" in [o.get_attribute("value") for o in d.find_elements(By.CSS_SELECTOR, "#graph-members-names option")],
         "the datalist suggests no The Paper Boats")
    name.send_keys(" Boats", Keys.ENTER)  # Enter submits the form
    boats = wait_for_node(driver, "The Paper Boats", "artist")
    wait(driver, lambda d: member_edge(d, kite["key"], boats["key"]), "no member_of edge after adding")
    row = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, f"#graph-members-list li[data-artist-id='{boats['id']}']"),
               "the card does not list the new link")
    assert "member" in row.text.lower() and row.find_element(By.CSS_SELECTOR, ".graph-members-remove").size["height"] >= 44
    status, answer = page_api(driver, f"/api/library/members?artist={kite['id']}")
    assert status == 200 and [(b["name"], b["sources"]) for b in answer["bands"]] == [("The Paper Boats", ["user"])], answer

    # Remove: the edge goes, the API has it no more.
    row.find_element(By.CSS_SELECTOR, ".graph-members-remove").click()
    wait(driver, lambda d: not member_edge(d, kite["key"], boats["key"]), "the member_of edge stayed after removing")
    wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, f"#graph-members-list li[data-artist-id='{boats['id']}']"),
         "the card still lists the removed link")
    assert page_api(driver, f"/api/library/members?artist={kite['id']}")[1]["bands"] == []

    assert severe_console_entries(driver) == []

    # An unknown name: refused, the server's message in the status line (the browser logs the 404).
    driver.find_element(By.CSS_SELECTOR, "#graph-members-name").send_keys("Nobody Of This Library")
    driver.find_element(By.CSS_SELECTOR, "#graph-members-add").click()
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#graph-status").get_attribute("data-state") == "error"
         and "Nobody Of This Library" in d.find_element(By.CSS_SELECTOR, "#graph-status").text,
         lambda: f"no error shown: {driver.find_element(By.CSS_SELECTOR, '#graph-status').text!r}")
    assert all(e["source"] == "network" and "/api/library/members " in e["message"] and "404" in e["message"]
               for e in severe_console_entries(driver))
