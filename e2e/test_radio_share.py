"""Sharing the radio (issue 24 §2): a share link read as a chat app reads it (requests and an
HTML parser: the OpenGraph and Twitter card tags), its oEmbed JSON, the OPML export of followed
shows, and the embed player loaded in an iframe of another page in Chromium, where pressing play
makes the audio time advance."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
import sqlite3
import time
from html.parser import HTMLParser
import xml.etree.ElementTree as ET

import pytest
import requests
from selenium.webdriver.common.by import By

from conftest import wait
from test_cli import quintet
from test_radio_feed import create_show, ffmpeg_tone


class CardTags(HTMLParser):
    """What a link-preview bot collects: <meta property|name content> and <link rel=alternate>."""

    def __init__(self):
        super().__init__()
        self.meta: dict[str, str] = {}
        self.links: list[dict[str, str]] = []
        self.title = ""
        self._in_title = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "meta" and (a.get("property") or a.get("name")) and "content" in a:
            self.meta[a.get("property") or a.get("name")] = a["content"]
        elif tag == "link":
            self.links.append(a)
        self._in_title = tag == "title"

    def handle_endtag(self, tag):
        self._in_title = False

    def handle_data(self, data):
        if self._in_title:
            self.title += data


@pytest.fixture(scope="module")
def shared(server, tmp_path_factory):
    folder = tmp_path_factory.mktemp("share")
    show = create_show(server, "--title", 'Share "Night" <b>& Co</b>', "--description", "Talk <i>and</i> tunes")
    tone = ffmpeg_tone(folder / "pilot.mp3", seconds=6.0)
    made = quintet("radio", "import-episode", "--show", str(show["id"]), str(tone), "--title", "Pilot <script>x</script>",
                   "--data", str(server.data_dir), "--json")
    assert made.returncode == 0, made.stderr
    return {"show": show, "episode": json.loads(made.stdout), "tone": tone}


def card(server, path: str) -> CardTags:
    response = requests.get(server.url(path), headers={"User-Agent": "TelegramBot (like TwitterBot)"}, timeout=10)
    assert response.status_code == 200, response.text
    assert response.headers["Content-Type"] == "text/html; charset=utf-8"
    assert "<script>" not in response.text and "<b>" not in response.text
    parser = CardTags()
    parser.feed(response.text)
    return parser


def test_share_links_carry_card_tags_and_oembed(server, shared):
    episode, show = shared["episode"], shared["show"]
    tags = card(server, f"/radio/e/{episode['id']}")
    meta = tags.meta
    assert meta["og:title"] == "Pilot <script>x</script>"
    assert meta["og:url"] == server.url(f"/radio/e/{episode['id']}")
    assert meta["og:site_name"] == "Quintet" and meta["og:type"]
    assert meta["og:audio"] == server.url(f"/radio/episodes/{episode['id']}.mp3")
    assert requests.head(meta["og:audio"], timeout=10).status_code == 200
    assert meta["twitter:card"] == "player"
    assert meta["twitter:player"] == server.url(f"/radio/embed/?episode={episode['id']}")
    assert int(meta["twitter:player:width"]) > 0 and int(meta["twitter:player:height"]) > 0
    oembed = next(link for link in tags.links if link.get("type") == "application/json+oembed")

    answer = requests.get(oembed["href"], timeout=10)
    assert answer.status_code == 200
    body = answer.json()
    assert body["type"] == "rich" and body["version"] == "1.0"
    assert body["title"] == "Pilot <script>x</script>" and body["provider_name"] == "Quintet"
    assert body["author_name"] == "admin"
    assert f'src="{server.url("/radio/embed/?episode=" + str(episode["id"]))}"' in body["html"]
    narrow = requests.get(server.url("/api/oembed"), params={"url": meta["og:url"], "maxwidth": 300}, timeout=10).json()
    assert narrow["width"] == 300 and 'width="300"' in narrow["html"]
    assert requests.get(server.url("/api/oembed"), params={"url": meta["og:url"], "format": "xml"}, timeout=10).status_code == 501
    assert requests.get(server.url("/api/oembed"), params={"url": "https://example.org/radio/e/1"}, timeout=10).status_code == 404
    assert requests.get(server.url("/api/oembed"), params={"url": meta["og:url"], "maxwidth": "wide"}, timeout=10).status_code == 400

    show_tags = card(server, f"/radio/s/{show['id']}").meta
    assert show_tags["og:title"] == 'Share "Night" <b>& Co</b>'
    assert show_tags["og:description"] == "Talk <i>and</i> tunes"
    assert show_tags["twitter:card"] == "summary"
    assert requests.get(server.url("/radio/e/987654"), timeout=10).status_code == 404


def test_following_opml(server, shared):
    show = shared["show"]
    assert requests.get(server.url("/api/radio/following.opml"), timeout=10).status_code == 401
    database = sqlite3.connect(server.data_dir / "quintet.sqlite", timeout=10)
    try:
        with database:
            admin_id = database.execute("SELECT id FROM users WHERE name = 'admin'").fetchone()[0]
            database.execute("INSERT OR IGNORE INTO radio_show_follows (follower_id, show_id, created_at) VALUES (?, ?, ?)",
                             (admin_id, show["id"], "2026-11-27 12:00:00.000"))
    finally:
        database.close()
    response = requests.get(server.url("/api/radio/following.opml"), auth=server.admin, timeout=10)
    assert response.status_code == 200
    outlines = ET.fromstring(response.content).findall("./body/outline")
    mine = [o for o in outlines if o.get("xmlUrl") == server.url(f"/radio/feeds/{show['id']}.xml")]
    assert len(mine) == 1 and mine[0].get("type") == "rss"
    assert mine[0].get("text") == 'Share "Night" <b>& Co</b>' and mine[0].get("htmlUrl") == server.url(f"/radio/show/?id={show['id']}")
    cli = quintet("radio", "opml", "--user", "admin", "--data", str(server.data_dir), "--public-url", server.base_url)
    assert cli.returncode == 0, cli.stderr
    assert [o.attrib for o in ET.fromstring(cli.stdout).findall("./body/outline")] == [o.attrib for o in outlines]


def test_embed_player_plays_inside_an_iframe(server, shared, browser):
    episode = shared["episode"]
    oembed = requests.get(server.url("/api/oembed"), params={"url": server.url(f"/radio/e/{episode['id']}")}, timeout=10).json()
    # A host page on another origin (a second loopback server, as a blog would be), holding the
    # iframe oEmbed gave. (A data: URL page cannot frame a loopback address in Chromium.)
    host_page = f"<!doctype html><title>host</title><body>{oembed['html']}</body>".encode()

    class Host(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(host_page)))
            self.end_headers()
            self.wfile.write(host_page)

        def log_message(self, *args):
            pass

    host = ThreadingHTTPServer(("127.0.0.1", 0), Host)
    threading.Thread(target=host.serve_forever, daemon=True).start()
    stop_host = host.shutdown
    browser.get(f"http://localhost:{host.server_address[1]}/blog.html")
    frame = wait(browser, lambda d: d.find_elements(By.TAG_NAME, "iframe"), "the iframe is on the host page")[0]
    assert frame.size["width"] == oembed["width"] and frame.size["height"] == oembed["height"]
    browser.switch_to.frame(frame)
    try:
        wait(browser, lambda d: d.execute_script("return document.querySelector('main')?.dataset.state") == "ready",
             lambda: "the embed player loaded the episode: " + repr(browser.execute_script(
                 "return [document.location.href, document.querySelector('main')?.dataset.state]")) + repr(browser.get_log("browser")))
        assert browser.find_element(By.ID, "embed-title").text == "Pilot <script>x</script>"
        assert browser.find_element(By.ID, "embed-show").text == 'Share "Night" <b>& Co</b>'
        play = browser.find_element(By.ID, "embed-play")
        assert play.get_attribute("aria-label") == "Play"
        play.click()
        wait(browser, lambda d: d.execute_script("return document.querySelector('#embed-audio').currentTime") > 0.5,
             "the audio time advances after play", timeout=15)
        assert browser.execute_script("return document.querySelector('main')?.dataset.state") == "playing"
        assert play.get_attribute("aria-label") == "Pause"
        play.click()
        wait(browser, lambda d: d.execute_script("return document.querySelector('#embed-audio').paused"), "paused")
        link = browser.find_element(By.ID, "embed-link").get_attribute("href")
        assert link == server.url(f"/radio/show/?id={episode['show_id']}")
    finally:
        browser.switch_to.default_content()
        stop_host()
