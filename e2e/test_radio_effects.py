"""The studio's effect pads (issue 22): uploads of one's own sounds checked for type, size and
length (`/api/radio/effects`), and the pads playing the bundled jingles and an upload into the
studio's mix in Chromium."""

from __future__ import annotations

import subprocess

import requests
from selenium.webdriver.common.by import By

from conftest import ADMIN_PASSWORD, open_page, severe_console_entries, wait
from test_cli import quintet
from test_radio_live import need_ffmpeg
from test_radio_studio import browser, visible  # noqa: F401  (the fake-microphone Chromium)


def tone(path, seconds: float) -> bytes:
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
                    "-i", f"sine=frequency=660:duration={seconds}", "-ac", "1", str(path)], check=True, timeout=60)
    return path.read_bytes()


def test_effect_uploads_are_checked_and_kept_per_user(server, tmp_path):
    need_ffmpeg()
    url = server.url("/api/radio/effects")
    assert requests.get(url, timeout=10).status_code == 401
    # A good one, with a hostile name: stored as MP3, the name kept as text without controls.
    added = requests.post(url, params={"name": "<b>Boing</b>\u0007\u202e"}, data=tone(tmp_path / "boing.wav", 2),
                          auth=server.admin, timeout=60)
    assert added.status_code == 201, added.text
    effect = added.json()
    assert effect["name"] == "<b>Boing</b>" and abs(effect["duration"] - 2) < 0.05, effect
    listed = requests.get(url, auth=server.admin, timeout=10).json()
    assert [e["id"] for e in listed["effects"]][-1] == effect["id"]
    assert listed["limits"] == {"bytes": 5 * 1024 * 1024, "seconds": 30, "count": 24}
    sound = requests.get(server.url(effect["url"]), auth=server.admin, timeout=10)
    assert sound.status_code == 200 and sound.headers["content-type"] == "audio/mpeg"
    probe = tmp_path / "got.mp3"
    probe.write_bytes(sound.content)
    codec = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", str(probe)],
                           capture_output=True, text=True, timeout=30).stdout.strip()
    assert codec == "mp3"
    # Refusals, each with its reason; nothing is stored by them.
    not_audio = requests.post(url, data=b"<html>not a sound</html>" * 100, auth=server.admin, timeout=30)
    assert not_audio.status_code == 422 and not_audio.json()["error"]["code"] == "not_audio", not_audio.text
    too_long = requests.post(url, data=tone(tmp_path / "long.wav", 31), auth=server.admin, timeout=60)
    assert too_long.status_code == 422 and too_long.json()["error"]["code"] == "too_long", too_long.text
    too_big = requests.post(url, data=b"\0" * (5 * 1024 * 1024 + 1), auth=server.admin, timeout=60)
    assert too_big.status_code == 413, too_big.text
    empty = requests.post(url, data=b"", auth=server.admin, timeout=10)
    assert empty.status_code == 400
    assert len(requests.get(url, auth=server.admin, timeout=10).json()["effects"]) == len(listed["effects"])
    # Another user sees none of them and cannot fetch or delete them.
    assert quintet("users", "add", "effects2", "--data", str(server.data_dir), stdin="effects-pass-2\n").returncode == 0
    other = ("effects2", "effects-pass-2")
    assert requests.get(url, auth=other, timeout=10).json()["effects"] == []
    assert requests.get(server.url(effect["url"]), auth=other, timeout=10).status_code == 404
    assert requests.delete(server.url(effect["url"]), auth=other, timeout=10).status_code == 404
    assert requests.get(server.url("/api/radio/effects/..%2F..%2Fquintet.sqlite"), auth=server.admin, timeout=10).status_code in (400, 404)
    # The owner deletes it.
    assert requests.delete(server.url(effect["url"]), auth=server.admin, timeout=10).status_code == 204
    assert requests.get(server.url(effect["url"]), auth=server.admin, timeout=10).status_code == 404


def test_pads_play_jingles_and_uploads_into_the_mix(server, browser, tmp_path):  # noqa: F811
    need_ffmpeg()
    browser.delete_all_cookies()
    open_page(browser, server.url("/radio/studio/"))
    wait(browser, lambda d: visible(d, "#signin"), "the sign-in form did not show")
    browser.find_element(By.ID, "signin-name").send_keys("admin")
    browser.find_element(By.ID, "signin-password").send_keys(ADMIN_PASSWORD)
    browser.find_element(By.ID, "signin-submit").click()
    wait(browser, lambda d: visible(d, "#console"), "the console did not show")
    pads = browser.find_elements(By.CSS_SELECTOR, "#effects .pad")
    assert [p.text for p in pads] == ["Chime", "Drum roll", "Applause"]
    browser.find_element(By.ID, "mic-on").click()  # the microphone off: only the pad is heard
    pads[0].click()
    wait(browser, lambda d: float(d.find_element(By.ID, "out-meter").get_attribute("aria-valuenow")) > -40,
         "the chime did not reach the output", timeout=5)
    # An upload through the page becomes a choice of every pad and plays.
    upload = browser.find_element(By.CSS_SELECTOR, "#effects input[type=file]")
    tone(tmp_path / "Whoosh.wav", 3)
    upload.send_keys(str(tmp_path / "Whoosh.wav"))
    browser.find_element(By.CSS_SELECTOR, "#effects .effect-upload button").click()
    wait(browser, lambda d: "Whoosh" in d.find_element(By.CSS_SELECTOR, "#effects .my-effects").text,
         lambda: f"the upload is not listed: {browser.find_element(By.CSS_SELECTOR, '#effects .effects-status').text}",
         timeout=30)
    select = browser.find_elements(By.CSS_SELECTOR, "#effects .pad-slot select")[2]
    option = next(o for o in select.find_elements(By.TAG_NAME, "option") if o.text == "Whoosh")
    option.click()
    assert pads[2].text == "Whoosh"
    wait(browser, lambda d: float(d.find_element(By.ID, "out-meter").get_attribute("aria-valuenow")) < -50,
         "the chime did not end", timeout=5)
    pads[2].click()
    wait(browser, lambda d: pads[2].get_attribute("data-playing") == "true", "the upload did not play", timeout=10)
    wait(browser, lambda d: float(d.find_element(By.ID, "out-meter").get_attribute("aria-valuenow")) > -40,
         "the upload did not reach the output", timeout=5)
    assert severe_console_entries(browser) == []
