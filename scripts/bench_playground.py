#!/usr/bin/env python3
"""`make bench-playground` (scripts/bench-playground builds, then runs this): physics, then CarWorld.

Each run, interleaved: `quintet playground bench pyramid20 --steps N --warmup W --json` (the
release binary in QUINTET_BIN: thread CPU and wall ms per timed step), then the same scene in
the wasm module served by `quintet serve` to a headless Chromium: `pg_bench_start(0)`, W untimed
steps, then the N - W timed steps in one synchronous call, timed by performance.now() (wall) and
by the CPU time of Chromium's processes across the call (/proc, user + system: the renderer runs
the module; the rest of Chromium idles meanwhile). The page cannot read its own thread's CPU time,
so the CPU figure of the wasm side is Chromium's whole process tree: if anything it overstates it.
Ratios wasm / native of the medians over the runs, CPU and wall. The state hashes of the two sides
must be equal (bit-identical physics), or the bench fails.

The CarWorld half (carworld_half()): `carworld-crowded`, game 1 of the host (CarWorld with
CarWorldRules.crowded), --frames frames at the page's 60 Hz clock (16, 17, 17 ms...) of which
the first --frame-warmup (2400: 40 s of game, 54-56 cars after it) are untimed; natively by
`quintet playground bench carworld-crowded` and in the page-less module by pg_bench_game_*,
interleaved, timed as above; every frame's draw list and event records are hashed on both sides
and the hashes must agree, and every timed frame must have 50 cars or more. Then the page itself,
/playground/?game=carworld-crowded&seed=S in a 1024 x 768 window: once it has 50 cars (counted
from the hook's events) the requestAnimationFrame intervals over --fps-seconds: median fps
(target >= 55) and the share of frames over 20 ms. Headless Chromium draws in software here.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "e2e"))
sys.path.insert(0, str(REPO / "scripts"))

import bench_result  # noqa: E402
from bench_proc import cpu_seconds  # noqa: E402
import conftest  # noqa: E402

LOAD = """
const done = arguments[arguments.length - 1];
WebAssembly.instantiateStreaming(fetch('/playground/playground.wasm'), {})
  .then(({ instance }) => { window.pgBench = instance.exports; done('ok'); }, error => done(String(error)));
"""

# Synchronous: the timed steps are one call, nothing else runs in the page meanwhile.
PREPARE = "const e = window.pgBench; if (e.pg_bench_start(0) !== 211) return 'no pyramid20'; e.pg_bench_step(arguments[0]); return 'ok';"
TIMED = """
const e = window.pgBench, t0 = performance.now();
e.pg_bench_step(arguments[0]);
const ms = performance.now() - t0;
return { ms, hash: BigInt.asUintN(64, e.pg_bench_hash()).toString(16).padStart(16, '0') };
"""


def native(binary: str, steps: int, warmup: int) -> dict:
    out = subprocess.run([binary, "playground", "bench", "pyramid20", "--steps", str(steps), "--warmup", str(warmup),
                          "--json"], check=True, capture_output=True, text=True, timeout=600).stdout
    r = json.loads(out)
    return {"cpu_ms_per_step": r["cpu_ms_per_step"], "ms_per_step": r["ms_per_step"], "hash": r["hash"]}


def wasm(driver, server, steps: int, warmup: int) -> dict:
    driver.get(server.url("/playground/"))
    status = driver.execute_async_script(LOAD)
    if status != "ok":
        raise SystemExit(f"the module did not load: {status}")
    status = driver.execute_script(PREPARE, warmup)
    if status != "ok":
        raise SystemExit(status)
    root = driver.service.process.pid
    cpu0 = cpu_seconds(root)
    r = driver.execute_script(TIMED, steps - warmup)
    cpu1 = cpu_seconds(root)
    timed = steps - warmup
    return {"cpu_ms_per_step": 1000 * (cpu1 - cpu0) / timed, "ms_per_step": r["ms"] / timed, "hash": r["hash"]}


# The CarWorld half: `carworld-crowded` (game 1 of the host, 50+ cars after its warm-up) run by
# the module's pg_bench_game_* exports (Wasm/Bench.swift): the warm-up frames untimed, then the
# timed frames in one synchronous call, as the native `quintet playground bench carworld-crowded`.
GAME_PREPARE = """
const e = window.pgBench;
if (e.pg_bench_game_start(arguments[0]) !== 0) return 'no carworld-crowded';
e.pg_bench_game_frames(arguments[1]);
return 'ok';
"""
GAME_TIMED = """
const e = window.pgBench, t0 = performance.now();
e.pg_bench_game_frames(arguments[0]);
const ms = performance.now() - t0;
return { ms, hash: BigInt.asUintN(64, e.pg_bench_game_hash()).toString(16).padStart(16, '0'),
         fewest: e.pg_bench_game_fewest_cars(), most: e.pg_bench_game_most_cars() };
"""

# The page: cars on the map from the hook's events (9 a car entered, 10 a car left: CarWorld's
# event kinds), counted over frames not seen before (the hook keeps the last 500 events).
CARS = """
const seen = arguments[0];
const p = window.quintetPlayground;
if (!p || document.querySelector('main.playground').dataset.state !== 'running') return { state: 'loading', seen, cars: 0 };
let cars = 0, last = seen;
for (const e of p.events()) {
  if (e.frame <= seen) continue;
  if (e.kind === 9) cars += 1; else if (e.kind === 10) cars -= 1;
  last = Math.max(last, e.frame);
}
return { state: 'running', seen: last, cars };
"""
# requestAnimationFrame intervals over `seconds`, next to the page's own frame loop (the page
# runs its pg_frame and draw.js in its callback; this one only reads the clock).
FPS = """
const seconds = arguments[0], done = arguments[arguments.length - 1];
const intervals = [];
let last = null, until = null;
function tick(now) {
  if (last !== null) intervals.push(now - last);
  last = now;
  if (until === null) until = now + seconds * 1000;
  if (now < until) requestAnimationFrame(tick); else done({ intervals, frames: window.quintetPlayground.frames() });
}
requestAnimationFrame(tick);
"""


def native_game(binary: str, frames: int, warmup: int, seed: int) -> dict:
    out = subprocess.run([binary, "playground", "bench", "carworld-crowded", "--steps", str(frames), "--warmup",
                          str(warmup), "--seed", str(seed), "--json"],
                         check=True, capture_output=True, text=True, timeout=600).stdout
    r = json.loads(out)
    return {"cpu_ms_per_frame": r["cpu_ms_per_step"], "ms_per_frame": r["ms_per_step"], "hash": r["hash"],
            "fewest_cars": r["fewest_cars"], "most_cars": r["most_cars"]}


def wasm_game(driver, server, frames: int, warmup: int, seed: int) -> dict:
    driver.get(server.url("/playground/"))
    status = driver.execute_async_script(LOAD)
    if status != "ok":
        raise SystemExit(f"the module did not load: {status}")
    status = driver.execute_script(GAME_PREPARE, seed, warmup)
    if status != "ok":
        raise SystemExit(status)
    root = driver.service.process.pid
    cpu0 = cpu_seconds(root)
    r = driver.execute_script(GAME_TIMED, frames - warmup)
    cpu1 = cpu_seconds(root)
    timed = frames - warmup
    return {"cpu_ms_per_frame": 1000 * (cpu1 - cpu0) / timed, "ms_per_frame": r["ms"] / timed, "hash": r["hash"],
            "fewest_cars": r["fewest"], "most_cars": r["most"]}


def page_fps(driver, server, seed: int, seconds: float, cars_wanted: int = 50) -> dict:
    """The page's frame rate with `cars_wanted`+ cars: /playground/?game=carworld-crowded in a
    1024 x 768 window; waits for the cars (the game's own clock: about 40 s), then measures."""
    driver.set_window_size(1024, 768)
    driver.get(server.url(f"/playground/?game=carworld-crowded&seed={seed}"))
    seen, cars, waited = 0, 0, time.monotonic()
    while cars < cars_wanted:
        if time.monotonic() - waited > 180:
            raise SystemExit(f"the page has {cars} cars after 180 s (want {cars_wanted})")
        time.sleep(1)
        r = driver.execute_script(CARS, seen)
        seen = r["seen"]
        cars += r["cars"]
    cpu0, frames0 = cpu_seconds(driver.service.process.pid), driver.execute_script("return window.quintetPlayground.frames()")
    r = driver.execute_async_script(FPS, seconds)
    cpu1 = cpu_seconds(driver.service.process.pid)
    after = driver.execute_script(CARS, seen)
    intervals = r["intervals"]
    span = sum(intervals)
    return {
        "cars_at_start": cars, "cars_at_end": cars + after["cars"],
        "frames": len(intervals), "seconds": span / 1000,
        "fps_median": 1000 / statistics.median(intervals),
        "fps_mean": 1000 * len(intervals) / span,
        "share_over_20ms": sum(1 for i in intervals if i > 20) / len(intervals),
        "interval_p95_ms": sorted(intervals)[int(0.95 * (len(intervals) - 1))],
        "page_frames": r["frames"] - frames0,
        "chromium_cpu_share": (cpu1 - cpu0) / (span / 1000),
    }


def carworld_half(driver, server, args) -> dict:
    """CarWorld with 50+ cars: native vs wasm per frame (interleaved runs, the hashes must agree),
    then the page's frame rate."""
    rows = []
    for i in range(args.runs):
        n = native_game(str(conftest.quintet_binary()), args.frames, args.frame_warmup, args.seed)
        w = wasm_game(driver, server, args.frames, args.frame_warmup, args.seed)
        if n["hash"] != w["hash"]:
            raise SystemExit(f"carworld run {i + 1}: native hash {n['hash']} != wasm hash {w['hash']}: not bit-identical")
        if min(n["fewest_cars"], w["fewest_cars"]) < 50:
            raise SystemExit(f"carworld run {i + 1}: only {min(n['fewest_cars'], w['fewest_cars'])} cars in a timed frame")
        rows.append({"native": n, "wasm": w})
        print(f"carworld run {i + 1}: native {n['cpu_ms_per_frame']:.3f} ms CPU, {n['ms_per_frame']:.3f} ms wall; "
              f"wasm {w['cpu_ms_per_frame']:.3f} ms CPU (Chromium), {w['ms_per_frame']:.3f} ms wall; "
              f"{n['fewest_cars']}-{n['most_cars']} cars; hash {n['hash']} both", flush=True)
    page = page_fps(driver, server, args.seed, args.fps_seconds) if args.fps_seconds > 0 else None
    if page:
        print(f"page: {page['fps_median']:.1f} fps median ({page['fps_mean']:.1f} mean) over {page['seconds']:.1f} s, "
              f"{100 * page['share_over_20ms']:.1f} % of frames over 20 ms, {page['cars_at_start']}-{page['cars_at_end']} cars, "
              f"Chromium {100 * page['chromium_cpu_share']:.0f} % of a core", flush=True)
    return {"rows": rows, "page": page}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--warmup", type=int, default=60)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--frames", type=int, default=8400,
                        help="carworld-crowded frames per run (default 8400: 6000 timed, enough CPU ticks)")
    parser.add_argument("--frame-warmup", type=int, default=2400,
                        help="untimed frames first (default 2400: 40 s of game, 50+ cars after it)")
    parser.add_argument("--seed", type=int, default=1, help="carworld-crowded's seed")
    parser.add_argument("--fps-seconds", type=float, default=15, help="the page's frame rate over this long (0: skip)")
    args = parser.parse_args()
    if args.runs < 1 or args.warmup < 0 or args.steps <= args.warmup:
        raise SystemExit("bench-playground: need --runs >= 1 and --steps > --warmup >= 0")
    if args.frame_warmup < 0 or args.frames <= args.frame_warmup or args.fps_seconds < 0:
        raise SystemExit("bench-playground: need --frames > --frame-warmup >= 0 and --fps-seconds >= 0")
    binary = str(conftest.quintet_binary())
    rows = []
    with tempfile.TemporaryDirectory(prefix="quintet-bench-playground-") as tmp:
        server = conftest.start_server(Path(tmp) / "data", Path(tmp) / "server.log")
        browser = conftest.launch_browser()
        driver = next(browser)
        try:
            driver.set_script_timeout(600)
            version = driver.capabilities.get("browserVersion", "?")
            for i in range(args.runs):
                n = native(binary, args.steps, args.warmup)
                w = wasm(driver, server, args.steps, args.warmup)
                if n["hash"] != w["hash"]:
                    raise SystemExit(f"run {i + 1}: native hash {n['hash']} != wasm hash {w['hash']}: not bit-identical")
                rows.append({"native": n, "wasm": w})
                print(f"run {i + 1}: native {n['cpu_ms_per_step']:.3f} ms CPU, {n['ms_per_step']:.3f} ms wall; "
                      f"wasm {w['cpu_ms_per_step']:.3f} ms CPU (Chromium), {w['ms_per_step']:.3f} ms wall; "
                      f"hash {n['hash']} both", flush=True)
            cars = carworld_half(driver, server, args)
        finally:
            browser.close()
            conftest.stop_server(server)

    def median(side: str, key: str) -> float:
        return statistics.median(r[side][key] for r in rows)

    n_cpu, n_wall = median("native", "cpu_ms_per_step"), median("native", "ms_per_step")
    w_cpu, w_wall = median("wasm", "cpu_ms_per_step"), median("wasm", "ms_per_step")
    ratio_cpu, ratio_wall = w_cpu / n_cpu, w_wall / n_wall
    print(f"pyramid20, {args.steps} steps ({args.warmup} untimed), median of {args.runs}: "
          f"native {n_cpu:.3f} ms CPU / {n_wall:.3f} ms wall per step, wasm {w_cpu:.3f} / {w_wall:.3f}; "
          f"wasm / native {ratio_cpu:.2f} (CPU), {ratio_wall:.2f} (wall); target <= 2; Chromium {version}")
    c_rows = cars["rows"]

    def c_median(side: str, key: str) -> float:
        return statistics.median(r[side][key] for r in c_rows)

    cn_cpu, cn_wall = c_median("native", "cpu_ms_per_frame"), c_median("native", "ms_per_frame")
    cw_cpu, cw_wall = c_median("wasm", "cpu_ms_per_frame"), c_median("wasm", "ms_per_frame")
    c_ratio_cpu, c_ratio_wall = cw_cpu / cn_cpu, cw_wall / cn_wall
    fewest = min(min(r["native"]["fewest_cars"], r["wasm"]["fewest_cars"]) for r in c_rows)
    timed = args.frames - args.frame_warmup
    print(f"carworld-crowded, {timed} frames after {args.frame_warmup}, {fewest}+ cars, median of {args.runs}: "
          f"native {cn_cpu:.3f} ms CPU / {cn_wall:.3f} ms wall per frame, wasm {cw_cpu:.3f} / {cw_wall:.3f}; "
          f"wasm / native {c_ratio_cpu:.2f} (CPU), {c_ratio_wall:.2f} (wall); target <= 2")
    page = cars["page"]
    if page:
        print(f"page with {page['cars_at_start']}+ cars: {page['fps_median']:.1f} fps median, "
              f"{100 * page['share_over_20ms']:.1f} % of frames over 20 ms; target >= 55 fps "
              f"({'reached' if page['fps_median'] >= 55 else 'NOT reached'}; headless Chromium, software rendering)")
    size = (REPO / "Web" / "playground" / "playground.wasm").stat().st_size
    bench_result.write(
        "playground",
        figures={
            "pyramid20_native_cpu_ms_per_step": bench_result.figure(n_cpu, "ms", "quintet"),
            "pyramid20_native_wall_ms_per_step": bench_result.figure(n_wall, "ms", "quintet"),
            "pyramid20_wasm_cpu_ms_per_step": bench_result.figure(w_cpu, "ms", "quintet-wasm", chromium=version),
            "pyramid20_wasm_wall_ms_per_step": bench_result.figure(w_wall, "ms", "quintet-wasm", chromium=version),
            "carworld50_native_cpu_ms_per_frame": bench_result.figure(cn_cpu, "ms", "quintet"),
            "carworld50_native_wall_ms_per_frame": bench_result.figure(cn_wall, "ms", "quintet"),
            "carworld50_wasm_cpu_ms_per_frame": bench_result.figure(cw_cpu, "ms", "quintet-wasm", chromium=version),
            "carworld50_wasm_wall_ms_per_frame": bench_result.figure(cw_wall, "ms", "quintet-wasm", chromium=version),
            **({"carworld50_page_fps_median": bench_result.figure(page["fps_median"], "fps", "quintet-wasm",
                                                                  chromium=version),
                "carworld50_page_share_over_20ms": bench_result.figure(page["share_over_20ms"], "share",
                                                                       "quintet-wasm", chromium=version)}
               if page else {}),
        },
        ratios={"pyramid20_wasm_over_native_cpu": round(ratio_cpu, 3),
                "pyramid20_wasm_over_native_wall": round(ratio_wall, 3),
                "carworld50_wasm_over_native_cpu": round(c_ratio_cpu, 3),
                "carworld50_wasm_over_native_wall": round(c_ratio_wall, 3),
                **({"carworld50_page_fps_median_over_55": round(page["fps_median"] / 55, 3)} if page else {})},
        parameters={"scene": "pyramid20", "steps": args.steps, "warmup": args.warmup, "runs": args.runs,
                    "chromium": version, "wasm_bytes": size, "carworld_game": "carworld-crowded",
                    "carworld_seed": args.seed, "carworld_frames": args.frames,
                    "carworld_warmup_frames": args.frame_warmup, "fps_seconds": args.fps_seconds,
                    "fps_window": "1024x768", "rendering": "headless Chromium, software (no GPU)"},
        details={"runs": rows, "hash": rows[0]["native"]["hash"],
                 "carworld": {"runs": c_rows, "hash": c_rows[0]["native"]["hash"], "fewest_cars": fewest,
                              "page": page}},
    )


if __name__ == "__main__":
    main()
