"""The playground's story (/playground/story/, docs/playground.md "The story") in a real Chromium
on a 1024 × 768 tablet viewport: a child's whole path in Italian (story_path.py: menu → Story →
the ten pages finished by scripted inputs → ten sweaters → the pile topples → the drawing →
Loot unlocked), the narrator's voice and subtitles following the language chosen on the chest,
progress rules and a hostile progress file, and a hidden page going quiet and still. The same
path in all three languages, with screenshots and frame rates, is e2e/long_playground_story.py
(`make e2e-long`)."""

from __future__ import annotations

import json

import pytest
import requests

from conftest import ARTIFACTS, REPO, severe_console_entries, wait
from story_path import LANGUAGES, LINES, PAGES, child_path, choose_language, click, open_story, state, story_browser


@pytest.fixture(scope="module")
def browser():
    driver = story_browser()
    yield driver
    driver.quit()


def test_every_line_is_written_in_every_language():
    ids = set(PAGES) | {"welcome", "sweater", "topple", "loot", "credits", "bubbles", "garden", "busytown"}
    for lang in LANGUAGES:
        assert ids <= set(LINES[lang]), f"{lang} lacks {sorted(ids - set(LINES[lang]))}"
        assert all(LINES[lang][i].strip() for i in ids)
    # Three languages, not one text three times.
    assert len({LINES[lang]["welcome"] for lang in LANGUAGES}) == 3


def test_a_childs_path_through_the_whole_story(browser, server):
    shots = ARTIFACTS / "story"
    shots.mkdir(parents=True, exist_ok=True)
    progress = child_path(browser, server.url("").rstrip("/"), "it", speed=4, shots=shots)
    assert progress["lang"] == "it"
    assert severe_console_entries(browser) == []


def test_the_narrator_follows_the_language(browser, server):
    open_story(browser, server.url("").rstrip("/"), speed=1)
    for lang in ("fr", "en", "it"):
        choose_language(browser, lang)
        assert browser.execute_script("return document.documentElement.lang") == lang
        label = browser.find_element("css selector", '[data-target="drawer-story"]').get_attribute("aria-label")
        assert label == {"it": "Storia", "en": "Story", "fr": "Histoire"}[lang]
    assert state(browser, "progress()")["lang"] == "it"


def test_progress_rules(browser, server):
    """progress.js as the page loads it: one sweater per page and round, the tenth topples and
    starts a new round, loot at 3, 6 and 10 sweaters, pages open in order."""
    open_story(browser, server.url("").rstrip("/"), speed=1)
    result = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import('/playground/story/progress.js').then((P) => {
          const p = P.fresh('en'); const out = {};
          out.firstOpen = P.PAGES.map((id) => P.unlocked(p, id));
          out.first = P.win(p, 'wake'); out.again = P.win(p, 'wake');
          out.unknown = P.win(p, 'no-such-page');
          const loot = [];
          for (const id of P.PAGES.slice(1)) { const r = P.win(p, id); loot.push([r.sweaters, r.newLoot, r.toppled]); }
          out.loot = loot; out.after = JSON.parse(JSON.stringify(p));
          out.nextRound = P.win(p, 'wake');
          try { P.validate({version: 2}); out.bad = 'accepted'; } catch (e) { out.bad = e.message; }
          out.cleaned = P.validate({version: 1, won: ['wake', 'wake', '<script>', 7], finished: 'x', best: 99, drawings: -3, lang: 'xx', volume: 9});
          done(out);
        });""")
    assert result["firstOpen"] == [True] + [False] * 9
    assert result["first"] == {"sweater": True, "sweaters": 1, "toppled": False, "newLoot": []}
    assert result["again"]["sweater"] is False and result["unknown"]["sweater"] is False
    unlocked_at = {sweaters: loot for sweaters, loot, _ in result["loot"] if loot}
    assert unlocked_at == {3: ["bubbles"], 6: ["garden"], 10: ["busytown"]}
    assert [toppled for *_, toppled in result["loot"]] == [False] * 8 + [True]
    assert result["after"]["won"] == [] and result["after"]["best"] == 10 and result["after"]["drawings"] == 1
    assert result["nextRound"]["sweater"] is True and result["nextRound"]["sweaters"] == 1
    assert "version 1" in result["bad"]
    cleaned = result["cleaned"]
    assert cleaned["won"] == ["wake"] and cleaned["finished"] == ["wake"] and cleaned["best"] == 10
    assert cleaned["drawings"] == 0 and cleaned["lang"] == "en" and cleaned["volume"] == 0.8


def test_a_hostile_stored_progress_starts_afresh(browser, server):
    base = server.url("").rstrip("/")
    browser.get(f"{base}/playground/story/")
    browser.execute_script("localStorage.setItem('quintet.playground.story', '{\"version\": 1, \"won\": {\"length\": 1e9}, \"lang\": \"<img src=x onerror=alert(1)>\"')")
    browser.get(f"{base}/playground/story/")
    wait(browser, lambda d: state(d, "screen()") == "chest", "a broken stored progress kept the story from opening", timeout=15)
    assert state(browser, "progress()")["won"] == []
    assert browser.find_element("css selector", "#sweater-count").text == "0"


def test_a_hidden_page_is_still_and_quiet(browser, server):
    """The page's visibilitychange handler: the game's frames stop and the audio is suspended while
    hidden, and go on when shown (Chromium headless is never hidden by itself: document.hidden is
    overridden for the page and the event dispatched, as a phone switching apps does)."""
    base = server.url("").rstrip("/")
    progress = {"version": 1, "won": ["wake"], "finished": ["wake"], "best": 1, "drawings": 0, "lang": "en",
                "subtitles": False, "volume": 0.8}
    open_story(browser, base, speed=4, progress=progress)
    click(browser, "drawer-story")
    click(browser, "page-carworld")
    wait(browser, lambda d: (state(d, "page()") or {}).get("started"), "CarWorld did not start", timeout=30)
    frames = lambda: browser.execute_script("return quintetPlayground.frames()")
    before = frames()
    wait(browser, lambda d: frames() > before + 10, "the game's frames did not run")
    browser.execute_script("Object.defineProperty(document, 'hidden', {configurable: true, get: () => true});"
                           " document.dispatchEvent(new Event('visibilitychange'))")
    hidden_at = frames()
    browser.execute_async_script("setTimeout(arguments[0], 600)")
    assert frames() <= hidden_at + 1, "frames ran while the page was hidden"
    assert state(browser, "audioState()") in ("suspended", "none")
    browser.execute_script("Object.defineProperty(document, 'hidden', {configurable: true, get: () => false});"
                           " document.dispatchEvent(new Event('visibilitychange'))")
    wait(browser, lambda d: frames() > hidden_at + 10, "the game did not go on when the page was shown again")


def test_every_target_a_child_meets_is_big_enough(browser, server):
    """Targets at least 60 pt on a 1024 × 768 tablet: the chest's drawers, toys and flags, the page
    path and the round buttons of a page (the grown-ups' settings are behind the gate)."""
    progress = {"version": 1, "won": ["wake"], "finished": ["wake"], "best": 1, "drawings": 0, "lang": "en",
                "subtitles": False, "volume": 0.8}
    open_story(browser, server.url("").rstrip("/"), speed=1, progress=progress)
    sizes = lambda: browser.execute_script(
        "return [...document.querySelectorAll('[data-target]')].filter((e) => e.offsetParent !== null || getComputedStyle(e).position === 'absolute')"
        ".map((e) => { const r = e.getBoundingClientRect(); return [e.dataset.target, r.width, r.height]; })"
        ".filter(([, w, h]) => w > 0 && h > 0)")
    seen = {}
    for name, width, height in sizes():
        seen[name] = (width, height)
    click(browser, "drawer-story")
    wait(browser, lambda d: state(d, "screen()") == "index", "the page path did not open")
    for name, width, height in sizes():
        seen[name] = (width, height)
    for expected in ("drawer-story", "drawer-sweaters", "drawer-loot", "drawer-credits", "toy-cat", "toy-lamp",
                     "toy-plant", "lang-it", "lang-en", "lang-fr", "page-wake", "page-carworld", "menu", "sound", "back"):
        assert expected in seen, f"{expected} not on screen"
    small = {name: size for name, size in seen.items() if min(size) < 60}
    assert not small, f"targets under 60 pt: {small}"


def test_the_whole_playground_plays_offline(browser, tmp_path):
    """Installed, the playground needs no server: the service worker keeps the story, its pages,
    the module, the atlases, the narrator's voices and the drawing (Web/precache.json), and their
    total is under 15 MB. With the server stopped, the story opens, a touch page and a game
    start and the narrator's voice still loads."""
    from conftest import start_server, stop_server
    from test_pwa import cached_paths, controlled

    web = REPO / "Web"
    listed = None
    own = start_server(tmp_path / "data", ARTIFACTS / "story-offline-server.log")
    stopped = False
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    try:
        base = own.url("").rstrip("/")
        browser.get(f"{base}/playground/story/")
        wait(browser, controlled, "the service worker does not control the story", timeout=20)
        listed = requests.get(own.url("/precache.json"), timeout=5).json()["files"]
        playground = [path for path in listed if path.startswith("/playground/")]
        needed = {"/playground/story/", "/playground/story/story.js", "/playground/story/lines.json",
                  "/playground/story/drawing.png", "/playground/playground.wasm", "/playground/voice/it/wake.mp3",
                  "/playground/voice/fr/stars.mp3", "/playground/voice/en/welcome.mp3",
                  "/playground/story/pages/index.js", "/playground/story/pages/puzzle.js"}
        needed |= {f"/playground/atlas/{game}.png" for game in ("carworld", "shipworld", "fishworld", "sweaters", "round")}
        assert needed <= set(playground), sorted(needed - set(playground))
        total = sum((web / path.lstrip("/")).stat().st_size if not path.endswith("/")
                    else (web / path.lstrip("/") / "index.html").stat().st_size for path in playground)
        print(f"\nthe playground offline: {len(playground)} files, {total / 1e6:.2f} MB")
        assert total < 15_000_000, f"the playground is {total / 1e6:.2f} MB"
        wait(browser, lambda d: any(set(listed) <= set(paths) for paths in cached_paths(d).values()),
             "the service worker did not keep every listed file", timeout=60)
        browser.get("about:blank")
        stop_server(own)
        stopped = True

        progress = {"version": 1, "won": ["wake"], "finished": ["wake", "carworld"], "best": 1, "drawings": 0,
                    "lang": "fr", "subtitles": True, "volume": 0.8}
        open_story(browser, base, speed=1, progress=progress)
        click(browser, "drawer-story")
        click(browser, "page-puzzle")
        wait(browser, lambda d: (state(d, "page()") or {}).get("started"), "offline, the puzzle did not start", timeout=30)
        said = [line for line in state(browser, "lines()") if line["id"] == "puzzle"]
        assert said and said[-1]["lang"] == "fr"
        voice_ok = browser.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            " fetch('/playground/voice/fr/puzzle.mp3').then((r) => r.arrayBuffer().then((b) => done([r.status, b.byteLength])))"
            ".catch((e) => done(String(e)))")
        assert voice_ok[0] == 200 and voice_ok[1] > 1000, voice_ok
        click(browser, "back")
        wait(browser, lambda d: (state(d, "page()") or {}).get("id") == "carworld", "back did not open CarWorld")
        wait(browser, lambda d: (state(d, "page()") or {}).get("started"), "offline, CarWorld did not start", timeout=30)
        frames = browser.execute_script("return quintetPlayground.frames()")
        wait(browser, lambda d: d.execute_script("return quintetPlayground.frames()") > frames + 10,
             "offline, CarWorld's frames did not run")
    finally:
        browser.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})
        if not stopped:
            stop_server(own)
        browser.get("about:blank")
