"""The crowd page on a phone (issue 18 §4), in a real Chromium against a real `quintet serve`
started with a street map and a reverse geocoder, both stand-ins run by this test:

- a tile server (a Python thread serving 256×256 PNGs the test makes) named by
  QUINTET_CROWD_TILES (the environment) and credited by --crowd-tiles-attribution: the server
  writes both into the crowd page, the tiles under the position are asked for and drawn, the
  credit and the privacy note are shown; once the tile server is gone (its port closed) the
  map falls back to the coordinate grid and says so;
- a Nominatim stand-in (a Python thread answering `reverse` in jsonv2) named by
  --crowd-geocoder: the location panel shows the place name, the server asks at most once a
  second, a place asked again comes from its cache, and no request carries the device's
  token, a cookie or a referrer;
- the position asked once with one button on a first visit, used at once on the next visit,
  and when the browser blocks it the page says how to allow it;
- bad --crowd-tiles / --crowd-geocoder values refused at start, naming the flag.

The position and its permission are set through the DevTools protocol
(Browser.grantPermissions / setPermission, Emulation.setGeolocationOverride)."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest
import requests
from selenium.webdriver.common.by import By

from conftest import ARTIFACTS, open_page, quintet_binary, severe_console_entries, start_server, stop_server, wait
from test_crowd_page import HOME, click, forget, offset, open_pin, pins, place, text, tile_of, visible

ATTRIBUTION = "© Stand-in tiles <b>&</b>"
TILE_COLOUR = (40, 160, 90)


def png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A solid-colour RGB PNG (RFC 2083): signature, IHDR, one zlib IDAT, IEND."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


class StandIn:
    """An HTTP server on a free loopback port in a thread, recording every request:
    (path, query, headers, arrival time)."""

    def __init__(self, answer):
        self.requests: list[dict] = []
        lock = threading.Lock()
        recorded = self.requests

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 (the standard library's name)
                parts = urlsplit(self.path)
                with lock:
                    recorded.append({"path": parts.path, "query": parse_qs(parts.query), "raw": self.path,
                                     "headers": {k.lower(): v for k, v in self.headers.items()},
                                     "time": time.monotonic()})
                status, kind, body = answer(parts.path, parse_qs(parts.query))
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.send_header("Access-Control-Allow-Origin", "*")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def tile_answer(path, _query):
    parts = path.strip("/").split("/")
    if len(parts) == 4 and parts[0] == "tiles" and parts[3].endswith(".png"):
        return 200, "image/png", TILE
    return 404, "text/plain", b"no such tile"


def reverse_answer(path, query):
    """Nominatim's /reverse in jsonv2: the suburb names the asked latitude, so the test can
    tell which (rounded) point was asked; the city follows accept-language."""
    if path != "/nominatim/reverse" or query.get("format") != ["jsonv2"]:
        return 400, "application/json", b'{"error":"stand-in: bad request"}'
    lat, lon = query["lat"][0], query["lon"][0]
    city = "Milano" if query.get("accept-language") == ["it"] else "Milan"
    body = {"place_id": 1, "licence": "Data © Stand-in contributors", "osm_type": "way", "lat": lat, "lon": lon,
            "category": "highway", "type": "residential", "name": f"Via {lat}",
            "display_name": f"Via {lat}, Zona {lat}, {city}, Italia",
            "address": {"road": f"Via {lat}", "suburb": f"Zona {lat}", "city": city, "country": "Italia",
                        "country_code": "it"}}
    return 200, "application/json", json.dumps(body).encode()


TILE = png(256, 256, TILE_COLOUR)
A_POINT = offset(150, 0)  # a seeded location 150 m north: in the search radius, another 0.001° cell than HOME
B_POINT = offset(-600, 600)  # 600 m south and east: another latitude cell again


@pytest.fixture(scope="module")
def stand_ins():
    tiles, geocoder = StandIn(tile_answer), StandIn(reverse_answer)
    yield tiles, geocoder
    geocoder.close()
    try:
        tiles.close()
    except OSError:
        pass  # closed by the fallback test


@pytest.fixture(scope="module")
def phone_server(tmp_path_factory, stand_ins):
    tiles, geocoder = stand_ins
    template = f"http://127.0.0.1:{tiles.port}/tiles/{{z}}/{{x}}/{{y}}.png"
    os.environ["QUINTET_CROWD_TILES"] = template  # the environment's form of --crowd-tiles
    try:
        running = start_server(tmp_path_factory.mktemp("quintet-crowd-phone"), ARTIFACTS / "crowd-phone-server.log",
                               ("--crowd-min-group", "1", "--crowd-rate-limit", "0",
                                "--crowd-tiles-attribution", ATTRIBUTION,
                                "--crowd-geocoder", f"http://127.0.0.1:{geocoder.port}/nominatim"))
    finally:
        del os.environ["QUINTET_CROWD_TILES"]
    running.template = template
    for device, (lat, lon) in (("seed-home", offset(0, 3)), ("seed-a", A_POINT)):
        answer = requests.post(running.url("/api/crowd/reports"), json={"device": device, "lat": lat, "lon": lon}, timeout=10)
        assert answer.status_code == 200, answer.text
    yield running
    stop_server(running)


def located(driver) -> str | None:
    return driver.execute_script("return document.querySelector('main').dataset.located || null")


def test_first_visit_asks_once_and_the_next_visit_locates_at_once(phone_server, browser):
    try:
        place(browser, phone_server, *HOME)
        open_page(browser, phone_server.url("/crowd/?lang=en"))
        browser.execute_script("localStorage.clear()")
        open_page(browser, phone_server.url("/crowd/?lang=en"))
        # One clear button, nothing asked before it is pressed (even with the permission granted).
        wait(browser, lambda d: visible(d, "#geo-locate"), "no Find my position button on a first visit")
        buttons = browser.execute_script(
            "return [...document.querySelectorAll('#where button')].filter(b => b.offsetParent !== null).map(b => b.id)")
        assert buttons == ["geo-locate"]
        assert located(browser) is None
        assert "the page needs your position" in text(browser, "#geo-status")
        click(browser, browser.find_element(By.CSS_SELECTOR, "#geo-locate"))
        wait(browser, lambda d: located(d) == "yes", "the button did not get the position")
        assert browser.execute_script("return localStorage.getItem('quintet.crowd.locate')") == "auto"

        # The next visit: no button, no tap, the position used at once (the groups around shown).
        open_page(browser, phone_server.url("/crowd/?lang=en"))
        assert browser.execute_script("return document.querySelector('main').dataset.permission") == "granted"
        wait(browser, lambda d: located(d) == "yes", "the next visit did not locate by itself")
        assert not visible(browser, "#geo-locate")
        wait(browser, lambda d: len(pins(d)) == 2, "the groups around were not searched on the next visit")

        # The browser now blocks the position: the page says how to allow it, without asking in vain.
        browser.execute_cdp_cmd("Browser.setPermission", {"permission": {"name": "geolocation"}, "setting": "denied",
                                                          "origin": phone_server.base_url})
        open_page(browser, phone_server.url("/crowd/?lang=en"))
        wait(browser, lambda d: visible(d, "#geo-problem"), lambda: "no advice when the position is blocked: " + str(
            browser.execute_script("const m = document.querySelector('main').dataset; return [m.permission, m.located,"
                                   " document.querySelector('#geo-status').textContent, localStorage.getItem('quintet.crowd.locate')]")))
        assert browser.find_element(By.CSS_SELECTOR, "#geo-problem").get_attribute("data-reason") == "denied"
        assert "Allow location for this site" in text(browser, "#geo-error")
        assert not visible(browser, "#geo-locate")
        assert browser.execute_script("return localStorage.getItem('quintet.crowd.locate')") == "auto"  # still chosen
        # A first visit with the position blocked: the one button, and the advice with the reason.
        browser.execute_script("localStorage.clear()")
        open_page(browser, phone_server.url("/crowd/?lang=en"))
        wait(browser, lambda d: visible(d, "#geo-locate"), "no button on a first visit with the position blocked")
        assert "Location is blocked for this site" in text(browser, "#geo-status")
        assert severe_console_entries(browser) == []
    finally:
        forget(browser, phone_server)


def test_street_map_from_the_servers_flags_and_the_grid_when_tiles_fail(phone_server, stand_ins, browser):
    tiles, _ = stand_ins
    # The page as served carries the template and the credit, escaped.
    html = requests.get(phone_server.url("/crowd/"), timeout=10).text
    assert f'<meta name="crowd-tiles" content="{phone_server.template}">' in html
    assert '<meta name="crowd-tiles-attribution" content="© Stand-in tiles &lt;b&gt;&amp;&lt;/b&gt;">' in html
    assert '<meta name="crowd-geocoder" content="on">' in html
    try:
        place(browser, phone_server, *HOME)
        open_page(browser, phone_server.url("/crowd/?lang=en"))
        browser.execute_script("localStorage.setItem('quintet.crowd.locate', 'auto')")
        open_page(browser, phone_server.url("/crowd/?lang=en"))
        wait(browser, lambda d: located(d) == "yes", "no position")
        z = round(browser.execute_script("return window.crowdMap.zoom"))
        x, y = tile_of(*HOME, z)
        wanted = f"/tiles/{z}/{x}/{y}.png"
        wait(tiles, lambda s: any(r["path"] == wanted for r in s.requests), f"the tile {wanted} under the position was not asked for")
        wait(browser, lambda d: d.execute_script(
            "const imgs = [...document.querySelectorAll('#map .map-tiles img')];"
            " return imgs.length >= 4 && imgs.every(i => i.complete && i.naturalWidth === 256"
            " && getComputedStyle(i).visibility === 'visible')"), "the tiles were not drawn")
        assert browser.find_element(By.CSS_SELECTOR, "#map").get_attribute("data-tiles") == "on"
        host = f"127.0.0.1:{tiles.port}"
        assert text(browser, "#map .map-attribution") == f"{ATTRIBUTION} · {host}"
        assert visible(browser, "#map-privacy")
        assert text(browser, "#map-privacy") == f"Map tiles come from {host}, which learns which area you look at (roughly where you are)."
        token = browser.execute_script("return localStorage.getItem('quintet.crowd.device')")
        assert token and all(token not in r["raw"] and token not in json.dumps(r["headers"]) for r in tiles.requests)
        assert all("referer" not in r["headers"] for r in tiles.requests)
        assert severe_console_entries(browser) == []

        # The tile server goes away (its port closed): the grid, said in the corner and the note.
        tiles.close()
        open_page(browser, phone_server.url("/crowd/?lang=en"))
        wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#map").get_attribute("data-tiles") == "failed",
             "the map did not fall back to the grid")
        wait(browser, lambda d: located(d) == "yes", "no position")
        assert browser.find_elements(By.CSS_SELECTOR, "#map .map-tiles img") == []
        assert text(browser, "#map .map-attribution") == "Map tiles unavailable: coordinate grid"
        assert text(browser, "#map-privacy").startswith(f"The map tiles from {host} did not load")
        grid = browser.execute_script(
            "const c = document.querySelector('#map canvas'); const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
            " let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++; return n")
        assert grid > 1000, "the grid canvas is empty"
        severe_console_entries(browser)  # the refused tile connections are logged by Chromium
    finally:
        forget(browser, phone_server)


def test_place_names_from_the_geocoder_through_the_server(phone_server, stand_ins, browser):
    tiles, geocoder = stand_ins
    try:
        place(browser, phone_server, *HOME)
        open_page(browser, phone_server.url("/crowd/?lang=en"))
        browser.execute_script("localStorage.setItem('quintet.crowd.locate', 'auto')")
        open_page(browser, phone_server.url("/crowd/?lang=en"))
        wait(browser, lambda d: len(pins(d)) == 2, "no pins")
        a_id = int(browser.execute_script(
            "return window.crowdMap.locations.find(l => Math.abs(l.lat - arguments[0]) < 1e-6).id", A_POINT[0]))
        a_lat = f"{A_POINT[0]:.3f}"
        open_pin(browser, a_id)
        wait(browser, lambda d: visible(d, "#panel-place"), "the panel shows no place name")
        assert text(browser, "#panel-place .place-name") == f"Zona {a_lat}, Milan"
        assert text(browser, "#panel-place .place-source") == "Place name: Data © Stand-in contributors"
        first = geocoder.requests[-1]
        assert first["query"] == {"format": ["jsonv2"], "lat": [a_lat], "lon": [f"{A_POINT[1]:.3f}"], "zoom": ["17"],
                                  "accept-language": ["en"]}

        # Two more places asked at once through the API: the server spaces its requests ≥ 1 s.
        def ask(point, results, index):
            results[index] = requests.get(phone_server.url("/api/crowd/place"), timeout=15,
                                          params={"lat": point[0], "lon": point[1], "lang": "it"})
        results = [None, None]
        threads = [threading.Thread(target=ask, args=(p, results, i)) for i, p in enumerate((B_POINT, HOME))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert [r.status_code for r in results] == [200, 200], [r.text for r in results]
        assert {r.json()["name"] for r in results} == {f"Zona {B_POINT[0]:.3f}, Milano", f"Zona {HOME[0]:.3f}, Milano"}
        times = [r["time"] for r in geocoder.requests]
        assert len(times) == 3
        gaps = [b - a for a, b in zip(times, times[1:])]
        assert all(gap >= 1.0 for gap in gaps), gaps

        # A place asked again (30 m away, same 0.001° cell) comes from the server's cache, and a
        # fresh page (no cache of its own) shows it without a new upstream request.
        again = requests.get(phone_server.url("/api/crowd/place"), timeout=10,
                             params={"lat": A_POINT[0] + 0.0002, "lon": A_POINT[1], "lang": "en"})
        assert again.status_code == 200 and again.json()["name"] == f"Zona {a_lat}, Milan"
        open_page(browser, phone_server.url("/crowd/?lang=en"))
        wait(browser, lambda d: len(pins(d)) == 2, "no pins")
        open_pin(browser, a_id)
        wait(browser, lambda d: text(d, "#panel-place .place-name") == f"Zona {a_lat}, Milan", "no cached name")
        assert len(geocoder.requests) == 3

        # Nothing of the device went to the geocoder: not its token, cookie, referrer or page.
        token = browser.execute_script("return localStorage.getItem('quintet.crowd.device')")
        assert token
        for request in geocoder.requests:
            assert token not in request["raw"] and token not in json.dumps(request["headers"])
            assert set(request["headers"]) == {"host", "user-agent", "accept", "connection"}, request["headers"]
            assert request["headers"]["user-agent"].startswith("Quintet/")
        # Only the tiles may have failed (their server is closed once the fallback test has run).
        severe = [e for e in severe_console_entries(browser) if f"127.0.0.1:{tiles.port}/tiles/" not in e["message"]]
        assert severe == [], severe
    finally:
        forget(browser, phone_server)


def test_bad_map_settings_are_refused_at_start(tmp_path):
    binary = str(quintet_binary())
    for arguments, env, said in (
        (["--crowd-tiles", "https://tiles.example.org/{z}/{x}.png"], {}, "--crowd-tiles must contain {y}"),
        ([], {"QUINTET_CROWD_TILES": "tiles.example.org/{z}/{x}/{y}.png"}, "--crowd-tiles must start with http"),
        (["--crowd-tiles-attribution", "© someone"], {}, "give --crowd-tiles too"),
        (["--crowd-geocoder", "nominatim.example.org"], {}, "--crowd-geocoder must be an http(s) URL"),
    ):
        result = subprocess.run([binary, "serve", "--data", str(tmp_path), "--port", "0", *arguments],
                                env=dict(os.environ, **env), capture_output=True, text=True, timeout=30)
        assert result.returncode != 0, (arguments, env, result.stdout)
        assert said in result.stderr, (arguments, env, result.stderr)
    help_text = subprocess.run([binary, "serve", "--help"], capture_output=True, text=True, timeout=30).stdout
    for name in ("--crowd-tiles", "--crowd-tiles-attribution", "--crowd-geocoder", "QUINTET_CROWD_TILES",
                 "QUINTET_CROWD_TILES_ATTRIBUTION", "QUINTET_CROWD_GEOCODER"):
        assert name in help_text, name
