#!/usr/bin/env bash
# The issue-5 speed figure: a 60-minute accelerometer log at 100 Hz through
# `quintet cadence --json` as a whole process (start, read the CSV, estimate, print), the
# bound being 0.2 s; the original method beside it, and the estimators alone in process.
#
#   make bench-cadence                  # RUNS=10 wall-clock runs per method
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-10}
swift build -c release --product quintet --static-swift-stdlib >/dev/null
bin=.build/release/quintet
log=$(mktemp -d)/run-60min-100Hz.csv
trap 'rm -rf "$(dirname "$log")"' EXIT

# The estimators in process (5 runs each), and the log written as phones write it.
$bin bench cadence --minutes 60 --rate 100 --write "$log"
$bin bench cadence --minutes 60 --rate 100 --method thesis
echo "log: $(wc -c <"$log") bytes, $(($(wc -l <"$log") - 1)) samples"

# Whole process, wall clock: best and median of $runs.
for method in default thesis; do
    python3 - "$bin" "$log" "$method" "$runs" <<'PY'
import statistics, subprocess, sys, time
binary, log, method, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
times = []
for _ in range(runs):
    start = time.perf_counter()
    subprocess.run([binary, "cadence", "--json", "--method", method, log], check=True, stdout=subprocess.DEVNULL)
    times.append(time.perf_counter() - start)
print(f"quintet cadence --json --method {method} (whole process, {runs} runs): best {min(times):.3f} s, median {statistics.median(times):.3f} s")
PY
done
