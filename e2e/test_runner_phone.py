"""The runner page as a phone uses it, in a real Chromium against a real `quintet serve`:
the motion sensor's own path (DeviceMotionEvents dispatched into the page at 60 Hz, walking
then running), the iOS permission question answered "denied", the screen wake lock (held and
released, or missing with a note), the lock screen's Media Session (metadata and buttons), a
song that ends bringing the next, the run's time and its list of songs.

The library is made here by ffmpeg: sine tones with a TBPM tag and a cover, long ones at
walking and running tempos and two 3-second ones for the song-end test."""

from __future__ import annotations

import shutil
import subprocess

import pytest
import requests
from selenium.webdriver.common.by import By

from conftest import ARTIFACTS, open_page, severe_console_entries, start_server, stop_server, wait
from test_runner_page import shown, spm, text  # the runner page's readers, one copy

FFMPEG = shutil.which("ffmpeg") or "ffmpeg"

# (file, title, artist, BPM, seconds)
SONGS = [
    ("stroll.mp3", "Stroll", "Walkers", 110, 40),
    ("amble.mp3", "Amble", "Walkers", 112, 40),
    ("stride.mp3", "Stride", "Runners", 170, 40),
    ("tempo.mp3", "Tempo Run", "Runners", 168, 40),
    ("half.mp3", "Half Time", "Runners", 85, 40),
    ("short-a.mp3", "Short One", "Brief", 140, 3),
    ("short-b.mp3", "Short Two", "Brief", 141, 3),
]
WALKING = {110, 112}          # songs that fit ~110 spm (one beat a step)
RUNNING = {170, 168, 85}      # songs that fit ~170 spm (85 at double time)
SHORT = {"Short One", "Short Two"}


@pytest.fixture(scope="module")
def phone_server(tmp_path_factory):
    music = tmp_path_factory.mktemp("runner-phone-music")
    cover = music / "cover.png"
    subprocess.run([FFMPEG, "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "color=c=orange:s=64x64",
                    "-frames:v", "1", str(cover)], check=True)
    for index, (name, title, artist, bpm, seconds) in enumerate(SONGS):
        subprocess.run([FFMPEG, "-nostdin", "-loglevel", "error", "-y",
                        "-f", "lavfi", "-i", f"sine=frequency={330 + 20 * index}:duration={seconds}", "-i", str(cover),
                        "-map", "0:a", "-map", "1:v", "-c:v", "png", "-disposition:v", "attached_pic",
                        "-c:a", "libmp3lame", "-b:a", "64k", "-id3v2_version", "3",
                        "-metadata", f"title={title}", "-metadata", f"artist={artist}", "-metadata", "album=Phone Run",
                        "-metadata", f"TBPM={bpm}", str(music / name)], check=True)
    cover.unlink()
    running = start_server(tmp_path_factory.mktemp("runner-phone-data"), ARTIFACTS / "runner-phone-server.log",
                           ("--library", str(music)))
    try:
        running.wait_for_library(timeout=60)
        yield running
    finally:
        stop_server(running)


class InitScripts:
    """Scripts run in every new document before the page's own (CDP), removed at the end so
    the session's other tests see a plain browser."""

    def __init__(self, driver):
        self.driver, self.ids = driver, []

    def add(self, source: str) -> None:
        answer = self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": source})
        self.ids.append(answer["identifier"])

    def remove(self) -> None:
        for identifier in self.ids:
            self.driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": identifier})
        self.ids = []


@pytest.fixture
def page(phone_server, browser):
    """The runner page, signed in; init scripts added with `page.scripts.add` before `page.open()`."""
    scripts = InitScripts(browser)

    class Page:
        driver = browser

        @staticmethod
        def open():
            open_page(browser, phone_server.url("/runner/"))
            wait(browser, lambda d: shown(d, "#run-signin") or shown(d, "#run-app"), "neither sign-in nor the run shown")
            if shown(browser, "#run-signin"):
                name, password = phone_server.admin
                browser.find_element(By.CSS_SELECTOR, "#run-signin-name").send_keys(name)
                browser.find_element(By.CSS_SELECTOR, "#run-signin-password").send_keys(password)
                browser.find_element(By.CSS_SELECTOR, "#run-signin-submit").click()
            wait(browser, lambda d: shown(d, "#run-app"), "the run did not appear after signing in")

    Page.scripts = scripts
    Page.server = phone_server
    try:
        yield Page
    finally:
        scripts.remove()
        # Leave no run behind: stop it if one is on.
        browser.execute_script("const b = document.querySelector('#run-stop'); if (b && !b.disabled) b.click();")


def choose_source(driver, source: str, cadence: int | None = None) -> None:
    driver.execute_script("""
        const source = document.querySelector('#run-source'); source.value = arguments[0];
        source.dispatchEvent(new Event('change'));
        if (arguments[1] !== null) {
          const slider = document.querySelector('#run-simulate-spm'); slider.value = String(arguments[1]);
          slider.dispatchEvent(new Event('input'));
        }""", source, cadence)


def playing(driver) -> dict:
    """The song the page plays: its id (as the page set it on the <audio>), title and BPM."""
    return driver.execute_script("""
        const audio = document.querySelector('#run-audio');
        return { id: audio.dataset.songId || null, src: audio.getAttribute('src'), paused: audio.paused,
                 time: audio.currentTime, title: document.querySelector('#run-song-title').textContent,
                 tempo: document.querySelector('#run-song-tempo').textContent };""")


def song_bpm(server, song_id) -> float:
    answer = requests.get(server.url(f"/api/library/songs/{song_id}"), auth=server.admin, timeout=10)
    answer.raise_for_status()
    return answer.json()["bpm"]


# A phone in a trouser pocket, 60 Hz, driven by a timer in the page: per step a heel-strike
# impact on the vertical axis (left and right feet unlike), the body's bounce at the step rate,
# the thigh's swing at the stride rate tilting the phone ±20°, gravity included, a little noise.
# window.__gait.spm is the cadence; each DeviceMotionEvent is dispatched at its own time, so its
# timeStamp (what the page sends) is the time the sample describes.
GAIT = """
const g = 9.80665;
const gait = window.__gait = { spm: arguments[0], sent: 0, timer: 0, since: performance.now() };
gait.rate = () => gait.sent / ((performance.now() - gait.since) / 1000);
let seed = 7;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const noise = () => 0.02 * g * (random() + random() + random() - 1.5);
let lastStep = performance.now() / 1000, nextStep = lastStep + 60 / gait.spm, left = true;
let due = performance.now();
const period = 1000 / 60;
gait.timer = setInterval(() => {
  const now = performance.now();
  if (now < due) return;
  due = now - due > period ? now + period : due + period;  // a stalled timer skips, never bunches
  const t = now / 1000;
  while (t >= nextStep) {
    lastStep = nextStep; left = !left;
    nextStep += (60 / gait.spm) * (1 + 0.02 * (random() * 2 - 1));
  }
  const step = 60 / gait.spm, tau = t - lastStep, running = gait.spm >= 140;
  const impact = (running ? 1.6 : 0.55) * (left ? 1 : 0.8) * Math.exp(-0.5 * ((tau - 0.03) / 0.025) ** 2);
  const bounce = (running ? 0.5 : 0.2) * Math.cos(2 * Math.PI * tau / step);
  const strideRate = gait.spm / 120;
  const swing = (running ? 0.25 : 0.12) * Math.sin(2 * Math.PI * strideRate * t);
  const vertical = (1 + impact + bounce + swing) * g;
  const forward = 0.15 * g * Math.sin(2 * Math.PI * tau / step);
  const tilt = 0.35 * Math.sin(2 * Math.PI * strideRate * t + 0.5);     // the thigh's swing
  const c = Math.cos(tilt), s = Math.sin(tilt);
  // Body frame (forward, side, up) turned about the side axis into the phone's frame.
  const withGravity = { x: c * forward - s * vertical + noise(), y: noise(), z: s * forward + c * vertical + noise() };
  const acceleration = { x: withGravity.x + s * g, y: withGravity.y, z: withGravity.z - c * g };
  window.dispatchEvent(new DeviceMotionEvent("devicemotion", {
    acceleration, accelerationIncludingGravity: withGravity,
    rotationRate: { alpha: 0, beta: 40 * Math.cos(2 * Math.PI * strideRate * t), gamma: 0 }, interval: 16.67 }));
  gait.sent += 1;
}, 4);
"""


def test_the_motion_sensor_path_follows_walking_then_running(page):
    """DeviceMotionEvents into the page's own listener: the cadence shown follows 110 then
    170 spm within 2, and the song changes from a walking song to a running one."""
    page.open()
    d = page.driver
    choose_source(d, "motion")
    assert d.execute_script("return window.isSecureContext") and not shown(d, "#run-insecure")  # 127.0.0.1 is secure
    d.execute_script(GAIT, 110)
    d.find_element(By.CSS_SELECTOR, "#run-start").click()
    wait(d, lambda d: abs((spm(d) or 0) - 110) <= 2, lambda: f"the cadence shown is not 110 ± 2: {text(d, '#run-spm')}")
    assert text(d, "#run-state") == "walking"
    first = wait(d, lambda d: playing(d)["id"], "no song while walking")
    wait(d, lambda d: song_bpm(page.server, playing(d)["id"]) in WALKING,
         lambda: f"the song for walking is not one at 110-112 BPM: {playing(d)}")
    walking_song = playing(d)["id"]
    rate = d.execute_script("return window.__gait.rate()")
    # 60 Hz asked; a loaded machine delays the page's timer (a late tick is skipped, never bunched).
    assert 30 <= rate <= 61, f"the events came at {rate:.1f} Hz, not about 60"

    d.execute_script("window.__gait.spm = 170")
    wait(d, lambda d: abs((spm(d) or 0) - 170) <= 2, lambda: f"the cadence shown is not 170 ± 2: {text(d, '#run-spm')}")
    assert text(d, "#run-state") == "running"
    wait(d, lambda d: playing(d)["id"] != walking_song and song_bpm(page.server, playing(d)["id"]) in RUNNING,
         lambda: f"the song did not change to a running one: {playing(d)}", timeout=25)
    tempo = playing(d)["tempo"]
    assert "against your 1" in tempo, tempo  # chosen for the running cadence (…your 170 steps per minute)

    # The run's songs: the walking one, then the running one, each with the cadence it was chosen at.
    rows = d.find_elements(By.CSS_SELECTOR, "#run-played-list li")
    assert len(rows) >= 2 and first in [r.get_attribute("data-song-id") for r in rows]
    last = rows[-1].text
    assert "BPM" in last and "chosen at 1" in last, last
    d.execute_script("clearInterval(window.__gait.timer)")
    assert severe_console_entries(d) == []


def test_ios_permission_denied_then_a_run_without_wake_lock_whose_song_ends(page):
    """requestPermission answers "denied": asked within the click, the run does not start and
    the page says what to do. Then a run on simulated steps: without navigator.wakeLock it
    shows a note to keep the screen on, and its 3-second song plays to its end and the page
    asks for the next and plays it."""
    page.scripts.add("""
        window.__asked = [];
        DeviceMotionEvent.requestPermission = async () => {
          window.__asked.push(navigator.userActivation ? navigator.userActivation.isActive : null);
          return "denied";
        };
        delete Navigator.prototype.wakeLock;""")
    page.open()
    d = page.driver
    assert d.execute_script("return 'wakeLock' in navigator") is False
    choose_source(d, "motion")
    d.find_element(By.CSS_SELECTOR, "#run-start").click()
    wait(d, lambda d: shown(d, "#run-sensor-help"), "no explanation after the sensor was denied")
    assert d.execute_script("return window.__asked") == [True]  # asked once, within the tap
    help_text = text(d, "#run-sensor-help")
    assert "Settings → Safari → Motion & Orientation Access" in help_text and "Allow" in help_text, help_text
    assert "denied" in text(d, "#run-status")
    assert d.find_element(By.CSS_SELECTOR, "#run-start").is_enabled()
    assert not d.find_element(By.CSS_SELECTOR, "#run-stop").is_enabled()
    assert not shown(d, "#run-wakelock")

    # Simulated steps need no permission; the missing wake lock is noted while the run lasts.
    d.execute_script("window.__ended = []; document.querySelector('#run-audio')"
                     ".addEventListener('ended', (e) => window.__ended.push(e.target.dataset.songId))")
    choose_source(d, "simulate", 141)
    d.find_element(By.CSS_SELECTOR, "#run-start").click()
    wait(d, lambda d: shown(d, "#run-wakelock"), "no note about the screen")
    assert not shown(d, "#run-sensor-help")
    assert d.find_element(By.CSS_SELECTOR, "#run-wakelock").get_attribute("data-state") == "missing"
    assert "keep the screen on yourself" in text(d, "#run-wakelock")
    assert d.execute_script("return window.__asked.length") == 1  # simulated steps do not ask

    # The song (3 s, the fit for 141 spm) ends: the next comes without a tap.
    first = wait(d, lambda d: (p := playing(d))["id"] and p, "no song chosen")
    assert first["title"] in SHORT, first
    wait(d, lambda d: d.execute_script("return window.__ended.length") > 0, "the song did not end")
    assert d.execute_script("return window.__ended[0]") == first["id"]
    second = wait(d, lambda d: (p := playing(d))["id"] not in (None, first["id"]) and p, "no next song after the end")
    assert second["title"] in SHORT - {first["title"]}, second
    wait(d, lambda d: playing(d)["time"] > 0, "the next song does not play")
    rows = d.find_elements(By.CSS_SELECTOR, "#run-played-list li")
    assert [r.get_attribute("data-song-id") for r in rows][:2] == [first["id"], second["id"]]
    d.find_element(By.CSS_SELECTOR, "#run-stop").click()
    wait(d, lambda d: not shown(d, "#run-wakelock"), "the note stayed after the run")
    assert severe_console_entries(d) == []


def test_lock_screen_controls_wake_lock_and_elapsed_time(page):
    """The Media Session shows the playing song (title, artist, album, cover) and its buttons
    work: next changes the song, pause pauses the audio, play resumes. The screen wake lock is
    held during the run and released at Stop. The run's time counts up."""
    page.scripts.add("""
        window.__handlers = {};
        const set = MediaSession.prototype.setActionHandler;
        MediaSession.prototype.setActionHandler = function (action, handler) {
          window.__handlers[action] = handler;
          return set.call(this, action, handler);
        };
        window.__locks = [];
        const request = WakeLock.prototype.request;
        WakeLock.prototype.request = async function (type) {
          const sentinel = await request.call(this, type);
          window.__locks.push(sentinel);
          return sentinel;
        };""")
    d = page.driver
    d.execute_cdp_cmd("Browser.setPermission", {"permission": {"name": "screen-wake-lock"}, "setting": "granted",
                                                 "origin": page.server.base_url})
    page.open()
    assert set(d.execute_script("return Object.keys(window.__handlers)")) >= {"play", "pause", "nexttrack", "stop"}
    choose_source(d, "simulate", 110)
    d.find_element(By.CSS_SELECTOR, "#run-start").click()
    first = wait(d, lambda d: (p := playing(d))["id"] and not p["paused"] and p["time"] > 0 and p,
                 lambda: f"no song playing: {playing(d)}")

    def metadata(d):
        return d.execute_script("""
            const m = navigator.mediaSession.metadata;
            return m && { title: m.title, artist: m.artist, album: m.album, artwork: m.artwork.map((a) => [a.src, a.sizes]),
                          state: navigator.mediaSession.playbackState };""")

    shown_meta = wait(d, lambda d: (m := metadata(d)) and m["album"] and m, lambda: f"no lock-screen metadata: {metadata(d)}")
    details = requests.get(page.server.url(f"/api/library/songs/{first['id']}"), auth=page.server.admin, timeout=10).json()
    assert (shown_meta["title"], shown_meta["artist"], shown_meta["album"]) == (details["title"], details["artist"], "Phone Run")
    assert shown_meta["title"] == first["title"] and shown_meta["state"] == "playing"
    sizes = [size for _, size in shown_meta["artwork"]]
    assert sizes == ["96x96", "256x256", "512x512"], shown_meta
    cover = requests.get(shown_meta["artwork"][-1][0], auth=page.server.admin, timeout=30)
    assert cover.status_code == 200 and cover.headers["Content-Type"].startswith("image/")
    assert f"/api/library/songs/{first['id']}/cover" in shown_meta["artwork"][0][0]

    # The screen is kept on.
    assert d.find_element(By.CSS_SELECTOR, "#run-wakelock").get_attribute("data-state") == "held"
    assert not shown(d, "#run-wakelock")
    assert d.execute_script("return window.__locks.length === 1 && !window.__locks[0].released")
    # Hidden (another tab in front), the browser drops the lock; shown again, the page takes a new one.
    original = d.current_window_handle
    d.switch_to.new_window("tab")
    d.close()
    d.switch_to.window(original)
    d.execute_cdp_cmd("Page.bringToFront", {})
    wait(d, lambda d: d.execute_script(
        "return window.__locks.length === 2 && window.__locks[0].released && !window.__locks[1].released"),
        lambda: "no new wake lock after the page was shown again: " + d.execute_script(
            "return JSON.stringify([document.visibilityState, window.__locks.map((l) => l.released)])"))
    assert d.find_element(By.CSS_SELECTOR, "#run-wakelock").get_attribute("data-state") == "held"

    # The lock screen's buttons.
    d.execute_script("window.__handlers.nexttrack({ action: 'nexttrack' })")
    second = wait(d, lambda d: (p := playing(d))["id"] not in (None, first["id"]) and p, "nexttrack did not change the song")
    wait(d, lambda d: metadata(d)["title"] == second["title"], lambda: f"the lock screen still shows {metadata(d)}")
    wait(d, lambda d: not playing(d)["paused"], "the next song does not play")
    d.execute_script("window.__handlers.pause({ action: 'pause' })")
    wait(d, lambda d: playing(d)["paused"] and text(d, "#run-status") == "Paused.", "pause did not pause the audio")
    assert metadata(d)["state"] == "paused"
    d.execute_script("window.__handlers.play({ action: 'play' })")
    wait(d, lambda d: not playing(d)["paused"] and text(d, "#run-status") == "Running.", "play did not resume")

    # The run's time, m:ss, counting.
    wait(d, lambda d: text(d, "#run-elapsed") not in ("0:00", "0:01"), "the run's time does not count")
    assert text(d, "#run-elapsed").startswith("0:0")
    played = d.find_elements(By.CSS_SELECTOR, "#run-played-list li")
    assert [r.get_attribute("data-song-id") for r in played] == [first["id"], second["id"]]
    assert "110 BPM" in played[0].text or "112 BPM" in played[0].text, played[0].text

    d.execute_script("window.__handlers.stop({ action: 'stop' })")
    wait(d, lambda d: text(d, "#run-status") == "Stopped.", "stop was not confirmed")
    wait(d, lambda d: d.execute_script("return window.__locks.every((l) => l.released)"), "the wake lock was not released at Stop")
    assert d.find_element(By.CSS_SELECTOR, "#run-wakelock").get_attribute("data-state") == "off"
    assert metadata(d)["state"] == "none"
    assert severe_console_entries(d) == []


def library_rows(d) -> list[dict]:
    return d.execute_script("""
        return [...document.querySelectorAll('#run-library-body tr')].map((tr) => ({
          id: tr.dataset.songId, title: tr.querySelector('.song-title').textContent,
          artist: tr.querySelector('.song-artist').textContent, bpm: tr.querySelector('.song-bpm').textContent }));""")


def bpm_of(row: dict) -> float:
    return float(row["bpm"].split(" ")[0])


def row(d, title: str):
    return d.find_element(By.XPATH, f"//tbody[@id='run-library-body']/tr[td[@class='song-title' and text()='{title}']]")


def test_songs_for_running_sorted_with_bpm_by_hand_and_never_while_running(page):
    """The songs for running, sorted by BPM, title, artist; a BPM set by hand and undone; a song
    put on the never-while-running list is not chosen by a run, and one marked while it plays
    is skipped at once; the undo takes it off. Every control is a 44 px target on a phone."""
    server, d = page.server, page.driver
    page.open()
    d.find_element(By.CSS_SELECTOR, "#run-library summary").click()
    wait(d, lambda d: len(library_rows(d)) == len(SONGS), lambda: f"the songs for running: {library_rows(d)}")
    assert [bpm_of(r) for r in library_rows(d)] == sorted(bpm for *_, bpm, _ in SONGS)
    assert text(d, "#run-library-status") == f"{len(SONGS)} songs"
    header = lambda key: d.find_element(By.CSS_SELECTOR, f"#run-library-table th[data-sort='{key}']")
    assert header("bpm").get_attribute("aria-sort") == "ascending"
    header("title").find_element(By.TAG_NAME, "button").click()
    titles = sorted(title for _, title, *_ in SONGS)
    wait(d, lambda d: [r["title"] for r in library_rows(d)] == titles, lambda: f"not by title: {library_rows(d)}")
    assert header("title").get_attribute("aria-sort") == "ascending" and header("bpm").get_attribute("aria-sort") == "none"
    header("title").find_element(By.TAG_NAME, "button").click()
    wait(d, lambda d: [r["title"] for r in library_rows(d)] == titles[::-1], lambda: f"not by title, descending: {library_rows(d)}")
    assert header("title").get_attribute("aria-sort") == "descending"
    header("artist").find_element(By.TAG_NAME, "button").click()
    wait(d, lambda d: [r["artist"] for r in library_rows(d)] == sorted(artist for _, _, artist, *_ in SONGS),
         lambda: f"not by artist: {library_rows(d)}")

    # A BPM by hand: out of range is refused in the page, 171.5 is stored, the reset undoes it.
    stroll = row(d, "Stroll")
    song_id = stroll.get_attribute("data-song-id")
    stroll.find_element(By.CSS_SELECTOR, "details.bpm-edit summary").click()
    field = stroll.find_element(By.CSS_SELECTOR, "input[type=number]")
    assert field.get_attribute("aria-label") == "BPM of Stroll"
    field.clear()
    field.send_keys("20")
    stroll.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(d, lambda d: row(d, "Stroll").find_element(By.CSS_SELECTOR, ".bpm-message").text == "A BPM is a number from 30 to 300.",
         "no message for a BPM out of range")
    assert song_bpm(server, song_id) == 110
    field.clear()
    field.send_keys("171.5")
    stroll.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(d, lambda d: row(d, "Stroll").find_element(By.CSS_SELECTOR, ".song-bpm").text == "171.5 BPM (set by you)",
         lambda: f"the BPM set by hand is not shown: {library_rows(d)}")
    stored = requests.get(server.url(f"/api/library/songs/{song_id}"), auth=server.admin, timeout=10).json()
    assert (stored["bpm"], stored["bpm_source"]) == (171.5, "override")
    row(d, "Stroll").find_element(By.CSS_SELECTOR, "details.bpm-edit summary").click()
    reset = row(d, "Stroll").find_element(By.CSS_SELECTOR, "button.bpm-reset")
    assert reset.is_displayed() and "110" in reset.text, reset.text
    reset.click()
    wait(d, lambda d: row(d, "Stroll").find_element(By.CSS_SELECTOR, ".song-bpm").text == "110 BPM",
         lambda: f"the reset did not bring back 110: {library_rows(d)}")
    stored = requests.get(server.url(f"/api/library/songs/{song_id}"), auth=server.admin, timeout=10).json()
    assert stored["bpm"] == 110 and stored["bpm_source"] != "override"

    # Never while running: Stride (170 BPM, the exact fit for 170 spm) is kept out of a run.
    never = lambda: [s["id"] for s in requests.get(server.url("/api/runner/never"), auth=server.admin, timeout=10).json()["songs"]]
    stride = row(d, "Stride")
    stride_id = int(stride.get_attribute("data-song-id"))
    button = stride.find_element(By.CSS_SELECTOR, "button.never")
    assert button.get_attribute("aria-label") == "Never play Stride while running"
    button.click()
    wait(d, lambda d: row(d, "Stride").find_element(By.CSS_SELECTOR, "button.never").get_attribute("aria-pressed") == "true",
         "the never button did not turn into its undo")
    assert never() == [stride_id]
    assert row(d, "Stride").find_element(By.CSS_SELECTOR, "button.never").text == "Undo: play it again"

    choose_source(d, "simulate", 170)
    d.find_element(By.CSS_SELECTOR, "#run-start").click()
    first = wait(d, lambda d: (p := playing(d))["id"] and p, "no song chosen")
    assert first["title"] != "Stride" and song_bpm(server, first["id"]) in RUNNING - {170}, first
    # Marked while it plays: skipped at once, and listed as never in this run's list.
    played_row = d.find_element(By.CSS_SELECTOR, f"#run-played-list li[data-song-id='{first['id']}']")
    assert "chosen at 1" in played_row.text
    played_row.find_element(By.CSS_SELECTOR, "button.never").click()
    second = wait(d, lambda d: (p := playing(d))["id"] not in (None, first["id"]) and p, "the song marked never kept playing")
    assert second["title"] != "Stride"
    assert sorted(never()) == sorted([stride_id, int(first["id"])])

    # Every control of the run is a 44 px target on a phone.
    d.set_window_size(390, 844)
    try:
        small = d.execute_script("""
            const targets = document.querySelectorAll('#run-app button, #run-app select, #run-app input, #run-app summary');
            return [...targets].filter((e) => e.offsetParent !== null).map((e) => {
              // A checkbox's target is its label (a tap on the text ticks it).
              const r = (e.type === 'checkbox' ? e.closest('label') : e).getBoundingClientRect();
              return [e.id || e.className || e.textContent.trim(), Math.round(r.width), Math.round(r.height)];
            }).filter(([, w, h]) => w < 44 || h < 44);""")
    finally:
        d.set_window_size(1280, 900)
    assert small == [], small

    # The undo in this run's list takes the song off the list again.
    undo = d.find_element(By.CSS_SELECTOR, f"#run-played-list li[data-song-id='{first['id']}'] button.never")
    assert undo.get_attribute("aria-pressed") == "true"
    undo.click()
    wait(d, lambda d: never() == [stride_id], lambda: f"the undo did not take the song off: {never()}")
    requests.delete(server.url(f"/api/runner/never/{stride_id}"), auth=server.admin, timeout=10).raise_for_status()
    assert severe_console_entries(d) == []
