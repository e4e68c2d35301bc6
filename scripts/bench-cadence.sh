#!/usr/bin/env bash
# The issue-5 speed figure: a 60-minute accelerometer log at 100 Hz through
# `quintet cadence --json` as a whole process (start, read the CSV, estimate, print), the
# bound being 0.2 s; the original method beside it, and the estimators alone in process.
#
#   make bench-cadence                  # RUNS=10 wall-clock runs per method
#
# Writes Benchmarks/results/cadence-<UTC time>.json (scripts/bench_result.py); the ratios are the
# default's whole-process median over the 0.2 s bound and over the thesis method's median.
set -euo pipefail
cd "$(dirname "$0")/.."
export BENCH_COMMAND=${BENCH_COMMAND:-"RUNS=${RUNS:-10} bash scripts/bench-cadence.sh $*"}
export BENCH_LOAD_START=${BENCH_LOAD_START:-$(cut -d' ' -f1-3 /proc/loadavg)}
runs=${RUNS:-10}
# QUINTET_RELEASE_BIN=path measures that binary and builds nothing.
bin=${QUINTET_RELEASE_BIN:-}
if [ -z "$bin" ]; then
    swift build -c release --product quintet --static-swift-stdlib >/dev/null
    bin=.build/release/quintet
fi
log=$(mktemp -d)/run-60min-100Hz.csv
trap 'rm -rf "$(dirname "$log")"' EXIT

# The estimators in process (5 runs each), and the log written as phones write it.
inproc_default=$($bin bench cadence --minutes 60 --rate 100 --write "$log" --json)
inproc_thesis=$($bin bench cadence --minutes 60 --rate 100 --method thesis --json)
echo "log: $(wc -c <"$log") bytes, $(($(wc -l <"$log") - 1)) samples"

# Whole process, wall clock: best and median of $runs per method; then the result file.
INPROC_DEFAULT=$inproc_default INPROC_THESIS=$inproc_thesis python3 - "$bin" "$log" "$runs" <<'PY'
import json, os, statistics, subprocess, sys, time
sys.path.insert(0, "scripts")
import bench_result
from bench_result import figure

binary, log, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
inproc = {m: json.loads(os.environ[f"INPROC_{m.upper()}"]) for m in ("default", "thesis")}
for m, r in inproc.items():
    print(f"{m} estimator alone, in process: best {r['bestSeconds']:.3f} s, median {r['medianSeconds']:.3f} s; "
          f"reading the log as CSV {r['csvParseSeconds']:.3f} s; {r['steps']} steps")
whole = {}
for method in ("default", "thesis"):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([binary, "cadence", "--json", "--method", method, log], check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    whole[method] = times
    print(f"quintet cadence --json --method {method} (whole process, {runs} runs): "
          f"best {min(times):.3f} s, median {statistics.median(times):.3f} s")

bound = 0.2
median = {m: statistics.median(t) for m, t in whole.items()}
figures = {}
for m in ("default", "thesis"):
    tool = "quintet" if m == "default" else "quintet --method thesis (the original app's method)"
    figures[f"whole_process_{m}_best_s"] = figure(min(whole[m]), "s", tool)
    figures[f"whole_process_{m}_median_s"] = figure(median[m], "s", tool, runs=whole[m])
    figures[f"in_process_{m}_best_s"] = figure(inproc[m]["bestSeconds"], "s", tool)
    figures[f"in_process_{m}_median_s"] = figure(inproc[m]["medianSeconds"], "s", tool)
figures["csv_parse_s"] = figure(inproc["default"]["csvParseSeconds"], "s", "quintet")
figures["bound_s"] = figure(bound, "s", "issue 5 (acceptance bound)")
bench_result.write("cadence", parameters={"minutes": 60, "rate_hz": 100, "runs": runs,
                                           "log_bytes": os.path.getsize(log)},
                   figures=figures, ratios={
                       "default_median_over_bound": median["default"] / bound,
                       "default_best_over_bound": min(whole["default"]) / bound,
                       "default_over_thesis_median": median["default"] / median["thesis"],
                   })
PY
