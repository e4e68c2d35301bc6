#!/usr/bin/env python3
"""The graph explorer's frame rate while dragging, with 2,000 visible nodes, in headless Chromium.

`make bench-explorer` runs it with the e2e venv against the debug build (QUINTET_BIN for
another binary). It starts its own `quintet serve` (fresh data folder; no library scan is
needed), signs in, and loads /library/?explorer-synthetic=N#graph: the explorer seeds itself
with a generated graph of N nodes (artists, albums with drawn covers, songs; structure, cover,
identical, tempo and member edges) and no server request, and fits it all in view. Then the
mouse (CDP Input.dispatchMouseEvent) presses a node and drags it — with everything it brought
on screen — in circles for SECONDS, as fast as the DevTools protocol delivers moves; the page
draws a frame on every animation frame while a pointer is down.

Figures per run, from the page's own frame log (window.quintetGraph.stats()), and Chromium's CPU time:
  - fps: 1000 / the median interval between consecutive drawn frames (requestAnimationFrame
    timestamps) — the frame rate a user sees, including the browser's raster and compositing;
  - draw ms: the median time of the JavaScript draw call (the frame's CPU work on the main
    thread; Chromium rasterises later, on its GPU/raster threads, which the fps includes).
Runs: a drag (the node and what it brought move; the rest of the scene is a cached picture)
and a pan (everything moves: every frame draws the whole graph), with WebGL edges (the default)
and, with --both, the 2D-canvas-only fallback (?explorer-webgl=off).
Results: Benchmarks/results/explorer-<UTC>.json (scripts/bench_result.py). Not part of `make test`.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "e2e"))
sys.path.insert(0, str(REPO / "scripts"))

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

import bench_result  # noqa: E402
from bench_proc import cpu_seconds_by_process as cpu_seconds  # noqa: E402
import conftest  # noqa: E402


def browser(width: int, height: int):
    return conftest.device_browser(width, height)


def sign_in(driver, server) -> None:
    conftest.open_page(driver, server.url("/library/"))
    conftest.wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#signin").is_displayed()
                  or d.find_element(By.CSS_SELECTOR, "#library-app").is_displayed(), "the library page did not load")
    if driver.find_element(By.CSS_SELECTOR, "#signin").is_displayed():
        driver.find_element(By.CSS_SELECTOR, "#signin-name").send_keys(server.admin[0])
        driver.find_element(By.CSS_SELECTOR, "#signin-password").send_keys(server.admin[1], Keys.ENTER)
        conftest.wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#library-app").is_displayed(), "sign-in failed")


def empty_spot(driver, nodes, width, height):
    """A point of the canvas (not under a panel) at least 40 px from every node: a press there pans."""
    for y in range(60, height - 60, 23):
        for x in range(60, width - 60, 29):
            if all((n["x"] - x) ** 2 + (n["y"] - y) ** 2 > 1600 for n in nodes) and driver.execute_script(
                    "return document.elementFromPoint(arguments[0], arguments[1]) === "
                    "document.querySelector('#graph-canvas')", x, y):
                return {"x": x, "y": y}
    raise SystemExit("no empty spot to press for a pan")


def run(driver, server, count: int, seconds: float, webgl: bool, gesture: str = "drag") -> dict:
    query = f"explorer-synthetic={count}" + ("" if webgl else "&explorer-webgl=off")
    conftest.open_page(driver, server.url(f"/library/?{query}#graph"))
    conftest.wait(driver, lambda d: d.execute_script("return window.quintetGraph && quintetGraph.nodes().length") == count,
                  f"the explorer did not seed {count} nodes")
    conftest.wait(driver, lambda d: d.execute_script("return quintetGraph.settled()"), "the explorer did not go idle")
    nodes = driver.execute_script("return quintetGraph.nodes()")
    width, height = driver.execute_script("return [innerWidth, innerHeight]")
    visible = sum(1 for n in nodes if 0 <= n["x"] <= width and 0 <= n["y"] <= height)
    # The artist nearest the middle of the view: dragging it moves its albums and songs too.
    artists = [n for n in nodes if n["kind"] == "artist"]
    grab = min(artists, key=lambda n: (n["x"] - width / 2) ** 2 + (n["y"] - height / 2) ** 2)
    if gesture == "pan":
        grab = empty_spot(driver, nodes, width, height)
    renderer = driver.execute_script("return quintetGraph.renderer()")

    def mouse(kind, x, y, buttons=1):
        driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left",
                                                            "buttons": buttons, "clickCount": 1})

    mouse("mouseMoved", grab["x"], grab["y"], 0)
    mouse("mousePressed", grab["x"], grab["y"])
    mouse("mouseMoved", grab["x"] + 20, grab["y"])  # past the slop: the drag starts
    driver.execute_script("quintetGraph.resetStats()")
    root = driver.service.process.pid
    cpu_before = cpu_seconds(root)
    moves, started = 0, time.monotonic()
    while time.monotonic() - started < seconds:
        angle = (time.monotonic() - started) * 2 * math.pi / 2.0  # a circle every 2 s, radius 80 px
        mouse("mouseMoved", grab["x"] + 80 * math.cos(angle) - 60, grab["y"] + 80 * math.sin(angle))
        moves += 1
    elapsed = time.monotonic() - started
    stats = driver.execute_script("return quintetGraph.stats()")
    cpu_after = cpu_seconds(root)
    cpu = sum(t - cpu_before.get(pid, 0.0) for pid, t in cpu_after.items())
    mouse("mouseReleased", grab["x"], grab["y"], 0)
    intervals, draws = stats["intervals"], stats["draws"]
    if len(intervals) < 10:
        raise SystemExit(f"only {len(intervals)} frames drawn in {elapsed:.1f} s: the page did not animate the drag")
    median_interval = statistics.median(intervals)
    ordered = sorted(intervals)
    return {
        "renderer": renderer, "gesture": gesture,
        "nodes": count, "visible_nodes": visible, "edges": len(driver.execute_script("return quintetGraph.edges()")),
        "viewport": f"{width}x{height}", "seconds": round(elapsed, 2), "moves_sent": moves,
        "moves_per_s": round(moves / elapsed, 1), "frames": len(intervals) + 1,
        "fps_median": round(1000 / median_interval, 1),
        "fps_p10": round(1000 / ordered[int(len(ordered) * 0.9)], 1),  # the slow tenth of frames
        "frame_ms_median": round(median_interval, 2),
        "draw_ms_median": round(statistics.median(draws), 2),
        "draw_ms_p90": round(sorted(draws)[int(len(draws) * 0.9)], 2),
        # Chromium's CPU time (all its processes, DevTools' handling of the moves included) per frame.
        "chromium_cpu_ms_per_frame": round(1000 * cpu / (len(intervals) + 1), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nodes", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--width", type=int, default=1366)
    parser.add_argument("--height", type=int, default=1024)
    parser.add_argument("--both", action="store_true", help="also the 2D-canvas-only fallback")
    args = parser.parse_args()
    os.environ.setdefault("BENCH_LOAD_START", str(os.getloadavg()[0]))
    load_start = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="quintet-bench-explorer-") as tmp:
        server = conftest.start_server(Path(tmp) / "data", Path(tmp) / "server.log")
        driver = browser(args.width, args.height)
        try:
            sign_in(driver, server)
            runs = [run(driver, server, args.nodes, args.seconds, webgl=True),
                    run(driver, server, args.nodes, args.seconds, webgl=True, gesture="pan")]
            if args.both:
                runs.append(run(driver, server, args.nodes, args.seconds, webgl=False))
                runs.append(run(driver, server, args.nodes, args.seconds, webgl=False, gesture="pan"))
            version = driver.capabilities.get("browserVersion", "?")
        finally:
            driver.quit()
            conftest.stop_server(server)
    for r in runs:
        print(f"{r['gesture']:4} {r['renderer']:12} {r['visible_nodes']} visible nodes, {r['edges']} edges, {r['viewport']}: "
              f"median {r['fps_median']} fps (frame {r['frame_ms_median']} ms; slow tenth {r['fps_p10']} fps), "
              f"draw call {r['draw_ms_median']} ms median, {r['draw_ms_p90']} ms p90; "
              f"Chromium CPU {r['chromium_cpu_ms_per_frame']} ms/frame; "
              f"{r['moves_per_s']} moves/s over {r['seconds']} s")
    print(f"load average {load_start:.1f} at the start, {os.getloadavg()[0]:.1f} at the end; Chromium {version}")
    main_run = runs[0]
    bench_result.write(
        "explorer",
        figures={
            "fps_median": bench_result.figure(main_run["fps_median"], "fps", "quintet"),
            "draw_ms_median": bench_result.figure(main_run["draw_ms_median"], "ms", "quintet"),
            "pan_fps_median": bench_result.figure(runs[1]["fps_median"], "fps", "quintet"),
            "pan_draw_ms_median": bench_result.figure(runs[1]["draw_ms_median"], "ms", "quintet"),
        },
        ratios={"fps_median_over_55": round(main_run["fps_median"] / 55, 3)},
        parameters={"nodes": args.nodes, "seconds": args.seconds, "viewport": f"{args.width}x{args.height}",
                    "chromium": version},
        details={"runs": runs},
    )


if __name__ == "__main__":
    main()
