"""The same input log gives the same game natively and in the browser: a minute of CarWorld with
taps on the crossings and the roads (and a minute of FishWorld with drags to the reefs, taps and
tilts), replayed by `quintet playground replay carworld --json`
and by the WebAssembly module in Chromium (fed through the host protocol's exports exactly as
the page feeds it), must give the same events, field for field, and the same draw list on every
frame (an FNV-1a hash over all of them). ShipWorld (game 2) likewise from a scripted tilt log, and the
sweater pile (game 4) from taps on a toppling pile."""

from __future__ import annotations

import json
import random
import struct
import subprocess

from conftest import quintet_binary

# Runs in the page: a fresh instance of the served module plays the log's items and returns every
# event record and the FNV-1a (64-bit, as two 32-bit halves) of every frame's draw list.
PLAY_LOG = """
const [log, done] = [arguments[0], arguments[arguments.length - 1]];
(async () => {
  const { instance } = await WebAssembly.instantiateStreaming(fetch('/playground/playground.wasm'), {});
  const e = instance.exports;
  if (e.pg_start(log.game ?? 0, log.seed) !== 0) throw new Error('pg_start refused game ' + (log.game ?? 0));
  let lo = 0x84222325, hi = 0xcbf29ce4;
  const events = [];
  for (const item of log.items) {
    if (item[0] === 't') { e.pg_input(1, item[1], item[2], item[3], item[4], 0); continue; }
    if (item[0] === 'a') { e.pg_input(2, 0, 1, item[1], item[2], item[3]); continue; }
    e.pg_frame(item[1]);
    const view = new DataView(e.memory.buffer);
    const at = e.pg_events(), count = e.pg_events_count();
    for (let i = 0; i < count; i++) {
      const p = at + 20 * i;
      const word = view.getUint32(p + 4, true);
      events.push([view.getUint32(p, true), word & 0xffff, word >>> 16, view.getInt32(p + 8, true),
                   view.getUint32(p + 12, true), view.getUint32(p + 16, true)]);
    }
    const bytes = new Uint8Array(e.memory.buffer, e.pg_draw_list(), e.pg_draw_list_size());
    for (let i = 0; i < bytes.length; i++) {
      lo = (lo ^ bytes[i]) >>> 0;
      const product = lo * 0x1b3;
      const carry = Math.floor(product / 4294967296);
      hi = (Math.imul(hi, 0x1b3) + ((lo << 8) >>> 0) + carry) >>> 0;
      lo = product >>> 0;
    }
  }
  return { events, hash: hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0') };
})().then(done, error => done({ error: String(error) }));
"""


def make_log(seed: int, frames: int) -> tuple[str, list]:
    """A log of `frames` frames (16 or 17 ms) with a tap every 1.5 s on a crossing or a road, and
    a tilt now and then (CarWorld ignores it; the module must still take it)."""
    rng = random.Random(seed)
    places = [(341, 298), (620, 520), (742, 284), (620, 312.5), (500, 605), (620, 150), (213, 331), (880, 196)]
    lines, items = ["quintet-playground-log 1", "game carworld", f"seed {seed}"], []
    for i in range(frames):
        if i % 90 == 40:
            x, y = rng.choice(places)
            x += rng.randrange(-16, 17) / 8
            for phase in (0, 3):
                lines.append(f"t 1 {phase} {x} {y}")
                items.append(["t", 1, phase, x, y])
        if i % 300 == 7:
            lines.append("a 0 -0.5 -0.8")
            items.append(["a", 0.0, -0.5, -0.8])
        ms = 17 if i % 3 == 0 else 16
        lines.append(f"f {ms}")
        items.append(["f", ms])
    return "\n".join(lines) + "\n", items


def f32_bits(value: float) -> int:
    return struct.unpack("<I", struct.pack("<f", value))[0]


def assert_same_game(wasm: dict, report: dict) -> None:
    """The module's run (PLAY_LOG's answer) equals the native replay's JSON: every event field for
    field (x and y as float32 bits) and the hash of every frame's draw list."""
    assert "error" not in wasm, wasm.get("error")
    expected = [[e["frame"], e["kind"], e["subject"], e["value"], f32_bits(e["x"]), f32_bits(e["y"])]
                for e in report["events"]]
    assert len(wasm["events"]) == len(expected)
    for i, (got, want) in enumerate(zip(wasm["events"], expected)):
        assert got == want, f"event {i} differs: wasm {got}, native {want}"
    assert wasm["hash"] == report["draw_list_hash"], "the frames drew differently"


def test_a_minute_of_carworld_replays_the_same_natively_and_in_the_browser(server, browser, tmp_path):
    seed = 11
    text, items = make_log(seed, 3600)
    log_file = tmp_path / "carworld.log"
    log_file.write_text(text)
    native = subprocess.run([str(quintet_binary()), "playground", "replay", "carworld", "--inputs", str(log_file), "--json"],
                            capture_output=True, text=True, timeout=300)
    assert native.returncode == 0, native.stderr
    report = json.loads(native.stdout)
    assert report["frames"] == 3600 and report["game"] == "carworld" and report["seed"] == seed
    kinds = {e["kind"] for e in report["events"]}
    # The minute has sounds, score changes, lights, spawned and freed cars, and the taps' stops.
    assert {1, 2, 6, 8, 9, 10} <= kinds, kinds

    browser.get(server.url("/playground/"))
    browser.set_script_timeout(180)
    wasm = browser.execute_async_script(PLAY_LOG, {"seed": seed, "items": items})
    assert_same_game(wasm, report)


def test_the_sweater_pile_replays_the_same_natively_and_in_the_browser(server, browser, tmp_path):
    """Ten sweaters (seed 10: the pile topples) with taps on the pile and beside it, 20 s."""
    seed, frames = 10, 1200
    lines, items = ["quintet-playground-log 1", "game sweaters", f"seed {seed}"], []
    for i in range(frames):
        if i % 60 == 45:
            x, y = 395 + (i % 7) * 10, 540 - (i % 9) * 40
            for phase in (0, 3):
                lines.append(f"t 1 {phase} {x} {y}")
                items.append(["t", 1, phase, x, y])
        ms = 17 if i % 3 == 0 else 16
        lines.append(f"f {ms}")
        items.append(["f", ms])
    log_file = tmp_path / "sweaters.log"
    log_file.write_text("\n".join(lines) + "\n")
    native = subprocess.run([str(quintet_binary()), "playground", "replay", "sweaters", "--inputs", str(log_file), "--json"],
                            capture_output=True, text=True, timeout=300)
    assert native.returncode == 0, native.stderr
    report = json.loads(native.stdout)
    assert report["frames"] == frames and report["game"] == "sweaters"
    kinds = [e["kind"] for e in report["events"]]
    # Sounds, ten landings, the topple and the end, which comes once.
    assert kinds.count(2) == 10 and kinds.count(4) == 1 and kinds.count(3) == 1 and 1 in kinds, kinds

    browser.get(server.url("/playground/"))
    browser.set_script_timeout(180)
    wasm = browser.execute_async_script(PLAY_LOG, {"game": 4, "seed": seed, "items": items})
    assert_same_game(wasm, report)


def make_fish_log(seed: int, frames: int) -> tuple[str, list]:
    """A FishWorld log of `frames` frames (16, 17, 17 ms): every 4 s a finger presses in the open
    water, drags in 150 steps (one a frame) to one of the three reefs in turn, and lifts; a second
    finger taps now and then; a tilt every 5 s (a current on the fish)."""
    rng = random.Random(seed)
    reefs = [(170, 630), (512, 645), (854, 630)]
    lines, items = ["quintet-playground-log 1", "game fishworld", f"seed {seed}"], []

    def touch(tid, phase, x, y):
        x, y = round(x * 8) / 8, round(y * 8) / 8
        lines.append(f"t {tid} {phase} {x} {y}")
        items.append(["t", tid, phase, x, y])

    drag = None
    for i in range(frames):
        if i % 240 == 20:
            start = (rng.randrange(300, 724), rng.randrange(160, 360))
            drag = (start, reefs[(i // 240) % 3], i)
            touch(1, 0, *start)
        elif drag is not None:
            (x0, y0), (x1, y1), began = drag
            k = min(1.0, (i - began) / 150)
            touch(1, 1, x0 + (x1 - x0) * k, y0 + (y1 - y0) * k)
            if i - began == 200:
                touch(1, 3, x1, y1)
                drag = None
        if i % 170 == 90:
            x, y = rng.randrange(100, 924), rng.randrange(100, 600)
            touch(2, 0, x, y)
            touch(2, 3, x, y)
        if i % 300 == 7:
            tilt = [rng.choice([-0.25, 0, 0.25]), rng.choice([-0.25, 0.25]), -0.875]
            lines.append("a " + " ".join(str(v) for v in tilt))
            items.append(["a", *tilt])
        ms = 16 if i % 3 == 0 else 17
        lines.append(f"f {ms}")
        items.append(["f", ms])
    return "\n".join(lines) + "\n", items


def test_a_minute_of_fishworld_replays_the_same_natively_and_in_the_browser(server, browser, tmp_path):
    seed = 3
    text, items = make_fish_log(seed, 3600)
    log_file = tmp_path / "fishworld.log"
    log_file.write_text(text)
    native = subprocess.run([str(quintet_binary()), "playground", "replay", "fishworld", "--inputs", str(log_file), "--json"],
                            capture_output=True, text=True, timeout=300)
    assert native.returncode == 0, native.stderr
    report = json.loads(native.stdout)
    assert report["frames"] == 3600 and report["game"] == "fishworld" and report["seed"] == seed
    kinds = {e["kind"] for e in report["events"]}
    # The minute has sounds, lures (6) and fish that came home (2, 4).
    assert {1, 2, 4, 6} <= kinds, kinds

    browser.get(server.url("/playground/"))
    browser.set_script_timeout(180)
    wasm = browser.execute_async_script(PLAY_LOG, {"game": 3, "seed": seed, "items": items})
    assert_same_game(wasm, report)


def make_tilt_log(seed: int, frames: int) -> tuple[str, list]:
    """A ShipWorld log of `frames` frames: a level reading, then every 0.4 s a tilt toward a
    scripted heading (right along the top reach, then down, left, down, right: roughly the
    river's course, so the boat bumps banks and obstacles), rounded to 1/1024 g, and a touch
    held now and then."""
    rng = random.Random(seed)
    headings = [(1, 0), (1, 0.3), (0, 1), (-1, 0.2), (-1, 0), (0, 1), (1, 0.2), (1, 0)]
    lines, items = ["quintet-playground-log 1", "game shipworld", f"seed {seed}", "a 0 0 1"], [["a", 0.0, 0.0, 1.0]]
    for i in range(frames):
        if i % 24 == 5:
            dx, dy = headings[min(len(headings) - 1, i * len(headings) // frames)]
            norm = (dx * dx + dy * dy) ** 0.5
            x = round(-0.5 * dx / norm * 1024 + rng.randrange(-60, 61)) / 1024
            y = round(0.5 * dy / norm * 1024 + rng.randrange(-60, 61)) / 1024
            z = round((max(0.0, 1 - x * x - y * y)) ** 0.5 * 1024) / 1024
            lines.append(f"a {x} {y} {z}")
            items.append(["a", x, y, z])
        if i % 300 == 150:
            px, py = rng.randrange(0, 8192) / 8, rng.randrange(0, 6144) / 8
            for phase in (0, 3):
                lines.append(f"t 1 {phase} {px} {py}")
                items.append(["t", 1, phase, px, py])
        ms = 17 if i % 3 == 0 else 16
        lines.append(f"f {ms}")
        items.append(["f", ms])
    return "\n".join(lines) + "\n", items


def test_a_shipworld_tilt_log_replays_the_same_natively_and_in_the_browser(server, browser, tmp_path):
    seed = 3
    text, items = make_tilt_log(seed, 1800)
    log_file = tmp_path / "shipworld.log"
    log_file.write_text(text)
    native = subprocess.run([str(quintet_binary()), "playground", "replay", "shipworld", "--inputs", str(log_file), "--json"],
                            capture_output=True, text=True, timeout=300)
    assert native.returncode == 0, native.stderr
    report = json.loads(native.stdout)
    assert report["frames"] == 1800 and report["game"] == "shipworld" and report["seed"] == seed
    kinds = {e["kind"] for e in report["events"]}
    assert {1, 4, 6} <= kinds, kinds  # sounds, bumps, boat positions

    browser.get(server.url("/playground/"))
    browser.set_script_timeout(180)
    wasm = browser.execute_async_script(PLAY_LOG, {"game": 2, "seed": seed, "items": items})
    assert_same_game(wasm, report)


def test_replay_refuses_a_bad_log_with_its_line(tmp_path):
    bad = tmp_path / "bad.log"
    bad.write_text("quintet-playground-log 1\ngame carworld\nt 0 9 1 1\n")
    result = subprocess.run([str(quintet_binary()), "playground", "replay", "carworld", "--inputs", str(bad)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert "line 3" in result.stderr and "phase 9" in result.stderr
    other = tmp_path / "other.log"
    other.write_text("quintet-playground-log 1\ngame fishworld\nf 16\n")
    result = subprocess.run([str(quintet_binary()), "playground", "replay", "carworld", "--inputs", str(other)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode != 0 and "fishworld" in result.stderr
