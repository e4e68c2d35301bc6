"""Issue 24 §0 and §2: shows' categories and covers in the feed, and the show page's editor in
Chromium — an owner edits a show's title, category and cover, unpublishes an episode and
deletes another, then takes the delete back with Undo; feedparser reads the category."""

from __future__ import annotations

import json
import subprocess

import feedparser
import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import ADMIN_PASSWORD, open_page, severe_console_entries, wait
from test_cli import quintet
from test_radio_feed import create_show, ffmpeg_tone


def import_episode(server, show_id: int, path, title: str) -> dict:
    made = quintet("radio", "import-episode", "--show", str(show_id), str(path), "--title", title,
                   "--data", str(server.data_dir), "--json")
    assert made.returncode == 0, made.stderr
    return json.loads(made.stdout)


def test_cli_category_and_absolute_cover_reach_the_feed(server, tmp_path):
    show = create_show(server, "--title", "Category Check", "--category", "Music", "--subcategory", "music commentary")
    feed = feedparser.parse(requests.get(show["feed_url"], timeout=10).content)
    assert not feed.bozo, feed.get("bozo_exception")
    assert [t["term"] for t in feed.feed.tags] == ["Music", "Music Commentary"]
    # A cover given as an absolute path inside the data folder is served (it was a 404 before).
    art = server.data_dir / "art"
    art.mkdir(exist_ok=True)
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "color=c=blue:s=32x32",
                    "-frames:v", "1", str(art / "blue.png")], check=True, timeout=60)
    edited = quintet("radio", "edit-show", str(show["id"]), "--cover", str(art / "blue.png"),
                     "--category", "Kids & Family", "--data", str(server.data_dir))
    assert edited.returncode == 0, edited.stderr
    cover = requests.get(server.url(f"/radio/covers/{show['id']}"), timeout=10)
    assert cover.status_code == 200 and cover.headers["Content-Type"] == "image/png"
    xml = requests.get(show["feed_url"], timeout=10).text
    assert '<itunes:category text="Kids &amp; Family"/>' in xml
    outside = quintet("radio", "edit-show", str(show["id"]), "--cover", "/etc/hostname", "--data", str(server.data_dir))
    assert outside.returncode != 0 and "outside the data folder" in outside.stderr
    bad = quintet("radio", "edit-show", str(show["id"]), "--category", "Cooking", "--data", str(server.data_dir))
    assert bad.returncode != 0 and "not an Apple Podcasts category" in bad.stderr


def test_owner_edits_unpublishes_deletes_and_undoes_in_chromium(server, browser, tmp_path):
    show = create_show(server, "--title", "Editor Show")  # owned by the first admin
    tone = ffmpeg_tone(tmp_path / "tone.mp3", seconds=1.0)
    first = import_episode(server, show["id"], tone, "First")
    second = import_episode(server, show["id"], tone, "Second")
    picture = tmp_path / "cover.png"
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "color=c=green:s=200x200",
                    "-frames:v", "1", str(picture)], check=True, timeout=60)

    open_page(browser, server.url(f"/radio/show/?id={show['id']}"))
    wait(browser, lambda d: d.find_element(By.ID, "show-title").text == "Editor Show", "the show page did not load")
    assert not browser.find_element(By.ID, "editor").is_displayed()  # not signed in: no editor
    owner_link = browser.find_element(By.CSS_SELECTOR, "a.owner")
    assert owner_link.get_attribute("href").endswith("/radio/people/?name=admin")
    browser.find_element(By.CSS_SELECTOR, "#signin summary").click()
    browser.find_element(By.ID, "signin-name").send_keys("admin")
    browser.find_element(By.ID, "signin-password").send_keys(ADMIN_PASSWORD)
    browser.find_element(By.CSS_SELECTOR, "#signin-form button[type=submit]").click()
    try:
        form = wait(browser, lambda d: d.find_element(By.ID, "edit-form") if d.find_element(By.ID, "editor").is_displayed() else None,
                    "the editor did not appear for the owner")
        title = form.find_element(By.NAME, "title")
        title.clear()
        title.send_keys("Edited Show")
        Select(form.find_element(By.NAME, "category")).select_by_visible_text("Kids & Family")
        Select(form.find_element(By.NAME, "subcategory")).select_by_visible_text("Stories for Kids")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait(browser, lambda d: d.find_element(By.ID, "show-title").text == "Edited Show", "the title was not saved")
        browser.find_element(By.NAME, "coverFile").send_keys(str(picture))
        wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".show-head img.cover"), "the uploaded cover is not shown")
        cover = requests.get(server.url(f"/radio/covers/{show['id']}"), timeout=10)
        assert cover.status_code == 200 and cover.content[:2] == b"\xff\xd8"  # re-encoded to JPEG

        # Unpublish the first episode: it leaves the feed.
        item = f"#episode-list li[data-episode-id='{first['id']}']"
        browser.find_element(By.CSS_SELECTOR, f"{item} button.publish").click()
        wait(browser, lambda d: "unpublished" in d.find_element(By.CSS_SELECTOR, item).get_attribute("class"),
             "the episode was not unpublished")
        feed = feedparser.parse(requests.get(show["feed_url"], timeout=10).content)
        assert feed.feed.title == "Edited Show"
        assert [t["term"] for t in feed.feed.tags] == ["Kids & Family", "Stories for Kids"]
        assert [e.title for e in feed.entries] == ["Second"]

        # Delete the second: gone from the page, the feed and downloads; Undo brings it back.
        browser.find_element(By.CSS_SELECTOR, f"#episode-list li[data-episode-id='{second['id']}'] button.delete").click()
        wait(browser, lambda d: d.find_element(By.ID, "toast").is_displayed(), "no undo toast")
        assert not browser.find_elements(By.CSS_SELECTOR, f"#episode-list li[data-episode-id='{second['id']}']")
        assert browser.find_element(By.CSS_SELECTOR, f"#trash-list li[data-episode-id='{second['id']}']")
        assert feedparser.parse(requests.get(show["feed_url"], timeout=10).content).entries == []
        assert requests.get(server.url(f"/radio/episodes/{second['id']}.mp3"), timeout=10).status_code == 404
        browser.find_element(By.ID, "toast-undo").click()
        wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, f"#episode-list li[data-episode-id='{second['id']}']"),
             "Undo did not bring the episode back")
        assert [e.title for e in feedparser.parse(requests.get(show["feed_url"], timeout=10).content).entries] == ["Second"]
        assert not [e for e in severe_console_entries(browser) if "favicon" not in e["message"]]
    finally:
        browser.execute_script("return fetch('/api/session', {method: 'DELETE', headers: {'X-Requested-With': 'quintet'}})")
