"""/playground/, the JavaScript host of the game module (docs/playground.md, "The page"), in a
real Chromium.

The renderer (Web/playground/draw.js) paints draw lists built here byte by byte per the
contract, and the canvas's pixels are read back. The host (host.js, playground.js) runs a
small WebAssembly module assembled here by hand (hand_module()): it exports the contract's
functions, draws a red stage with a blue square where the last touch was, and reports the
milliseconds it was given as a score event; served by a server of this file's own whose Web
folder is the project's with that module (and an atlas) added, so the page runs as it does
with a real game. Touches go through CDP (real touch events, each finger its own id), the mouse
through CDP's mouse events. Sounds are rendered offline and measured (short, soft, never
silent). The last two tests run the game module and atlas `make e2e` builds, on the session's
server: CarWorld drawn, and a tapped car that stops and starts again."""

from __future__ import annotations

import base64
import json
import re
import shutil
import struct
import zlib
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import ARTIFACTS, REPO, launch_browser, open_page, severe_console_entries, start_server, stop_server, wait
from test_shell import viewport

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
    const { drawList, listImages } = await import("/playground/draw.js");
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
    return { drawn, pixels, images: listImages(memory.buffer, 40, bytes.length) };"""


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


def paint(driver, data: bytes, width=240, height=160, scale=1.0, images=None) -> tuple[int, Canvas]:
    answer = run(driver, PAINT, base64.b64encode(data).decode(), width, height, scale)
    if images is not None:
        images.extend(answer["images"])
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
    images = []
    drawn, canvas = paint(browser, data, images=images)
    assert drawn == 9
    assert images == [{"atlas": 0, "region": 1, "x": 140, "y": 20}, {"atlas": 0, "region": 0, "x": 170, "y": 20},
                      {"atlas": 0, "region": 1, "x": 200, "y": 20}]
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


# --- A game module assembled by hand --------------------------------------------------------


def uleb(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def sleb(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        done = (n == 0 and not byte & 0x40) or (n == -1 and byte & 0x40)
        out.append(byte | (0 if done else 0x80))
        if done:
            return bytes(out)


def vec(items: list[bytes]) -> bytes:
    return uleb(len(items)) + b"".join(items)


def name(text_: str) -> bytes:
    return uleb(len(text_)) + text_.encode()


def section(ident: int, body: bytes) -> bytes:
    return bytes([ident]) + uleb(len(body)) + body


I32, F32 = 0x7F, 0x7D


def const(n: int) -> bytes:
    return b"\x41" + sleb(n)


def fconst(x: float) -> bytes:
    return b"\x43" + struct.pack("<f", x)


def get(i: int) -> bytes:
    return b"\x20" + uleb(i)


STORE, FSTORE, LOAD = b"\x36\x02\x00", b"\x38\x02\x00", b"\x28\x02\x00"
ADD, REM, EQ, EQZ, END, ELSE, UNREACHABLE = b"\x6a", b"\x70", b"\x46", b"\x45", b"\x0b", b"\x05", b"\x00"
GROW, DROP = b"\x40\x00", b"\x1a"

# The module's memory: its draw list at 1024 (a red stage, then a blue 40×40 square whose
# translation is the last touch), its events at 2048: kind 2 (the score in CarWorld's table:
# the sum of the frames' milliseconds) and, every 30th frame, kind 1 (sound 0); the number of
# frames at 2100.
LIST_AT, EVENTS_AT, FRAMES_AT = 1024, 2048, 2100
SQUARE_TX = LIST_AT + 12 + 56 + 20


def hand_module(*, stage=(1024.0, 768.0), imports=(), trap_in_frame=False, drop_export=None, grow=False) -> bytes:
    """A WebAssembly module that speaks the host protocol (every export real, computed from
    its inputs), written instruction by instruction. With grow, every frame grows its memory
    by a page (which gives the memory a new ArrayBuffer: views of the old one are empty)."""
    listing = draw_list(quad(IDENTITY, stage[0], stage[1], RED), quad(translate(-100, -100), 40, 40, BLUE))
    events = struct.pack("<IHHiff", 0, 2, 0, 0, 0, 0) + struct.pack("<IHHiff", 0, 1, 0, 0, 0, 0)
    types = [
        (bytes([I32, I32]), bytes([I32])),  # 0 pg_start
        (b"", bytes([F32])),  # 1 stage sizes
        (bytes([I32, I32, I32, F32, F32, F32]), b""),  # 2 pg_input
        (bytes([I32]), b""),  # 3 pg_frame
        (b"", bytes([I32])),  # 4 pointers and counts
        (bytes([I32]), bytes([I32])),  # 5 putchar
        (bytes([I32, I32]), b""),  # 6 other imports
    ]
    functions = [  # (export name, type, body)
        ("pg_start", 0, get(0) + EQZ + b"\x04" + bytes([I32]) + const(EVENTS_AT + 8) + const(0) + STORE
         + const(FRAMES_AT) + const(0) + STORE + const(0) + ELSE + const(-1) + END),
        ("pg_stage_width", 1, fconst(stage[0])),
        ("pg_stage_height", 1, fconst(stage[1])),
        ("pg_input", 2, get(0) + const(1) + EQ + b"\x04\x40" + const(SQUARE_TX) + get(3) + FSTORE
         + const(SQUARE_TX + 4) + get(4) + FSTORE + END),
        ("pg_frame", 3, (UNREACHABLE if trap_in_frame else b"") + (const(1) + GROW + DROP if grow else b"")
         + const(EVENTS_AT + 8) + const(EVENTS_AT + 8) + LOAD + get(0) + ADD + STORE
         + const(FRAMES_AT) + const(FRAMES_AT) + LOAD + const(1) + ADD + STORE),
        ("pg_draw_list", 4, const(LIST_AT)),
        ("pg_draw_list_size", 4, const(len(listing))),
        ("pg_events", 4, const(EVENTS_AT)),
        # Two events every 30th frame (the second a sound), else one.
        ("pg_events_count", 4, const(FRAMES_AT) + LOAD + const(30) + REM + EQZ + const(1) + ADD),
    ]
    imported = [(module, field, 5 if field == "putchar" else 6) for module, field in imports]
    wasm = b"\0asm" + struct.pack("<I", 1)
    wasm += section(1, vec([b"\x60" + vec([bytes([p]) for p in params]) + vec([bytes([r]) for r in results])
                            for params, results in types]))
    if imported:
        wasm += section(2, vec([name(m) + name(f) + b"\x00" + uleb(t) for m, f, t in imported]))
    wasm += section(3, vec([uleb(t) for _, t, _ in functions]))
    wasm += section(5, vec([b"\x00" + uleb(1)]))  # one page, no maximum
    exports = [name("memory") + b"\x02" + uleb(0)]
    exports += [name(n) + b"\x00" + uleb(len(imported) + i) for i, (n, _, _) in enumerate(functions) if n != drop_export]
    wasm += section(7, vec(exports))
    bodies = [b"\x00" + body + END for _, _, body in functions]  # no locals
    wasm += section(10, vec([uleb(len(body)) + body for body in bodies]))
    wasm += section(11, vec([b"\x00" + const(LIST_AT) + END + vec([bytes([b]) for b in listing]),
                             b"\x00" + const(EVENTS_AT) + END + vec([bytes([b]) for b in events])]))
    return wasm


LOAD_MODULE = """
    const { GameModule } = await import("/playground/host.js");
    const bytes = Uint8Array.from(atob(args[0]), (c) => c.charCodeAt(0));
    let game;
    try { game = await GameModule.fromBytes(bytes); }
    catch (err) { return { error: err.name, code: err.code, message: err.message }; }
    const out = { stage: game.start(0, 42) };
    try { game.start(3, 42); } catch (err) { out.otherGame = [err.code, err.message]; }
    game.input(1, 1, 0, 412.5, 300.125, 0);
    try { game.frame(16); game.frame(17); } catch (err) { return { ...out, trap: [err.code, err.message] }; }
    const { buffer, ptr, size } = game.drawList();
    out.memoryBytes = buffer.byteLength;
    const view = new DataView(buffer, ptr, size);
    out.square = [view.getFloat32(68 + 20, true), view.getFloat32(68 + 24, true)];
    out.events = game.events();
    return out;"""


def load_module(driver, wasm: bytes) -> dict:
    return run(driver, LOAD_MODULE, base64.b64encode(wasm).decode())


def test_host_runs_a_module_through_the_contracts_exports(own_server, browser):
    open_page(browser, own_server.url("/"))
    answer = load_module(browser, hand_module(stage=(800.0, 600.0)))
    assert answer["stage"] == {"width": 800, "height": 600}
    assert answer["otherGame"][0] == "game" and "no game 3" in answer["otherGame"][1]
    assert answer["square"] == [412.5, 300.125]
    assert answer["events"] == [{"frame": 0, "kind": 2, "subject": 0, "value": 33, "x": 0, "y": 0}]
    # A memory that grows between frames is read through its new buffer.
    grown = load_module(browser, hand_module(grow=True))
    assert grown["memoryBytes"] == 3 * 65536 and grown["square"] == [412.5, 300.125], grown
    assert grown["events"][0]["value"] == 33
    # putchar is the one import the host gives.
    assert "stage" in load_module(browser, hand_module(imports=[("env", "putchar")]))


def test_host_says_what_a_module_lacks_or_asks_for(own_server, browser):
    open_page(browser, own_server.url("/"))
    unknown = load_module(browser, hand_module(imports=[("env", "putchar"), ("env", "arc4random_buf")]))
    assert unknown["code"] == "imports" and "env.arc4random_buf (function)" in unknown["message"], unknown
    assert "putchar" not in unknown["message"]
    lacking = load_module(browser, hand_module(drop_export="pg_events_count"))
    assert lacking["code"] == "exports" and "pg_events_count" in lacking["message"], lacking
    assert load_module(browser, b"\0asm\x02\0\0\0junk")["code"] == "invalid"
    trapped = load_module(browser, hand_module(trap_in_frame=True))
    assert trapped["trap"][0] == "trap" and "pg_frame" in trapped["trap"][1], trapped


# --- The page, with the module served ---------------------------------------------------------


def png(width: int, height: int, pixel) -> bytes:
    """An 8-bit RGBA PNG of one colour."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\0" + bytes(pixel) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def remove_game(web: Path) -> None:
    (web / "playground" / "playground.wasm").unlink(missing_ok=True)
    shutil.rmtree(web / "playground" / "atlas", ignore_errors=True)


@pytest.fixture
def installed(own_web):
    """own_web with the hand module as /playground/playground.wasm and one-region atlases (the
    game's art and its font)."""
    remove_game(own_web)
    (own_web / "playground" / "playground.wasm").write_bytes(hand_module())
    atlas = own_web / "playground" / "atlas"
    atlas.mkdir()
    for name in ("carworld", "round"):
        (atlas / f"{name}.png").write_bytes(png(4, 4, (255, 255, 0, 255)))
        (atlas / f"{name}.json").write_text(json.dumps({"regions": [{"x": 0, "y": 0, "w": 4, "h": 4}]}))
    yield own_web
    remove_game(own_web)


def state(driver) -> str:
    return driver.execute_script("return document.querySelector('main.playground').dataset.state")


def canvas_pixel(driver, x: float, y: float):
    """The canvas's pixel at stage point (x, y)."""
    return tuple(driver.execute_script("""
        const canvas = document.querySelector("#pg-canvas");
        const k = canvas.width / 1024;
        return Array.from(canvas.getContext("2d").getImageData(Math.floor(arguments[0] * k), Math.floor(arguments[1] * k), 1, 1).data);""",
                                       x, y))


def canvas_rect(driver) -> dict:
    return driver.execute_script("return document.querySelector('#pg-canvas').getBoundingClientRect().toJSON()")


def client_point(driver, x: float, y: float) -> tuple[float, float]:
    """The viewport position of stage point (x, y)."""
    return tuple(driver.execute_script("""
        const r = document.querySelector("#pg-canvas").getBoundingClientRect();
        return [r.left + arguments[0] * r.width / 1024, r.top + arguments[1] * r.height / 768];""", x, y))


def click_stage(driver, x: float, y: float) -> None:
    """A left click (mouse down and up) at stage point (x, y), as a mouse does it."""
    cx, cy = client_point(driver, x, y)
    for kind in ("mousePressed", "mouseReleased"):
        driver.execute_cdp_cmd("Input.dispatchMouseEvent",
                               {"type": kind, "x": cx, "y": cy, "button": "left", "clickCount": 1})


def score(driver) -> int | None:
    words = driver.find_element(By.ID, "pg-score").text.split()
    return int(words[-1]) if words else None


def test_page_without_the_module_says_the_game_is_not_built(own_server, own_web, browser):
    remove_game(own_web)
    for lang, heading in (("en", "The game cannot run."), ("it", "Il gioco non può partire.")):
        open_page(browser, own_server.url(f"/playground/?lang={lang}"))
        wait(browser, lambda d: state(d) == "error", lambda: f"no error state: {state(browser)}")
        box = browser.find_element(By.ID, "pg-state")
        assert box.is_displayed()
        assert box.find_element(By.TAG_NAME, "h2").text == heading
        assert "make wasm" in box.text and "404" in box.text, box.text
        entries = severe_console_entries(browser)
        assert entries and all("playground.wasm" in e["message"] or "atlas" in e["message"] for e in entries), entries


def test_page_runs_the_module_draws_the_stage_and_shows_its_score(own_server, installed, browser):
    with viewport(browser, 1024, 768, mobile=False):
        open_page(browser, own_server.url("/playground/?seed=7"))
        wait(browser, lambda d: state(d) == "running", lambda: f"not running: {state(browser)}")
        width, height, css = browser.execute_script("""
            const c = document.querySelector("#pg-canvas"); const r = c.getBoundingClientRect();
            return [c.width, c.height, [r.width, r.height]];""")
        assert abs(width / height - 4 / 3) < 0.01 and abs(css[0] / css[1] - 4 / 3) < 0.01, (width, height, css)
        assert css[0] >= 700, f"the stage is small on a 1024×768 window: {css}"
        assert close(canvas_pixel(browser, 512, 384), (255, 0, 0, 255)), canvas_pixel(browser, 512, 384)
        # The score is the module's sum of frame times: it follows the clock.
        first = wait(browser, score, "no score shown")
        later = wait(browser, lambda d: (s := score(d)) is not None and s >= first + 200 and s,
                     lambda: f"the score stays at {score(browser)}")
        assert later > first
        assert browser.find_element(By.ID, "pg-score").text.startswith("Score ")
        assert browser.find_element(By.TAG_NAME, "h1").text == "Playground"
        assert browser.find_element(By.ID, "pg-game").text == "CarWorld"
        # The frame-rate readout, on demand.
        assert not browser.find_element(By.ID, "pg-fps").is_displayed()
        browser.find_element(By.ID, "pg-fps-toggle").click()
        wait(browser, lambda d: re.fullmatch(r"\d+ fps", d.find_element(By.ID, "pg-fps").text), "no frame rate shown")
        browser.find_element(By.ID, "pg-fps-toggle").click()
        assert not browser.find_element(By.ID, "pg-fps").is_displayed()
        # The bar follows the language picker, the score's number included.
        Select(browser.find_element(By.ID, "language")).select_by_value("it")
        wait(browser, lambda d: d.find_element(By.ID, "pg-score").text.startswith("Punti "), "the score is not translated")
        assert browser.find_element(By.ID, "pg-record").text == "Registra gli input"
        assert browser.find_element(By.ID, "pg-game").text == "Il mondo delle auto"
        Select(browser.find_element(By.ID, "language")).select_by_value("en")
        assert severe_console_entries(browser) == []


def test_a_click_reaches_the_module_at_its_stage_point(own_server, installed, browser):
    open_page(browser, own_server.url("/playground/"))
    wait(browser, lambda d: state(d) == "running", lambda: f"not running: {state(browser)}")
    assert close(canvas_pixel(browser, 620, 420), (255, 0, 0, 255))
    click_stage(browser, 600, 400)  # the module puts its blue 40×40 square there
    wait(browser, lambda d: close(canvas_pixel(d, 620, 420), (0, 0, 255, 255), 12),
         lambda: f"no blue square at the click: {canvas_pixel(browser, 620, 420)}")
    assert severe_console_entries(browser) == []


FORWARDED = """
    const { attachTouches } = await import("/playground/input.js");
    const canvas = document.createElement("canvas");
    canvas.style.cssText = "position:fixed;left:100px;top:50px;width:400px;height:300px;z-index:99;touch-action:none";
    document.body.append(canvas);
    window.sent = [];
    attachTouches(canvas, () => ({ width: 1024, height: 768 }), (...touch) => sent.push(touch));
    return true;"""


def touch(driver, kind: str, points) -> None:
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {
        "type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, x, y in points]})


def test_touches_go_to_the_module_with_an_id_per_finger_and_every_phase(own_server, browser):
    open_page(browser, own_server.url("/"))
    run(browser, FORWARDED)
    # Fingers at viewport (200, 100) and (300, 200): stage (256, 128) and (512, 384).
    touch(browser, "touchStart", [(5, 200, 100)])
    touch(browser, "touchStart", [(5, 200, 100), (9, 300, 200)])
    touch(browser, "touchMove", [(5, 200.05, 100), (9, 300, 200)])
    touch(browser, "touchEnd", [(5, 200.05, 100)])  # CDP: the points that lift
    touch(browser, "touchStart", [(9, 300, 200), (11, 150, 75)])  # a new finger takes the freed id 1
    touch(browser, "touchCancel", [])
    sent = wait(browser, lambda d: (s := d.execute_script("return window.sent")) and len(s) >= 7 and s,
                lambda: f"touches not forwarded: {browser.execute_script('return window.sent')}")
    began = [s for s in sent if s[1] == 0]
    assert began[:2] == [[1, 0, 256, 128], [2, 0, 512, 384]], sent
    moved = [s for s in sent if s[1] == 1]
    # 200.05 px is stage 256.128, rounded to 1/8 point: 256.125.
    assert [1, 1, 256.125, 128] in moved, sent
    assert [1, 3, 256.125, 128] in sent, "finger 1 did not end"
    assert [1, 0, 128, 64] in sent, f"the new finger did not take the free id 1: {sent}"
    cancelled = {s[0] for s in sent if s[1] == 4}
    assert cancelled == {1, 2}, sent
    assert all(s[2] * 8 == int(s[2] * 8) and s[3] * 8 == int(s[3] * 8) for s in sent)


def test_recorded_input_log_is_offered_and_follows_the_contract(own_server, installed, browser):
    open_page(browser, own_server.url("/playground/?seed=7"))
    wait(browser, lambda d: state(d) == "running", lambda: f"not running: {state(browser)}")
    record = browser.find_element(By.ID, "pg-record")
    record.click()
    assert record.get_attribute("aria-pressed") == "true"
    browser.execute_script("""dispatchEvent(new DeviceMotionEvent("devicemotion",
        { accelerationIncludingGravity: { x: 0, y: 4.905, z: 8.5 } }))""")
    click_stage(browser, 100.5, 200.25)
    wait(browser, lambda d: close(canvas_pixel(d, 110, 210), (0, 0, 255, 255), 12), "the click did not arrive")
    record.click()
    link = wait(browser, lambda d: d.find_element(By.ID, "pg-download").is_displayed()
                and d.find_element(By.ID, "pg-download"), "no download offered")
    assert link.get_attribute("download") == "carworld-seed-7.log"
    assert link.text.startswith("Download input log (")
    log = run(browser, "return await (await fetch(args[0])).text();", link.get_attribute("href"))
    lines = log.splitlines()
    assert lines[:4] == ["quintet-playground-log 1", "game carworld", "seed 7", "f 0"], lines[:6]
    assert log.endswith("\n")
    assert "a 0 0.5 0.8662109375" in lines  # 4.905/9.81 g, 8.5/9.81 g to 1/1024 g
    touches = [line.split() for line in lines if line.startswith("t ")]
    assert [t[:3] for t in touches] == [["t", "0", "0"], ["t", "0", "3"]], touches
    x, y = float(touches[0][3]), float(touches[0][4])
    assert abs(x - 100.5) <= 1 and abs(y - 200.25) <= 1 and x * 8 == int(x * 8) and y * 8 == int(y * 8), touches
    frames = [int(line[2:]) for line in lines if line.startswith("f ")]
    assert len(frames) >= 3 and all(0 <= f <= 100 for f in frames)
    assert {line.split()[0] for line in lines[3:]} <= {"t", "a", "f"}
    assert link.text == f"Download input log ({len(frames)} frames)"
    # The log replays in the browser (host.js's replay, as `quintet playground replay` natively)
    # on a fresh instance: the hand module's score is the sum of the frames it was given.
    replayed = run(browser, """
        const { GameModule, replay } = await import("/playground/host.js");
        const { parseInputLog } = await import("/playground/input.js");
        const game = await GameModule.load();
        const result = replay(game, parseInputLog(args[0]), 0);
        const { buffer, ptr, size } = game.drawList();
        const view = new DataView(buffer, ptr, size);
        return { ...result, square: [view.getFloat32(88, true), view.getFloat32(92, true)] };""", log)
    assert replayed["game"] == "carworld" and replayed["seed"] == 7
    assert replayed["frames"] == len(frames) and replayed["milliseconds"] == sum(frames)
    assert [e["value"] for e in replayed["events"] if e["kind"] == 2][-1] == sum(frames)
    assert len([e for e in replayed["events"] if e["kind"] == 1]) == len(frames) // 30
    assert replayed["square"] == [x, y]
    assert severe_console_entries(browser) == []


def test_page_on_a_phone_fits_the_stage_to_the_width_and_suggests_landscape(own_server, installed, browser):
    with viewport(browser, 390, 844, mobile=True):
        open_page(browser, own_server.url("/playground/?lang=it"))
        wait(browser, lambda d: state(d) == "running", lambda: f"not running: {state(browser)}")
        rect = canvas_rect(browser)
        assert abs(rect["width"] - 390) < 1 and abs(rect["height"] - 292.5) < 1, rect
        hint = browser.find_element(By.CSS_SELECTOR, ".pg-rotate")
        assert hint.is_displayed() and "orizzontale" in hint.text
        scroll = browser.execute_script("return [document.scrollingElement.scrollWidth, innerWidth, document.scrollingElement.scrollHeight, innerHeight]")
        assert scroll[0] <= scroll[1] and scroll[2] <= scroll[3], scroll
        assert severe_console_entries(browser) == []
    with viewport(browser, 844, 390, mobile=True):  # on its side: the stage takes the full height
        wait(browser, lambda d: not d.find_element(By.CSS_SELECTOR, ".pg-rotate").is_displayed(), "the hint stays in landscape")
        rect = wait(browser, lambda d: canvas_rect(d)["height"] > 389 and canvas_rect(d),
                    lambda: f"the stage does not fill the height: {canvas_rect(browser)}")
        assert abs(rect["width"] - 520) < 1 and rect["right"] <= 844, rect
        assert browser.find_element(By.ID, "pg-record").is_displayed()


def test_input_logs_are_read_by_the_rules_of_the_native_replay(own_server, browser):
    open_page(browser, own_server.url("/"))
    header = "quintet-playground-log 1\ngame carworld\n"
    cases = {
        "good": header + "seed 9\nt 0 0 412.5 300.125     # a comment\n\na 0 -0.5 -0.8\nf 16\n",
        "noSeed": header + "f 0\n",
        "empty": "",
        "notALog": "hello\n",
        "version": "quintet-playground-log 2\n",
        "noGame": "quintet-playground-log 1\nseed 1\n",
        "longFrame": header + "f 101\n",
        "phase": header + "t 0 5 1 1\n",
        "number": header + "t 0 0 1 nan\n",
        "fields": header + "a 1 2\n",
        "seed": header + "seed 4294967296\n",
        "line": header + "x 1\n",
    }
    read = run(browser, """
        const { parseInputLog } = await import("/playground/input.js");
        const out = {};
        for (const [name, text] of Object.entries(args[0])) {
          try { out[name] = parseInputLog(text); } catch (err) { out[name] = `${err.name}: ${err.message}`; }
        }
        return out;""", cases)
    assert read["good"] == {"game": "carworld", "seed": 9, "items": [
        {"kind": "touch", "id": 0, "phase": 0, "x": 412.5, "y": 300.125},
        {"kind": "tilt", "x": 0, "y": -0.5, "z": -0.8}, {"kind": "frame", "ms": 16}]}
    assert read["noSeed"]["seed"] == 1
    assert read["empty"] == "InputLogError: line 1: empty log"
    assert read["notALog"].startswith("InputLogError: line 1: not a playground input log")
    assert read["version"] == "InputLogError: line 1: unknown log version 2"
    assert read["noGame"].startswith("InputLogError: line ") and "no `game` line" in read["noGame"]
    assert read["longFrame"] == "InputLogError: line 3: a frame of 101 ms (0–100)"
    assert read["phase"] == "InputLogError: line 3: touch phase 5 is not 0–4"
    assert read["number"] == "InputLogError: line 3: `t` needs a finite number in field 5"
    assert read["fields"] == "InputLogError: line 3: `a` takes: x, y, z"
    assert read["seed"].startswith("InputLogError: line 3: `seed` takes")
    assert read["line"].startswith("InputLogError: line 3: unknown line `x`")


def measure_sounds(driver, game: str) -> list[dict]:
    """Each voice of SOUNDS[game] (sound.js) rendered offline in the page: its stated length, its
    peak and the last moment it is still heard (above 0.001), in seconds."""
    return run(driver, """
        const { SOUNDS, render } = await import("/playground/sound.js");
        const out = [];
        for (const voice of SOUNDS[args[0]]) {
          const ctx = new OfflineAudioContext(1, 44100 * 2, 44100);
          const length = render(ctx, voice);
          const data = (await ctx.startRendering()).getChannelData(0);
          let peak = 0, lastLoud = 0;
          data.forEach((v, i) => { peak = Math.max(peak, Math.abs(v)); if (Math.abs(v) > 0.001) lastLoud = i; });
          out.push({ length, peak, heardUntil: lastLoud / 44100 });
        }
        return out;""", game)


def test_sounds_are_short_soft_and_heard(own_server, browser):
    open_page(browser, own_server.url("/"))
    measured = measure_sounds(browser, "carworld")
    assert len(measured) == 4  # point, crash, won, stopped/started
    for index, sound in enumerate(measured):
        assert 0.02 < sound["peak"] <= 0.35, f"sound {index}: peak {sound['peak']}"
        assert sound["heardUntil"] <= min(1.0, sound["length"] + 0.05), f"sound {index}: {sound}"


def played(driver) -> int:
    return driver.execute_script("return quintetPlayground.soundsPlayed()")


def frames(driver) -> int:
    return driver.execute_script("return quintetPlayground.frames()")


def test_module_sounds_play_after_a_press_and_the_sound_button_mutes_them(own_server, installed, browser):
    open_page(browser, own_server.url("/playground/"))
    wait(browser, lambda d: state(d) == "running", lambda: f"not running: {state(browser)}")
    start = frames(browser)
    wait(browser, lambda d: frames(d) >= start + 60, "the game does not run")
    assert played(browser) == 0, "sound before any press (browsers refuse it; the page must wait)"
    click_stage(browser, 500, 300)
    wait(browser, lambda d: played(d) >= 2, "the module's sound events are not played after a press")
    button = browser.find_element(By.ID, "pg-sound")
    assert button.get_attribute("aria-pressed") == "true"
    button.click()
    assert button.get_attribute("aria-pressed") == "false"
    muted_at, start = played(browser), frames(browser)
    wait(browser, lambda d: frames(d) >= start + 90, "the game does not run")  # 3 sound events
    assert played(browser) == muted_at
    browser.refresh()  # the choice is kept
    wait(browser, lambda d: state(d) == "running", lambda: f"not running: {state(browser)}")
    assert browser.find_element(By.ID, "pg-sound").get_attribute("aria-pressed") == "false"
    browser.find_element(By.ID, "pg-sound").click()
    assert severe_console_entries(browser) == []


def test_tilt_is_gravity_in_device_axes_from_motion_or_from_orientation(own_server, browser):
    open_page(browser, own_server.url("/"))
    answer = run(browser, """
        const { Tilt, tiltOfOrientation } = await import("/playground/input.js");
        const round = ({ x, y, z }) => [x, y, z].map((v) => Math.round(v * 1000) / 1000 + 0);
        const angles = [[0, 0], [90, 0], [0, 90], [0, -90], [45, 0]].map(([b, g]) => round(tiltOfOrientation(b, g)));
        const tilt = new Tilt();
        const before = tilt.latest();
        dispatchEvent(new DeviceOrientationEvent("deviceorientation", { alpha: 0, beta: 90, gamma: 0 }));
        const fromOrientation = tilt.latest();
        dispatchEvent(new DeviceMotionEvent("devicemotion", { accelerationIncludingGravity: { x: -9.81, y: 0, z: 0 } }));
        dispatchEvent(new DeviceOrientationEvent("deviceorientation", { alpha: 0, beta: 0, gamma: 0 }));
        return { angles, before, fromOrientation, fromMotion: tilt.latest() };""")
    # Flat on a table: gravity's reaction along +z; upright: +y; on its right or left side: ∓x.
    assert answer["angles"] == [[0, 0, 1], [0, 1, 0], [-1, 0, 0], [1, 0, 0], [0, 0.707, 0.707]]
    assert answer["before"] is None
    assert answer["fromOrientation"] == {"x": 0, "y": 1, "z": 0}
    assert answer["fromMotion"] == {"x": -1, "y": 0, "z": 0}, "orientation overrode a device that gives motion"


# --- The game module `make wasm` builds -------------------------------------------------------


def distinct_colours(driver) -> int:
    """The number of distinct colours in a 32×24 grid of the canvas's pixels."""
    return driver.execute_script("""
        const c = document.querySelector("#pg-canvas"); const g = c.getContext("2d");
        const data = g.getImageData(0, 0, c.width, c.height).data; const seen = new Set();
        for (let j = 0; j < 24; j++) for (let i = 0; i < 32; i++) {
          const k = 4 * (Math.floor((j + 0.5) * c.height / 24) * c.width + Math.floor((i + 0.5) * c.width / 32));
          seen.add(`${data[k]},${data[k + 1]},${data[k + 2]},${data[k + 3]}`);
        }
        return seen.size;""")


def need_built_game() -> None:
    """The module and CarWorld's atlas of Web/playground/, which `make e2e` builds."""
    for path in (WEB / "playground" / "playground.wasm", WEB / "playground" / "atlas" / "carworld.png"):
        assert path.is_file(), f"{path} is missing: build it with `make wasm` (the module) and scripts/build-atlas (the atlas)"


def test_page_runs_the_built_carworld_module(server, browser):
    need_built_game()
    with viewport(browser, 1024, 768, mobile=False):
        open_page(browser, server.url("/playground/?seed=1"))
        wait(browser, lambda d: state(d) in ("running", "error"), lambda: f"the game did not load: {state(browser)}")
        assert state(browser) == "running", browser.find_element(By.ID, "pg-state").text
        assert browser.find_element(By.ID, "pg-score").text == "Score 0"
        start = frames(browser)
        wait(browser, lambda d: frames(d) >= start + 30, "the game does not run")
        assert distinct_colours(browser) >= 8, "the canvas does not show a drawn scene"
        assert browser.save_screenshot(str(ARTIFACTS / "playground-carworld-1024x768.png"))
        assert severe_console_entries(browser) == []
    # And on a phone held upright: the same game, drawn across the width.
    with viewport(browser, 390, 844, mobile=True):
        open_page(browser, server.url("/playground/?seed=1"))
        wait(browser, lambda d: state(d) == "running", lambda: f"the game did not load: {state(browser)}")
        start = frames(browser)
        wait(browser, lambda d: frames(d) >= start + 30, "the game does not run on a phone")
        assert distinct_colours(browser) >= 8, "the phone's canvas does not show a drawn scene"
        assert browser.save_screenshot(str(ARTIFACTS / "playground-carworld-390x844.png"))
        assert severe_console_entries(browser) == []


CAR_REGIONS = {1, 2, 3, 4}  # CarWorld's atlas: car-blue, car-purple, car-red, car-yellow
CAR_STOPPED, CAR_STARTED = 6, 7


def cars(driver) -> list[dict]:
    return [i for i in driver.execute_script("return quintetPlayground.images()") if i["region"] in CAR_REGIONS]


def events_of(driver, kind: int) -> list[dict]:
    return [e for e in driver.execute_script("return quintetPlayground.events()") if e["kind"] == kind]


def test_a_tapped_car_stops_and_a_second_tap_starts_it_again(server, browser):
    need_built_game()
    with viewport(browser, 1024, 768, mobile=False):
        open_page(browser, server.url("/playground/?seed=1"))
        wait(browser, lambda d: state(d) == "running", lambda: f"not running: {state(browser)}")
        inside = lambda c: 80 < c["x"] < 944 and 80 < c["y"] < 688  # noqa: E731
        car = wait(browser, lambda d: next((c for c in cars(d) if inside(c)), None), "no car on the stage", timeout=20)
        click_stage(browser, car["x"], car["y"])
        stopped = wait(browser, lambda d: events_of(d, CAR_STOPPED), lambda: f"the tapped car did not stop: {car}")[0]
        assert abs(stopped["x"] - car["x"]) < 20 and abs(stopped["y"] - car["y"]) < 20, (stopped, car)
        # Stopped: half a second later a car is still drawn there.
        start = frames(browser)
        wait(browser, lambda d: frames(d) >= start + 30, "the game does not run")
        here = [c for c in cars(browser) if abs(c["x"] - stopped["x"]) < 3 and abs(c["y"] - stopped["y"]) < 3]
        assert here, f"the stopped car moved: {cars(browser)}"
        click_stage(browser, here[0]["x"], here[0]["y"])
        started = wait(browser, lambda d: events_of(d, CAR_STARTED), "the car did not start again")[0]
        assert started["subject"] == stopped["subject"], (started, stopped)  # the same car id
        wait(browser, lambda d: not [c for c in cars(d) if abs(c["x"] - stopped["x"]) < 3 and abs(c["y"] - stopped["y"]) < 3],
             "the started car does not move")
        assert severe_console_entries(browser) == []
