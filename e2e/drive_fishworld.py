"""Plays FishWorld to a win on a page in Chromium with real pointer input (CDP mouse events on
the game's canvas), closed loop from the page's test hook `window.quintetPlayground`
(docs/playground.md, "FishWorld", "Winning it from a browser").

    from drive_fishworld import win_fishworld
    won = win_fishworld(driver, 40)                    # /playground/?game=fishworld
    won = win_fishworld(driver, 40, canvas="#story canvas")

The driver does what the game's autopilot does, from what the page shows: `images()` gives each
drawn image's atlas region and its centre in stage points (fish regions 2–4, reefs 5–7: which
fish is where, where each reef is), `events()` the module's events (6: a touch began and lures
the group `subject`; 3: won). It presses the mouse on a free fish (one farther than 85 points
from its own reef), learns from event 6 which group follows the finger, drags the finger toward
that group's reef at about 150 points/s (waiting while a fish of the group is more than 110
points behind), lifts when the group is home, and does the next group, until event 3 comes.
"""

from __future__ import annotations

import math
import time

# FishWorld's atlas regions (Sources/Playground/ArtFishWorld.swift) by colour
# (FishColour: 0 red, 1 yellow, 2 purple).
FISH_REGIONS = {3: 0, 4: 1, 2: 2}   # fish-red, fish-yellow, fish-purple
REEF_REGIONS = {6: 0, 7: 1, 5: 2}   # reef-red, reef-yellow, reef-purple
WON, LURE = 3, 6
STAGE = (1024.0, 768.0)
HOME = 85.0        # a fish this close to its reef's centre is (or is about to be) home
STRAGGLER = 110.0  # the finger waits while a fish of its group is farther than this
SPEED = 150.0      # points per second the finger moves
PATIENCE = 20.0    # seconds before a drag that brings nobody home is started again


def _client_point(driver, canvas: str, x: float, y: float) -> tuple[float, float]:
    return tuple(driver.execute_script(
        """const r = document.querySelector(arguments[0]).getBoundingClientRect();
           return [r.left + arguments[1] * r.width / arguments[3], r.top + arguments[2] * r.height / arguments[4]];""",
        canvas, x, y, *STAGE))


def _mouse(driver, canvas: str, kind: str, x: float, y: float) -> None:
    cx, cy = _client_point(driver, canvas, x, y)
    params = {"type": kind, "x": cx, "y": cy, "button": "left", "buttons": 0 if kind == "mouseReleased" else 1}
    if kind != "mouseMoved":
        params["clickCount"] = 1
    driver.execute_cdp_cmd("Input.dispatchMouseEvent", params)


def _scene(driver, atlas: int):
    """(fish as [(colour, x, y)], reefs as {colour: (x, y)}, events) of the page's last frame."""
    images, events = driver.execute_script(
        "return [window.quintetPlayground.images(), window.quintetPlayground.events()]")
    fish, reefs = [], {}
    for image in images:
        if image["atlas"] != atlas:
            continue
        if image["region"] in FISH_REGIONS:
            fish.append((FISH_REGIONS[image["region"]], image["x"], image["y"]))
        elif image["region"] in REEF_REGIONS:
            reefs[REEF_REGIONS[image["region"]]] = (image["x"], image["y"])
    return fish, reefs, events


def _key(event) -> tuple:
    return (event["frame"], event["kind"], event["subject"], event["value"])


def win_fishworld(driver, timeout_s: float = 40, canvas: str = "#pg-canvas", atlas: int = 0) -> dict:
    """Leads every fish home with the mouse on `canvas` (a CSS selector) until the game emits
    "won" (event kind 3); returns that event. Raises AssertionError after `timeout_s` seconds."""
    deadline = time.monotonic() + timeout_s
    _, _, events = _scene(driver, atlas)
    seen = {_key(e) for e in events}
    down = False
    lure = (0.0, 0.0)
    colour = None
    pressed_at = last = time.monotonic()
    try:
        while time.monotonic() < deadline:
            fish, reefs, events = _scene(driver, atlas)
            fresh = [e for e in events if _key(e) not in seen]
            seen.update(_key(e) for e in fresh)
            for event in fresh:
                if event["kind"] == WON:
                    return event
                if event["kind"] == LURE and down:
                    colour = event["subject"]  # the group the game gave the finger
            now = time.monotonic()
            dt, last = now - last, now
            if len(reefs) < 3:
                time.sleep(0.05)
                continue
            free = [(c, x, y) for c, x, y in fish if math.dist((x, y), reefs[c]) > HOME]
            if not down:
                if not free:
                    time.sleep(0.05)  # the last fish are settling
                    continue
                c, x, y = min(free, key=lambda f: (f[0], f[1]))
                lure, colour, down, pressed_at = (x, y), c, True, now
                _mouse(driver, canvas, "mousePressed", x, y)
                time.sleep(0.03)
                continue
            group = [(x, y) for c, x, y in free if c == colour]
            if not group or now - pressed_at > PATIENCE:
                _mouse(driver, canvas, "mouseReleased", *lure)
                down = False
                continue
            if max(math.dist(f, lure) for f in group) < STRAGGLER:
                reef = reefs[colour]
                gap = math.dist(lure, reef)
                step = min(gap, SPEED * min(dt, 0.1))
                if gap > 0:
                    lure = (lure[0] + step * (reef[0] - lure[0]) / gap, lure[1] + step * (reef[1] - lure[1]) / gap)
            _mouse(driver, canvas, "mouseMoved", *lure)
            time.sleep(0.03)
    finally:
        if down:
            _mouse(driver, canvas, "mouseReleased", *lure)
    raise AssertionError(f"FishWorld not won within {timeout_s} s")
