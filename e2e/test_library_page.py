"""The library page in a real Chromium: sign-in, the demo library browsed, searched and played.

The conftest server serves the demo library (30 songs by five artists, written by ffmpeg at
start); the tests wait for its first scan, then use the page the way a person does: typing,
clicking links and buttons, reloading, going back.
"""

from __future__ import annotations

from contextlib import contextmanager
from urllib.parse import quote

import pytest
import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ARTIFACTS, open_page, scroll_to, severe_console_entries, wait

DEMO_ARTISTS = {"Northern Lights", "Maya Okafor", "The Paper Boats", "Lucía Ferrer", "Kite & Crane", "Various Artists"}
POLAR_DRIFT = [  # track, title, BPM (from the files' tags)
    (1, "Glass River", 128), (2, "Aurora Street", 140), (3, "Cold Engine", 160),
    (4, "Slow Thaw", 72), (5, "Northbound", 118), (6, "Last Ferry", 96),
]
DESKTOP = (1280, 900)
PHONE = (390, 844)


# --- Helpers --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def library(server):
    """The demo library, scanned; returns GET /api/library/scan."""
    return server.wait_for_library()


def api(server, path):
    response = requests.get(server.url(path), auth=server.admin, timeout=10)
    response.raise_for_status()
    return response.json()


def album_id(server, title):
    albums = api(server, f"/api/library/albums?q={quote(title)}")["albums"]
    return next(a["id"] for a in albums if a["title"] == title)


def visible(driver, selector):
    elements = driver.find_elements(By.CSS_SELECTOR, selector)
    return bool(elements) and elements[0].is_displayed()


def click(driver, element):
    """Scrolls element to the middle of the screen (clear of the sticky player) and clicks it."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def expected_error(entry, *fragments):
    """A console entry of a request the test made fail on purpose (e.g. a wrong password)."""
    return entry.get("source") == "network" and all(f in entry["message"] for f in fragments)


def rows(driver, table="#view table.songs"):
    return driver.find_elements(By.CSS_SELECTOR, f"{table} tbody tr[data-song-id]")


def cell(row, name):
    return row.find_element(By.CSS_SELECTOR, f"td.{name}").get_attribute("textContent").strip()


def sign_out_in_browser(driver, server):
    """Forgets any session of the shared browser, as a new visitor would arrive."""
    open_page(driver, server.url("/library/"))
    driver.execute_script("localStorage.clear()")
    driver.delete_all_cookies()


def fill_sign_in(driver, name, password):
    field = driver.find_element(By.CSS_SELECTOR, "#signin-name")
    field.clear()
    field.send_keys(name)
    secret = driver.find_element(By.CSS_SELECTOR, "#signin-password")
    secret.clear()
    secret.send_keys(password, Keys.ENTER)


def wait_for_app(driver):
    wait(driver, lambda d: visible(d, "#library-app") and d.find_element(By.CSS_SELECTOR, "#view").get_attribute("data-view"),
         "the library did not appear after signing in")


@pytest.fixture
def signed_in(server, browser, library):
    """The browser on /library/, signed in as admin, with the artist list shown."""
    open_page(browser, server.url("/library/"))
    wait(browser, lambda d: visible(d, "#signin") or visible(d, "#library-app"), "neither sign-in nor library shown")
    if visible(browser, "#signin"):
        fill_sign_in(browser, *server.admin)
    wait_for_app(browser)
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#artists a"), "no artists listed")
    assert severe_console_entries(browser) == []
    return browser


def go(driver, server, hash_, lang=""):
    """Loads /library/ at a view (a hash such as #album/4), signed in."""
    open_page(driver, server.url(f"/library/{lang}{hash_}"))
    wait_for_app(driver)


def open_album_by_clicks(driver, artist, album):
    click(driver, driver.find_element(By.LINK_TEXT, artist))
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#view").get_attribute("data-view") == "artist"
         and d.find_elements(By.CSS_SELECTOR, "#albums a"), f"{artist}'s albums did not appear")
    link = next(a for a in driver.find_elements(By.CSS_SELECTOR, "#albums a")
                if a.find_element(By.CSS_SELECTOR, ".album-title").text == album)
    click(driver, link)
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#view").get_attribute("data-view") == "album"
         and rows(d), f"the songs of {album} did not appear")


def image_loaded(driver, image):
    return driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image)


def no_horizontal_scroll(driver):
    scroll_width, inner_width = driver.execute_script(
        "return [document.scrollingElement.scrollWidth, window.innerWidth]")
    assert scroll_width <= inner_width, f"horizontal scroll: {scroll_width} > {inner_width}"


@contextmanager
def viewport(driver, width, height, mobile):
    """Emulates a viewport of width×height CSS pixels (a phone's when mobile) until the block ends."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": mobile, "maxTouchPoints": 5})
    try:
        yield driver
    finally:
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def audio_state(driver):
    return driver.execute_script(
        "const a = document.querySelector('#audio');"
        "return {time: a.currentTime, ready: a.readyState, paused: a.paused, src: a.currentSrc,"
        " error: a.error && (a.error.message || a.error.code)}")


def wait_until_playing(driver):
    wait(driver, lambda d: (lambda s: not s["paused"] and s["time"] > 0 and s["ready"] >= 2)(audio_state(d)),
         "the audio element did not start playing")


def stop_audio(driver):
    driver.execute_script("document.querySelector('#audio').pause()")


# --- Sign-in --------------------------------------------------------------------------------


def test_sign_in_refuses_a_wrong_password_then_signs_in_and_out(server, browser, library):
    sign_out_in_browser(browser, server)
    open_page(browser, server.url("/library/"))
    wait(browser, lambda d: visible(d, "#signin"), "the sign-in form did not appear")
    assert not visible(browser, "#library-app")
    for field in ("#signin-name", "#signin-password"):
        labels = browser.execute_script(f"return [...document.querySelector('{field}').labels].map(l => l.textContent.trim())")
        assert labels and labels[0], f"{field} has no label"

    fill_sign_in(browser, "admin", "not the password")
    wait(browser, lambda d: visible(d, "#library-status") and
         d.find_element(By.CSS_SELECTOR, "#library-status").get_attribute("data-state") == "error",
         "a wrong password showed no error")
    message = browser.find_element(By.CSS_SELECTOR, "#library-status").text
    assert "wrong name or password" in message, message  # the server's own message
    assert visible(browser, "#signin") and not visible(browser, "#library-app")

    fill_sign_in(browser, *server.admin)
    wait_for_app(browser)
    assert browser.find_element(By.CSS_SELECTOR, "#account-name").text == "admin"
    assert not visible(browser, "#signin")
    assert not visible(browser, "#library-status"), "the error stays after signing in"
    unexpected = [e for e in severe_console_entries(browser) if not expected_error(e, "/api/session", "401")]
    assert unexpected == []

    # Reloading keeps the session; signing out ends it.
    open_page(browser, server.url("/library/"))
    wait_for_app(browser)
    click(browser, browser.find_element(By.CSS_SELECTOR, "#signout"))
    wait(browser, lambda d: visible(d, "#signin"), "signing out did not show the sign-in form")
    assert requests.get(server.url("/api/library/scan"), timeout=5,
                        cookies={c["name"]: c["value"] for c in browser.get_cookies()}).status_code == 401
    open_page(browser, server.url("/library/"))
    wait(browser, lambda d: visible(d, "#signin"), "the sign-in form did not appear after signing out")
    fill_sign_in(browser, *server.admin)
    wait_for_app(browser)
    assert severe_console_entries(browser) == [], "a signed-out visit asks nothing that fails"


# --- Browsing -------------------------------------------------------------------------------


def test_artist_list_shows_the_demo_artists_and_the_scan(server, signed_in):
    names = {a.text for a in signed_in.find_elements(By.CSS_SELECTOR, "#artists a")}
    assert names == DEMO_ARTISTS
    summary = signed_in.find_element(By.CSS_SELECTOR, "#scan-summary").text
    assert "30 songs" in summary, summary
    assert signed_in.find_element(By.CSS_SELECTOR, "#scan").get_attribute("data-state") == "idle"
    assert not visible(signed_in, "#scan-progress")
    assert not visible(signed_in, "#scan-errors"), "the demo library has no unreadable files"
    assert severe_console_entries(signed_in) == []


def test_search_finds_the_three_glass_river_songs(server, signed_in):
    box = signed_in.find_element(By.CSS_SELECTOR, "#search")
    assert signed_in.execute_script("return arguments[0].labels.length", box) == 1
    box.send_keys("glass")
    wait(signed_in, lambda d: len(rows(d, "#song-results table")) == 3, "search 'glass' did not list three songs")
    found = rows(signed_in, "#song-results table")
    titles = [r.find_element(By.CSS_SELECTOR, "td.title a").text for r in found]
    assert titles == ["Glass River"] * 3
    assert {cell(r, "album") for r in found} == {"Polar Drift", "Harbour Songs", "Quintet Sampler"}
    assert signed_in.current_url.endswith("#search/glass")
    assert "No artist matches" in signed_in.find_element(By.CSS_SELECTOR, ".artists-section").text

    # The search is in the address: a reload shows it again.
    signed_in.refresh()
    wait(signed_in, lambda d: len(rows(d, "#song-results table")) == 3, "the search did not survive a reload")
    assert signed_in.find_element(By.CSS_SELECTOR, "#search").get_attribute("value") == "glass"

    # An artist's name filters the artist list.
    box = signed_in.find_element(By.CSS_SELECTOR, "#search")
    box.clear()
    box.send_keys("kite")
    wait(signed_in, lambda d: [a.text for a in d.find_elements(By.CSS_SELECTOR, "#artists a")] == ["Kite & Crane"],
         "search 'kite' did not narrow the artists to Kite & Crane")
    assert severe_console_entries(signed_in) == []


def test_album_shows_its_songs_in_track_order_with_covers(server, signed_in):
    open_album_by_clicks(signed_in, "Northern Lights", "Polar Drift")
    found = rows(signed_in)
    assert [(int(cell(r, "track")), r.find_element(By.CSS_SELECTOR, "td.title a").text) for r in found] == \
        [(track, title) for track, title, _ in POLAR_DRIFT]
    for row, (_, title, bpm) in zip(found, POLAR_DRIFT):
        assert cell(row, "duration") == "0:24", f"{title}: {cell(row, 'duration')}"
        assert cell(row, "artist") == "Northern Lights"
        assert row.find_element(By.CSS_SELECTOR, "td.bpm .value").text == str(bpm)
        assert row.find_element(By.CSS_SELECTOR, "td.bpm .hint").text == "tag"
    crumbs = [c.text for c in signed_in.find_elements(By.CSS_SELECTOR, "#crumbs li")]
    assert crumbs == ["All artists", "Northern Lights", "Polar Drift"]

    cover = signed_in.find_element(By.CSS_SELECTOR, ".album-header img.cover")
    assert cover.get_attribute("alt") == "Cover of Polar Drift"
    wait(signed_in, lambda d: image_loaded(d, cover), "the album cover did not load")

    # Back to the artist: the album thumbnail (lazy, with alt text) has loaded too.
    signed_in.back()
    wait(signed_in, lambda d: d.find_element(By.CSS_SELECTOR, "#view").get_attribute("data-view") == "artist",
         "back did not return to the artist")
    thumb = signed_in.find_element(By.CSS_SELECTOR, "#albums img.cover")
    assert thumb.get_attribute("loading") == "lazy" and thumb.get_attribute("alt") == "Cover of Polar Drift"
    assert "size=120" in thumb.get_attribute("src")
    wait(signed_in, lambda d: image_loaded(d, thumb), "the album thumbnail did not load")
    signed_in.back()
    wait(signed_in, lambda d: d.find_element(By.CSS_SELECTOR, "#view").get_attribute("data-view") == "home",
         "back did not return to the artist list")
    assert severe_console_entries(signed_in) == []


def test_an_album_without_a_cover_shows_a_placeholder(server, signed_in):
    go(signed_in, server, f"#album/{album_id(server, 'Canciones del Sur')}")
    wait(signed_in, lambda d: len(rows(d)) == 5, "Canciones del Sur did not list five songs")
    assert signed_in.find_elements(By.CSS_SELECTOR, ".album-header .cover.placeholder")
    assert not signed_in.find_elements(By.CSS_SELECTOR, ".album-header img")
    assert severe_console_entries(signed_in) == []


def test_reload_with_an_album_in_the_address_restores_it(server, signed_in):
    polar = album_id(server, "Polar Drift")
    go(signed_in, server, f"#album/{polar}")
    wait(signed_in, lambda d: len(rows(d)) == 6, "#album/… did not show the album")
    signed_in.refresh()
    wait(signed_in, lambda d: len(rows(d)) == 6 and d.find_element(By.CSS_SELECTOR, "#view h2").text == "Polar Drift",
         "a reload did not restore the album")
    # The artist link in the breadcrumb goes up; back comes down again.
    click(signed_in, signed_in.find_element(By.CSS_SELECTOR, "#crumbs a[href^='#artist/']"))
    wait(signed_in, lambda d: d.find_element(By.CSS_SELECTOR, "#view").get_attribute("data-view") == "artist",
         "the breadcrumb did not open the artist")
    signed_in.back()
    wait(signed_in, lambda d: d.find_element(By.CSS_SELECTOR, "#view").get_attribute("data-view") == "album"
         and len(rows(d)) == 6, "back did not restore the album")
    assert severe_console_entries(signed_in) == []


def test_a_failed_request_shows_the_server_message(server, signed_in):
    go(signed_in, server, "#album/999999")
    wait(signed_in, lambda d: visible(d, "#library-status")
         and d.find_element(By.CSS_SELECTOR, "#library-status").get_attribute("data-state") == "error",
         "a missing album showed no error")
    text = signed_in.find_element(By.CSS_SELECTOR, "#library-status").text
    assert "999999" in text, text
    unexpected = [e for e in severe_console_entries(signed_in) if not expected_error(e, "/api/library/albums/999999", "404")]
    assert unexpected == []
    # Going on clears the message.
    click(signed_in, signed_in.find_element(By.CSS_SELECTOR, "#crumbs a"))
    wait(signed_in, lambda d: not visible(d, "#library-status"), "the error stayed after going on")


# --- Related songs and the player -------------------------------------------------------------


def test_related_songs_of_glass_river(server, signed_in):
    go(signed_in, server, f"#album/{album_id(server, 'Polar Drift')}")
    wait(signed_in, lambda d: len(rows(d)) == 6, "Polar Drift did not show")
    click(signed_in, rows(signed_in)[0].find_element(By.CSS_SELECTOR, "td.title a"))
    wait(signed_in, lambda d: d.find_elements(By.CSS_SELECTOR, "#related"), "no related songs for Glass River")
    covers = signed_in.find_elements(By.CSS_SELECTOR, "#related .covers li")
    identical = signed_in.find_elements(By.CSS_SELECTOR, "#related .identical li")
    assert len(covers) == 1 and "Maya Okafor" in covers[0].text and "Harbour Songs" in covers[0].text
    assert len(identical) == 1 and "Northern Lights" in identical[0].text and "Quintet Sampler" in identical[0].text
    assert rows(signed_in)[0].get_attribute("aria-current") == "true"
    assert "#song/" in signed_in.current_url

    # The identical recording's link opens it in its own album, with its own related songs.
    click(signed_in, identical[0].find_element(By.CSS_SELECTOR, "a"))
    wait(signed_in, lambda d: d.find_element(By.CSS_SELECTOR, "#view h2").text == "Quintet Sampler"
         and d.find_elements(By.CSS_SELECTOR, "#related .identical li"), "the identical recording did not open")
    assert "Polar Drift" in signed_in.find_element(By.CSS_SELECTOR, "#related .identical li").text
    signed_in.refresh()
    wait(signed_in, lambda d: d.find_elements(By.CSS_SELECTOR, "#related .identical li"),
         "a reload did not restore the song view")
    assert severe_console_entries(signed_in) == []


def test_play_button_plays_and_next_previous_step_through_the_album(server, signed_in):
    go(signed_in, server, f"#album/{album_id(server, 'Polar Drift')}")
    wait(signed_in, lambda d: len(rows(d)) == 6, "Polar Drift did not show")
    assert not visible(signed_in, "#player")
    click(signed_in, rows(signed_in)[0].find_element(By.CSS_SELECTOR, "button.play"))
    wait(signed_in, lambda d: visible(d, "#player"), "the player did not appear")
    wait_until_playing(signed_in)
    assert signed_in.find_element(By.CSS_SELECTOR, "#player-title").text == "Glass River"
    assert "Northern Lights" in signed_in.find_element(By.CSS_SELECTOR, "#player-artist").text
    assert audio_state(signed_in)["src"].endswith(rows(signed_in)[0].get_attribute("data-song-id") + "/stream")
    cover = signed_in.find_element(By.CSS_SELECTOR, "#player-cover")
    wait(signed_in, lambda d: cover.is_displayed() and image_loaded(d, cover), "the player's cover did not load")
    assert "playing" in rows(signed_in)[0].get_attribute("class")
    assert signed_in.find_element(By.CSS_SELECTOR, "#player-prev").get_attribute("disabled") is not None

    click(signed_in, signed_in.find_element(By.CSS_SELECTOR, "#player-next"))
    wait(signed_in, lambda d: d.find_element(By.CSS_SELECTOR, "#player-title").text == "Aurora Street",
         "next did not move to track 2")
    wait_until_playing(signed_in)
    assert "playing" in rows(signed_in)[1].get_attribute("class")
    click(signed_in, signed_in.find_element(By.CSS_SELECTOR, "#player-prev"))
    wait(signed_in, lambda d: d.find_element(By.CSS_SELECTOR, "#player-title").text == "Glass River",
         "previous did not move back to track 1")
    wait_until_playing(signed_in)

    # Keyboard: the play button of track 3, focused and pressed with Enter.
    button = rows(signed_in)[2].find_element(By.CSS_SELECTOR, "button.play")
    signed_in.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].focus()", button)
    button.send_keys(Keys.ENTER)
    wait(signed_in, lambda d: d.find_element(By.CSS_SELECTOR, "#player-title").text == "Cold Engine",
         "Enter on a play button did not play it")
    wait_until_playing(signed_in)
    stop_audio(signed_in)
    assert severe_console_entries(signed_in) == []


def test_controls_have_names_and_are_buttons(server, signed_in):
    go(signed_in, server, f"#album/{album_id(server, 'Polar Drift')}")
    wait(signed_in, lambda d: len(rows(d)) == 6, "Polar Drift did not show")
    nameless = signed_in.execute_script("""
        return [...document.querySelectorAll('main button, main input, main select, main a')]
          .filter(e => e.offsetParent !== null)
          .filter(e => {
            if (e.matches('input, select')) return e.labels.length === 0;
            return !(e.getAttribute('aria-label') || e.textContent).trim();
          }).map(e => e.outerHTML.slice(0, 120));""")
    assert nameless == []
    clickable_divs = signed_in.execute_script(
        "return [...document.querySelectorAll('main [onclick], main div[role=button], main span[role=button]')].length")
    assert clickable_divs == 0


# --- Languages, phones, screenshots -----------------------------------------------------------


def test_page_in_italian(server, signed_in):
    go(signed_in, server, f"#album/{album_id(server, 'Polar Drift')}", lang="?lang=it")
    wait(signed_in, lambda d: len(rows(d)) == 6, "Polar Drift did not show in Italian")
    assert signed_in.find_element(By.TAG_NAME, "html").get_attribute("lang") == "it"
    assert signed_in.find_element(By.TAG_NAME, "h1").text == "Grafo della libreria"
    headers = [th.text for th in signed_in.find_elements(By.CSS_SELECTOR, "#view table.songs th:not(.play-col)")]
    assert headers == ["#", "Titolo", "Artista", "Durata", "BPM"], headers
    assert signed_in.find_element(By.CSS_SELECTOR, "#rescan").text == "Scansiona di nuovo"
    assert signed_in.find_element(By.CSS_SELECTOR, "#signout").text == "Esci"
    assert "30 brani" in signed_in.find_element(By.CSS_SELECTOR, "#scan-summary").text
    assert signed_in.find_element(By.CSS_SELECTOR, ".album-header img").get_attribute("alt") == "Copertina di Polar Drift"
    assert severe_console_entries(signed_in) == []


def test_language_picker_translates_what_the_page_built(server, signed_in):
    from selenium.webdriver.support.ui import Select

    go(signed_in, server, f"#album/{album_id(server, 'Polar Drift')}")
    wait(signed_in, lambda d: len(rows(d)) == 6, "Polar Drift did not show")
    try:
        Select(signed_in.find_element(By.CSS_SELECTOR, "#language")).select_by_value("it")
        wait(signed_in, lambda d: "30 brani" in d.find_element(By.CSS_SELECTOR, "#scan-summary").text,
             "the scan summary stayed in English")
        wait(signed_in, lambda d: "Durata" in d.find_element(By.CSS_SELECTOR, "#view table.songs thead").text,
             "the song table stayed in English")
        assert signed_in.find_element(By.CSS_SELECTOR, "label[for=search]").text == "Cerca artisti, album e brani"
    finally:
        Select(signed_in.find_element(By.CSS_SELECTOR, "#language")).select_by_value("en")
        signed_in.execute_script("localStorage.removeItem('quintet.lang')")
    wait(signed_in, lambda d: "Duration" in d.find_element(By.CSS_SELECTOR, "#view table.songs thead").text,
         "switching back to English did not translate the table")
    assert severe_console_entries(signed_in) == []


def test_phone_layout_has_no_horizontal_scroll(server, signed_in):
    polar = album_id(server, "Polar Drift")
    with viewport(signed_in, *PHONE, mobile=True) as phone:
        go(phone, server, "")
        wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "#artists a"), "no artists on the phone")
        assert phone.execute_script("return window.innerWidth") == PHONE[0]
        no_horizontal_scroll(phone)
        go(phone, server, "#search/glass")
        wait(phone, lambda d: len(rows(d, "#song-results table")) == 3, "no search results on the phone")
        no_horizontal_scroll(phone)
        go(phone, server, f"#album/{polar}")
        wait(phone, lambda d: len(rows(d)) == 6, "no album on the phone")
        click(phone, rows(phone)[0].find_element(By.CSS_SELECTOR, "td.title a"))
        wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "#related .covers li"), "no related songs on the phone")
        click(phone, rows(phone)[0].find_element(By.CSS_SELECTOR, "button.play"))
        wait_until_playing(phone)
        no_horizontal_scroll(phone)
        # Touch targets: every visible button is at least 44 CSS pixels tall.
        small = phone.execute_script(
            "return [...document.querySelectorAll('main button')].filter(b => b.offsetParent !== null)"
            ".map(b => b.getBoundingClientRect().height).filter(h => h < 44)")
        assert small == []
        scroll_to(phone, "0")
        path = ARTIFACTS / "library-phone.png"
        path.unlink(missing_ok=True)
        assert phone.save_screenshot(str(path))
        stop_audio(phone)
    assert severe_console_entries(signed_in) == []


def test_screenshot_of_the_library_page(server, signed_in):
    polar = album_id(server, "Polar Drift")
    with viewport(signed_in, *DESKTOP, mobile=False) as driver:
        go(driver, server, f"#album/{polar}")
        wait(driver, lambda d: len(rows(d)) == 6, "Polar Drift did not show")
        click(driver, rows(driver)[0].find_element(By.CSS_SELECTOR, "td.title a"))
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#related .covers li"), "no related songs")
        click(driver, rows(driver)[0].find_element(By.CSS_SELECTOR, "button.play"))
        wait_until_playing(driver)
        cover = driver.find_element(By.CSS_SELECTOR, ".album-header img")
        wait(driver, lambda d: image_loaded(d, cover), "the cover did not load")
        driver.execute_script("document.activeElement.blur()")
        scroll_to(driver, "document.querySelector('#search-form').offsetTop - 12")
        path = ARTIFACTS / "library.png"
        path.unlink(missing_ok=True)
        assert driver.save_screenshot(str(path))
        stop_audio(driver)
    assert path.stat().st_size > 0
    assert severe_console_entries(signed_in) == []


# --- Rescan and unreadable files (last: it changes the library folder for a moment) -----------


def test_rescan_lists_unreadable_files(server, signed_in, library):
    root = server.data_dir / "demo-library"
    assert library["root"] == str(root) and root.is_dir()
    broken = root / "Not a song.mp3"
    broken.write_bytes(b"this is not an mp3 at all")

    def rescan_and_wait(driver):
        before = api(server, "/api/library/scan")["last_scan"]
        click(driver, driver.find_element(By.CSS_SELECTOR, "#rescan"))
        wait(driver, lambda d: (lambda s: s["state"] == "idle" and s["last_scan"] != before)(api(server, "/api/library/scan")),
             "the rescan did not finish", timeout=60)
        wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#scan").get_attribute("data-state") == "idle"
             and d.find_element(By.CSS_SELECTOR, "#rescan").is_enabled(), "the page did not see the rescan finish")

    try:
        rescan_and_wait(signed_in)
        wait(signed_in, lambda d: visible(d, "#scan-errors"), "the unreadable file is not listed")
        details = signed_in.find_element(By.CSS_SELECTOR, "#scan-errors")
        assert details.get_attribute("open") is None, "the error list starts collapsed"
        assert "1 file could not be read" in details.text
        click(signed_in, details.find_element(By.TAG_NAME, "summary"))
        item = details.find_element(By.CSS_SELECTOR, "li")
        assert "Not a song.mp3" in item.text and "not a supported audio file" in item.text, item.text
        assert "30 songs" in signed_in.find_element(By.CSS_SELECTOR, "#scan-summary").text
    finally:
        broken.unlink(missing_ok=True)
    rescan_and_wait(signed_in)
    wait(signed_in, lambda d: not visible(d, "#scan-errors"), "the error list stayed after the file went")
    assert severe_console_entries(signed_in) == []
