"""Accounts, profiles and plans (issue 24 §1): register by invitation in Chromium, edit every
profile field, upload a picture that the server re-encodes without its EXIF, refuse oversize
and fake pictures, refuse an invitation used twice; the CLI prints invitation links and manages
plans."""

from __future__ import annotations

import json
import subprocess

import requests
from selenium.webdriver.common.by import By

from conftest import open_page, wait
from test_cli import quintet
from test_radio_live import need_ffmpeg

MARKER = b"SECRET-GPS-48.8584N"


def jpeg_with_exif(path) -> bytes:
    """A 400×300 JPEG made by ffmpeg with a hand-made APP1 EXIF segment after SOI."""
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=400x300",
                    "-frames:v", "1", str(path)], check=True, timeout=30)
    data = path.read_bytes()
    payload = b"Exif\x00\x00" + MARKER
    segment = b"\xff\xe1" + (len(payload) + 2).to_bytes(2, "big") + payload
    data = data[:2] + segment + data[2:]
    path.write_bytes(data)
    return data


def test_register_by_invite_edit_profile_and_picture(server, browser, tmp_path):
    need_ffmpeg()
    made = requests.post(server.url("/api/radio/invites"), auth=server.admin, json={}, timeout=10)
    assert made.status_code == 201, made.text
    link = made.json()["url"]
    assert "/radio/account/?invite=" in link
    token = made.json()["token"]

    # Register in the browser from the link (its host is the server's own), signed out: the
    # session's one Chromium may still hold another test's session cookie.
    browser.execute_cdp_cmd("Network.clearBrowserCookies", {})
    open_page(browser, server.url("/radio/account/?invite=" + token))
    wait(browser, lambda d: d.find_element(By.ID, "register").is_displayed(), "no register form")
    assert browser.find_element(By.ID, "register-invite").get_attribute("value") == token
    browser.find_element(By.ID, "register-name").send_keys("e2e-listener")
    browser.find_element(By.ID, "register-password").send_keys("correct horse")
    browser.find_element(By.CSS_SELECTOR, "#register-form button[type=submit]").click()
    wait(browser, lambda d: d.find_element(By.ID, "me-name").text == "e2e-listener",
         lambda: f"not signed in: {browser.find_element(By.ID, 'register-error').text}")
    try:
        # Every field is listed with its current value, empty ones too.
        current = browser.find_element(By.ID, "profile-current")
        fields = [dd.get_attribute("data-field") for dd in current.find_elements(By.CSS_SELECTOR, "dd")]
        for field in ("display_name", "description", "town", "latitude", "longitude", "birth_date", "sex", "followers"):
            assert field in fields
        assert current.find_element(By.CSS_SELECTOR, "dd[data-field=town]").get_attribute("class") == "empty"
        browser.find_element(By.ID, "f-display_name").send_keys("E2E Listener")
        browser.find_element(By.ID, "f-town").send_keys("Torino")
        browser.find_element(By.ID, "f-latitude").send_keys("45.0705")
        browser.find_element(By.ID, "f-longitude").send_keys("7.6868")
        browser.execute_script("document.querySelector('#f-birth_date').value = '1990-04-25';"
                               "document.querySelector('#f-sex').value = 'other';")
        browser.find_element(By.CSS_SELECTOR, "#profile-form button[type=submit]").click()
        wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "dd[data-field=latitude]").text == "45.07",
             lambda: f"profile not saved: {browser.find_element(By.ID, 'profile-error').text}")
        assert browser.find_element(By.CSS_SELECTOR, "dd[data-field=town]").text == "Torino"
        assert browser.find_element(By.CSS_SELECTOR, "dd[data-field=birth_date]").text == "1990-04-25"

        # A picture with EXIF: uploaded from the page, served re-encoded without it.
        source = tmp_path / "me.jpg"
        original = jpeg_with_exif(source)
        assert MARKER in original
        browser.find_element(By.ID, "picture-file").send_keys(str(source))
        browser.find_element(By.ID, "picture-upload").click()
        wait(browser, lambda d: "/radio/users/" in (d.find_element(By.ID, "picture-preview").get_attribute("src") or ""),
             lambda: f"no picture: {browser.find_element(By.ID, 'picture-error').text}")
        src = browser.find_element(By.ID, "picture-preview").get_attribute("src")
        user_id = src.split("/radio/users/")[1].split("/")[0]
        for size in ("full", "256", "64"):
            served = requests.get(server.url(f"/radio/users/{user_id}/picture?size={size}"), timeout=10)
            assert served.status_code == 200 and served.headers["Content-Type"] == "image/jpeg"
            assert served.content.startswith(b"\xff\xd8\xff")
            assert MARKER not in served.content and b"Exif" not in served.content

        # Oversize and fake pictures are refused.
        me = ("e2e-listener", "correct horse")
        fake = requests.put(server.url("/api/radio/profile/picture"), auth=me, timeout=10,
                            data=b"\xff\xd8\xff\xe0" + b"not really a jpeg" * 100)
        assert fake.status_code == 422 and fake.json()["error"]["code"] == "not_an_image"
        big = requests.put(server.url("/api/radio/profile/picture"), auth=me, timeout=30,
                           data=original + b"\x00" * (5 * 1048576))
        assert big.status_code == 413

        # The invitation was spent: a second registration with it is refused.
        again = requests.post(server.url("/api/register"), timeout=10,
                              json={"name": "e2e-second", "password": "correct horse", "invite": token})
        assert again.status_code == 410 and again.json()["error"]["code"] == "invite_used"
    finally:
        browser.find_element(By.ID, "signout").click()
        wait(browser, lambda d: d.find_element(By.ID, "signin").is_displayed(), "not signed out")


def test_cli_invites_and_plans(server):
    data = ["--data", str(server.data_dir)]
    printed = quintet("users", "invite", "--days", "2", "--json", "--public-url", "https://radio.example.org", *data)
    assert printed.returncode == 0, printed.stderr
    line = json.loads(printed.stdout)
    assert line["url"] == f"https://radio.example.org/radio/account/?invite={line['token']}"
    first = requests.post(server.url("/api/register"), timeout=10,
                          json={"name": "e2e-cli-invited", "password": "correct horse", "invite": line["token"]})
    assert first.status_code == 201, first.text
    assert quintet("users", "invite", "--days", "0", *data).returncode != 0

    assert quintet("radio", "plans", "add", "e2e-small", "--max-episode", "30m", "--max-online", "1", *data).returncode == 0
    assigned = quintet("radio", "plans", "assign", "e2e-cli-invited", "e2e-small", *data)
    assert assigned.returncode == 0, assigned.stderr
    listed = json.loads(quintet("radio", "plans", "list", "--json", *data).stdout)
    small = next(plan for plan in listed if plan["name"] == "e2e-small")
    assert small["max_episode_seconds"] == 1800 and small["max_episodes_online"] == 1
    profile = requests.get(server.url("/api/radio/profile"), auth=("e2e-cli-invited", "correct horse"), timeout=10).json()
    assert profile["plan"]["name"] == "e2e-small" and profile["usage"] == {"episodes_online": 0, "storage_bytes": 0}
    assert quintet("radio", "plans", "remove", "e2e-small", *data).returncode == 0
