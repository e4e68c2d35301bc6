"""ShipWorld in Chromium (docs/playground.md, "ShipWorld"): the module runs game 2 at
/playground/?game=shipworld, and it is won by tilt alone, DeviceOrientation events steering the
boat down the river (e2e/drive_shipworld.py, the driver the story page reuses); without a
sensor, the arrow keys and the on-screen pad stand for tilt."""

from __future__ import annotations

import time

import pytest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ARTIFACTS, REPO, open_page, severe_console_entries, wait
from drive_shipworld import win_shipworld
from test_playground_page import measure_sounds
from test_shell import viewport

WEB = REPO / "Web"


def need_built_game() -> None:
    for path in (WEB / "playground" / "playground.wasm", WEB / "playground" / "atlas" / "shipworld.png"):
        assert path.is_file(), f"{path} is missing: build it with `bash scripts/build-wasm` and scripts/build-atlas"


def state(driver) -> str:
    return driver.find_element(By.CSS_SELECTOR, "main.playground").get_attribute("data-state")


def boat(driver) -> dict | None:
    """The boat's latest position event (kind 6)."""
    return driver.execute_script("return quintetPlayground.events().filter((e) => e.kind === 6).slice(-1)[0] || null")


def frames(driver) -> int:
    return driver.execute_script("return quintetPlayground.frames()")


def load(driver, url: str) -> None:
    open_page(driver, url)
    wait(driver, lambda d: state(d) in ("running", "error"), lambda: f"the game did not load: {state(driver)}")
    assert state(driver) == "running", driver.find_element(By.ID, "pg-state").text
    wait(driver, lambda d: boat(d) is not None, "no boat position event")


# make e2e-long: the story path in make test wins ShipWorld by DeviceOrientation events too (at ?speed=4).
@pytest.mark.long
def test_shipworld_is_won_by_device_orientation_alone(server, browser):
    need_built_game()
    with viewport(browser, 1024, 768, mobile=False):
        load(browser, server.url("/playground/?game=shipworld&seed=1"))
        assert browser.save_screenshot(str(ARTIFACTS / "playground-shipworld-1024x768.png"))
        result = win_shipworld(browser, timeout_s=60)  # about 30 s; room for a loaded machine
        assert result["won"]["value"] == 1 and result["tips"] > 50
        # In the harbour (the dock at (915, 626)); the sensor's reading hid the pad.
        wait(browser, lambda d: abs(boat(d)["x"] - 915) < 70 and abs(boat(d)["y"] - 626) < 70, lambda: f"not docked: {boat(browser)}")
        assert not browser.find_element(By.ID, "pg-pad").is_displayed()
        assert severe_console_entries(browser) == []


def test_arrow_keys_and_the_pad_steer_where_there_is_no_sensor(server, browser):
    need_built_game()
    with viewport(browser, 1024, 768, mobile=False):
        load(browser, server.url("/playground/?game=shipworld&seed=2"))
        pad = browser.find_element(By.ID, "pg-pad")
        assert pad.is_displayed()
        buttons = pad.find_elements(By.TAG_NAME, "button")
        assert sorted(b.get_attribute("data-direction") for b in buttons) == ["down", "left", "right", "up"]
        assert all(b.size["width"] >= 80 and b.size["height"] >= 80 for b in buttons)
        start = boat(browser)
        ActionChains(browser).key_down(Keys.ARROW_RIGHT).perform()
        time.sleep(1.5)
        ActionChains(browser).key_up(Keys.ARROW_RIGHT).perform()
        moved = boat(browser)
        # The current alone drifts it about 24 points a second: the key pushed it much further.
        assert moved["x"] - start["x"] > 90, (start, moved)
        # The pad's down button: held, the boat goes down the stage.
        before = boat(browser)
        down = pad.find_element(By.CSS_SELECTOR, "[data-direction=down]")
        ActionChains(browser).click_and_hold(down).perform()
        time.sleep(1.0)
        after = boat(browser)
        ActionChains(browser).release().perform()
        assert after["y"] - before["y"] > 15, (before, after)
        # Then the sensor wakes up (iOS: after that first touch), the tablet held tipped 35°
        # toward the child: that is level now, the boat is not pushed down; tipped back to 5°
        # (top edge lowered, relative to 35°) it goes up, where unlevelled 5° would push down.
        tip = "dispatchEvent(new DeviceOrientationEvent('deviceorientation', {alpha: 0, beta: arguments[0], gamma: arguments[1]}))"
        browser.execute_script(tip, 35, 0)
        wait(browser, lambda d: not pad.is_displayed(), "a sensor reading did not hide the pad")
        time.sleep(0.6)  # the boat's momentum from the pad fades
        held = boat(browser)
        time.sleep(1.2)
        still = boat(browser)
        assert abs(still["y"] - held["y"]) < 30, (held, still)
        browser.execute_script(tip, 5, 0)
        time.sleep(1.2)
        up = boat(browser)
        assert still["y"] - up["y"] > 25, (held, still, up)
        assert severe_console_entries(browser) == []


def test_tilt_readings_are_turned_to_the_screen_and_the_keys_are_tilts(server, browser):
    open_page(browser, server.url("/"))
    browser.set_script_timeout(10)
    answer = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import("/playground/input.js").then(({ screenAxes, padTilt }) => done({
          turned: [[1, 0, 0], [0, 1, 0], [1, 0, 90], [0, 1, 90], [0, 1, 270], [1, 0, 180]].map(([x, y, a]) => screenAxes(x, y, a)),
          pad: [[1, 0], [-1, 0], [0, 1], [0, -1], [0, 0], [1, 1]].map(([dx, dy]) => padTilt(dx, dy)),
        }), (e) => done({ error: String(e) }));""")
    assert "error" not in answer, answer
    # A screen turned 90° (a tablet on its side, top to the left): the screen's x is -device y.
    assert answer["turned"] == [{"x": 1, "y": 0}, {"x": 0, "y": 1}, {"x": 0, "y": 1}, {"x": -1, "y": 0},
                                {"x": 1, "y": 0}, {"x": -1, "y": 0}]
    # Right lowers the right edge (x < 0), down lowers the bottom edge (y > 0); 0.5 g, level z.
    pad = answer["pad"]
    assert pad[0] == {"x": -0.5, "y": 0, "z": 0.8662109375} and pad[1]["x"] == 0.5
    assert pad[2] == {"x": 0, "y": 0.5, "z": 0.8662109375} and pad[3]["y"] == -0.5
    assert pad[4] == {"x": 0, "y": 0, "z": 1}
    assert abs(pad[5]["x"] + 0.3535) < 0.001 and abs(pad[5]["y"] - 0.3535) < 0.001


def test_shipworld_sounds_are_short_soft_and_heard(server, browser):
    open_page(browser, server.url("/"))
    browser.set_script_timeout(20)
    measured = measure_sounds(browser, "shipworld")
    assert len(measured) == 4, measured  # bump, duck, won, new trip
    for index, sound in enumerate(measured):
        assert 0.02 < sound["peak"] <= 0.35, f"sound {index}: {sound}"
        assert sound["length"] < 1 and sound["heardUntil"] <= min(1.0, sound["length"] + 0.05), f"sound {index}: {sound}"
