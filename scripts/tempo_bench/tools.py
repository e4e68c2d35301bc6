"""The tempo estimators under test, and how one run of one file is timed.

Every run is its own process, so interpreter start-up, imports and decoding count for
every tool alike. CPU time is the child's user + system time from `os.wait4` (it
includes any helper processes the child waited for, such as ffmpeg).
"""
from __future__ import annotations

from dataclasses import dataclass
import json
import os
from pathlib import Path
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from typing import Callable

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
TIMEOUT_S = 300.0
# The Makefile's RELEASE_BUILD: the static Swift runtime cuts start-up, which counts here.
RELEASE_BUILD = ["swift", "build", "-c", "release", "--product", "quintet", "--static-swift-stdlib"]


@dataclass
class Tool:
    """One estimator: how to run it on a file and read its answer. `rows` are the
    table rows it yields: (label, which CPU figure: "cpu_s" whole process or
    "inner_cpu_s" the work alone)."""
    key: str
    command: Callable[[str], list[str]]
    parse: Callable[[str], dict]
    rows: list[tuple[str, str]]
    env: dict | None = None
    note: str = ""


def run_timed(command: list[str], env: dict | None = None, timeout: float = TIMEOUT_S) -> dict:
    """Runs a command to completion; returns rc, stdout, stderr, wall and CPU seconds."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(command, stdout=out, stderr=err, env=env, stdin=subprocess.DEVNULL)
        timer = threading.Timer(timeout, proc.kill)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return {"rc": proc.returncode, "stdout": out.read().decode(errors="replace"),
                "stderr": err.read().decode(errors="replace"), "wall_s": wall,
                "cpu_s": usage.ru_utime + usage.ru_stime, "max_rss_mb": usage.ru_maxrss / 1024}


def parse_quintet(stdout: str) -> dict:
    """Reads `quintet tempo --json` output: the first JSON line (bpm, or an error)."""
    for line in stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            record = json.loads(line)
            if record.get("error"):
                return {"bpm": None, "error": str(record["error"])}
            return {"bpm": record.get("bpm"), "confidence": record.get("confidence"),
                    "reported_s": record.get("seconds"), "method": record.get("method")}
    return {"bpm": None}


def parse_aubio_cli(stdout: str) -> dict:
    """Reads `aubio tempo FILE`: "123.45 bpm", "... bpm (uncertain)" or "unknown bpm"."""
    match = re.search(r"([0-9.]+) bpm", stdout)
    if match:
        return {"bpm": float(match.group(1)), "uncertain": "uncertain" in stdout}
    return {"bpm": None}


def parse_json_line(stdout: str) -> dict:
    """Reads the last line of a child script as JSON."""
    lines = [line for line in stdout.splitlines() if line.strip()]
    if not lines:
        return {"bpm": None}
    return json.loads(lines[-1])


def unpinned_blas_env() -> dict:
    """The environment with OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE removed, so a current
    numpy picks its own (fastest) kernel; they exist on this workplace only to keep old
    OpenBLAS builds from miscomputing."""
    env = dict(os.environ)
    env.pop("OPENBLAS_CORETYPE", None)
    env.pop("OPENBLAS_L2_SIZE", None)
    return env


def quintet_binary(log=sys.stderr) -> tuple[str | None, str]:
    """The quintet binary to measure and a note; builds a release binary when
    QUINTET_BIN is unset and .build/release/quintet is missing. (None, reason) when it
    cannot be had or has no `tempo` subcommand yet."""
    binary = os.environ.get("QUINTET_BIN") or str(REPO / ".build/release/quintet")
    if not Path(binary).exists():
        if os.environ.get("QUINTET_BIN"):
            return None, f"QUINTET_BIN={binary} does not exist"
        print(f"bench-tempo: building quintet ({' '.join(RELEASE_BUILD)})", file=log, flush=True)
        built = subprocess.run(RELEASE_BUILD, cwd=REPO, stdout=sys.stderr)  # stdout is the report
        if built.returncode != 0 or not Path(binary).exists():
            return None, f"{' '.join(RELEASE_BUILD)} failed"
    probe = subprocess.run([binary, "tempo", "--help"], capture_output=True, text=True)
    if probe.returncode != 0:
        return None, f"{binary} has no `tempo` subcommand yet (`quintet tempo --help` failed)"
    return binary, binary


def make_tools(keys: list[str], log=sys.stderr) -> tuple[list[Tool], list[str]]:
    """The requested tools that are available, and a message for each one skipped.
    Keys: quintet, scheirer, aubio (the CLI, plus aubio-lib to time it from inside),
    aubio-lib, aubio-median (informational), librosa."""
    tools, skipped = [], []
    if "quintet" in keys or "scheirer" in keys:
        binary, note = quintet_binary(log)
        for key, flags, label in (("quintet", [], "quintet (default)"),
                                  ("scheirer", ["--method", "scheirer"], "quintet --method scheirer")):
            if key not in keys:
                continue
            if binary is None:
                skipped.append(f"{key}: skipped — {note}")
                continue
            tools.append(Tool(key, lambda f, fl=flags: [binary, "tempo", f, "--json", "--jobs", "1", *fl],
                              parse_quintet, [(label, "cpu_s")], note=f"{binary} tempo FILE --json --jobs 1 {' '.join(flags)}".strip()))
    if "aubio" in keys:
        if shutil.which("aubio"):
            tools.append(Tool("aubio", lambda f: ["aubio", "tempo", f], parse_aubio_cli,
                              [("aubio tempo (whole process)", "cpu_s")], note="aubio tempo FILE (aubio-tools)"))
        else:
            skipped.append("aubio: skipped — `aubio` not found (apt-get install aubio-tools)")
    if "aubio" in keys or "aubio-lib" in keys:
        if subprocess.run(["/usr/bin/python3", "-c", "import aubio"], capture_output=True).returncode == 0:
            tools.append(Tool("aubio-lib", lambda f: ["/usr/bin/python3", str(HERE / "aubio_tempo.py"), f],
                              parse_json_line, [("aubio (in-process: source+tempo only)", "inner_cpu_s")],
                              note="aubio_tempo.py: the same computation as `aubio tempo`, timed inside"))
        else:
            skipped.append("aubio-lib: skipped — python3-aubio not importable by /usr/bin/python3")
    if "aubio-median" in keys:
        tools.append(Tool("aubio-median", lambda f: ["/usr/bin/python3", str(HERE / "aubio_tempo.py"), "--median", f],
                          parse_json_line, [("aubio library, median beat interval (informational, not the CLI)", "cpu_s")],
                          note="aubio_tempo.py --median: aubio's beat tracker, median instead of the CLI's mean"))
    if "librosa" in keys:
        tools.append(Tool("librosa", lambda f: [sys.executable, str(HERE / "librosa_tempo.py"), f],
                          parse_json_line,
                          [("librosa (whole process)", "cpu_s"),
                           ("librosa (in-process, warm: load+feature.tempo only)", "inner_cpu_s")],
                          env=unpinned_blas_env(),
                          note="librosa.load(FILE) at 22,050 Hz mono, then librosa.feature.tempo(y=y, sr=sr)"))
    return tools, skipped


def run_tool(tool: Tool, pieces: list[dict], folder: Path, log=sys.stderr) -> list[dict]:
    """Runs a tool over the pieces (after one untimed warm-up run) and returns one
    result per piece: estimate, error, wall and CPU seconds."""
    run_timed(tool.command(str(folder / pieces[0]["file"])), tool.env)  # warm caches / JIT
    results = []
    interactive = log.isatty()
    for i, piece in enumerate(pieces, 1):
        path = str(folder / piece["file"])
        timing = run_timed(tool.command(path), tool.env)
        try:
            answer = tool.parse(timing["stdout"])
        except (ValueError, KeyError) as error:
            answer = {"bpm": None, "error": f"unreadable output: {error}"}
        if timing["rc"] != 0 and not answer.get("error"):
            answer["error"] = f"exit status {timing['rc']}: {timing['stderr'].strip()[-300:]}"
        if answer.get("bpm") is None and not answer.get("error"):
            answer["error"] = "no tempo"
        results.append({"tool": tool.key, "file": piece["file"], "truth": piece["bpm"],
                        "wall_s": timing["wall_s"], "cpu_s": timing["cpu_s"],
                        "max_rss_mb": timing["max_rss_mb"], **answer})
        if interactive:
            print(f"\r{tool.key}: {i}/{len(pieces)}", end="", file=log, flush=True)
        elif i % 10 == 0 or i == len(pieces):
            print(f"{tool.key}: {i}/{len(pieces)}", file=log, flush=True)
    if interactive:
        print(file=log)
    return results
