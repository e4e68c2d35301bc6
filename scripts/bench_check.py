#!/usr/bin/env python3
"""`make bench-check`: the newest result of each bench against Benchmarks/thresholds.json.

    python3 scripts/bench_check.py [BENCH …] [--results DIR] [--thresholds FILE] [--strict]

For every bench in the thresholds file it reads the newest Benchmarks/results/<bench>-*.json (by
its "date"); when that result was taken with other parameters than the thresholds apply to (a
quick run: FILES=2000, SET=smoke, a small N…), it says so and uses the newest result that does
match, if any. Then every ratio is compared with its limit in its direction ("better": "lower"
or "higher") and, where the issue names one, with the target. Each comparison is printed; every
ratio past its limit is named as a REGRESSION, every target missed as TARGET NOT MET, a ratio the
result lacks as MISSING. Exit status 1 when any of those, 0 otherwise; a bench with no comparable
result is reported and fails only with --strict. See docs/benchmarks.md.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def load_results(folder: Path) -> dict[str, list[tuple[str, Path, dict]]]:
    """bench -> [(date, path, result)], newest first."""
    out: dict[str, list[tuple[str, Path, dict]]] = {}
    for path in sorted(folder.glob("*.json")):
        try:
            r = json.loads(path.read_text())
        except (OSError, ValueError) as e:
            print(f"bench-check: skipping {path}: {e}", file=sys.stderr)
            continue
        if not isinstance(r, dict) or "bench" not in r:
            continue
        out.setdefault(r["bench"], []).append((r.get("date", ""), path, r))
    for runs in out.values():
        runs.sort(key=lambda t: (t[0], t[1].name), reverse=True)
    return out


def matches(result: dict, applies_to: dict) -> bool:
    params = result.get("parameters") or {}
    return all(params.get(k) == v for k, v in applies_to.items())


def worse(value: float, bound: float, better: str) -> bool:
    """Past the bound, at the bound's precision: thresholds are written to 4 decimals, so a ratio
    of 46/60 = 0.76667 sits at an anchor written 0.7667, not below it."""
    value = round(value, 4)
    return value > bound if better == "lower" else value < bound


def rel(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("benches", nargs="*", help="only these benches (default: every bench in the thresholds)")
    ap.add_argument("--results", default=str(REPO / "Benchmarks" / "results"))
    ap.add_argument("--thresholds", default=str(REPO / "Benchmarks" / "thresholds.json"))
    ap.add_argument("--strict", action="store_true", help="a bench without a comparable result fails too")
    args = ap.parse_args(argv)

    thresholds = json.loads(Path(args.thresholds).read_text())
    benches = {k: v for k, v in thresholds.items() if not k.startswith("_")}
    unknown = set(args.benches) - set(benches)
    if unknown:
        print(f"bench-check: no thresholds for {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    results = load_results(Path(args.results))
    problems: list[str] = []
    unchecked: list[str] = []

    for name, spec in benches.items():
        if args.benches and name not in args.benches:
            continue
        applies_to = spec.get("applies_to", {})
        runs = results.get(name, [])
        print(f"\n{name}" + (f"  (thresholds for {', '.join(f'{k}={v}' for k, v in applies_to.items())})"
                             if applies_to else ""))
        if not runs:
            print("  no result file yet")
            unchecked.append(f"{name}: no result")
            continue
        newest = runs[0]
        chosen = next((run for run in runs if matches(run[2], applies_to)), None)
        if chosen is not newest:
            p = newest[2].get("parameters") or {}
            print(f"  newest result {rel(newest[1])} was taken with "
                  + ", ".join(f"{k}={p.get(k)}" for k in applies_to) + ": not comparable")
        if chosen is None:
            print("  no comparable result: nothing checked")
            unchecked.append(f"{name}: no result with " + ", ".join(f"{k}={v}" for k, v in applies_to.items()))
            continue
        date, path, r = chosen
        commit = (r.get("commit") or "?")[:10] + ("+dirty" if r.get("dirty") else "")
        load = (r.get("load") or {})
        print(f"  {rel(path)}  ({date}, commit {commit}, load {load.get('start') or '?'} → {load.get('end') or '?'})")
        ratios = r.get("ratios") or {}
        width = max((len(k) for k in spec.get("ratios", {})), default=10)
        for key, t in spec.get("ratios", {}).items():
            better = t["better"]
            op_ok = "≤" if better == "lower" else "≥"
            value = ratios.get(key)
            if value is None:
                print(f"  {'MISSING':<26}  {key:<{width}}  (the result has no such ratio)")
                problems.append(f"{name} {key}: missing from {rel(path)}")
                continue
            limit = t["limit"]
            verdict = "ok"
            notes = [f"limit {op_ok} {limit:g}"]
            if "anchor" in t:
                notes.append(f"anchor {t['anchor']:g}")
            if worse(value, limit, better):
                verdict = "REGRESSION"
                problems.append(f"{name} {key}: {value:.3g} past its limit {op_ok} {limit:g} (anchor {t.get('anchor', '?')})")
            target = t.get("target")
            if target is not None:
                notes.append(f"target {op_ok} {target:g}")
                if worse(value, target, better):
                    if verdict == "ok":
                        verdict = "TARGET NOT MET"
                    else:
                        verdict += ", TARGET NOT MET"
                    problems.append(f"{name} {key}: {value:.3g} misses the issue's target {op_ok} {target:g}")
            print(f"  {verdict:<26}  {key:<{width}}  {value:8.3f}   ({'; '.join(notes)}; {better} is better)")

    print()
    for u in unchecked:
        print(f"bench-check: not checked: {u}")
    if problems:
        print(f"bench-check: {len(problems)} problem(s):")
        for p in problems:
            print(f"  - {p}")
        return 1
    if unchecked and args.strict:
        print("bench-check: --strict: benches without a comparable result")
        return 1
    print("bench-check: no regression" + (" (some benches not checked)" if unchecked else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
