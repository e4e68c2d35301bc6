"""bench-tempo: build a synthesised test set and compare tempo estimators on it.

    scripts/bench-tempo [--set smoke|dev|test] [--tools quintet,scheirer,aubio,librosa]
                        [--limit N] [--json out.json] [--show-errors] [--by-style]
                        [--only-build]

Prints Markdown: a header saying what was measured, the side-by-side table, and
Acc1 / Acc2 broken down by drums and by meter.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
from pathlib import Path
import platform
import sys
from types import SimpleNamespace

from .compose import SETS
from .errors import errors_markdown
from .render import build_set
from .report import full_report
from .tools import REPO, make_tools, run_tool

ALL_TOOLS = ["quintet", "scheirer", "aubio", "librosa"]
LEVEL_SETS = ["levels-smoke", "levels-tuned", "levels-unseen"]


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="bench-tempo", description=__doc__.splitlines()[0])
    parser.add_argument("--set", default="dev", choices=sorted(SETS) + LEVEL_SETS + ["levels"],
                        help="which test set (default dev); `levels` runs levels-tuned and levels-unseen "
                             "(issue 21) and writes one result file with both parts")
    parser.add_argument("--tools", default=",".join(ALL_TOOLS),
                        help="comma-separated: quintet, scheirer, aubio, librosa "
                             "(also aubio-lib, aubio-median; default: the first four)")
    parser.add_argument("--limit", type=int, help="only the first N pieces of the set")
    parser.add_argument("--json", metavar="FILE", help="save per-file results and the manifest")
    parser.add_argument("--show-errors", action="store_true", help="list each tool's wrong files")
    parser.add_argument("--by-style", action="store_true", help="add an Acc1/Acc2 table per style")
    parser.add_argument("--only-build", action="store_true", help="build the set, measure nothing")
    parser.add_argument("--songs", default=str(REPO / ".bench/tempo-songs"), help="where sets are cached")
    parser.add_argument("--no-result", action="store_true",
                        help="do not write Benchmarks/results/tempo-<UTC time>.json")
    return parser.parse_args(argv)


def machine() -> str:
    """CPU model and core count, for the report header."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


def write_result(spec, args, pieces: list[dict], tools, results: dict[str, list[dict]]) -> None:
    """Benchmarks/results/tempo-<UTC time>.json through scripts/bench_result.py: Acc1, Acc2 and
    CPU s per audio minute of every row, and the ratios the issue's acceptance reads."""
    sys.path.insert(0, str(REPO / "scripts"))
    import bench_result
    from bench_result import figure
    from .report import acc1, acc2, failed

    audio_s = {p["file"]: p.get("duration_s", 40.0) for p in pieces}
    figures: dict[str, dict] = {}
    cpu_per_min: dict[str, float] = {}
    for tool in tools:
        rs = results[tool.key]
        if not rs:
            continue
        minutes = sum(audio_s[r["file"]] for r in rs) / 60.0
        n = len(rs)
        figures[f"{tool.key}_acc1"] = figure(sum(acc1(r) for r in rs) / n, "fraction of files", tool.key)
        figures[f"{tool.key}_acc2"] = figure(sum(acc2(r) for r in rs) / n, "fraction of files", tool.key)
        figures[f"{tool.key}_failures"] = figure(sum(failed(r) for r in rs), "files", tool.key)
        for label, cpu_field in tool.rows:
            suffix = "" if cpu_field == "cpu_s" else "_inner"
            value = sum(r.get(cpu_field) or 0.0 for r in rs) / minutes
            figures[f"{tool.key}_cpu_s_per_audio_min{suffix}"] = figure(value, "CPU s / audio min", label)
            if cpu_field == "cpu_s":
                cpu_per_min[tool.key] = value
    ratios: dict[str, float] = {}
    if "quintet" in results and results["quintet"]:
        ratios["quintet_acc1"] = figures["quintet_acc1"]["value"]
        ratios["quintet_acc2"] = figures["quintet_acc2"]["value"]
        others = {k: v for k, v in cpu_per_min.items() if k in ("aubio", "librosa") and v > 0}
        q = cpu_per_min.get("quintet")
        if q and others:
            fastest = min(others, key=others.get)
            ratios["fastest_other_cpu_over_quintet"] = others[fastest] / q
            for k, v in others.items():
                ratios[f"{k}_cpu_over_quintet"] = v / q
        for k in ("aubio", "librosa", "scheirer"):
            if f"{k}_acc1" in figures:
                ratios[f"quintet_acc1_minus_{k}"] = ratios["quintet_acc1"] - figures[f"{k}_acc1"]["value"]
    bench_result.write("tempo", parameters={"set": spec.name, "pieces": len(pieces), "synth": spec.synth,
                                            "limit": args.limit, "tools": [t.key for t in tools]},
                       figures=figures, ratios=ratios)


def load_pieces(name: str, args) -> tuple[object, Path, list[dict]]:
    """The set's spec-like description (name, synth), folder and pieces (built if needed)."""
    if name in LEVEL_SETS:
        from . import levels
        manifest = levels.build(name, Path(args.songs))
        spec = SimpleNamespace(name=name, synth=manifest["synth"])
    else:
        spec = SETS[name]
        manifest = build_set(spec, Path(args.songs))
    folder = Path(args.songs) / spec.name
    pieces = manifest["pieces"][: args.limit] if args.limit else manifest["pieces"]
    for piece in pieces:
        piece.setdefault("duration_s", manifest["duration_s"])
    return spec, folder, pieces


def run_set(name: str, args, tools, skipped) -> tuple[object, list[dict], dict[str, list[dict]]]:
    """Runs every tool on one set and prints its Markdown report."""
    spec, folder, pieces = load_pieces(name, args)
    results: dict[str, list[dict]] = {}
    for tool in tools:
        results[tool.key] = run_tool(tool, pieces, folder)
    rows = [(label, cpu_field, results[tool.key]) for tool in tools for label, cpu_field in tool.rows]
    if "aubio" in results and "aubio-lib" in results:
        # aubio-lib repeats `aubio tempo`'s computation to time it from inside: same answers.
        mismatches = [a["file"] for a, b in zip(results["aubio"], results["aubio-lib"])
                      if abs((a.get("bpm") or 0.0) - (b.get("bpm") or 0.0)) > 0.01]
        if mismatches:
            print(f"bench-tempo: aubio_tempo.py differs from `aubio tempo` on {mismatches[:5]}", file=sys.stderr)
        shown = {k: v for k, v in results.items() if k != "aubio-lib"}
    else:
        shown = results
    columns = list(shown.items())

    minutes = sum(p["duration_s"] for p in pieces) / 60
    print(f"## Tempo benchmark: set `{spec.name}` ({len(pieces)} pieces, {minutes:.1f} audio min, "
          f"rendered with {spec.synth}), {datetime.date.today().isoformat()}\n")
    print(f"Machine: {machine()}. Each file is its own process, run one after another after one "
          "untimed warm-up run per tool; CPU = user + sys of that process (and its children).\n")
    for tool in tools:
        print(f"- `{tool.key}`: {tool.note}; rows: " + ", ".join(f"*{label}* ({'whole-process CPU' if f == 'cpu_s' else 'CPU inside the process around the work only, start-up and imports excluded'})" for label, f in tool.rows))
    for message in skipped:
        print(f"- {message}")
    print()
    if rows:
        print(full_report(pieces, rows, columns, args.by_style))
    if args.show_errors and results:
        print("\n## Wrong files (Acc1)\n")
        print(errors_markdown([r for rs in shown.values() for r in rs], pieces))
    print()
    if args.json:
        path = Path(args.json)
        if args.set == "levels":
            path = path.with_name(f"{path.stem}-{name}{path.suffix}")
        path.write_text(json.dumps({
            "set": spec.name, "synth": spec.synth, "date": datetime.datetime.now().isoformat(timespec="seconds"),
            "machine": machine(), "tools": [{"key": t.key, "note": t.note, "rows": t.rows} for t in tools],
            "skipped": skipped, "pieces": pieces,
            "results": [r for rs in results.values() for r in rs]}, indent=1) + "\n")
    return spec, pieces, results


def level_figures(pieces: list[dict], tools, results: dict[str, list[dict]], prefix: str,
                  figures: dict, ratios: dict) -> None:
    """Acc1 / Acc2 / CPU of every tool on one part of the levels sets, and the issue-21 ratios."""
    sys.path.insert(0, str(REPO / "scripts"))
    from bench_result import figure
    from .report import acc1, acc2

    audio_s = {p["file"]: p.get("duration_s", 30.0) for p in pieces}
    cpu: dict[str, float] = {}
    for tool in tools:
        rs = results.get(tool.key) or []
        if not rs:
            continue
        minutes = sum(audio_s[r["file"]] for r in rs) / 60.0
        figures[f"{prefix}_{tool.key}_acc1"] = figure(sum(acc1(r) for r in rs) / len(rs), "fraction of files", tool.key)
        figures[f"{prefix}_{tool.key}_acc2"] = figure(sum(acc2(r) for r in rs) / len(rs), "fraction of files", tool.key)
        for label, cpu_field in tool.rows:
            suffix = "" if cpu_field == "cpu_s" else "_inner"
            value = sum(r.get(cpu_field) or 0.0 for r in rs) / minutes
            figures[f"{prefix}_{tool.key}_cpu_s_per_audio_min{suffix}"] = figure(value, "CPU s / audio min", label)
            if cpu_field == "cpu_s":
                cpu[tool.key] = value
    if f"{prefix}_quintet_acc1" in figures:
        ratios[f"{prefix}_quintet_acc1"] = figures[f"{prefix}_quintet_acc1"]["value"]
        ratios[f"{prefix}_quintet_acc2"] = figures[f"{prefix}_quintet_acc2"]["value"]
        if cpu.get("librosa"):
            ratios[f"{prefix}_quintet_cpu_over_librosa"] = cpu["quintet"] / cpu["librosa"]
        for other in ("aubio", "librosa"):
            if f"{prefix}_{other}_acc1" in figures:
                ratios[f"{prefix}_quintet_acc1_minus_{other}"] = (figures[f"{prefix}_quintet_acc1"]["value"]
                                                                 - figures[f"{prefix}_{other}_acc1"]["value"])


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    names = ["levels-tuned", "levels-unseen"] if args.set == "levels" else [args.set]
    if args.only_build:
        for name in names:
            _, folder, pieces = load_pieces(name, args)
            print(f"{len(pieces)} pieces in {folder}")
        return 0
    keys = [k.strip() for k in args.tools.split(",") if k.strip()]
    unknown = set(keys) - set(ALL_TOOLS) - {"aubio-lib", "aubio-median"}
    if unknown:
        print(f"bench-tempo: unknown tool(s): {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    tools, skipped = make_tools(keys)
    for message in skipped:
        print(f"bench-tempo: {message}", file=sys.stderr)
    if args.set != "levels":
        spec, pieces, results = run_set(args.set, args, tools, skipped)
        if results and not args.no_result:
            write_result(spec, args, pieces, tools, results)
        return 0
    figures: dict[str, dict] = {}
    ratios: dict[str, float] = {}
    counts = {}
    for name in names:
        _, pieces, results = run_set(name, args, tools, skipped)
        level_figures(pieces, tools, results, name.split("-", 1)[1], figures, ratios)
        counts[name] = len(pieces)
    if not args.no_result:
        sys.path.insert(0, str(REPO / "scripts"))
        import bench_result
        bench_result.write("tempo-levels", parameters={"set": "levels", "pieces": counts, "limit": args.limit,
                                                       "tools": [t.key for t in tools]},
                           figures=figures, ratios=ratios)
    return 0


if __name__ == "__main__":
    sys.exit(main())
