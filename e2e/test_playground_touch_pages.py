"""The story's touch pages (Web/playground/story/pages/, docs/playground.md "Touch pages") in a
real Chromium, played with real pointer input.

Each page module is imported into a page of the server and mounted in a 1024×768 box of the
test's own, scaled by a CSS transform of 0.8 (as the story frame scales it), with an api stub
that records finish() and sound() calls. drive_touch_pages.py plays it through CDP mouse or
touch events at the on-screen rectangles of its [data-target]/[data-slot] elements (so the
pages' client px → stage units conversion is exercised); finish() must come exactly once, only
when the page's goal is met; a wrong drop floats back and does not finish; every target is at
least 80 stage units; the console stays clean."""

from __future__ import annotations

import pytest

from conftest import ARTIFACTS, launch_browser, open_page, severe_console_entries, wait
from drive_touch_pages import PLANS, drag, hit_point, play_step, play_touch_page, rect_of, tap, target_selector

ROOT = "#qp-test-root"
SCALE = 0.8
PAGES = ["wake", "puzzle", "balloons", "colouring", "shapes", "bells", "stars", "bubbles", "garden"]
SOUNDS = {"pop", "chime", "snap", "whoosh", "sparkle", *(f"note{i}" for i in range(8))}
# What the page's goal counts ([data-done] elements when finish() comes).
GOALS = {"wake": 5, "puzzle": 4, "balloons": 5, "colouring": 6, "shapes": 4, "bells": 5, "stars": 6, "bubbles": 0, "garden": 6}


@pytest.fixture(scope="module")
def browser():
    """This file's own Chromium: CDP touch events reach its pages whatever earlier files did
    (conftest.launch_browser)."""
    yield from launch_browser()


MOUNT = """
const [id, scale, reducedMotion, done] = arguments;
document.querySelector("#qp-test-root")?.remove();
const root = document.createElement("div");
root.id = "qp-test-root";
root.style.cssText = `position:fixed;left:37px;top:21px;width:1024px;height:768px;overflow:hidden;z-index:2147483000;` +
  `transform:scale(${scale});transform-origin:0 0;background:#fff`;
document.body.append(root);
const record = window.qpRecord = { finish: [], sounds: [], errors: [] };
const api = {
  reducedMotion,
  finish() { record.finish.push({ done: root.querySelectorAll("[data-done]").length,
                                  popped: +(root.querySelector("[data-page]")?.getAttribute("data-popped") || 0) }); },
  sound(name) { record.sounds.push(name); },
};
import("/playground/story/pages/index.js").then(({ TOUCH_PAGES }) => {
  const module = TOUCH_PAGES[id];
  if (!module || module.id !== id) throw new Error(`no page ${id}`);
  window.qpPage = module.mount(root, api);
  // Wait for the stylesheet the kit links, so the idle loops are there to be seen.
  const link = [...document.querySelectorAll("link[rel=stylesheet]")].find((l) => l.href.endsWith("/story/pages.css"));
  const ready = link && !link.sheet ? new Promise((ok) => link.addEventListener("load", ok, { once: true })) : Promise.resolve();
  return ready.then(() => done({ ok: Object.keys(TOUCH_PAGES) }));
}).catch((err) => done({ error: String(err && err.stack || err) }));
"""


def mount(driver, server, page_id: str, *, reduced: bool = False, fresh: bool = False) -> list[str]:
    """Mounts the page in a fresh box on the server's home page (loaded when the browser is
    elsewhere, or `fresh`), the previous box removed (its page destroyed by the test)."""
    if fresh or driver.current_url != server.url("/"):
        open_page(driver, server.url("/"))
    answer = driver.execute_async_script(MOUNT, page_id, SCALE, reduced)
    assert "error" not in answer, answer["error"]
    return answer["ok"]


def finished_mark(driver) -> bool:
    return driver.execute_script(f"return document.querySelector('{ROOT} [data-page]').hasAttribute('data-finished')")


def record(driver) -> dict:
    return driver.execute_script("return window.qpRecord")


def running_animations(driver) -> int:
    return driver.execute_script(
        "return document.getAnimations().filter((a) => document.querySelector('#qp-test-root').contains(a.effect?.target)"
        " && a.playState === 'running').length")


def targets_in_units(driver) -> dict[str, tuple[float, float]]:
    """Every [data-target]'s on-screen size converted to stage units (the box is 1024 units wide)."""
    sizes = driver.execute_script("""
        const root = document.querySelector(arguments[0]); const box = root.getBoundingClientRect();
        const unit = box.width / 1024;
        return [...root.querySelectorAll('[data-target]')].map((el) => {
          const r = el.getBoundingClientRect(); return [el.getAttribute('data-target'), r.width / unit, r.height / unit, unit]; });""",
                                  ROOT)
    assert sizes, "no [data-target] on the page"
    assert abs(sizes[0][3] - SCALE) < 1e-3, "the box is not scaled as the test set it"
    return {name: (w, h) for name, w, h, _ in sizes}


@pytest.mark.parametrize("page_id", PAGES)
def test_touch_page_is_played_to_its_end_by_pointer_input(server, browser, page_id):
    listed = mount(browser, server, page_id)
    assert sorted(listed) == sorted(PAGES)
    small = {name: size for name, size in targets_in_units(browser).items() if min(size) < 80}
    assert not small, f"{page_id}: targets under 80 stage units: {small}"
    assert running_animations(browser) == 0, "the main animation runs before start()"
    browser.execute_script("qpPage.start()")
    wait(browser, lambda d: running_animations(d) > 0, f"{page_id}: start() starts no animation", timeout=3)
    plan = PLANS[page_id]
    play_touch_page(browser, page_id, ROOT, steps=len(plan) - 1)
    # A page decides it is finished in the handler of the step that meets its goal, the step
    # that also marks [data-done] (or counts the bubble) and that play_step waited for.
    assert not finished_mark(browser), f"{page_id}: finished before its last step"
    assert record(browser)["finish"] == [], f"{page_id}: finished before its last step"
    play_step(browser, page_id, ROOT, plan[-1])
    assert finished_mark(browser), f"{page_id}: the last step did not finish the page"
    finished = wait(browser, lambda d: record(d)["finish"], f"{page_id}: api.finish() was not called", timeout=5)
    if page_id == "bubbles":
        assert finished == [{"done": 0, "popped": 8}], finished
    else:
        assert finished == [{"done": GOALS[page_id], "popped": 0}], finished
    browser.save_screenshot(str(ARTIFACTS / f"touch-page-{page_id}.png"))
    # Played on after the end: more touches, never a second finish().
    sounds = len(record(browser)["sounds"])
    if page_id == "bubbles":
        play_step(browser, page_id, ROOT, plan[0])  # a ninth bubble
    elif plan[0][0] in ("tap", "pick"):
        tap_again(browser, plan[0][1])
    if plan[0][0] != "drag":  # (a piece in its place does not move again)
        wait(browser, lambda d: len(record(d)["sounds"]) > sounds, f"{page_id}: a touch after the end is not heard")
    rec = record(browser)
    assert len(rec["finish"]) == 1, rec["finish"]
    assert set(rec["sounds"]) <= SOUNDS, rec["sounds"]
    assert "sparkle" in rec["sounds"]
    browser.execute_script("qpPage.destroy()")
    assert browser.execute_script(f"return document.querySelector('{ROOT}').childElementCount") == 0
    assert running_animations(browser) == 0
    assert severe_console_entries(browser) == []


def tap_again(driver, name: str) -> None:
    point = hit_point(driver, ROOT, target_selector(name))
    tap(driver, point["x"], point["y"])


def wrong_drop_floats_back(driver, page_id: str, name: str, to: tuple[float, float]) -> None:
    """Drags `name` so its centre lands at client point `to`, where it does not belong; it must
    float back to where it was, not counted, and the page not finished."""
    home = rect_of(driver, ROOT, target_selector(name))
    grab = hit_point(driver, ROOT, target_selector(name))

    def held_there():  # still under the pointer, its centre where it was dragged to
        held = rect_of(driver, ROOT, target_selector(name))
        assert abs(held["cx"] - to[0]) < 6 and abs(held["cy"] - to[1]) < 6, f"{name} does not follow the pointer: {held}, {to}"
    drag(driver, (grab["x"], grab["y"]), (to[0] + grab["x"] - home["cx"], to[1] + grab["y"] - home["cy"]),
         before_release=held_there)
    wait(driver, lambda d: (lambda r: abs(r["cx"] - home["cx"]) < 2 and abs(r["cy"] - home["cy"]) < 2)(
        rect_of(d, ROOT, target_selector(name))), f"{page_id}: {name} did not float back", timeout=5)
    assert not driver.execute_script(
        f"return document.querySelector('{ROOT}').querySelector(arguments[0]).hasAttribute('data-done')", target_selector(name))
    assert "whoosh" in record(driver)["sounds"]


def test_a_wrong_drop_floats_back_and_does_not_finish(server, browser):
    # The puzzle: three pieces in, the fourth dropped on the first's place comes back; then in.
    mount(browser, server, "puzzle")
    browser.execute_script("qpPage.start()")
    play_touch_page(browser, "puzzle", ROOT, steps=3)
    slot = rect_of(browser, ROOT, '[data-slot="piece-0"]')
    wrong_drop_floats_back(browser, "puzzle", "piece-3", (slot["cx"], slot["cy"]))
    assert record(browser)["finish"] == [] and not finished_mark(browser)
    play_step(browser, "puzzle", ROOT, PLANS["puzzle"][3])
    wait(browser, lambda d: record(d)["finish"] == [{"done": 4, "popped": 0}], "the puzzle did not finish", timeout=5)
    # The shapes: the circle into the square's hole comes back.
    mount(browser, server, "shapes")
    hole = rect_of(browser, ROOT, '[data-slot="square"]')
    wrong_drop_floats_back(browser, "shapes", "circle", (hole["cx"], hole["cy"]))
    # The balloons: one let go low in the meadow drifts back to its post.
    mount(browser, server, "balloons")
    box = browser.execute_script(f"const r = document.querySelector('{ROOT}').getBoundingClientRect(); return [r.left, r.top]")
    wrong_drop_floats_back(browser, "balloons", "balloon-0", (box[0] + 900 * SCALE, box[1] + 560 * SCALE))
    assert record(browser)["finish"] == []
    browser.execute_script("qpPage.destroy()")
    assert severe_console_entries(browser) == []


@pytest.mark.parametrize("page_id, pointer", [("wake", "touch"), ("puzzle", "touch"), ("shapes", "pen")])
def test_fingers_and_pens_play_the_pages_too(server, browser, page_id, pointer):
    """CDP touch events (pointerType "touch") and pen events, with pointer capture through the drags."""
    mount(browser, server, page_id)
    browser.execute_script("qpPage.start()")
    browser.execute_script("""window.qpPointerTypes = new Set();
        document.querySelector('#qp-test-root').addEventListener('pointerdown', (e) => qpPointerTypes.add(e.pointerType), true);""")
    play_touch_page(browser, page_id, ROOT, pointer=pointer)
    wait(browser, lambda d: len(record(d)["finish"]) == 1, f"{page_id}: not finished by {pointer}", timeout=5)
    assert browser.execute_script("return [...qpPointerTypes]") == [pointer]
    browser.execute_script("qpPage.destroy()")
    assert severe_console_entries(browser) == []


@pytest.mark.parametrize("page_id", ["stars", "bubbles"])
def test_reduced_motion_has_no_idle_animation_and_still_plays(server, browser, page_id):
    mount(browser, server, page_id, reduced=True)
    browser.execute_script("qpPage.start()")
    assert browser.execute_script(f"return document.querySelector('{ROOT} [data-page]').classList.contains('qp-reduced')")
    assert running_animations(browser) == 0
    play_touch_page(browser, page_id, ROOT)
    wait(browser, lambda d: len(record(d)["finish"]) == 1, f"{page_id}: not finished with reduced motion", timeout=3)
    assert running_animations(browser) == 0, "an animation ran with reduced motion"
    browser.execute_script("qpPage.destroy()")
    assert severe_console_entries(browser) == []


# Timers, intervals and animation frames the page modules start (their stack names a module
# of /story/pages/), tracked from before the mount.
TRACK = """
const pending = window.qpPending = { timeouts: new Set(), intervals: new Set(), frames: new Set() };
const mine = () => /\\/story\\/pages\\//.test(new Error().stack || "");
const [st, ct, si, ci, raf, caf] = [setTimeout, clearTimeout, setInterval, clearInterval, requestAnimationFrame, cancelAnimationFrame];
window.setTimeout = (fn, ms, ...a) => { const track = mine(); const id = st(() => { pending.timeouts.delete(id); fn(...a); }, ms);
  if (track) pending.timeouts.add(id); return id; };
window.clearTimeout = (id) => { pending.timeouts.delete(id); ct(id); };
window.setInterval = (fn, ms, ...a) => { const id = si(fn, ms, ...a); if (mine()) pending.intervals.add(id); return id; };
window.clearInterval = (id) => { pending.intervals.delete(id); ci(id); };
window.requestAnimationFrame = (fn) => { const track = mine(); const id = raf((t) => { pending.frames.delete(id); fn(t); });
  if (track) pending.frames.add(id); return id; };
window.cancelAnimationFrame = (id) => { pending.frames.delete(id); caf(id); };
"""


def pending(driver) -> dict:
    return driver.execute_script("return Object.fromEntries(Object.entries(qpPending).map(([k, v]) => [k, v.size]))")


def test_destroy_stops_everything_the_page_started(server, browser):
    # Bubbles: rising (a frame loop), a new bubble every 0.9 s (an interval), pops (timeouts).
    open_page(browser, server.url("/"))  # a fresh page to wrap the timers of
    browser.execute_script(TRACK)
    mount(browser, server, "bubbles")
    browser.execute_script("qpPage.start()")
    play_touch_page(browser, "bubbles", ROOT, steps=2)
    busy = pending(browser)
    assert busy["intervals"] >= 1 and busy["frames"] >= 1, busy
    browser.execute_script("qpPage.destroy()")
    assert pending(browser) == {"timeouts": 0, "intervals": 0, "frames": 0}
    # Bells: destroyed right after the goal is met, before finish() is due: it never comes.
    mount(browser, server, "bells")
    play_touch_page(browser, "bells", ROOT)
    assert finished_mark(browser) and pending(browser)["timeouts"] >= 1
    browser.execute_script("qpPage.destroy()")
    assert pending(browser) == {"timeouts": 0, "intervals": 0, "frames": 0}
    assert record(browser)["finish"] == []
    # Puzzle: destroyed in the middle of a drag (the pointer still down), then released.
    mount(browser, server, "puzzle")
    grab = hit_point(browser, ROOT, target_selector("piece-1"))
    drag(browser, (grab["x"], grab["y"]), (grab["x"] + 150, grab["y"] + 40),
         before_release=lambda: browser.execute_script("qpPage.destroy()"))
    assert browser.execute_script(f"return document.querySelector('{ROOT}').childElementCount") == 0
    assert pending(browser) == {"timeouts": 0, "intervals": 0, "frames": 0}
    assert record(browser)["sounds"] == ["pop"]  # the pick-up; no whoosh, no snap after destroy()
    assert severe_console_entries(browser) == []
