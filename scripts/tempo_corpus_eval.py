#!/usr/bin/env python3
"""Scores tempo estimators on the score-corpus set (scripts/tempo_corpus.py builds it):

    .bench/venv/bin/python scripts/tempo_corpus_eval.py [--set DIR] [--tools quintet,aubio,librosa]
                                                        [--json FILE] [--result]

Runs each tool through tempo_bench's runners (same commands, same CPU accounting as
`make bench-tempo`) and prints Acc1 / Acc2 / CPU per audio minute, then Acc1 / Acc2 by style,
metre and drums, and the metrical level of Quintet's misses (×2, ×1/2, ×3, ×1/3, ×2/3, ×3/2, other).
With --result it writes Benchmarks/results/tempo-corpus-<UTC>.json (scripts/bench_result.py).
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from tempo_bench.report import acc1, acc2, breakdown_table, group_files, percent, within  # noqa: E402
from tempo_bench.tools import make_tools, run_tool  # noqa: E402

LEVELS = [("×2", 2.0), ("×1/2", 0.5), ("×3", 3.0), ("×1/3", 1 / 3), ("×3/2", 1.5), ("×2/3", 2 / 3)]


def level(result: dict) -> str:
    if result.get("bpm") is None:
        return "none"
    if acc1(result):
        return "right"
    for name, factor in LEVELS:
        if within(result["bpm"], result["truth"] * factor):
            return name
    return "other"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tempo_corpus_eval.py", description=__doc__.splitlines()[0])
    parser.add_argument("--set", default=str(HERE.parent / ".bench/tempo-songs/corpus"))
    parser.add_argument("--tools", default="quintet,aubio,librosa")
    parser.add_argument("--json", help="save every tool's per-file results")
    parser.add_argument("--result", action="store_true", help="write Benchmarks/results/tempo-corpus-*.json")
    args = parser.parse_args(argv)
    folder = Path(args.set)
    manifest = json.loads((folder / "manifest.json").read_text())
    pieces = manifest["pieces"]
    tools, skipped = make_tools([k.strip() for k in args.tools.split(",") if k.strip()])
    for message in skipped:
        print(f"tempo-corpus: {message}", file=sys.stderr)
    tools = [t for t in tools if t.key != "aubio-lib"]
    results = {tool.key: run_tool(tool, pieces, folder) for tool in tools}
    minutes = sum(p["duration_s"] for p in pieces) / 60
    by_file = {p["file"]: p for p in pieces}

    print(f"## Tempo on the score corpus ({len(pieces)} pieces, {minutes:.1f} audio min; "
          f"unseen by tuning)\n")
    print("| tool | Acc1 | Acc2 | CPU s / audio min | failures |\n|---|---:|---:|---:|---:|")
    figures = {}
    for key, rs in results.items():
        cpu = sum(r.get("cpu_s") or 0 for r in rs) / minutes
        print(f"| {key} | {percent([acc1(r) for r in rs])} | {percent([acc2(r) for r in rs])} | {cpu:.3f} | "
              f"{sum(r.get('bpm') is None for r in rs)} |")
        figures[f"{key}_acc1"] = sum(acc1(r) for r in rs) / len(rs)
        figures[f"{key}_acc2"] = sum(acc2(r) for r in rs) / len(rs)
        figures[f"{key}_cpu_s_per_audio_min"] = cpu
    for title, key in (("style", lambda p: p["style"]), ("metre", lambda p: p["meter"]),
                       ("drums", lambda p: "drums" if p["drums"] else "no drums")):
        print("\n" + breakdown_table(title, group_files(pieces, key), list(results.items())))
    for key, rs in results.items():
        counts = Counter(level(r) for r in rs)
        print(f"\n{key}: levels " + ", ".join(f"{name} {n}" for name, n in counts.most_common()))
        if key == "quintet":
            misses = Counter((by_file[r["file"]]["style"], level(r)) for r in rs if level(r) != "right")
            print("quintet misses by style and level: " + ", ".join(f"{s} {l} {n}" for (s, l), n in misses.most_common()))
    if args.json:
        Path(args.json).write_text(json.dumps({"manifest": manifest, "results": results}, indent=1))
    if args.result:
        import bench_result
        from bench_result import figure
        bench_result.write("tempo-corpus", parameters={"set": str(folder), "pieces": len(pieces),
                                                       "seed": manifest.get("seed")},
                           figures={k: figure(v, "fraction of files" if "acc" in k else "CPU s / audio min", k)
                                    for k, v in figures.items()},
                           ratios={k: v for k, v in figures.items() if k.startswith("quintet_acc")})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
