"""/playground/, the JavaScript host of the game module (docs/playground.md, "The page"), in a
real Chromium.

The renderer (Web/playground/draw.js) paints draw lists built here byte by byte per the
contract, and the canvas's pixels are read back. The host (host.js, playground.js) runs a
small WebAssembly module assembled here by hand (hand_module()): it exports the contract's
functions, draws a red stage with a blue square where the last touch was, and reports the
milliseconds it was given as a score event; served by a server of this file's own whose Web
folder is the project's with that module (and an atlas) added, so the page runs as it does
with a real game. Touches go through CDP (real touch events, each finger its own id), the mouse
through Selenium. Sounds are rendered offline and measured (short, soft, never silent)."""

from __future__ import annotations

import base64
import json
import shutil
import struct
from pathlib import Path

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from conftest import ARTIFACTS, REPO, launch_browser, open_page, severe_console_entries, start_server, stop_server, wait

WEB = REPO / "Web"
MAGIC = 0x314C4451
RED, GREEN, BLUE, WHITE, BLACK = 0xFF0000FF, 0x00FF00FF, 0x0000FFFF, 0xFFFFFFFF, 0x000000FF
IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


@pytest.fixture(scope="module")
def browser():
    """This file's own Chromium: CDP touch events reach its pages whatever earlier files did
    (conftest.launch_browser)."""
    yield from launch_browser()


# --- Draw lists, byte by byte -----------------------------------------------------------


def command(op: int, transform, alpha: float, body: bytes) -> bytes:
    return struct.pack("<I6ff", op, *transform, alpha) + body


def quad(transform, w, h, colours, alpha=1.0) -> bytes:
    if isinstance(colours, int):
        colours = (colours,) * 4
    return command(1, transform, alpha, struct.pack("<ff4I", w, h, *colours))


def image(transform, w, h, atlas, region, tint=WHITE, alpha=1.0) -> bytes:
    return command(2, transform, alpha, struct.pack("<ffIII", w, h, atlas, region, tint))


def text(transform, w, h, size, colour, align, string: str, alpha=1.0) -> bytes:
    data = string.encode()
    padded = data + b"\0" * (-len(data) % 4)
    return command(3, transform, alpha, struct.pack("<fffIII", w, h, size, colour, align, len(data)) + padded)


def draw_list(*commands: bytes) -> bytes:
    body = b"".join(commands)
    return struct.pack("<III", MAGIC, len(commands), 12 + len(body)) + body


def translate(x, y):
    return (1.0, 0.0, 0.0, 1.0, float(x), float(y))


def run(driver, body: str, *args):
    """Runs body (an async function body; `args` holds the arguments) in the page; returns its
    value, or fails with the error it threw."""
    answer = driver.execute_async_script(
        "const done = arguments[arguments.length - 1]; const args = Array.from(arguments).slice(0, -1);"
        f"(async () => {{ {body} }})().then((value) => done({{ value }}),"
        " (err) => done({ error: String(err && err.stack || err) }));", *args)
    assert "error" not in answer, answer.get("error")
    return answer["value"]


PAINT = """
    const { drawList } = await import("/playground/draw.js");
    const [b64, width, height, scale] = args;
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    // The list at an offset in a bigger buffer, as in a module's memory.
    const memory = new Uint8Array(bytes.length + 64); memory.set(bytes, 40);
    const canvas = document.createElement("canvas"); canvas.width = width; canvas.height = height;
    const ctx = canvas.getContext("2d");
    // An atlas of 8×4 pixels: region 0 yellow (left half), region 1 magenta (right half).
    const sheet = document.createElement("canvas"); sheet.width = 8; sheet.height = 4;
    const s = sheet.getContext("2d");
    s.fillStyle = "#ffff00"; s.fillRect(0, 0, 4, 4); s.fillStyle = "#ff00ff"; s.fillRect(4, 0, 4, 4);
    const atlases = [{ image: sheet, regions: [{ x: 0, y: 0, w: 4, h: 4 }, { x: 4, y: 0, w: 4, h: 4 }] }];
    const drawn = drawList(ctx, memory.buffer, 40, bytes.length, { scale, atlases });
    const pixels = Array.from(ctx.getImageData(0, 0, width, height).data);
    return { drawn, pixels };"""


class Canvas:
    def __init__(self, width: int, pixels: list[int]):
        self.width = width
        self.data = pixels

    def __getitem__(self, point):
        x, y = point
        i = 4 * (y * self.width + x)
        return tuple(self.data[i:i + 4])

    def count(self, box, predicate) -> int:
        x0, y0, x1, y1 = box
        return sum(1 for y in range(y0, y1) for x in range(x0, x1) if predicate(self[x, y]))


def paint(driver, data: bytes, width=240, height=160, scale=1.0) -> tuple[int, Canvas]:
    answer = run(driver, PAINT, base64.b64encode(data).decode(), width, height, scale)
    return answer["drawn"], Canvas(width, answer["pixels"])


def close(pixel, expected, tolerance=8) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, expected))


@pytest.fixture(scope="module")
def own_web(tmp_path_factory):
    """A Web folder of the project's own files (links) whose playground/ folder this file
    fills: without a module at first."""
    root = tmp_path_factory.mktemp("web")
    for entry in WEB.iterdir():
        if entry.name != "playground":
            (root / entry.name).symlink_to(entry)
    (root / "playground").mkdir()
    for entry in (WEB / "playground").iterdir():
        if entry.name not in ("playground.wasm", "atlas"):
            (root / "playground" / entry.name).symlink_to(entry)
    return root


@pytest.fixture(scope="module")
def own_server(tmp_path_factory, own_web):
    """A server of this file's own, serving own_web (the last --web wins)."""
    library = tmp_path_factory.mktemp("music")
    running = start_server(tmp_path_factory.mktemp("data"), ARTIFACTS / "playground-server.log",
                           ("--library", str(library), "--web", str(own_web)))
    yield running
    stop_server(running)


# --- The renderer ---------------------------------------------------------------------------


def test_draw_list_paints_quads_images_and_text_where_the_transforms_put_them(own_server, browser):
    open_page(browser, own_server.url("/"))
    rotated = (0.0, 1.0, -1.0, 0.0, 100.0, 10.0)  # 90°: local (x, y) -> (100 - y, 10 + x)
    data = draw_list(
        quad(translate(10, 10), 40, 20, RED),
        quad(rotated, 20, 20, GREEN),
        quad(translate(10, 50), 20, 20, BLUE, alpha=0.5),
        quad(translate(10, 100), 100, 10, (BLACK, WHITE, BLACK, WHITE)),  # left to right
        quad(translate(10, 120), 10, 30, (RED, RED, BLUE, BLUE)),  # top to bottom
        image(translate(130, 10), 20, 20, 0, 1),  # magenta region
        image(translate(160, 10), 20, 20, 0, 0, tint=0x00FF00FF),  # yellow × green = green
        image(translate(190, 10), 20, 20, 0, 1, alpha=0.5),
        text(translate(130, 60), 100, 40, 30, WHITE, 1, "Hi ✓"),
    )
    drawn, canvas = paint(browser, data)
    assert drawn == 9
    assert close(canvas[20, 15], (255, 0, 0, 255)), canvas[20, 15]
    assert canvas[5, 5][3] == 0 and canvas[55, 15][3] == 0, "the red quad spilled out of (10,10)-(50,30)"
    # The rotated square covers x 80..100, y 10..30, not 100..120 where it would be unrotated.
    assert close(canvas[90, 20], (0, 255, 0, 255)), canvas[90, 20]
    assert canvas[110, 20][3] == 0
    # Alpha 0.5: half-covered blue.
    assert close(canvas[20, 60], (0, 0, 255, 128), 3), canvas[20, 60]
    # The gradients run across their axis, from one colour to the other.
    left, middle, right = canvas[11, 105], canvas[60, 105], canvas[108, 105]
    assert left[0] < 20 and right[0] > 235 and 100 < middle[0] < 156, (left, middle, right)
    top, bottom = canvas[15, 121], canvas[15, 148]
    assert top[0] > 230 and top[2] < 25 and bottom[2] > 230 and bottom[0] < 25, (top, bottom)
    # Images: the region asked for, the tint multiplied in, alpha applied.
    assert close(canvas[140, 20], (255, 0, 255, 255)), canvas[140, 20]
    assert close(canvas[170, 20], (0, 255, 0, 255)), canvas[170, 20]
    assert close(canvas[200, 20], (255, 0, 255, 128), 3), canvas[200, 20]
    # Text: white pixels inside its box, centred (some left and right of the middle), none outside.
    inked = lambda p: p[3] > 128 and min(p[:3]) > 200  # noqa: E731
    assert canvas.count((130, 60, 180, 100), inked) > 15
    assert canvas.count((180, 60, 230, 100), inked) > 15
    assert canvas.count((130, 100, 240, 160), lambda p: p[3] > 0) == 0
    assert severe_console_entries(browser) == []


def test_draw_list_scales_to_device_pixels(own_server, browser):
    open_page(browser, own_server.url("/"))
    _, canvas = paint(browser, draw_list(quad(translate(10, 10), 40, 20, RED)), 120, 80, scale=2.0)
    assert close(canvas[25, 25], (255, 0, 0, 255)) and close(canvas[95, 55], (255, 0, 0, 255))
    assert canvas[105, 25][3] == 0 and canvas[25, 65][3] == 0


def test_draw_list_refuses_what_it_cannot_read(own_server, browser):
    open_page(browser, own_server.url("/"))
    good = draw_list(quad(IDENTITY, 10, 10, RED))
    cases = {
        "header": b"XXXX" + good[4:],
        "size": good[:8] + struct.pack("<I", len(good) + 4) + good[12:],
        "op": draw_list(command(9, IDENTITY, 1.0, b"\0" * 24)),
        "short": good[:8] + struct.pack("<I", len(good) - 8) + good[12:-8],
        "region": draw_list(image(IDENTITY, 10, 10, 0, 7)),
    }
    errors = run(browser, """
        const { drawList } = await import("/playground/draw.js");
        const ctx = document.createElement("canvas").getContext("2d");
        const out = {};
        for (const [name, b64] of Object.entries(args[0])) {
          const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
          try { drawList(ctx, bytes.buffer, 0, bytes.length, { atlases: [{ image: ctx.canvas, regions: [] }] }); out[name] = "drawn"; }
          catch (err) { out[name] = `${err.name}: ${err.message}`; }
        }
        return out;""", {name: base64.b64encode(data).decode() for name, data in cases.items()})
    assert all(message.startswith("DrawListError: ") for message in errors.values()), errors
    assert "'QDL1'" in errors["header"] and "unknown op 9" in errors["op"] and "no region 7" in errors["region"]


def test_events_are_read_as_the_contract_lays_them_out(own_server, browser):
    open_page(browser, own_server.url("/"))
    records = struct.pack("<IHHiff", 7, 1, 3, -2, 12.5, 300.125) + struct.pack("<IHHiff", 8, 2, 0, 10, 0, 0)
    events = run(browser, """
        const { readEvents } = await import("/playground/draw.js");
        const bytes = Uint8Array.from(atob(args[0]), (c) => c.charCodeAt(0));
        const memory = new Uint8Array(100); memory.set(bytes, 16);
        return readEvents(memory.buffer, 16, 2);""", base64.b64encode(records).decode())
    assert events == [{"frame": 7, "kind": 1, "subject": 3, "value": -2, "x": 12.5, "y": 300.125},
                      {"frame": 8, "kind": 2, "subject": 0, "value": 10, "x": 0, "y": 0}]
