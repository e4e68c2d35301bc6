#!/usr/bin/env python3
"""The physics half of `make bench-playground` (scripts/bench-playground builds, then runs this).

Each run, interleaved: `quintet playground bench pyramid20 --steps N --warmup W --json` (the
release binary in QUINTET_BIN: thread CPU and wall ms per timed step), then the same scene in
the wasm module served by `quintet serve` to a headless Chromium: `pg_bench_start(0)`, W untimed
steps, then the N - W timed steps in one synchronous call, timed by performance.now() (wall) and
by the CPU time of Chromium's processes across the call (/proc, user + system: the renderer runs
the module; the rest of Chromium idles meanwhile). The page cannot read its own thread's CPU time,
so the CPU figure of the wasm side is Chromium's whole process tree: if anything it overstates it.
Ratios wasm / native of the medians over the runs, CPU and wall. The state hashes of the two sides
must be equal (bit-identical physics), or the bench fails.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "e2e"))
sys.path.insert(0, str(REPO / "scripts"))

import bench_result  # noqa: E402
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


def process_tree(root: int) -> list[int]:
    """root and every process under it."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parent = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(parent, []).append(int(entry))
    out, stack = [], [root]
    while stack:
        pid = stack.pop()
        out.append(pid)
        stack.extend(children.get(pid, []))
    return out


def cpu_seconds(root: int) -> float:
    """CPU time (user + system, seconds) of the process tree under root."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in process_tree(root):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
        except (OSError, ValueError, IndexError):
            continue
    return total


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


def carworld_half() -> None:
    """The CarWorld half of the bench (50 cars stepped natively and in wasm, and the page's frame
    rate) belongs here. Not measured yet: CarWorld is not built; nothing is reported for it."""
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--warmup", type=int, default=60)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if args.runs < 1 or args.warmup < 0 or args.steps <= args.warmup:
        raise SystemExit("bench-playground: need --runs >= 1 and --steps > --warmup >= 0")
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
        finally:
            browser.close()
            conftest.stop_server(server)
    carworld_half()

    def median(side: str, key: str) -> float:
        return statistics.median(r[side][key] for r in rows)

    n_cpu, n_wall = median("native", "cpu_ms_per_step"), median("native", "ms_per_step")
    w_cpu, w_wall = median("wasm", "cpu_ms_per_step"), median("wasm", "ms_per_step")
    ratio_cpu, ratio_wall = w_cpu / n_cpu, w_wall / n_wall
    print(f"pyramid20, {args.steps} steps ({args.warmup} untimed), median of {args.runs}: "
          f"native {n_cpu:.3f} ms CPU / {n_wall:.3f} ms wall per step, wasm {w_cpu:.3f} / {w_wall:.3f}; "
          f"wasm / native {ratio_cpu:.2f} (CPU), {ratio_wall:.2f} (wall); target <= 2; Chromium {version}")
    size = (REPO / "Web" / "playground" / "playground.wasm").stat().st_size
    bench_result.write(
        "playground",
        figures={
            "pyramid20_native_cpu_ms_per_step": bench_result.figure(n_cpu, "ms", "quintet"),
            "pyramid20_native_wall_ms_per_step": bench_result.figure(n_wall, "ms", "quintet"),
            "pyramid20_wasm_cpu_ms_per_step": bench_result.figure(w_cpu, "ms", "quintet-wasm", chromium=version),
            "pyramid20_wasm_wall_ms_per_step": bench_result.figure(w_wall, "ms", "quintet-wasm", chromium=version),
        },
        ratios={"pyramid20_wasm_over_native_cpu": round(ratio_cpu, 3),
                "pyramid20_wasm_over_native_wall": round(ratio_wall, 3)},
        parameters={"scene": "pyramid20", "steps": args.steps, "warmup": args.warmup, "runs": args.runs,
                    "chromium": version, "wasm_bytes": size},
        details={"runs": rows, "hash": rows[0]["native"]["hash"],
                 "carworld": "not measured: CarWorld (50 cars) and the page's fps come with CarWorld"},
    )


if __name__ == "__main__":
    main()
