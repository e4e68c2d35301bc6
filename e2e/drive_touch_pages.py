"""Plays the story's touch pages (Web/playground/story/pages/, docs/playground.md "Touch pages")
with real pointer input: CDP mouse events (pointerType "mouse" or "pen") or CDP touch events
(pointerType "touch") at the on-screen positions of the pages' `[data-target]` and `[data-slot]`
elements, read from their client rectangles, so it works whatever box holds the page and
however the frame scales it (the story's `#story-page-root`, or the test's own box).

    play_touch_page(driver, "puzzle", "#story-page-root")

Each step waits for the page to show its effect (`data-done` on the target, the crayon
selected, the bubble popped) before the next, so the pages' animations never race the input.
The pages' finish (api.finish()) is the caller's to wait for.
"""

from __future__ import annotations

import time

import pytest

from conftest import wait

PLANS: dict[str, list[tuple]] = {
    "wake": [("tap", name) for name in ("cat", "dog", "rabbit", "sheep", "duck")],
    "puzzle": [("drag", f"piece-{i}", f"piece-{i}") for i in range(4)],
    "balloons": [("drag", f"balloon-{i}", "cloud") for i in range(5)],
    "colouring": [("pick", "crayon-1"), ("tap", "region-0"), ("tap", "region-1"), ("pick", "crayon-3"),
                  ("tap", "region-2"), ("tap", "region-3"), ("pick", "crayon-4"), ("tap", "region-4"),
                  ("tap", "region-5")],
    "shapes": [("drag", name, name) for name in ("circle", "square", "triangle", "star")],
    "bells": [("tap", f"bell-{i}") for i in range(5)],
    "stars": [("tap", f"star-{i}") for i in range(6)],
    "bubbles": [("pop",)] * 8,
    "garden": [("tap", f"soil-{i}") for i in range(6)],
}

# A point of the element that a pointer there would hit (elementFromPoint lands in it: not under
# another page element), its rectangle and the root's, all in client px; null when none is.
_HIT_POINT = """
const [rootSelector, selector] = arguments;
const root = document.querySelector(rootSelector);
const el = root && root.querySelector(selector);
if (!el) return null;
const r = el.getBoundingClientRect(), box = root.getBoundingClientRect();
const rect = { left: r.left, top: r.top, width: r.width, height: r.height, cx: r.left + r.width / 2, cy: r.top + r.height / 2 };
const fractions = [0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8];
for (const fy of fractions) for (const fx of fractions) {
  const x = r.left + fx * r.width, y = r.top + fy * r.height;
  if (x < box.left || y < box.top || x > box.right || y > box.bottom) continue;
  const hit = document.elementFromPoint(x, y);
  if (hit && el.contains(hit)) return { x, y, rect, box: { left: box.left, top: box.top, width: box.width, height: box.height } };
}
return null;
"""


def target_selector(name: str) -> str:
    return f'[data-target="{name}"]'


def slot_selector(name: str) -> str:
    return f'[data-slot="{name}"]'


def hit_point(driver, root_selector: str, selector: str, timeout: float = 5) -> dict:
    """Where to put a pointer on `selector` inside the root (client px), waiting until it can be hit."""
    return wait(driver, lambda d: d.execute_script(_HIT_POINT, root_selector, selector),
                f"no point of {selector} in {root_selector} can be touched", timeout=timeout)


def rect_of(driver, root_selector: str, selector: str) -> dict:
    return driver.execute_script("""
        const el = document.querySelector(arguments[0]).querySelector(arguments[1]);
        if (!el) return null;
        const r = el.getBoundingClientRect();
        return { left: r.left, top: r.top, width: r.width, height: r.height, cx: r.left + r.width / 2, cy: r.top + r.height / 2 };""",
                                 root_selector, selector)


def _mouse(driver, kind: str, x: float, y: float, buttons: int, pointer: str = "mouse") -> None:
    event = {"type": kind, "x": x, "y": y, "button": "left" if kind != "mouseMoved" or buttons else "none",
             "buttons": buttons, "pointerType": pointer}
    if kind in ("mousePressed", "mouseReleased"):
        event["clickCount"] = 1
    driver.execute_cdp_cmd("Input.dispatchMouseEvent", event)


def _touch(driver, kind: str, points: list[tuple[float, float]]) -> None:
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {
        "type": kind, "touchPoints": [{"x": x, "y": y, "id": 1} for x, y in points]})


def tap(driver, x: float, y: float, pointer: str = "mouse") -> None:
    """A tap (press and release at one point) in client px by a finger ("touch": CDP touch
    events) or a mouse or pen ("mouse", "pen": CDP mouse events of that pointerType)."""
    if pointer == "touch":
        _touch(driver, "touchStart", [(x, y)])
        _touch(driver, "touchEnd", [])
    else:
        _mouse(driver, "mousePressed", x, y, 1, pointer)
        _mouse(driver, "mouseReleased", x, y, 0, pointer)


def drag(driver, start: tuple[float, float], end: tuple[float, float], pointer: str = "mouse", steps: int = 5,
         before_release=None) -> None:
    """Press at `start`, move in `steps` steps to `end` and release there, in client px;
    `before_release()`, if given, runs while the pointer is still down at `end`."""
    (x0, y0), (x1, y1) = start, end
    path = [(x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps) for k in range(1, steps + 1)]
    if pointer == "touch":
        _touch(driver, "touchStart", [start])
        for point in path:
            _touch(driver, "touchMove", [point])
        if before_release:
            before_release()
        _touch(driver, "touchEnd", [])
    else:
        _mouse(driver, "mouseMoved", x0, y0, 0, pointer)
        _mouse(driver, "mousePressed", x0, y0, 1, pointer)
        for x, y in path:
            _mouse(driver, "mouseMoved", x, y, 1, pointer)
        if before_release:
            before_release()
        _mouse(driver, "mouseReleased", x1, y1, 0, pointer)


def drag_to(driver, root_selector: str, name: str, end_centre: tuple[float, float], pointer: str = "mouse") -> None:
    """Drags target `name` so that its centre ends at `end_centre` (client px): grabbed at a point
    that hits it, released at that point's offset from the centre."""
    grab = hit_point(driver, root_selector, target_selector(name))
    rect = grab["rect"]
    end = (end_centre[0] + grab["x"] - rect["cx"], end_centre[1] + grab["y"] - rect["cy"])
    drag(driver, (grab["x"], grab["y"]), end, pointer)


def is_done(driver, root_selector: str, name: str) -> bool:
    return bool(driver.execute_script(
        "const el = document.querySelector(arguments[0]).querySelector(arguments[1]);"
        " return !!el && el.hasAttribute('data-done')", root_selector, target_selector(name)))


def _pop_a_bubble(driver, root_selector: str, pointer: str, timeout: float) -> None:
    popped = lambda d: int(d.execute_script(  # noqa: E731
        "return +(document.querySelector(arguments[0]).querySelector('[data-page]').getAttribute('data-popped') || 0)",
        root_selector))
    before = popped(driver)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        # The bubble lowest on the screen whose point can be hit (it has the longest way to go).
        point = driver.execute_script(f"""
            const root = document.querySelector(arguments[0]);
            const names = [...root.querySelectorAll('[data-target^="bubble-"]')]
              .sort((a, b) => b.getBoundingClientRect().top - a.getBoundingClientRect().top)
              .map((el) => el.getAttribute('data-target'));
            for (const name of names) {{
              const p = (function() {{ {_HIT_POINT} }}).call(null, arguments[0], `[data-target="${{name}}"]`);
              if (p) return p;
            }}
            return null;""", root_selector)
        if point:
            tap(driver, point["x"], point["y"], pointer)
            try:
                wait(driver, lambda d: popped(d) > before, "no bubble popped", timeout=1)
                return
            except pytest.fail.Exception:  # the bubble rose away from the point: aim again
                if popped(driver) > before:
                    return
        else:
            time.sleep(0.05)
    raise AssertionError(f"no bubble could be popped in {root_selector} within {timeout} s")


def play_step(driver, page_id: str, root_selector: str, step: tuple, pointer: str = "mouse", timeout: float = 10) -> None:
    """One step of the page's plan, waiting for its effect on the page."""
    kind = step[0]
    if kind == "pop":
        _pop_a_bubble(driver, root_selector, pointer, timeout)
        return
    name = step[1]
    if kind in ("tap", "pick"):
        point = hit_point(driver, root_selector, target_selector(name))
        tap(driver, point["x"], point["y"], pointer)
    elif kind == "drag":
        slot = rect_of(driver, root_selector, slot_selector(step[2]))
        assert slot, f"{page_id}: no {slot_selector(step[2])}"
        drag_to(driver, root_selector, name, (slot["cx"], slot["cy"]), pointer)
    else:
        raise ValueError(f"unknown step {step}")
    if kind == "pick":
        wait(driver, lambda d: d.execute_script(
            "return document.querySelector(arguments[0]).querySelector(arguments[1]).getAttribute('data-selected')",
            root_selector, target_selector(name)) == "true", f"{page_id}: {name} was not picked", timeout=timeout)
    else:
        wait(driver, lambda d: is_done(d, root_selector, name), f"{page_id}: {step} had no effect", timeout=timeout)


def play_touch_page(driver, page_id: str, root_selector: str, *, steps: int | None = None, pointer: str = "mouse",
                    timeout: float = 10) -> None:
    """Plays touch page `page_id`, mounted in the box `root_selector`, to its end (or its first
    `steps` steps) with real pointer input: "mouse" or "pen" (CDP mouse events of that
    pointerType) or "touch" (CDP touch events; the browser must deliver them: see
    conftest.launch_browser)."""
    for step in PLANS[page_id][:steps]:
        play_step(driver, page_id, root_selector, step, pointer, timeout)
