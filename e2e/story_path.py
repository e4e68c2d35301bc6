"""A child's path through the playground's story (docs/playground.md, "The story"), in a real
Chromium, used by e2e/test_playground_story.py (one language, in `make test`) and
e2e/long_playground_story.py (all three, screenshots, frame rates; `make e2e-long`).

menu → Story → each of the ten pages finished by scripted inputs → ten sweaters → the pile
topples → the drawing is offered → Loot unlocked. The inputs are real: the touch pages by
pointer events at their targets' places (drive_touch_pages.py), CarWorld by its win log
(`quintet playground winlog carworld`, fed to the page's module through the test hook, as the
page's own recorder logs replay), ShipWorld by DeviceOrientation events only (drive_shipworld.py),
FishWorld by pointer input on the canvas (drive_fishworld.py)."""

from __future__ import annotations

import json
import statistics
import subprocess
import time
from pathlib import Path

import requests
from selenium.webdriver.common.action_chains import ActionChains

from conftest import REPO, device_browser, quintet_binary, wait
from drive_fishworld import win_fishworld
from drive_shipworld import win_shipworld
from drive_touch_pages import play_touch_page

PAGES = ["wake", "carworld", "puzzle", "balloons", "shipworld", "colouring", "shapes", "fishworld", "bells", "stars"]
GAMES = {"carworld", "shipworld", "fishworld"}
LANGUAGES = ["it", "en", "fr"]
LINES = json.loads((REPO / "Web" / "playground" / "story" / "lines.json").read_text())


def story_browser():
    """A 1024 × 768 tablet viewport; audio may start without a gesture (the narrator is heard in
    headless Chromium the way it is after the child's first touch)."""
    return device_browser(1024, 768, arguments=("--autoplay-policy=no-user-gesture-required",))


def state(driver, expression: str):
    return driver.execute_script(f"return window.quintetStory && quintetStory.{expression}")


def click(driver, target: str) -> None:
    element = driver.find_element("css selector", f'[data-target="{target}"]')
    ActionChains(driver).move_to_element(element).click().perform()


def open_story(driver, base: str, *, speed: int, progress: dict | None = None) -> None:
    """Opens the story afresh (its stored progress replaced by `progress`, or none) and waits for
    the chest of drawers after the splash."""
    driver.get(f"{base}/playground/story/")
    driver.execute_script("localStorage.removeItem('quintet.playground.story');"
                          " if (arguments[0]) localStorage.setItem('quintet.playground.story', arguments[0]);",
                          json.dumps(progress) if progress else None)
    driver.get(f"{base}/playground/story/?speed={speed}")
    wait(driver, lambda d: state(d, "screen()") == "chest", "the chest of drawers did not come after the splash", timeout=15)


def choose_language(driver, lang: str) -> None:
    """Taps the language's flag on the chest: the narrator greets in it, with its subtitle."""
    click(driver, f"lang-{lang}")
    wait(driver, lambda d: (state(d, "narrator()") or {}).get("src", "").endswith(f"/playground/voice/{lang}/welcome.mp3"),
         f"the narrator did not greet in {lang}")
    subtitle = state(driver, "subtitle()")
    assert subtitle["lang"] == lang and subtitle["line"] == "welcome"
    assert subtitle["text"] == LINES[lang]["welcome"]


def turn_subtitles_on(driver) -> None:
    """Credits → the grown-up gate (held three seconds) → settings → subtitles on → the chest."""
    click(driver, "drawer-credits")
    wait(driver, lambda d: state(d, "screen()") == "credits", "Credits did not open")
    click(driver, "gate-open")
    hold = driver.find_element("css selector", '[data-target="gate-hold"]')
    ActionChains(driver).click_and_hold(hold).pause(1.0).release().perform()
    assert state(driver, "screen()") == "credits", "the gate opened after one second"
    ActionChains(driver).click_and_hold(hold).pause(3.4).release().perform()
    wait(driver, lambda d: state(d, "screen()") == "settings", "held three seconds, the gate did not open")
    if not driver.find_element("css selector", "#subtitles").is_selected():
        click(driver, "subtitles")
    assert state(driver, "progress()")["subtitles"] is True
    click(driver, "menu")
    wait(driver, lambda d: state(d, "screen()") == "chest", "the menu button did not lead to the chest")


def winlog(game: str, seed: int) -> str:
    result = subprocess.run([str(quintet_binary()), "playground", "winlog", game, "--seed", str(seed)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout


def measure_fps(driver, seconds: float) -> float:
    """The median frame rate of requestAnimationFrame over `seconds` while the page runs."""
    intervals = driver.execute_async_script(
        """const [ms, done] = arguments; const out = []; let last = null; const end = performance.now() + ms;
        function tick(now) { if (last !== null) out.push(now - last); last = now;
          if (now < end) requestAnimationFrame(tick); else done(out); }
        requestAnimationFrame(tick);""", seconds * 1000)
    return 1000 / statistics.median(intervals) if intervals else 0.0


def subtitles_on(driver) -> bool:
    return state(driver, "progress()")["subtitles"]


def play_page(driver, page: str, lang: str, log_text: str, *, timeout: float, shot: Path | None = None,
              fps: dict | None = None) -> None:
    """Waits for page to open and speak its line in lang, then finishes it by scripted inputs."""
    wait(driver, lambda d: (state(d, "page()") or {}).get("id") == page, f"page {page} did not open", timeout=timeout)
    wait(driver, lambda d: (state(d, "page()") or {}).get("started"), f"{page}: the page never started", timeout=timeout)
    said = [line for line in state(driver, "lines()") if line["id"] == page]
    assert said, f"{page}: the narrator said nothing"
    assert said[-1]["lang"] == lang and said[-1]["src"] == f"/playground/voice/{lang}/{page}.mp3", said[-1]
    assert said[-1]["subtitle"] == LINES[lang][page] and said[-1]["shown"] == subtitles_on(driver), said[-1]
    if shot is not None:
        driver.save_screenshot(str(shot))
    if fps is not None:
        fps[page] = measure_fps(driver, 3.0)
    if page == "carworld":
        driver.execute_script("quintetPlayground.play(arguments[0])", log_text)
    elif page == "shipworld":
        win_shipworld(driver, timeout)
    elif page == "fishworld":
        win_fishworld(driver, timeout)
    else:
        play_touch_page(driver, page, "#story-page-root")
    wait(driver, lambda d: (state(d, "page()") or {}).get("finished") or (state(d, "page()") or {}).get("id") != page,
         f"{page} was played but not finished", timeout=timeout)


def child_path(driver, base: str, lang: str, *, speed: int = 4, subtitles: bool = True, shots: Path | None = None,
               fps: dict | None = None, timeout: float = 90) -> dict:
    """The whole path in lang from a fresh progress; returns the progress at the end."""
    open_story(driver, base, speed=speed)
    choose_language(driver, lang)
    if shots is not None:
        driver.save_screenshot(str(shots / f"story-{lang}-00-chest.png"))
    if subtitles:
        turn_subtitles_on(driver)
    click(driver, "drawer-story")
    wait(driver, lambda d: state(d, "screen()") == "index", "the Story drawer did not open the page path")
    click(driver, "page-wake")
    log_text = winlog("carworld", 5)
    for number, page in enumerate(PAGES, 1):
        shot = shots / f"story-{lang}-{number:02d}-{page}.png" if shots is not None else None
        play_page(driver, page, lang, log_text, timeout=timeout, shot=shot, fps=fps)
        progress = state(driver, "progress()")
        if number < 10:
            assert len(progress["won"]) == number, (page, progress)
    # The tenth sweater: the pile topples, the drawing is offered, the loot is open.
    wait(driver, lambda d: state(d, "screen()") == "sweaters", "the tenth sweater did not open the pile", timeout=timeout)
    wait(driver, lambda d: state(d, "pile()")["toppling"] and state(d, "pile()")["count"] == 10, "the pile of ten did not start")
    wait(driver, lambda d: d.find_element("css selector", '[data-target="drawing"]').is_displayed(),
         "the drawing was not offered after the pile toppled", timeout=timeout)
    if shots is not None:
        driver.save_screenshot(str(shots / f"story-{lang}-11-sweaters.png"))
    href = driver.find_element("css selector", '[data-target="drawing"]').get_attribute("href")
    answer = requests.get(href, timeout=10)
    assert answer.status_code == 200 and answer.headers["Content-Type"] == "image/png" and len(answer.content) > 10_000
    progress = state(driver, "progress()")
    assert progress["drawings"] == 1 and progress["best"] == 10 and progress["won"] == []
    assert sorted(progress["finished"]) == sorted(PAGES)
    click(driver, "menu")
    wait(driver, lambda d: state(d, "screen()") == "chest", "the menu did not lead back to the chest")
    click(driver, "drawer-loot")
    wait(driver, lambda d: state(d, "screen()") == "loot", "the Loot drawer did not open")
    for loot in ("bubbles", "garden", "busytown"):
        assert driver.find_element("css selector", f'[data-target="loot-{loot}"]').is_enabled(), f"{loot} is still locked"
    if shots is not None:
        driver.save_screenshot(str(shots / f"story-{lang}-12-loot.png"))
    return progress
