#!/usr/bin/env python3
"""The one writer of benchmark result files: Benchmarks/results/<bench>-<UTC timestamp>.json.

Every `make bench-*` script ends by handing its figures to this helper, from Python:

    sys.path.insert(0, "scripts"); import bench_result
    bench_result.write("fft", figures={"swift_median_us": bench_result.figure(612.6, "µs", "quintet")},
                       ratios={"swift_over_numpy_median": 0.55}, parameters={"points": 65536})

or from the shell, with a JSON object {"figures", "ratios", "parameters", "details"} on stdin:

    echo "$json" | python3 scripts/bench_result.py write fft

The file holds: bench, date (UTC, ISO 8601), commit (`git rev-parse HEAD`) and dirty (uncommitted
changes to tracked files), machine (uname, CPU model, cores, memory), load (1-minute load average
when the script started, if it exported BENCH_LOAD_START, and when the file is written), command
(the make/bash command, from BENCH_COMMAND), parameters (what changes the figures: sizes, sets,
runs), figures ({name: {value, unit, tool}}: every tool's figure side by side), ratios ({name:
value}: what `make bench-check` compares with Benchmarks/thresholds.json) and details (anything
else the script's own report has). See docs/benchmarks.md.

Environment: BENCH_RESULTS_DIR (default Benchmarks/results of this checkout), BENCH_COMMAND,
BENCH_LOAD_START, BENCH_NO_RESULT=1 (write nothing: for trying a script).
"""
from __future__ import annotations

import datetime
import json
import math
import os
import platform
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SCHEMA = "quintet-bench-result/1"


def figure(value, unit: str, tool: str, **extra) -> dict:
    """One figure: a value, its unit and the tool that produced it (quintet or a reference)."""
    out = {"value": _clean(value), "unit": unit, "tool": tool}
    out.update({k: _clean(v) for k, v in extra.items()})
    return out


def _clean(v):
    """JSON has no NaN or infinity: they become null."""
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if isinstance(v, dict):
        return {k: _clean(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_clean(x) for x in v]
    return v


def _git(*args: str) -> str | None:
    try:
        return subprocess.run(["git", "-C", str(REPO), *args], check=True, capture_output=True,
                              text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def machine() -> dict:
    u = platform.uname()
    cpu = platform.processor() or u.machine
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory = int(line.split()[1]) * 1024
                break
    except OSError:
        pass
    return {"uname": " ".join([u.system, u.node, u.release, u.version, u.machine]),
            "system": u.system, "release": u.release, "arch": u.machine, "hostname": u.node,
            "cpu_model": cpu, "cores": os.cpu_count(), "memory_bytes": memory,
            "memory_gib": round(memory / 2**30, 1) if memory else None}


def loadavg() -> str | None:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return None


def write(bench: str, figures: dict, ratios: dict, parameters: dict | None = None,
          details: dict | None = None, command: str | None = None) -> Path | None:
    """Writes one result file and returns its path (None when BENCH_NO_RESULT=1)."""
    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    status = _git("status", "--porcelain", "--untracked-files=no")
    result = {
        "schema": SCHEMA,
        "bench": bench,
        "date": now.isoformat().replace("+00:00", "Z"),
        "commit": _git("rev-parse", "HEAD"),
        "dirty": None if status is None else bool(status),
        "machine": machine(),
        "load": {"start": os.environ.get("BENCH_LOAD_START"), "end": loadavg()},
        "command": command or os.environ.get("BENCH_COMMAND") or " ".join(sys.argv),
        "parameters": _clean(parameters or {}),
        "figures": _clean(figures),
        "ratios": _clean(ratios),
    }
    if details:
        result["details"] = _clean(details)
    if os.environ.get("BENCH_NO_RESULT") == "1":
        print(f"bench-result: BENCH_NO_RESULT=1, no result file written for {bench}", file=sys.stderr)
        return None
    folder = Path(os.environ.get("BENCH_RESULTS_DIR") or REPO / "Benchmarks" / "results")
    folder.mkdir(parents=True, exist_ok=True)
    stamp = now.strftime("%Y%m%dT%H%M%SZ")
    path = folder / f"{bench}-{stamp}.json"
    n = 1
    while path.exists():  # two results of one bench in the same second
        n += 1
        path = folder / f"{bench}-{stamp}-{n}.json"
    path.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
    try:
        shown = path.relative_to(Path.cwd())
    except ValueError:
        shown = path
    print(f"bench-result: wrote {shown}")
    return path


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] != "write":
        print("usage: bench_result.py write BENCH  < {\"figures\": …, \"ratios\": …, \"parameters\": …}",
              file=sys.stderr)
        return 2
    data = json.load(sys.stdin)
    write(argv[1], data.get("figures", {}), data.get("ratios", {}), data.get("parameters"),
          data.get("details"), data.get("command"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
