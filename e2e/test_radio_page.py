"""The radio page (/radio/) in a real Chromium, on its own fresh `quintet serve`: the empty
states, an episode imported with `quintet radio import-episode` listed and played (seeking
through HTTP Range), a show's RSS feed link, a live ffmpeg source listed within 15 s with its
title, a hostile title rendered as text, the live stream played, and the broadcast ending."""

from __future__ import annotations

import json
import subprocess
import time

import pytest
import requests
from selenium.webdriver.common.by import By

from conftest import ARTIFACTS, open_page, scroll_to, severe_console_entries, start_server, stop_server, wait
from test_cli import quintet
from test_radio_live import create_show, make_mp3, need_ffmpeg, start_source, wait_live

LIVE_WAIT = 15  # the page refreshes the live list every 10 s
HOSTILE = "<script>window.__pwned = 1</script><img src=x onerror=\"window.__pwned = 2\"> & 'quotes'"


@pytest.fixture(scope="module")
def radio_server(tmp_path_factory):
    """A server of its own, so the empty states are really empty whatever ran before."""
    running = start_server(tmp_path_factory.mktemp("quintet-radio-page"), ARTIFACTS / "radio-page-server.log")
    yield running
    stop_server(running)


def visible(driver, selector):
    found = driver.find_elements(By.CSS_SELECTOR, selector)
    return bool(found) and found[0].is_displayed()


def text(driver, selector):
    found = driver.find_elements(By.CSS_SELECTOR, selector)
    return found[0].text if found else None


def audio_state(driver):
    return driver.execute_script(
        "const a = document.querySelector('#audio');"
        "return {time: a.currentTime, ready: a.readyState, paused: a.paused, src: a.currentSrc,"
        " error: a.error && (a.error.message || a.error.code), kind: a.dataset.kind, id: a.dataset.id}")


def wait_playing(driver, beyond=0.5):
    """Waits until the audio element plays without error and its time passed `beyond` s."""
    def playing(d):
        s = audio_state(d)
        assert not s["error"], f"the audio element failed: {s}"
        return not s["paused"] and s["ready"] >= 2 and s["time"] > beyond
    wait(driver, playing, lambda: f"the audio element did not play: {audio_state(driver)}")


def click(driver, element):
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def test_empty_states_in_english_and_italian(radio_server, browser):
    open_page(browser, radio_server.url("/radio/?lang=en"))
    wait(browser, lambda d: visible(d, "#live-empty") and visible(d, "#episodes-empty") and visible(d, "#shows-empty"),
         "the empty states did not show")
    assert text(browser, "#live-empty") == "Nothing is live right now."
    assert text(browser, "#episodes-empty") == "No episodes yet."
    assert not visible(browser, "#episodes-table") and not visible(browser, "#player")
    assert not visible(browser, "#live-error") and not visible(browser, "#episodes-error")
    open_page(browser, radio_server.url("/radio/?lang=it"))
    wait(browser, lambda d: visible(d, "#live-empty"), "the Italian empty state did not show")
    assert text(browser, "#live-heading") == "In onda ora"
    assert text(browser, "#live-empty") == "Nessuna trasmissione in onda in questo momento."
    assert severe_console_entries(browser) == []


def test_imported_episode_is_listed_plays_and_seeks(radio_server, browser, tmp_path):
    need_ffmpeg()
    show = create_show(radio_server, "Page Show")
    mp3 = make_mp3(tmp_path / "episode.mp3", 12, 330)
    made = quintet("radio", "import-episode", "--data", str(radio_server.data_dir), "--show", str(show["id"]),
                   "--title", "First <b>episode</b>", "--json", str(mp3))
    assert made.returncode == 0, made.stderr
    episode = json.loads(made.stdout)
    assert episode["state"] == "published"

    open_page(browser, radio_server.url("/radio/?lang=en"))
    row_selector = f"tr[data-episode-id='{episode['id']}']"
    wait(browser, lambda d: visible(d, row_selector), "the imported episode is not listed")
    assert not visible(browser, "#episodes-empty")
    row = browser.find_element(By.CSS_SELECTOR, row_selector)
    assert row.find_element(By.CSS_SELECTOR, ".episode-title").text == "First <b>episode</b>"  # text, not markup
    assert row.find_elements(By.CSS_SELECTOR, "b") == []
    assert row.find_element(By.CSS_SELECTOR, "td.show").text == "Page Show"
    assert row.find_element(By.CSS_SELECTOR, "td.duration").text == "0:12"
    assert row.find_element(By.CSS_SELECTOR, "td.listens").text == "0"
    assert row.find_element(By.CSS_SELECTOR, "td.date time").get_attribute("datetime")

    # The show is listed with its feed, and the feed holds the episode.
    feed = browser.find_element(By.CSS_SELECTOR, f"li[data-show-id='{show['id']}'] a.feed")
    href = feed.get_attribute("href")
    assert href == radio_server.url(f"/radio/feeds/{show['id']}.xml")
    answer = requests.get(href, timeout=10)
    assert answer.status_code == 200 and f"/radio/episodes/{episode['id']}.mp3" in answer.text

    click(browser, row.find_element(By.CSS_SELECTOR, "button[data-play-episode]"))
    wait_playing(browser)
    state = audio_state(browser)
    assert state["src"] == radio_server.url(f"/radio/episodes/{episode['id']}.mp3") and state["kind"] == "episode"
    assert visible(browser, "#player") and text(browser, "#player-title") == "First <b>episode</b>"
    row = browser.find_element(By.CSS_SELECTOR, row_selector)
    assert "playing" in row.get_attribute("class")
    assert browser.execute_script("return document.activeElement.dataset.playEpisode") == str(episode["id"])
    # Seeking asks for a range: the element jumps ahead and goes on playing.
    browser.execute_script("document.querySelector('#audio').currentTime = 9")
    wait(browser, lambda d: audio_state(d)["time"] >= 9.2 and not audio_state(d)["paused"], "seeking did not work")
    assert not audio_state(browser)["error"]
    browser.execute_script("document.querySelector('#audio').pause()")
    assert not visible(browser, "#player-error")
    assert severe_console_entries(browser) == []


def test_live_mount_listed_with_hostile_title_and_played(radio_server, browser, tmp_path):
    need_ffmpeg()
    show = create_show(radio_server, "Live <i>Page</i> Show")
    mp3 = make_mp3(tmp_path / "live.mp3", 60, 440)
    open_page(browser, radio_server.url("/radio/?lang=en"))
    wait(browser, lambda d: visible(d, "#live-empty"), "the page did not load")
    source = start_source(radio_server, show, mp3)
    try:
        wait_live(radio_server, show["mount"])
        item = f"li[data-mount='{show['mount']}']"
        started = time.monotonic()
        wait(browser, lambda d: visible(d, item), "the live mount was not listed within 15 s", timeout=LIVE_WAIT)
        assert time.monotonic() - started <= LIVE_WAIT
        assert text(browser, f"{item} .live-show") == "Live <i>Page</i> Show"
        assert not visible(browser, "#live-empty")

        # A hostile title set through the metadata API is shown as text, within 15 s.
        answer = requests.post(radio_server.url("/api/radio/metadata"), auth=("source", show["key"]), timeout=10,
                               json={"mount": show["mount"], "title": HOSTILE})
        assert answer.status_code == 200, answer.text
        live = requests.get(radio_server.url("/api/radio/live"), timeout=10).json()["mounts"]
        assert [m["title"] for m in live if m["mount"] == show["mount"]] == [HOSTILE]
        wait(browser, lambda d: text(d, f"{item} .live-title") == HOSTILE, "the live title did not show within 15 s",
             timeout=LIVE_WAIT)
        assert browser.execute_script("return window.__pwned === undefined")
        assert browser.execute_script(
            "return document.querySelectorAll('#live-list script, #live-list img, #live-list i').length") == 0
        assert "0 listeners" in text(browser, f"{item} .meta")

        # Listen: the audio element plays the mount's stream.
        click(browser, browser.find_element(By.CSS_SELECTOR, f"{item} button[data-play-live]"))
        wait_playing(browser, beyond=1.0)
        state = audio_state(browser)
        assert state["kind"] == "live" and state["id"] == show["mount"]
        assert state["src"] == radio_server.url(show["mount"])
        assert visible(browser, "#player-live") and text(browser, "#player-title") == HOSTILE
        # The listener is counted in the next refresh.
        wait(browser, lambda d: "1 listener" in (text(d, f"{item} .meta") or ""), "the listener was not counted",
             timeout=LIVE_WAIT)

        browser.execute_script("document.activeElement.blur()")
        scroll_to(browser, "0")
        path = ARTIFACTS / "radio.png"
        path.unlink(missing_ok=True)
        assert browser.save_screenshot(str(path))
        assert path.stat().st_size > 0
        browser.execute_script("document.querySelector('#audio').pause()")
    finally:
        source.terminate()
        source.wait(timeout=15)
    # The broadcast ends (after the 10 s grace period): the list empties and the episode appears.
    wait(browser, lambda d: visible(d, "#live-empty"), "the ended broadcast stayed listed", timeout=10 + 2 * LIVE_WAIT)
    wait(browser, lambda d: any(e.text == "Live <i>Page</i> Show" for e in d.find_elements(By.CSS_SELECTOR, "#episodes-list td.show")),
         "the recorded broadcast is not listed as an episode")
    assert severe_console_entries(browser) == []
