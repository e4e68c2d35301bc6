"""Scoring and Markdown tables: Acc1, Acc2, CPU per audio minute, wall time, failures,
and Acc1/Acc2 broken down by drums / no drums and by meter.

Acc1: the estimate is within ±4 % of the felt-beat tempo. Acc2: within ±4 % of the
truth times 1, 2, 3, 1/2 or 1/3 (octave and triple errors forgiven).
"""
from __future__ import annotations

from collections import defaultdict

TOLERANCE = 0.04
ACC2_FACTORS = (1.0, 2.0, 3.0, 1 / 2, 1 / 3)


def within(estimate: float | None, target: float) -> bool:
    """True when the estimate is within ±4 % of the target."""
    return estimate is not None and abs(estimate - target) <= TOLERANCE * target


def acc1(result: dict) -> bool:
    return within(result.get("bpm"), result["truth"])


def acc2(result: dict) -> bool:
    return any(within(result.get("bpm"), result["truth"] * f) for f in ACC2_FACTORS)


def failed(result: dict) -> bool:
    """No number at all: an error or "no tempo"."""
    return result.get("bpm") is None


def percent(flags: list[bool]) -> str:
    return f"{100.0 * sum(flags) / len(flags):.1f} %" if flags else "–"


def summary_table(rows: list[tuple[str, str, list[dict]]], audio_s: dict[str, float]) -> str:
    """The main table: one row per (label, CPU field, results)."""
    lines = ["| tool | Acc1 | Acc2 | CPU s / audio min | wall s total | wall s / file (median) | failures |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for label, cpu_field, results in rows:
        minutes = sum(audio_s[r["file"]] for r in results) / 60.0
        cpu = sum(r.get(cpu_field) or 0.0 for r in results)
        wall_field = "inner_wall_s" if cpu_field == "inner_cpu_s" else "wall_s"
        walls = sorted(r.get(wall_field) or 0.0 for r in results)
        median = walls[len(walls) // 2] if walls else 0.0
        lines.append(f"| {label} | {percent([acc1(r) for r in results])} | "
                     f"{percent([acc2(r) for r in results])} | {cpu / minutes:.3f} | "
                     f"{sum(walls):.1f} | {median:.3f} | {sum(failed(r) for r in results)} |")
    return "\n".join(lines)


def breakdown_table(title: str, groups: dict[str, list[str]], rows: list[tuple[str, list[dict]]]) -> str:
    """Acc1 / Acc2 per group of files (e.g. by meter), one column per tool."""
    header = f"| {title} | n | " + " | ".join(label for label, _ in rows) + " |"
    lines = [header, "|---|---:|" + "---:|" * len(rows)]
    for group, files in groups.items():
        cells = []
        for _, results in rows:
            chosen = [r for r in results if r["file"] in files]
            cells.append(f"{percent([acc1(r) for r in chosen])} / {percent([acc2(r) for r in chosen])}")
        lines.append(f"| {group} | {len(files)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def group_files(pieces: list[dict], key) -> dict[str, list[str]]:
    """Files grouped by a key function, groups in a stable, readable order."""
    groups: dict[str, list[str]] = defaultdict(list)
    for piece in pieces:
        groups[key(piece)].append(piece["file"])
    return dict(sorted(groups.items(), key=lambda item: (-len(item[1]), item[0])))


def full_report(pieces: list[dict], rows: list[tuple[str, str, list[dict]]],
                columns: list[tuple[str, list[dict]]], by_style: bool) -> str:
    """The summary table (`rows`) and the Acc1 / Acc2 breakdowns (one column per entry
    of `columns`: a tool's name and its results), as one Markdown string."""
    audio_s = {p["file"]: p.get("duration_s", 40.0) for p in pieces}
    parts = [summary_table(rows, audio_s), "",
             breakdown_table("Acc1 / Acc2", group_files(pieces, lambda p: "drums" if p["has_drums"] else "no drums"),
                             columns), "",
             breakdown_table("meter", group_files(pieces, lambda p: p["meter"]), columns)]
    if any("variant" in p for p in pieces):
        parts += ["", breakdown_table("variant (C: held out of the tuned set)",
                                      group_files(pieces, lambda p: p.get("variant", "?")), columns)]
    if by_style:
        parts += ["", breakdown_table("style", group_files(pieces, lambda p: p["style"]), columns)]
    return "\n".join(parts)
