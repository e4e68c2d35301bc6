#!/usr/bin/env python3
"""Takes docs/phone.md's screenshots: each app and the home page on a 390×844 phone viewport.

`make screenshots` runs it with the e2e venv against the debug build (QUINTET_BIN for another
binary). It starts its own `quintet serve` on the demo library with a fresh data folder, signs
in as admin, reports a few crowd positions around the emulated phone's position, and saves
docs/images/phone-<app>.png (device pixel ratio 2: 780×1688 pixels). Not part of `make test`:
the pictures are documentation, refreshed by hand when the pages change.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "e2e"))

import requests  # noqa: E402

import conftest  # noqa: E402  (the suite's server and wait helpers; no pytest run needed)

WIDTH, HEIGHT, RATIO = 390, 844, 2
PLACE = (45.4642, 9.1900)  # the emulated phone's position (Milan's cathedral square)
PAGES = [  # (file name, path, a CSS selector that must be visible before the picture)
    ("home", "/", "main"),
    ("library", "/library/", "#library-app"),
    ("runner", "/runner/", "main"),
    ("radio", "/radio/", "main"),
    ("crowd", "/crowd/?lang=en", "main[data-located]"),
    ("playground", "/playground/", "main.playground[data-state=\"running\"]"),
]


def phone_browser():
    return conftest.device_browser(WIDTH, HEIGHT, ratio=RATIO, mobile=True, touch=True)


def seed_crowd(server: conftest.Server) -> None:
    """A few devices around PLACE, so the crowd page has groups to show."""
    lat, lon = PLACE
    offsets = [(0.0003, 0.0002), (0.0003, 0.00025), (-0.0004, 0.0006), (-0.00042, 0.00061),
               (-0.0004, 0.00058), (0.0011, -0.0009)]
    for number, (dlat, dlon) in enumerate(offsets):
        body = {"device": f"shot-{number}", "lat": lat + dlat, "lon": lon + dlon, "age": 20 + 7 * number,
                "sex": "f" if number % 2 else "m"}
        if number == 2:
            body["comment"] = "Busker by the fountain"
        answer = requests.post(server.url("/api/crowd/reports"), json=body, timeout=10)
        answer.raise_for_status()


def main() -> int:
    out = REPO / "docs" / "images"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="quintet-shots-") as folder:
        server = conftest.start_server(Path(folder) / "data", Path(folder) / "server.log")
        driver = None
        try:
            server.wait_for_library()
            seed_crowd(server)
            driver = phone_browser()
            driver.get(server.url("/"))
            conftest.wait_until_ready(driver)
            name, password = server.admin
            status = driver.execute_script(
                "return fetch('/api/session', {method: 'POST', headers: {'Content-Type': 'application/json'},"
                " body: JSON.stringify({name: arguments[0], password: arguments[1]})}).then(r => r.status)",
                name, password)
            assert status == 200, f"sign-in answered {status}"
            origin = server.base_url
            driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": origin, "permissions": ["geolocation"]})
            driver.execute_cdp_cmd("Emulation.setGeolocationOverride",
                                   {"latitude": PLACE[0], "longitude": PLACE[1], "accuracy": 10})
            for file_name, path, ready in PAGES:
                driver.get(server.url(path))
                conftest.wait_until_ready(driver)
                if file_name == "crowd":
                    # A first visit asks for the position with one button; press it if shown.
                    driver.execute_script("const b = document.querySelector('#geo-locate');"
                                          " if (b && b.offsetParent) b.click()")
                conftest.wait(driver, lambda d: d.execute_script(
                    "const e = document.querySelector(arguments[0]); return e && e.offsetParent !== null"
                    " || (e && getComputedStyle(e).display !== 'none')", ready),
                    f"{path}: {ready} not shown", timeout=30)
                # Let images, fonts and the first data settle: wait until no request is pending.
                conftest.wait(driver, lambda d: d.execute_script(
                    "return document.readyState === 'complete' && Array.from(document.images)"
                    ".every(i => i.complete)"), f"{path}: images not loaded", timeout=20)
                target = out / f"phone-{file_name}.png"
                assert driver.save_screenshot(str(target)), target
                print(f"{target.relative_to(REPO)}")
        finally:
            if driver is not None:
                driver.quit()
            conftest.stop_server(server)
    return 0


if __name__ == "__main__":
    sys.exit(main())
