"""The crowd page (/crowd/) in a real Chromium, on its own fresh `quintet serve` with
`--crowd-min-group 1 --crowd-rate-limit 0`, the browser's position faked through the DevTools
protocol (Emulation.setGeolocationOverride, Browser.grantPermissions / setPermission).

Groups are seeded through the HTTP API first; then the page locates itself, sends its
report, pins what the server answers (checked against a search through the API), opens a
location, posts a comment and sees it, keeps its options across a reload and sends them with
the next report, refuses a hostile comment before sending it, says clearly when the position
is refused or unavailable and recovers with "Try again", draws its offline grid and scale
bar, loads tiles from a configured template (and hides the ones that fail), pans and zooms
by mouse, wheel, buttons and pinch, and fits a 360×640 phone. Screenshots:
e2e/artifacts/crowd.png (desktop) and crowd-phone.png."""

from __future__ import annotations

import math
import re
from datetime import datetime, timezone

import pytest
import requests
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import ARTIFACTS, open_page, scroll_to, severe_console_entries, start_server, stop_server, wait
from test_shell import viewport

HOME = (45.4642, 9.1900)  # where the browser is (Milan)
EARTH = 6371008.8  # m, the server's sphere
PHONE = (360, 640)


def offset(north_m: float, east_m: float, origin=HOME) -> tuple[float, float]:
    """The point north_m north and east_m east of origin (small distances)."""
    lat, lon = origin
    dlat = north_m / (EARTH * math.pi / 180)
    dlon = east_m / (EARTH * math.pi / 180 * math.cos(math.radians(lat)))
    return lat + dlat, lon + dlon


# The seeded crowd: P (2 people, 3 m east and west of HOME: the browser joins it), A (3 people
# 60 m north, one comment), B (2 people 120 m east). Ages and sexes give known statistics.
SEEDS = [
    ("seed-p1", offset(0, 3), 22, "f", None),
    ("seed-p2", offset(0, -3), None, "m", None),
    ("seed-a1", offset(60, 0), 20, "m", None),
    ("seed-a2", offset(60, 2), 30, "f", None),
    ("seed-a3", offset(60, 4), None, None, 'Tom & Jerry\'s "café" &lt;b&gt;bold?&lt;/b&gt; &amp;'),
    ("seed-b1", offset(0, 120), 40, "m", None),
    ("seed-b2", offset(0, 122), 41, "m", None),
]
# Entities are not markup to the server (no < or >), but HTML would turn them into "<b>": the
# page must show them exactly as written.
A_COMMENT = 'Tom & Jerry\'s "café" &lt;b&gt;bold?&lt;/b&gt; &amp;'


@pytest.fixture(scope="module")
def crowd_server(tmp_path_factory):
    """A server of its own: k = 1 (every group shows), no rate limit."""
    running = start_server(tmp_path_factory.mktemp("quintet-crowd-page"), ARTIFACTS / "crowd-page-server.log",
                           ("--crowd-min-group", "1", "--crowd-rate-limit", "0"))
    yield running
    stop_server(running)


@pytest.fixture(scope="module")
def seeded(crowd_server):
    """Reports the seed devices through the API; returns {name: location id}."""
    ids = {}
    for device, (lat, lon), age, sex, comment in SEEDS:
        body = {"device": device, "lat": lat, "lon": lon}
        if age is not None:
            body["age"] = age
        if sex is not None:
            body["sex"] = sex
        if comment is not None:
            body["comment"] = comment
        answer = requests.post(crowd_server.url("/api/crowd/reports"), json=body, timeout=10)
        assert answer.status_code == 200, answer.text
        ids[device] = answer.json()["location"]["id"]
    assert ids["seed-p1"] == ids["seed-p2"] and ids["seed-a1"] == ids["seed-a2"] == ids["seed-a3"]
    assert ids["seed-b1"] == ids["seed-b2"]
    return {"P": ids["seed-p1"], "A": ids["seed-a1"], "B": ids["seed-b1"]}


@pytest.fixture
def located(crowd_server, browser):
    """The browser at HOME with the geolocation permission granted for the server; a fresh
    localStorage. Undone afterwards (the browser is shared with the other tests)."""
    place(browser, crowd_server, *HOME)
    yield browser
    forget(browser, crowd_server)


def place(driver, server, lat, lon, accuracy=5):
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": server.base_url, "permissions": ["geolocation"]})
    driver.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": lat, "longitude": lon, "accuracy": accuracy})


def forget(driver, server):
    driver.execute_cdp_cmd("Emulation.clearGeolocationOverride", {})
    driver.execute_cdp_cmd("Browser.resetPermissions", {})
    if driver.current_url.startswith(server.base_url):
        driver.execute_script("localStorage.clear()")


def visible(driver, selector):
    found = driver.find_elements(By.CSS_SELECTOR, selector)
    return bool(found) and found[0].is_displayed()


def text(driver, selector):
    found = driver.find_elements(By.CSS_SELECTOR, selector)
    return found[0].text if found else None


def click(driver, element):
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def located_state(driver):
    return driver.execute_script("return document.querySelector('main').dataset.located || null")


def press_find_my_position(driver):
    """The first visit asks for the position only when "Find my position" is pressed."""
    wait(driver, lambda d: visible(d, "#geo-locate"), "no Find my position button on a first visit")
    assert located_state(driver) is None  # nothing asked before the gesture
    click(driver, driver.find_element(By.CSS_SELECTOR, "#geo-locate"))


def open_crowd(driver, server, query="lang=en", fresh=True):
    """Opens /crowd/ and waits for the first fix: a first visit (fresh localStorage, the default)
    through "Find my position", a later one at once."""
    open_page(driver, server.url(f"/crowd/?{query}"))
    if fresh:
        driver.execute_script("localStorage.clear()")
        open_page(driver, server.url(f"/crowd/?{query}"))
        press_find_my_position(driver)
    wait(driver, lambda d: d.execute_script("return document.querySelector('main').dataset.located") == "yes",
         f"the page did not get the faked position: {text(driver, '#geo-status')!r} {text(driver, '#geo-error')!r}")


def pins(driver) -> dict[int, dict]:
    """The map's pins: {location id: {label, people, colour}} (those on screen)."""
    found = driver.execute_script(
        "return [...document.querySelectorAll('#map .crowd-pin:not(.offscreen)')].map(p => ({"
        " id: Number(p.dataset.locationId), label: p.getAttribute('aria-label'), people: p.textContent,"
        " colour: getComputedStyle(p).backgroundColor}))")
    return {pin["id"]: pin for pin in found}


def circles(driver) -> dict[int, float]:
    """The head-count circles: {location id: radius in px}."""
    found = driver.execute_script(
        "return [...document.querySelectorAll('#map svg circle.people')].map(c => [Number(c.dataset.locationId),"
        " Number(c.getAttribute('r'))])")
    return {int(i): r for i, r in found}


def search(server, lat, lon, radius=200, low=1, high=20) -> list[dict]:
    answer = requests.get(server.url("/api/crowd/locations"), timeout=10,
                          params={"lat": lat, "lon": lon, "radius": radius, "min": low, "max": high})
    assert answer.status_code == 200, answer.text
    return answer.json()["locations"]


def detail(server, location_id) -> dict:
    answer = requests.get(server.url(f"/api/crowd/locations/{location_id}"), timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()


def reports(driver) -> int:
    return int(driver.execute_script("return document.querySelector('main').dataset.reports || '0'"))


def send(driver):
    """Presses Send and waits until the report is answered."""
    before = reports(driver)
    click(driver, driver.find_element(By.CSS_SELECTOR, "#send-button"))
    wait(driver, lambda d: reports(d) == before + 1 or visible(d, "#send-error"), "the report was not answered")
    assert not visible(driver, "#send-error"), text(driver, "#send-error")


def open_pin(driver, location_id):
    pin = driver.find_element(By.CSS_SELECTOR, f"#map .crowd-pin[data-location-id='{location_id}']")
    click(driver, pin)
    wait(driver, lambda d: visible(d, "#panel")
         and d.find_element(By.CSS_SELECTOR, "#panel").get_attribute("data-location-id") == str(location_id)
         and d.find_element(By.CSS_SELECTOR, "#panel").get_attribute("aria-busy") == "false",
         f"the panel of location {location_id} did not open")


def stat(driver, name):
    return text(driver, f"#panel-{name}")


def number_text(value, digits=0):
    return "—" if value is None else f"{value:,.{digits}f}"


# --- The whole round: send, pins, panel, comment ------------------------------------------------


def test_send_shows_pins_opens_a_location_and_posts_a_comment(crowd_server, seeded, located):
    browser = located
    open_crowd(browser, crowd_server)
    token = browser.execute_script("return localStorage.getItem('quintet.crowd.device')")
    assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", token), token
    assert "Your position: 45.46420, 9.19000" in text(browser, "#geo-status")

    # Before sending, the page searches only: the three seeded groups are pinned, nobody is counted.
    wait(browser, lambda d: set(pins(d)) == set(seeded.values()), f"the seeded groups are not pinned: {pins(browser)}")
    assert "You are not counted" in text(browser, "#send-status")
    assert detail(crowd_server, seeded["P"])["people"] == 2

    # Send: the browser joins P (3 m away); the pins are exactly the server's search answer.
    send(browser)
    expected = search(crowd_server, *HOME)
    assert [l["id"] for l in expected] == [seeded["P"], seeded["A"], seeded["B"]]
    shown = pins(browser)
    assert set(shown) == {l["id"] for l in expected}
    for l in expected:
        assert shown[l["id"]]["people"] == str(l["people"])
        assert shown[l["id"]]["label"].startswith(f"Location {l['id']}: {l['people']} people")
    assert [l["people"] for l in expected] == [3, 3, 2]
    status = text(browser, "#send-status")
    assert "3 locations found within 200 m." in status
    assert f"You are in location {seeded['P']}, 3 people." in status
    assert browser.find_elements(By.CSS_SELECTOR, "#map .map-self") and visible(browser, "#map .map-self")
    # The list under the map says the same, in the server's order (distance, then id).
    listed = browser.execute_script(
        "return [...document.querySelectorAll('#results-list button')].map(b => Number(b.dataset.locationId))")
    assert listed == [l["id"] for l in expected]

    # Circles have a radius of 2 × people + 1 metres: 7 m for P and A, 5 m for B.
    radii = circles(browser)
    assert set(radii) == {l["id"] for l in expected}
    assert radii[seeded["P"]] == pytest.approx(radii[seeded["A"]], rel=0.01)
    assert radii[seeded["P"]] / radii[seeded["B"]] == pytest.approx(7 / 5, rel=0.01)
    metres_per_px = browser.execute_script(
        "const m = window.crowdMap; return 2 * Math.PI * 6378137 * Math.cos(m.center.lat * Math.PI / 180) / (256 * 2 ** m.zoom)")
    assert radii[seeded["P"]] * metres_per_px == pytest.approx(7, rel=0.02)

    # A, where the browser is not: statistics, the seeded comment as text, no comment box.
    a = next(l for l in expected if l["id"] == seeded["A"])
    open_pin(browser, seeded["A"])
    assert text(browser, "#panel-heading") == f"Location {seeded['A']}"
    assert stat(browser, "distance") == f"{round(a['distance_m'])} m"
    assert stat(browser, "people") == "3"
    assert stat(browser, "age") == "25.0" and stat(browser, "men") == "1" and stat(browser, "women") == "1"
    comments = browser.find_elements(By.CSS_SELECTOR, "#panel-comments li .comment-text")
    assert [c.text for c in comments] == [A_COMMENT]
    assert not visible(browser, "#comment-form")
    assert "only go to the location you are in" in text(browser, "#comment-rule")

    # P, where the browser is: it may comment there.
    p = next(l for l in expected if l["id"] == seeded["P"])
    open_pin(browser, seeded["P"])
    assert stat(browser, "distance") == f"{round(p['distance_m'])} m"
    assert stat(browser, "people") == "3" and stat(browser, "age") == "22.0"
    assert stat(browser, "men") == "1" and stat(browser, "women") == "1"
    assert visible(browser, "#panel-no-comments") and "You are in this location" in text(browser, "#comment-rule")
    message = "Meet at the fountain & bring 'snacks' — ciao!"
    box = browser.find_element(By.CSS_SELECTOR, "#comment-text")
    box.send_keys(message)
    before = reports(browser)
    click(browser, browser.find_element(By.CSS_SELECTOR, "#comment-button"))
    wait(browser, lambda d: [c.text for c in d.find_elements(By.CSS_SELECTOR, "#panel-comments li .comment-text")]
         == [message], "the posted comment did not show in the panel")
    assert reports(browser) == before + 1
    assert text(browser, "#comment-status") == "Comment posted."
    assert browser.find_element(By.CSS_SELECTOR, "#comment-text").get_attribute("value") == ""
    stored = detail(crowd_server, seeded["P"])
    assert [c["text"] for c in stored["comments"]] == [message] and stored["people"] == 3
    when = browser.find_element(By.CSS_SELECTOR, "#panel-comments li time").get_attribute("datetime")
    posted = datetime.fromisoformat(when.replace("Z", "+00:00"))
    assert abs((datetime.now(timezone.utc) - posted).total_seconds()) < 300, when

    # The token never appears on the page.
    assert token not in browser.page_source

    # The screenshot: the map (it stays in view) beside the open panel with the comment.
    scroll_to(browser, "document.querySelector('#panel').getBoundingClientRect().top + scrollY"
                       " - (innerHeight - document.querySelector('#panel').offsetHeight) / 2")
    path = ARTIFACTS / "crowd.png"
    path.unlink(missing_ok=True)
    assert browser.save_screenshot(str(path))
    assert path.stat().st_size > 0
    assert severe_console_entries(browser) == []


def test_options_persist_across_reload_and_go_with_reports(crowd_server, seeded, located):
    browser = located
    open_crowd(browser, crowd_server)
    click(browser, browser.find_element(By.CSS_SELECTOR, "#options summary"))
    age = browser.find_element(By.CSS_SELECTOR, "#opt-age")
    age.clear()
    age.send_keys("33")
    browser.find_element(By.CSS_SELECTOR, "#opt-sex option[value='f']").click()
    browser.execute_script(
        "const c = document.querySelector('#opt-colour'); c.value = '#00aa00';"
        " c.dispatchEvent(new Event('input', {bubbles: true})); c.dispatchEvent(new Event('change', {bubbles: true}))")
    click(browser, browser.find_element(By.CSS_SELECTOR, "#opt-circles"))
    click(browser, browser.find_element(By.CSS_SELECTOR, "#options summary"))  # closing it commits the age field too

    # Reload: the options are still there, and the map uses them.
    open_crowd(browser, crowd_server, fresh=False)
    assert browser.find_element(By.CSS_SELECTOR, "#opt-age").get_attribute("value") == "33"
    assert browser.find_element(By.CSS_SELECTOR, "#opt-sex").get_attribute("value") == "f"
    assert browser.find_element(By.CSS_SELECTOR, "#opt-colour").get_attribute("value") == "#00aa00"
    assert browser.find_element(By.CSS_SELECTOR, "#opt-circles").is_selected() is False
    wait(browser, lambda d: len(pins(d)) >= 3, "no pins after the reload")
    assert {pin["colour"] for pin in pins(browser).values()} == {"rgb(0, 170, 0)"}
    assert circles(browser) == {}

    # The next report carries age 33 and sex f: P's statistics change accordingly.
    before = detail(crowd_server, seeded["P"])
    send(browser)
    after = detail(crowd_server, seeded["P"])
    # (this browser's token is new in this test: it joins P now; the one of the first test gave no age or sex)
    assert after["people"] == before["people"] + 1
    assert after["women"] == before["women"] + 1 and after["men"] == before["men"]
    assert after["avg_age"] == pytest.approx((22 + 33) / 2)
    open_pin(browser, seeded["P"])
    assert stat(browser, "age") == "27.5" and stat(browser, "women") == str(after["women"])
    assert stat(browser, "people") == str(after["people"])

    # Turning circles back on draws them again, in the chosen colour.
    click(browser, browser.find_element(By.CSS_SELECTOR, "#options summary"))
    click(browser, browser.find_element(By.CSS_SELECTOR, "#opt-circles"))
    wait(browser, lambda d: len(circles(d)) >= 3, "the circles did not come back")
    stroke = browser.execute_script("return getComputedStyle(document.querySelector('#map svg circle.people')).stroke")
    assert stroke == "rgb(0, 170, 0)"
    assert json_options(browser) == {"age": 33, "sex": "f", "colour": "#00aa00", "circles": True}
    assert severe_console_entries(browser) == []


def json_options(driver):
    return driver.execute_script("return JSON.parse(localStorage.getItem('quintet.crowd.options'))")


def test_form_keeps_min_at_most_max_and_refuses_markup_before_sending(crowd_server, seeded, located):
    browser = located
    open_crowd(browser, crowd_server)
    low = browser.find_element(By.CSS_SELECTOR, "#min-people")
    high = browser.find_element(By.CSS_SELECTOR, "#max-people")
    assert (low.get_attribute("value"), high.get_attribute("value")) == ("1", "20")
    low.clear()
    low.send_keys("30")
    browser.find_element(By.CSS_SELECTOR, "#send-comment").click()  # change fires on blur
    assert high.get_attribute("value") == "30"
    high.clear()
    high.send_keys("2")
    browser.find_element(By.CSS_SELECTOR, "#send-comment").click()
    assert low.get_attribute("value") == "2"
    low.clear()
    low.send_keys("1")
    high.clear()
    high.send_keys("2")
    browser.find_element(By.CSS_SELECTOR, "#send-comment").click()

    # The radius slider shows its value; a search at 2 people at most leaves out 3-people groups.
    browser.execute_script(
        "const r = document.querySelector('#radius'); r.value = '150'; r.dispatchEvent(new Event('input', {bubbles: true}))")
    assert text(browser, "#radius-value") == "150 m"

    hostile = "<script>window.__pwned = 1</script>"
    browser.find_element(By.CSS_SELECTOR, "#send-comment").send_keys(hostile)
    before = reports(browser)
    click(browser, browser.find_element(By.CSS_SELECTOR, "#send-button"))
    wait(browser, lambda d: visible(d, "#send-error"), "a comment with markup was not refused")
    assert "plain text" in text(browser, "#send-error")
    assert reports(browser) == before
    assert browser.execute_script("return window.__pwned === undefined")

    browser.find_element(By.CSS_SELECTOR, "#send-comment").clear()
    send(browser)
    expected = search(crowd_server, *HOME, radius=150, low=1, high=2)
    assert set(pins(browser)) == {l["id"] for l in expected}
    assert all(l["people"] <= 2 for l in expected) and seeded["B"] in {l["id"] for l in expected}
    assert seeded["A"] not in pins(browser)

    # Switching to Italian re-says what the page said, in Italian.
    assert text(browser, "#send-status").startswith(f"{len(expected)} location")
    Select(browser.find_element(By.CSS_SELECTOR, "#language")).select_by_value("it")
    wait(browser, lambda d: text(d, "#send-status").startswith(f"{len(expected)} luogh")
         or text(d, "#send-status").startswith(f"{len(expected)} luogo"), "the status was not translated")
    assert text(browser, "#send-heading") == "Invia la tua posizione"
    assert text(browser, "#radius-value") == "150 m"
    label = browser.find_element(By.CSS_SELECTOR, f"#map .crowd-pin[data-location-id='{seeded['B']}']").get_attribute("aria-label")
    assert label.startswith(f"Luogo {seeded['B']}: 2 persone")
    Select(browser.find_element(By.CSS_SELECTOR, "#language")).select_by_value("en")
    browser.execute_script("localStorage.removeItem('quintet.lang')")
    assert severe_console_entries(browser) == []


# --- Geolocation refused or unavailable ---------------------------------------------------------


def test_refused_position_is_explained_and_try_again_recovers(crowd_server, seeded, browser):
    try:
        browser.execute_cdp_cmd("Browser.setPermission", {"permission": {"name": "geolocation"}, "setting": "denied",
                                                          "origin": crowd_server.base_url})
        open_page(browser, crowd_server.url("/crowd/?lang=en"))
        browser.execute_script("localStorage.clear()")
        open_page(browser, crowd_server.url("/crowd/?lang=en"))
        assert "the page needs your position" in text(browser, "#geo-status")
        press_find_my_position(browser)
        wait(browser, lambda d: visible(d, "#geo-problem"), "no message when the position is refused")
        assert browser.find_element(By.CSS_SELECTOR, "#geo-problem").get_attribute("data-reason") == "denied"
        assert "Location access was refused" in text(browser, "#geo-error")
        assert browser.find_element(By.CSS_SELECTOR, "#send-button").get_attribute("disabled") is not None
        assert pins(browser) == {}

        # Italian says it too.
        open_page(browser, crowd_server.url("/crowd/?lang=it"))
        assert text(browser, "#geo-locate") == "Trova la mia posizione"
        press_find_my_position(browser)
        wait(browser, lambda d: visible(d, "#geo-problem"), "no Italian message when the position is refused")
        assert "L'accesso alla posizione è stato negato" in text(browser, "#geo-error")
        assert text(browser, "#send-heading") == "Invia la tua posizione"
        assert text(browser, "#geo-retry") == "Riprova"

        # Allowed now: "Try again" gets the position and the page works.
        place(browser, crowd_server, *HOME)
        click(browser, browser.find_element(By.CSS_SELECTOR, "#geo-retry"))
        wait(browser, lambda d: d.execute_script("return document.querySelector('main').dataset.located") == "yes",
             "Try again did not get the position")
        assert not visible(browser, "#geo-problem")
        assert browser.find_element(By.CSS_SELECTOR, "#send-button").get_attribute("disabled") is None
        wait(browser, lambda d: len(pins(d)) >= 3, "no pins after Try again")

        # A position that cannot be found (the override without coordinates). Having had a
        # position once, the page now locates at once on load.
        assert browser.execute_script("return localStorage.getItem('quintet.crowd.locate')") == "auto"
        browser.execute_cdp_cmd("Emulation.setGeolocationOverride", {})
        open_page(browser, crowd_server.url("/crowd/?lang=en"))
        assert not visible(browser, "#geo-locate")
        wait(browser, lambda d: visible(d, "#geo-problem"), "no message when the position is unavailable")
        assert browser.find_element(By.CSS_SELECTOR, "#geo-problem").get_attribute("data-reason") == "unavailable"
        assert "Your position is unavailable" in text(browser, "#geo-error")
        assert severe_console_entries(browser) == []
    finally:
        forget(browser, crowd_server)


# --- The map: offline grid, scale bar, tiles, gestures ------------------------------------------


def map_state(driver):
    return driver.execute_script(
        "const m = window.crowdMap; return {lat: m.center.lat, lon: m.center.lon, zoom: m.zoom,"
        " step: Number(m.container.dataset.gridStep), scale: Number(m.scaleBar.dataset.metres),"
        " scaleText: m.scaleBar.textContent, scaleWidth: m.scaleBar.getBoundingClientRect().width,"
        " failures: Number(m.container.dataset.tileFailures || 0)}")


def test_offline_grid_scale_bar_and_gestures(crowd_server, seeded, located):
    browser = located
    open_crowd(browser, crowd_server)
    start = map_state(browser)
    # A few hundred metres across, centred on the browser's position.
    assert start["lat"] == pytest.approx(HOME[0], abs=1e-6) and start["lon"] == pytest.approx(HOME[1], abs=1e-6)
    span = browser.execute_script(
        "const m = window.crowdMap, s = m.size(); return Math.min(s.width, s.height) * 2 * Math.PI * 6378137"
        " * Math.cos(m.center.lat * Math.PI / 180) / (256 * 2 ** m.zoom)")
    assert 300 <= span <= 800, span
    # No tiles configured: no tile images, a labelled grid of round degrees, a scale bar.
    assert browser.find_elements(By.CSS_SELECTOR, "#map .map-tiles img") == []
    assert start["step"] in (0.001, 0.002, 0.005, 0.01)
    assert text(browser, "#map .map-attribution") == "Coordinate grid (no map tiles)"
    assert re.fullmatch(r"\d+ m", start["scaleText"]) and int(start["scaleText"].split()[0]) == start["scale"]
    assert 40 <= start["scaleWidth"] <= 125
    grid_pixels = browser.execute_script(
        "const c = document.querySelector('#map canvas'); const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
        " let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++; return n")
    assert grid_pixels > 1000, "the grid canvas is empty"

    # Zoom out with the button: the scale bar shows a longer distance, the grid a coarser step.
    click(browser, browser.find_element(By.CSS_SELECTOR, "#map .zoom-out"))
    click(browser, browser.find_element(By.CSS_SELECTOR, "#map .zoom-out"))
    wait(browser, lambda d: map_state(d)["zoom"] == pytest.approx(start["zoom"] - 2), "zoom out did not work")
    def coarser(driver):
        state = map_state(driver)
        return state if state["scale"] > start["scale"] and state["step"] >= start["step"] else None

    out = wait(browser, coarser, lambda: f"the scale bar and the grid did not follow the zoom: {map_state(browser)} after {start}")
    click(browser, browser.find_element(By.CSS_SELECTOR, "#map .zoom-in"))
    wait(browser, lambda d: map_state(d)["zoom"] == pytest.approx(start["zoom"] - 1), "zoom in did not work")

    # Drag with the mouse: the map moves with it (dragging right and down shows what is west and north).
    board = browser.find_element(By.CSS_SELECTOR, "#map")
    before = map_state(browser)
    ActionChains(browser).move_to_element(board).click_and_hold().move_by_offset(40, 10).move_by_offset(60, 30) \
        .release().perform()
    after = map_state(browser)
    assert after["lon"] < before["lon"] and after["lat"] > before["lat"]
    # The wheel zooms in.
    ActionChains(browser).scroll_from_origin(ScrollOrigin.from_element(board), 0, -300).perform()
    wait(browser, lambda d: map_state(d)["zoom"] > after["zoom"], "the wheel did not zoom")
    # Back to my position.
    click(browser, browser.find_element(By.CSS_SELECTOR, "#map .recenter"))
    wait(browser, lambda d: map_state(d)["lat"] == pytest.approx(HOME[0], abs=1e-7), "recenter did not work")
    assert severe_console_entries(browser) == []


def tile_of(lat, lon, z):
    n = 2 ** z
    x = int((lon + 180) / 360 * n)
    y = int((1 - math.log(math.tan(math.radians(lat)) + 1 / math.cos(math.radians(lat))) / math.pi) / 2 * n)
    return x, y


def test_tiles_from_a_configured_template_and_failed_tiles_show_the_grid(crowd_server, seeded, located):
    browser = located
    # The server's own favicon stands in for a tile server: every tile loads.
    template = "/favicon.svg?z={z}&x={x}&y={y}"
    open_crowd(browser, crowd_server, query="lang=en&tiles=" + requests.utils.quote(template, safe=""))
    z = round(map_state(browser)["zoom"])
    x, y = tile_of(*HOME, z)
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, f"#map .map-tiles img[src*='z={z}&x={x}&y={y}']"),
         f"the tile {z}/{x}/{y} under the position was not requested")
    images = browser.find_elements(By.CSS_SELECTOR, "#map .map-tiles img")
    assert 4 <= len(images) <= 30
    wait(browser, lambda d: d.execute_script(
        "return [...document.querySelectorAll('#map .map-tiles img')].every(i => i.complete && i.naturalWidth > 0)"),
        "the tiles did not load")
    assert map_state(browser)["failures"] == 0
    assert "127.0.0.1" in text(browser, "#map .map-attribution")
    assert severe_console_entries(browser) == []

    # A template whose tiles do not exist: they are hidden and the grid shows through.
    open_crowd(browser, crowd_server, query="lang=en&tiles=" + requests.utils.quote("/no-such-tiles/{z}/{x}/{y}.png", safe=""),
               fresh=False)
    wait(browser, lambda d: map_state(d)["failures"] > 0, "failed tiles were not noticed")
    wait(browser, lambda d: d.execute_script(
        "return [...document.querySelectorAll('#map .map-tiles img')].every(i => i.classList.contains('failed')"
        " && getComputedStyle(i).visibility === 'hidden')"), "failed tiles are still shown")
    assert map_state(browser)["step"] > 0
    severe_console_entries(browser)  # the 404s of the missing tiles are expected here

    # ?tiles=none, a template that is not http(s), and another origin's tiles (a crafted link
    # must not send the user's surroundings elsewhere): the grid only, the last two with a note.
    for bad, note in (("none", False), ("javascript:alert(1)/{z}/{x}/{y}", True),
                      ("http://tiles.example.invalid/{z}/{x}/{y}.png", True)):
        open_crowd(browser, crowd_server, query="lang=en&tiles=" + requests.utils.quote(bad, safe=""), fresh=False)
        assert browser.find_elements(By.CSS_SELECTOR, "#map .map-tiles img") == []
        assert text(browser, "#map .map-attribution") == "Coordinate grid (no map tiles)"
        assert visible(browser, "#map-note") is note
        if note:
            assert "tile address in the link was ignored" in text(browser, "#map-note")
    assert severe_console_entries(browser) == []


# --- A phone --------------------------------------------------------------------------------------


def test_phone_layout_pinch_zoom_and_screenshot(crowd_server, seeded, located):
    browser = located
    with viewport(browser, *PHONE, mobile=True) as phone:
        open_crowd(phone, crowd_server)
        assert phone.execute_script("return window.innerWidth") == PHONE[0]
        assert phone.execute_script("return document.documentElement.scrollWidth") <= PHONE[0]
        wait(phone, lambda d: len(pins(d)) >= 3, "no pins on the phone")
        small = phone.execute_script(
            "return [...document.querySelectorAll('main button')].filter(b => b.offsetParent !== null"
            " && !b.classList.contains('crowd-pin')).map(b => [b.id || b.className, b.getBoundingClientRect().height])"
            ".filter(([, h]) => h < 44)")
        assert small == []
        # The map fills the width and most of the first screen.
        rect = phone.find_element(By.CSS_SELECTOR, "#map").rect
        assert rect["width"] >= PHONE[0] - 40 and rect["height"] >= 280

        # Pinch out with two fingers: the map zooms in.
        before = map_state(phone)
        cx, cy = rect["x"] + rect["width"] / 2, rect["y"] + rect["height"] / 2 - phone.execute_script("return scrollY")
        touch = lambda kind, d: phone.execute_cdp_cmd("Input.dispatchTouchEvent", {
            "type": kind, "touchPoints": [] if kind == "touchEnd" else
            [{"x": cx - d, "y": cy, "id": 1}, {"x": cx + d, "y": cy, "id": 2}]})
        touch("touchStart", 20)
        for d in (30, 45, 60, 80):
            touch("touchMove", d)
        touch("touchEnd", 0)
        wait(phone, lambda d: map_state(d)["zoom"] > before["zoom"] + 1, f"pinching did not zoom: {map_state(phone)}")

        send(phone)
        panel_id = int(phone.execute_script("return window.crowdMap.locations[0].id"))
        phone.execute_script("window.crowdMap.setView(...arguments)", HOME[0], HOME[1], before["zoom"])
        open_pin(phone, panel_id)
        assert phone.execute_script("return document.documentElement.scrollWidth") <= PHONE[0]
        # The panel scrolls into view smoothly on a phone: let it arrive (its top at the window's
        # top, or the page scrolled to its end), then show the map for the screenshot.
        wait(phone, lambda d: d.execute_script(
            "return Math.abs(document.querySelector('#panel').getBoundingClientRect().top) < 1"
            " || scrollY >= document.documentElement.scrollHeight - innerHeight - 1"),
            "the panel did not scroll into view")
        scroll_to(phone, "document.querySelector('#where').offsetTop - 8")
        path = ARTIFACTS / "crowd-phone.png"
        path.unlink(missing_ok=True)
        assert phone.save_screenshot(str(path))
        assert path.stat().st_size > 0
    assert severe_console_entries(browser) == []


# --- The server's refusal shown ---------------------------------------------------------------------


def test_rate_limited_report_shows_the_servers_answer(tmp_path_factory, browser):
    """A server allowing one report a minute: the second Send is refused with 429 and the page
    says so (and keeps what it showed)."""
    limited = start_server(tmp_path_factory.mktemp("quintet-crowd-limited"), ARTIFACTS / "crowd-page-limited-server.log",
                           ("--crowd-min-group", "1", "--crowd-rate-limit", "1"))
    try:
        place(browser, limited, *HOME)
        open_crowd(browser, limited)
        send(browser)
        wait(browser, lambda d: len(pins(d)) == 1, "the first report's own location is not pinned")
        before = reports(browser)
        click(browser, browser.find_element(By.CSS_SELECTOR, "#send-button"))
        wait(browser, lambda d: visible(d, "#send-error"), "the refused report was not reported")
        assert text(browser, "#send-error").startswith("Too many reports from here: wait a minute and try again.")
        assert reports(browser) == before
        assert len(pins(browser)) == 1
        assert browser.find_element(By.CSS_SELECTOR, "#send-button").get_attribute("disabled") is None
        severe_console_entries(browser)  # Chromium logs the 429 itself
    finally:
        forget(browser, limited)
        stop_server(limited)
