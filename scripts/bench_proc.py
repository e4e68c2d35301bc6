"""CPU time of a process and everything under it, read from /proc (Linux): how the benches that
drive headless Chromium (bench-explorer, bench-playground) count the browser's CPU, since a page
cannot read its own."""
from __future__ import annotations

import os


def process_tree(root: int) -> list[int]:
    """root and every process under it (Chromium's browser, GPU, renderer… processes)."""
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


def cpu_seconds_by_process(root: int) -> dict[int, float]:
    """CPU time (user + system, seconds) of each process of the tree under root."""
    tick = os.sysconf("SC_CLK_TCK")
    times = {}
    for pid in process_tree(root):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            times[pid] = (int(fields[11]) + int(fields[12])) / tick
        except (OSError, ValueError, IndexError):
            continue
    return times


def cpu_seconds(root: int) -> float:
    """CPU time (user + system, seconds) of the whole process tree under root."""
    return sum(cpu_seconds_by_process(root).values())
