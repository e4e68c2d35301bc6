"""The five apps and the home page as installable apps (issue 18 §2), in a real Chromium.

Each page links its web app manifest in the HTML as served; Chromium's own installability check
(DevTools `Page.getInstallabilityErrors`) finds nothing missing once the service worker
(/sw.js) controls the page; every icon the manifest names answers a PNG of its declared size,
drawn on the app's theme colour (maskable and Apple icons fill the square, the others have
transparent rounded corners). Offline: an app opened on a server of its own keeps a copy of
the pages (never an API answer), and opened again after that server stopped it shows its
"server cannot be reached" banner — in English and in Italian — instead of Chromium's error
page, with the browser's HTTP cache turned off so that only the service worker can serve it.
"""

from __future__ import annotations

import struct
import zlib

import pytest
import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import ARTIFACTS, open_page, severe_console_entries, start_server, stop_server, wait, wait_until_ready

PAGES = {"/": "home", "/library/": "library", "/runner/": "runner", "/radio/": "radio",
         "/crowd/": "crowd", "/playground/": "playground"}
OFFLINE_HEADING = {"en": "The Quintet server cannot be reached.", "it": "Il server Quintet non è raggiungibile."}
NEVER_CACHED = ("/api/", "/healthz", "/rest/", "/live/", "/radio/episodes/", "/radio/covers/", "/tls/")


def controlled(driver) -> bool:
    """Whether the service worker controls the page."""
    return driver.execute_script("return navigator.serviceWorker.controller !== null")


def cached_paths(driver) -> dict[str, list[str]]:
    """Every Cache Storage cache of the page's origin: name -> the paths it holds."""
    return driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        (async () => {
          const out = {};
          for (const name of await caches.keys()) {
            const requests = await (await caches.open(name)).keys();
            out[name] = requests.map((r) => new URL(r.url).pathname);
          }
          return out;
        })().then(done, (err) => done({ error: String(err) }));""")


def png_header(data: bytes, url: str) -> tuple[int, int, tuple[int, int, int, int]]:
    """Width, height and the top-left pixel (RGBA) of an 8-bit RGBA PNG. The first pixel of
    the first row is stored as it is whatever the row's filter, so no unfiltering is needed."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{url} is not a PNG"
    assert data[12:16] == b"IHDR", f"{url}: no IHDR chunk first"
    width, height, depth, colour = struct.unpack(">IIBB", data[16:26])
    assert (depth, colour) == (8, 6), f"{url}: not 8-bit RGBA (depth {depth}, colour type {colour})"
    chunks, offset = [], 8
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        if kind == b"IDAT":
            chunks.append(data[offset + 8:offset + 8 + length])
        offset += 12 + length
    pixels = zlib.decompressobj().decompress(b"".join(chunks), 5)
    return width, height, tuple(pixels[1:5])


def rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


@pytest.mark.parametrize("path", PAGES)
def test_page_is_an_installable_app(server, browser, path):
    app = PAGES[path]
    served = requests.get(server.url(path), timeout=5)
    assert served.status_code == 200
    assert "<link rel=\"manifest\"" in served.text, f"{path} as served links no manifest"

    open_page(browser, server.url(path))
    wait(browser, controlled, f"the service worker does not control {path}", timeout=15)
    errors = browser.execute_cdp_cmd("Page.getInstallabilityErrors", {})["installabilityErrors"]
    assert errors == [], f"Chromium finds {path} not installable: {errors}"
    parsed = browser.execute_cdp_cmd("Page.getAppManifest", {})
    assert parsed["errors"] == [], parsed["errors"]

    manifest_url = browser.execute_script("return document.querySelector('link[rel=manifest]').href")
    answer = requests.get(manifest_url, timeout=5)
    assert answer.status_code == 200
    assert answer.headers["Content-Type"].startswith("application/manifest+json")
    manifest = answer.json()
    assert manifest["scope"] == manifest["id"] == path
    # The installed playground opens on the story (issue 23); the game page stays in its scope.
    assert manifest["start_url"] == (path + "story/" if path == "/playground/" else path)
    assert manifest["display"] == "standalone"
    assert manifest["name"].startswith("Quintet") and 0 < len(manifest["short_name"]) <= 12
    theme = manifest["theme_color"]
    meta = {name: browser.execute_script(f"return document.querySelector('meta[name=\"{name}\"]')?.content")
            for name in ("theme-color", "mobile-web-app-capable", "apple-mobile-web-app-capable",
                         "apple-mobile-web-app-title", "apple-mobile-web-app-status-bar-style")}
    assert meta["theme-color"] == theme
    assert meta["mobile-web-app-capable"] == meta["apple-mobile-web-app-capable"] == "yes"
    assert meta["apple-mobile-web-app-title"] == manifest["short_name"]
    assert meta["apple-mobile-web-app-status-bar-style"]
    assert len(rgb(manifest["background_color"])) == 3

    icons = [(icon["src"], icon["sizes"], icon.get("purpose", "any")) for icon in manifest["icons"]]
    purposes = {(sizes, purpose) for _, sizes, purpose in icons}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= purposes, icons
    apple = browser.execute_script("return document.querySelector('link[rel=apple-touch-icon]').href")
    for src, sizes, purpose in [*icons, (apple, "180x180", "apple")]:
        assert f"/icons/{app}-" in src, f"{src} is not {app}'s icon"
        response = requests.get(requests.compat.urljoin(server.base_url, src), timeout=5)
        assert response.status_code == 200, f"{src}: {response.status_code}"
        assert response.headers["Content-Type"] == "image/png", src
        width, height, corner = png_header(response.content, src)
        assert f"{width}x{height}" == sizes, f"{src} is {width}x{height}, the manifest says {sizes}"
        if purpose == "any":
            assert corner[3] == 0, f"{src}: the corner of a rounded icon is not transparent: {corner}"
        else:  # maskable and Apple: the theme colour to the edge, the phone cuts the shape
            assert corner == (*rgb(theme), 255), f"{src}: corner {corner} is not the theme colour {theme}"
    assert severe_console_entries(browser) == []


def test_app_opens_offline_and_says_the_server_cannot_be_reached(browser, tmp_path):
    empty = tmp_path / "music"  # no demo library to write and scan: the radio page needs none
    empty.mkdir()
    own = start_server(tmp_path / "data", ARTIFACTS / "pwa-server.log", ("--library", str(empty)))
    stopped = False
    # Only the service worker may serve the page once the server is gone, not the HTTP cache.
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    try:
        open_page(browser, own.url("/radio/"))
        wait(browser, controlled, "the service worker does not control /radio/", timeout=15)
        listed = requests.get(own.url("/precache.json"), timeout=5).json()["files"]
        assert {"/", "/radio/", "/radio/radio.js", "/common/page.js", "/common/pwa.js"} <= set(listed)
        kept = wait(browser, lambda d: next((paths for paths in cached_paths(d).values()
                                             if set(listed) <= set(paths)), None),
                    lambda: f"the pages were not all kept: {cached_paths(browser)}", timeout=15)
        # The page did get API answers while online (the radio's lists, the status line)...
        asked = browser.execute_script(
            "return performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)")
        assert "/healthz" in asked and any(p.startswith("/api/radio/") for p in asked), asked
        assert browser.find_elements(By.CSS_SELECTOR, "#server-unreachable:not([hidden])") == [], \
            "the offline message shows while the server answers"
        browser.get("about:blank")
        stop_server(own)
        stopped = True

        browser.get(own.url("/radio/"))
        wait_until_ready(browser)
        assert browser.current_url == own.url("/radio/"), browser.current_url
        banner = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#server-unreachable:not([hidden])"),
                      "no offline message on /radio/ with the server stopped", timeout=15)
        assert OFFLINE_HEADING["en"] in banner.text, banner.text
        assert browser.find_element(By.TAG_NAME, "h1").text.strip(), "the radio page did not render"
        assert browser.find_element(By.CSS_SELECTOR, "#server-status").get_attribute("data-state") == "down"
        Select(browser.find_element(By.ID, "language")).select_by_value("it")
        wait(browser, lambda d: OFFLINE_HEADING["it"] in banner.text, lambda: f"not translated: {banner.text}")

        # ...none of which was kept: the cache holds the pages and nothing else.
        for name, paths in cached_paths(browser).items():
            kept_api = [p for p in paths if p.startswith(NEVER_CACHED)]
            assert kept_api == [], f"cache {name} keeps server answers: {kept_api}"
        assert set(kept) - set(listed) <= {"/precache.json"}, set(kept) - set(listed)
    finally:
        browser.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})
        if not stopped:
            stop_server(own)
        browser.get("about:blank")
