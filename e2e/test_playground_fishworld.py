"""FishWorld at /playground/?game=fishworld in a real Chromium (docs/playground.md, "FishWorld"):
the built module and atlas load, the sea is drawn with nine fish and three reefs, and a player
with a mouse wins it — e2e/drive_fishworld.py presses and drags on the canvas (CDP mouse events
through the page's pointer handlers), reading where the fish are from the page's test hook, until
the module says "won" — and the page shows the count of fish at home and the win. FishWorld's
sounds are short and soft like every game's."""

from __future__ import annotations

import time

import pytest
from selenium.webdriver.common.by import By

from conftest import ARTIFACTS, REPO, launch_browser, open_page, severe_console_entries, wait
from drive_fishworld import FISH_REGIONS, REEF_REGIONS, win_fishworld
from test_playground_page import measure_sounds
from test_shell import viewport

WEB = REPO / "Web"


@pytest.fixture(scope="module")
def browser():
    """This file's own Chromium (as test_playground_page.py: input events reach its pages)."""
    yield from launch_browser()


def state(driver) -> str:
    return driver.execute_script("return document.querySelector('main.playground').dataset.state")


def need_built_game() -> None:
    for path in (WEB / "playground" / "playground.wasm", WEB / "playground" / "atlas" / "fishworld.png"):
        assert path.is_file(), f"{path} is missing: build it with `make wasm` (the module and the atlases)"


# make e2e-long: the story path in make test wins FishWorld with the same driver (at ?speed=4).
@pytest.mark.long
def test_fishworld_is_won_with_the_mouse_on_the_canvas(server, browser):
    need_built_game()
    with viewport(browser, 1024, 768, mobile=False):
        open_page(browser, server.url("/playground/?game=fishworld&seed=1"))
        wait(browser, lambda d: state(d) in ("running", "error"), lambda: f"the game did not load: {state(browser)}")
        assert state(browser) == "running", browser.find_element(By.ID, "pg-state").text
        assert browser.find_element(By.ID, "pg-game").text == "FishWorld"
        assert browser.find_element(By.ID, "pg-score").text == "Score 0"
        images = browser.execute_script("return quintetPlayground.images()")
        assert sorted(i["region"] for i in images if i["region"] in FISH_REGIONS) == [2, 2, 2, 3, 3, 3, 4, 4, 4]
        assert sorted(i["region"] for i in images if i["region"] in REEF_REGIONS) == [5, 6, 7]
        browser.save_screenshot(str(ARTIFACTS / "playground-fishworld-start.png"))

        started = time.monotonic()
        won = win_fishworld(browser, 40)
        took = time.monotonic() - started
        assert won["kind"] == 3 and won["value"] == 9, won
        events = browser.execute_script("return quintetPlayground.events()")
        homes = [e for e in events if e["kind"] == 4]
        assert sorted(e["subject"] for e in homes) == list(range(9)), homes
        assert [e for e in events if e["kind"] == 6], "no lure event: the presses did not reach the module"
        wait(browser, lambda d: d.find_element(By.ID, "pg-score").text == "Score 9 · You won!",
             lambda: f"the bar shows {browser.find_element(By.ID, 'pg-score').text!r}")
        # The presses unlocked the audio: the module's sounds (home chimes, the win) were played.
        assert browser.execute_script("return quintetPlayground.soundsPlayed()") > 0
        browser.save_screenshot(str(ARTIFACTS / "playground-fishworld-won.png"))
        print(f"FishWorld won in {took:.1f} s")
        assert severe_console_entries(browser) == []


def test_fishworld_sounds_are_short_soft_and_heard(server, browser):
    open_page(browser, server.url("/"))
    measured = measure_sounds(browser, "fishworld")
    assert len(measured) == 5  # home, dart, won, wrong reef, new round
    for index, sound in enumerate(measured):
        assert 0.02 < sound["peak"] <= 0.35, f"sound {index}: peak {sound['peak']}"
        assert sound["length"] < 1.0 and sound["heardUntil"] <= min(1.0, sound["length"] + 0.05), f"sound {index}: {sound}"
