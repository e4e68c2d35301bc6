"""The studio page (/radio/studio, issue 22) in a real Chromium with a fake microphone
(`--use-fake-device-for-media-stream`, which beeps): signed out it shows the sign-in form and
no console errors; signed in, Go live streams the microphone through Web Audio and
MediaRecorder to the WebSocket ingest; ffprobe reads the live mount as MP3 while it runs; the
meters move; a 3 s network cut (the page's socket closed, kept down) is bridged — the page
reconnects, sends what it captured meanwhile, and the broadcast stays one episode as long as
the time on air."""

from __future__ import annotations

import array
import base64
import json
import math
import os
import subprocess
import time

import pytest
import requests
import websocket
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

from conftest import ADMIN_PASSWORD, ARTIFACTS, CHROMEDRIVER, CHROMIUM, open_page, severe_console_entries, wait
from test_radio_live import create_show, episodes_of, live_entry, need_ffmpeg, wait_episode_done, wait_live


@pytest.fixture(scope="module")
def browser():
    """A headless Chromium whose microphone is Chromium's fake device (a beep a second)."""
    yield from fake_microphone_browser("chromedriver-studio.log")


def fake_microphone_browser(log_name: str):
    """A headless Chromium with Chromium's fake microphone, media autoplay, and WebRTC host
    candidates as plain addresses (not mDNS names, which nothing resolves here)."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.access(path, os.X_OK):
            pytest.exit(f"{path} is missing: run `bash scripts/bootstrap.sh`", returncode=2)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900",
                     "--lang=en-US", "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
                     "--autoplay-policy=no-user-gesture-required", "--disable-features=WebRtcHideLocalIpsWithMdns"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER,
                                              log_output=str(ARTIFACTS / log_name)), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


def visible(driver, selector: str) -> bool:
    return driver.execute_script(f"const e = document.querySelector({json.dumps(selector)}); return !!e && !e.hidden")


def test_signed_out_shows_the_sign_in_form_without_console_errors(server, browser):
    browser.delete_all_cookies()
    open_page(browser, server.url("/radio/studio/"))
    wait(browser, lambda d: visible(d, "#signin"), "the sign-in form did not show")
    assert not visible(browser, "#console")
    assert severe_console_entries(browser) == []
    # The radio page links to it.
    open_page(browser, server.url("/radio/"))
    link = browser.find_element(By.CSS_SELECTOR, "a.studio-link")
    assert link.get_attribute("href").endswith("/radio/studio/")


def test_go_live_from_the_studio_with_a_network_cut(server, browser, tmp_path):
    need_ffmpeg()
    show = create_show(server, "E2E Studio Page")
    sign_in_to_studio(browser, server, show)
    browser.find_element(By.ID, "record").click()
    wait(browser, lambda d: d.find_element(By.ID, "connection").get_attribute("data-state") == "live",
         lambda: f"not on air: {browser.find_element(By.ID, 'connection').text} {browser.find_element(By.ID, 'console-error').text}",
         timeout=15)
    on_air = time.monotonic()
    assert browser.find_element(By.ID, "record").get_attribute("aria-pressed") == "true"
    wait_live(server, show["mount"])
    # ffprobe reads the live stream as MP3 while it runs.
    probe = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=codec_name", "-of", "json",
                            server.url(show["mount"])], capture_output=True, text=True, timeout=30)
    assert json.loads(probe.stdout)["streams"][0]["codec_name"] == "mp3", probe.stderr
    # The fake microphone beeps: the meters leave the floor.
    wait(browser, lambda d: float(d.find_element(By.ID, "mic-meter").get_attribute("aria-valuenow")) > -40,
         "the microphone meter did not move", timeout=10)
    wait(browser, lambda d: float(d.find_element(By.ID, "out-meter").get_attribute("aria-valuenow")) > -40,
         "the output meter did not move", timeout=10)
    wait(browser, lambda d: "kbit/s" in d.find_element(By.ID, "network").text, "no network figure", timeout=10)
    # A listener chats: the newest message shows in the on-air row (as text), and the studio answers.
    basic = "Basic " + base64.b64encode(":".join(server.admin).encode()).decode()
    listener = websocket.create_connection(server.base_url.replace("http://", "ws://") + f"/api/radio/shows/{show['id']}/chat",
                                           timeout=10, header=[f"Authorization: {basic}"])
    try:
        assert json.loads(listener.recv())["type"] == "hello"
        listener.send(json.dumps({"type": "say", "text": "<b>hello studio</b>"}))
        wait(browser, lambda d: visible(d, "#chat-preview") and "<b>hello studio</b>" in d.find_element(By.ID, "chat-preview").text,
             "the chat preview did not show the message", timeout=10)
        browser.find_element(By.ID, "chat-preview").click()
        browser.find_element(By.ID, "studio-chat-text").send_keys("thanks, on air")
        browser.find_element(By.CSS_SELECTOR, "#studio-chat-form button").click()
        def answer(_):
            message = json.loads(listener.recv())
            return message if message.get("type") == "message" and message.get("text") == "thanks, on air" else None
        assert wait(browser, answer, "the studio's answer did not reach the listener", timeout=10)["text"] == "thanks, on air"
    finally:
        listener.close()
    # A 3 s cut: the socket closes and stays down; the page reconnects within the grace period.
    browser.execute_script("window.quintetStudio.broadcast.cut(3000)")
    wait(browser, lambda d: d.find_element(By.ID, "connection").get_attribute("data-state") == "reconnecting",
         "the cut was not noticed", timeout=5)
    wait(browser, lambda d: d.find_element(By.ID, "connection").get_attribute("data-state") == "live",
         "the page did not come back on air", timeout=15)
    assert browser.execute_script("return window.quintetStudio.broadcast.reconnects") == 1
    time.sleep(2)  # on air a little after the cut: the scenario, not a wait for a state
    browser.find_element(By.ID, "record").click()
    off_air = time.monotonic()
    wait(browser, lambda d: d.find_element(By.ID, "connection").get_attribute("data-state") == "idle",
         "the broadcast did not stop", timeout=10)
    assert severe_console_entries(browser) == []
    episodes = wait_episode_done(server, show, timeout=40)
    assert len(episodes) == 1, episodes
    # As long as the time on air: what the cut held back was sent after it, not lost.
    assert abs(episodes[0]["duration"] - (off_air - on_air)) < 1.5, (episodes[0], off_air - on_air)


def decoded_seconds(path) -> float:
    """Seconds of audio ffmpeg decodes from `path` (errors fail the test)."""
    out = subprocess.run(["ffmpeg", "-hide_banner", "-v", "error", "-xerror", "-i", str(path), "-ac", "1", "-ar", "8000",
                          "-f", "s16le", "-"], capture_output=True, timeout=60)
    assert out.returncode == 0, out.stderr.decode(errors="replace")
    return len(out.stdout) / 2 / 8000


@pytest.mark.parametrize("container", ["webm", "ogg"])
def test_a_stream_cut_in_two_decodes_as_two_valid_streams(server, browser, tmp_path, container):
    """units.js on a real Opus stream from ffmpeg, fed in uneven pieces: the units before and
    after a cut, each sent as its own stream (header + units), decode without error and add
    up to the whole."""
    need_ffmpeg()
    source = tmp_path / f"whole.{container}"
    extra = ["-cluster_time_limit", "1000"] if container == "webm" else ["-page_duration", "200000"]
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=6",
                    "-c:a", "libopus", "-b:a", "64k", *extra, "-f", container, str(source)], check=True, timeout=60)
    whole = decoded_seconds(source)
    open_page(browser, server.url("/radio/studio/"))
    parts = browser.execute_async_script("""
        const [b64, type, done] = arguments;
        import("/radio/studio/units.js").then(({ StreamCutter }) => {
          const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
          const cutter = new StreamCutter(type);
          const units = [];
          // Uneven pieces, as MediaRecorder slices are (a piece may end inside an element).
          let at = 0, size = 7;
          while (at < bytes.length) {
            units.push(...cutter.push(bytes.subarray(at, at + size)));
            at += size;
            size = (size * 7 + 13) % 3001 + 1;
          }
          const half = Math.floor(units.length / 2);
          const stream = (list) => {
            const sent = { cluster: null };
            const pieces = [cutter.header, ...list.map((u) => cutter.frame(u, sent))];
            let text = "";
            for (const piece of pieces) for (const byte of piece) text += String.fromCharCode(byte);
            return btoa(text);
          };
          done({ count: units.length, first: stream(units.slice(0, half)), second: stream(units.slice(half)) });
        }).catch((err) => done({ error: String(err) }));
    """, base64.b64encode(source.read_bytes()).decode(), f"audio/{container}")
    assert "error" not in parts, parts
    assert parts["count"] > 10
    first, second = tmp_path / f"first.{container}", tmp_path / f"second.{container}"
    first.write_bytes(base64.b64decode(parts["first"]))
    second.write_bytes(base64.b64decode(parts["second"]))
    a, b = decoded_seconds(first), decoded_seconds(second)
    assert a > 1 and b > 1
    assert abs(a + b - whole) < 0.1, (a, b, whole)


def rms_per_second(mp3: bytes, tmp_path) -> list[float]:
    """dBFS RMS of each second of an MP3 (decoded to 8 kHz mono by ffmpeg)."""
    path = tmp_path / "episode.mp3"
    path.write_bytes(mp3)
    out = subprocess.run(["ffmpeg", "-hide_banner", "-v", "error", "-i", str(path), "-ac", "1", "-ar", "8000",
                          "-f", "s16le", "-"], capture_output=True, timeout=60, check=True).stdout
    samples = array.array("h", out)
    levels = []
    for start in range(0, len(samples) - 8000 + 1, 8000):
        window = samples[start:start + 8000]
        power = sum(x * x for x in window) / len(window)
        levels.append(10 * math.log10(power / 32768 ** 2) if power > 0 else -120.0)
    return levels


def integrated_lufs(path) -> float:
    """The integrated loudness ffmpeg's loudnorm measures (its first pass)."""
    err = subprocess.run(["ffmpeg", "-hide_banner", "-nostdin", "-i", str(path), "-af", "loudnorm=print_format=json",
                          "-f", "null", "-"], capture_output=True, text=True, timeout=60).stderr
    return float(json.loads(err[err.rindex("{"):err.rindex("}") + 1])["input_i"])


def load_deck(browser, name: str, title: str):
    """Searches the library on deck `name` for `title`, loads the first result and waits for its
    waveform; returns the deck's element."""
    deck = browser.find_element(By.ID, f"deck-{name}")
    deck.find_element(By.CSS_SELECTOR, "input[type=search]").send_keys(title)
    deck.find_element(By.CSS_SELECTOR, ".deck-search button").click()
    wait(browser, lambda d: deck.find_elements(By.CSS_SELECTOR, ".deck-result"), "the search found nothing")
    deck.find_element(By.CSS_SELECTOR, ".deck-result").click()
    wait(browser, lambda d: deck.get_attribute("data-peaks") == "ready", "the waveform did not load", timeout=30)
    return deck


def sign_in_to_studio(browser, server, show: dict) -> None:
    browser.execute_cdp_cmd("Network.clearBrowserCookies", {})
    open_page(browser, server.url(f"/radio/studio/?show={show['id']}"))
    wait(browser, lambda d: visible(d, "#signin"), "the sign-in form did not show")
    browser.find_element(By.ID, "signin-name").send_keys("admin")
    browser.find_element(By.ID, "signin-password").send_keys(ADMIN_PASSWORD)
    browser.find_element(By.ID, "signin-submit").click()
    wait(browser, lambda d: visible(d, "#console") and d.find_element(By.ID, "show").get_attribute("value") == str(show["id"]),
         "the console did not show with the show picked")


def test_record_here_then_upload_after_a_broken_upload(server, browser):
    """Record here: 5 s of the fake microphone kept in IndexedDB; the upload breaks after two
    8 KiB pieces and is resumed from the server's offset; the episode is complete."""
    need_ffmpeg()
    show = create_show(server, "E2E Studio Record Here")
    sign_in_to_studio(browser, server, show)
    browser.find_element(By.CSS_SELECTOR, "input[name=mode][value=here]").click()
    record = browser.find_element(By.ID, "record")
    assert record.text == "Record here"
    record.click()
    wait(browser, lambda d: d.find_element(By.ID, "connection").get_attribute("data-state") == "here",
         "not recording here", timeout=10)
    time.sleep(5)  # the length of the recording: the scenario, not a wait for a state
    record.click()
    wait(browser, lambda d: visible(d, "#kept") and len(d.find_elements(By.CSS_SELECTOR, "#kept-list li")) == 1,
         "the recording was not kept", timeout=10)
    assert live_entry(server, show["mount"]) is None  # recorded here: never on air
    browser.execute_script("window.quintetStudio.uploadHooks = { piece: 8192, breakAfter: 2 };")
    browser.find_element(By.CSS_SELECTOR, "#kept-list .kept-upload").click()
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#kept-list li").get_attribute("data-state") == "broken",
         "the upload did not break", timeout=20)
    resume = browser.find_element(By.CSS_SELECTOR, "#kept-list .kept-upload")
    assert resume.text == "Resume the upload"
    resume.click()
    wait(browser, lambda d: not visible(d, "#kept"), "the upload did not finish", timeout=60)
    episodes = episodes_of(server, show)
    assert len(episodes) == 1 and abs(episodes[0]["duration"] - 5) < 1.0, episodes
    assert severe_console_entries(browser) == []


def test_the_basic_console_keeps_the_essentials(server, browser):
    """The basic console hides the decks, effects, crossfader and output meter and keeps the
    record button with its question, the level, the times and the connection; the choice stays."""
    show = create_show(server, "E2E Studio Basic")
    sign_in_to_studio(browser, server, show)
    toggle = browser.find_element(By.ID, "console-kind")
    if toggle.get_attribute("aria-pressed") == "true":
        toggle.click()
    assert toggle.get_attribute("aria-pressed") == "false"
    shown = lambda selector: browser.execute_script(  # noqa: E731
        f"const e = document.querySelector({json.dumps(selector)}); return !!e && e.offsetParent !== null")
    for selector in (".decks", "#effects", ".crossfader-strip", ".output-strip"):
        assert not shown(selector), selector
    for selector in ("#record", "input[name=mode][value=here]", "#mic-meter", "#elapsed", "#left", "#connection"):
        assert shown(selector), selector
    browser.refresh()
    wait(browser, lambda d: visible(d, "#console"), "the console did not show again")
    assert browser.find_element(By.ID, "console-kind").get_attribute("aria-pressed") == "false"
    browser.find_element(By.ID, "console-kind").click()
    assert shown(".decks") and shown("#effects")
