"""Lists the files each tool got wrong (not within ±4 % of the felt beat), with truth,
estimate, ratio and the kind of error (×2, ×½, ×3, ×⅓, ×3/2, ×2/3, other, failed).

    scripts/bench-tempo errors results.json [--tool quintet]   (a saved --json run)
    scripts/bench-tempo --set dev --show-errors                (after a run)
"""
from __future__ import annotations

import argparse
import json

from .report import acc1, within

KINDS = [("×2", 2.0), ("×½", 0.5), ("×3", 3.0), ("×⅓", 1 / 3), ("×3/2", 1.5), ("×2/3", 2 / 3),
         ("×4", 4.0), ("×¼", 0.25)]


def error_kind(estimate: float | None, truth: float) -> str:
    """Names the factor between estimate and truth, when it is a simple one."""
    if estimate is None:
        return "failed"
    for name, factor in KINDS:
        if within(estimate, truth * factor):
            return name
    return "other"


def errors_markdown(results: list[dict], pieces: list[dict], tool: str | None = None) -> str:
    """One Markdown section per tool: its wrong files, grouped by kind of error."""
    info = {p["file"]: p for p in pieces}
    tools = [t for t in dict.fromkeys(r["tool"] for r in results) if tool in (None, t)]
    if "aubio" in tools and "aubio-lib" in tools:
        tools.remove("aubio-lib")  # same answers as `aubio tempo`, timed from inside
    sections = []
    for name in tools:
        mine = [r for r in results if r["tool"] == name]
        wrong = [r for r in mine if not acc1(r)]
        rows = []
        for r in wrong:
            p = info.get(r["file"], {})
            kind = error_kind(r.get("bpm"), r["truth"])
            ratio = f'{r["bpm"] / r["truth"]:.3f}' if r.get("bpm") else "–"
            estimate = f'{r["bpm"]:.2f}' if r.get("bpm") else (r.get("error") or "none")[:60]
            rows.append((kind, ratio, f'| {r["file"]} | {p.get("style", "")} | {p.get("meter", "")} | '
                                      f'{"yes" if p.get("has_drums") else "no"} | {r["truth"]:.1f} | '
                                      f'{estimate} | {ratio} | {kind} |'))
        rows.sort(key=lambda row: (row[0], row[1]))
        counts = {}
        for kind, _, _ in rows:
            counts[kind] = counts.get(kind, 0) + 1
        tally = ", ".join(f"{k} {n}" for k, n in sorted(counts.items(), key=lambda kv: -kv[1]))
        sections.append(f"### {name}: {len(wrong)} of {len(mine)} wrong at Acc1 ({tally or 'none'})\n\n"
                        "| file | style | meter | drums | truth | estimate | ratio | kind |\n"
                        "|---|---|---|---|---:|---:|---:|---|\n" + "\n".join(r[2] for r in rows))
    return "\n\n".join(sections)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", help="a JSON file written by bench-tempo --json")
    parser.add_argument("--tool", help="only this tool (quintet, scheirer, aubio, aubio-lib, librosa)")
    args = parser.parse_args()
    data = json.load(open(args.results))
    print(errors_markdown(data["results"], data["pieces"], args.tool))


if __name__ == "__main__":
    main()
