#!/usr/bin/env bash
# Issue 21's cadence figures: the estimator on generator C's tuned and unseen parts
# (Tests/CadenceTests/CadenceSetC.swift; the split rule is in docs/runner.md), coverage / median /
# p95 / false cadence when still, overall and by placement × walking/running, each part apart;
# and the estimator's CPU and the same accuracy at BASE (default de835ea, main before issue 21: the "before"), CPU on
# `quintet bench cadence`'s 60-minute log (scripts/bench-cadence-cpu.sh).
#
#   make bench-cadence-accuracy                 # BASE=de835ea
#   make bench-cadence-accuracy BASE=<rev>
#
# Writes Benchmarks/results/cadence-accuracy-<UTC time>.json (scripts/bench_result.py). The
# accuracy comes from `swift test --filter CadenceSetCTests` (debug build: the figures do not
# depend on the build), whose tests hold the issue's targets; a failing test is reported, and the
# figures are written all the same.
set -euo pipefail
cd "$(dirname "$0")/.."
base=${BASE:-de835ea}
export BENCH_COMMAND=${BENCH_COMMAND:-"make bench-cadence-accuracy BASE=$base"}
export BENCH_LOAD_START=${BENCH_LOAD_START:-$(cut -d' ' -f1-3 /proc/loadavg)}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
status=0
CADENCE_ACCURACY_OUT=$out swift test --filter CadenceSetCTests >"$out/test.log" 2>&1 || status=$?
sed -n '/^generator C, /,/^  transition/p' "$out/test.log"
grep -E "^(✔|✘|━) (Test|Suite)" "$out/test.log" | grep -i "generator C\|issue's targets" || true
[ $status = 0 ] || echo "swift test --filter CadenceSetCTests: exit status $status (see the figures; a target not met)"
cpu=$(bash scripts/bench-cadence-cpu.sh --json "$base" HEAD)
echo "$cpu" | python3 -c "
import json, sys
r = json.load(sys.stdin)
for k in ('base', 'new'):
    print(f'CPU, 60-minute 100 Hz log, {k} ({r[k + \"_rev\"]}): best {r[k][\"best_s\"]:.4f} s, median {r[k][\"median_s\"]:.4f} s')
    for part in ('tuned', 'unseen'):
        a = r[k]['accuracy'][part]['all']
        print(f'  {part}: coverage {a[\"coverage\"]}, median {a[\"median_spm\"]} spm, p95 {a[\"p95_spm\"]} spm, still with cadence {a[\"still_with_cadence\"]}')
"
TEST_STATUS=$status CPU="$cpu" python3 - "$out" "$base" <<'PY'
import json, os, sys
sys.path.insert(0, "scripts")
import bench_result
from bench_result import figure
out, base = sys.argv[1], sys.argv[2]
parts = {p: json.load(open(os.path.join(out, f"cadence-accuracy-{p}.json"))) for p in ("tuned", "unseen")}
cpu = json.loads(os.environ["CPU"])
figures = {}
for p, r in parts.items():
    a = r["all"]
    figures[f"{p}_coverage"] = figure(a["coverage"], "share", "quintet")
    figures[f"{p}_median_spm"] = figure(a["median_spm"], "spm", "quintet")
    figures[f"{p}_p95_spm"] = figure(a["p95_spm"], "spm", "quintet")
    figures[f"{p}_still_with_cadence"] = figure(a["still_with_cadence"], "share", "quintet")
    sw = r["groups"].get("swing/running", {})
    figures[f"{p}_swing_running_p95_spm"] = figure(sw.get("p95_spm"), "spm", "quintet")
    b = cpu["base"]["accuracy"][p]["all"]
    for name, key, unit in (("coverage", "coverage", "share"), ("median_spm", "median_spm", "spm"),
                            ("p95_spm", "p95_spm", "spm"), ("still_with_cadence", "still_with_cadence", "share")):
        figures[f"{p}_{name}_base"] = figure(b[key], unit, f"quintet ({base})")
figures["cpu_new_best_s"] = figure(cpu["new"]["best_s"], "s", "quintet (HEAD)")
figures["cpu_new_median_s"] = figure(cpu["new"]["median_s"], "s", "quintet (HEAD)")
figures["cpu_base_best_s"] = figure(cpu["base"]["best_s"], "s", f"quintet ({base})")
figures["cpu_base_median_s"] = figure(cpu["base"]["median_s"], "s", f"quintet ({base})")
bench_result.write("cadence-accuracy",
                   parameters={"set": "generator C (Tests/CadenceTests/CadenceSetC.swift)", "base": base,
                               "base_rev": cpu["base_rev"], "traces_per_part": parts["tuned"]["traces"]},
                   figures=figures,
                   ratios={"unseen_p95_over_target": (parts["unseen"]["all"]["p95_spm"] or 0) / 3.0,
                           "cpu_best_over_base": cpu["new"]["best_s"] / cpu["base"]["best_s"],
                           "cpu_median_over_base": cpu["new"]["median_s"] / cpu["base"]["median_s"]},
                   details={"parts": parts, "base_parts": {p: cpu["base"]["accuracy"][p] for p in ("tuned", "unseen")},
                            "test_status": int(os.environ["TEST_STATUS"])})
PY
