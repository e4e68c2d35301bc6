#!/usr/bin/env python3
"""Takes docs/graph.md's pictures of the explorer: a 390×844 phone and a 1366×1024 tablet.

`make screenshots` runs it after scripts/phone-screenshots.py, with the e2e venv against the
debug build (QUINTET_BIN for another binary). It starts its own `quintet serve` on the demo
library with a fresh data folder, signs in, and on each viewport grows the graph with touch
taps as a person would (search "glass", add the Polar Drift song, tap its album, then the
artist), double-taps a song so the playback bar shows, and saves
docs/images/graph-phone.png and docs/images/graph-tablet.png (device pixel ratio 2). Not part
of `make test`: the pictures are documentation, refreshed by hand when the page changes.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "e2e"))

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

import conftest  # noqa: E402
from conftest import wait  # noqa: E402

VIEWPORTS = [("phone", 390, 844), ("tablet", 1366, 1024)]
RATIO = 2


def device(width: int, height: int):
    return conftest.device_browser(width, height, ratio=RATIO, mobile=True, touch=True,
                                   arguments=("--force-prefers-reduced-motion",))


def tap(driver, x, y) -> None:
    for kind, points in (("touchStart", [{"x": x, "y": y}]), ("touchEnd", [])):
        driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


def node(driver, name, kind):
    return next((n for n in driver.execute_script("return quintetGraph.nodes()")
                 if n["name"] == name and n["kind"] == kind), None)


def settled(driver):
    return driver.execute_script("return quintetGraph.settled()")


def picture(server: conftest.Server, name: str, width: int, height: int) -> None:
    driver = device(width, height)
    try:
        conftest.open_page(driver, server.url("/library/#graph"))
        wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#signin").is_displayed(), "no sign-in form")
        driver.find_element(By.CSS_SELECTOR, "#signin-name").send_keys(server.admin[0])
        driver.find_element(By.CSS_SELECTOR, "#signin-password").send_keys(server.admin[1], Keys.ENTER)
        wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#graph-canvas").is_displayed(), "no explorer")
        driver.find_element(By.CSS_SELECTOR, "#graph-search-input").send_keys("glass")
        result = wait(driver, lambda d: next((b for b in d.find_elements(By.CSS_SELECTOR, "#graph-results button.song")
                                              if "Polar Drift" in b.text), None), "no search result")
        result.click()
        wait(driver, lambda d: node(d, "Polar Drift", "album") and settled(d), "the album did not appear")
        album = node(driver, "Polar Drift", "album")
        tap(driver, album["x"], album["y"])
        wait(driver, lambda d: node(d, "Northern Lights", "artist") and settled(d), "the artist did not appear")
        artist = node(driver, "Northern Lights", "artist")
        tap(driver, artist["x"], artist["y"])
        wait(driver, lambda d: not node(d, "Northern Lights", "artist")["more"] or settled(d), "the artist did not expand")
        song = node(driver, "Glass River", "song")
        tap(driver, song["x"], song["y"])  # its covers and identical recording
        wait(driver, settled, "the graph did not settle")
        driver.find_element(By.CSS_SELECTOR, "#graph-search-hide").click()
        driver.execute_script("document.querySelector('#graph-fit').click()")
        song = wait(driver, lambda d: node(d, "Aurora Street", "song"),
                    lambda: f"no Aurora Street: {[n['name'] for n in driver.execute_script('return quintetGraph.nodes()')]}")
        tap(driver, song["x"], song["y"])
        tap(driver, song["x"], song["y"])
        wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#graph-player").is_displayed(), "no playback bar")
        driver.execute_script("const a = document.querySelector('#graph-audio'); a.pause()")
        wait(driver, settled, "the graph did not settle")
        path = REPO / "docs" / "images" / f"graph-{name}.png"
        driver.save_screenshot(str(path))
        print(f"saved {path.relative_to(REPO)}")
    finally:
        driver.quit()


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="quintet-graph-shots-") as tmp:
        server = conftest.start_server(Path(tmp) / "data", Path(tmp) / "server.log")
        try:
            server.wait_for_library()
            for name, width, height in VIEWPORTS:
                picture(server, name, width, height)
        finally:
            conftest.stop_server(server)


if __name__ == "__main__":
    main()
