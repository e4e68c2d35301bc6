#!/usr/bin/env bash
# Times Quintet's real FFT against numpy.fft.rfft on this machine, in the same run:
# 65,536 float32 points, best and median of 200 timed runs each, seeded input.
# Prints a Markdown table (header and one row): date, machine, both figures and the ratio
# swift/numpy; writes the same as Benchmarks/results/fft-<UTC time>.json (scripts/bench_result.py).
#
#   bash scripts/bench-fft.sh               # builds release, then measures
#   QUINTET_BIN=path/to/quintet bash ...    # measures that binary, builds nothing
set -euo pipefail

cd "$(dirname "$0")/.."
export BENCH_COMMAND=${BENCH_COMMAND:-"bash scripts/bench-fft.sh $*"}
export BENCH_LOAD_START=${BENCH_LOAD_START:-$(cut -d' ' -f1-3 /proc/loadavg)}
size=65536
runs=200
numpy_version=2.4.6
venv=e2e/.venv

# 1. The Swift side: a release build unless a binary is given.
if [ -z "${QUINTET_BIN:-}" ]; then
    swift build -c release --product quintet --static-swift-stdlib
    QUINTET_BIN=.build/release/quintet
fi
swift_json=$("$QUINTET_BIN" bench fft --size "$size" --runs "$runs" --json)

# 2. The numpy side, in the e2e venv (made by bootstrap.sh if missing) with numpy pinned.
[ -x "$venv/bin/python" ] || bash scripts/bootstrap.sh
if ! "$venv/bin/python" -c "import numpy, sys; sys.exit(numpy.__version__ != '$numpy_version')" 2>/dev/null; then
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "numpy==$numpy_version"
fi

# 3. Time numpy the way `quintet bench fft` times Swift (10 warm-up calls, the median is
#    the element at runs/2 of the sorted times), then print the table and write the result.
SWIFT_JSON=$swift_json "$venv/bin/python" - "$size" "$runs" "$(uname -m)" <<'PY'
import datetime, json, os, sys, time
import numpy as np
sys.path.insert(0, "scripts")
import bench_result
from bench_result import figure

size, runs, machine = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
signal = np.random.default_rng(42).uniform(-1.0, 1.0, size).astype(np.float32)
for _ in range(10):
    np.fft.rfft(signal)
times = []
for _ in range(runs):
    start = time.perf_counter_ns()
    np.fft.rfft(signal)
    times.append(time.perf_counter_ns() - start)
times.sort()
numpy_best, numpy_median = times[0] / 1e3, times[runs // 2] / 1e3

swift = json.loads(os.environ["SWIFT_JSON"])
swift_best, swift_median = swift["bestMicroseconds"], swift["medianMicroseconds"]

print(f"| date | machine | points | Swift best µs | Swift median µs | numpy {np.__version__} best µs "
      "| numpy median µs | swift/numpy best | swift/numpy median |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
print(f"| {datetime.date.today().isoformat()} | {machine} | {size} "
      f"| {swift_best:.1f} | {swift_median:.1f} | {numpy_best:.1f} | {numpy_median:.1f} "
      f"| {swift_best / numpy_best:.2f} | {swift_median / numpy_median:.2f} |")

numpy_tool = f"numpy {np.__version__}"
bench_result.write("fft", parameters={"points": size, "runs": runs}, figures={
    "quintet_best_us": figure(swift_best, "µs", "quintet"),
    "quintet_median_us": figure(swift_median, "µs", "quintet"),
    "numpy_best_us": figure(numpy_best, "µs", numpy_tool),
    "numpy_median_us": figure(numpy_median, "µs", numpy_tool),
}, ratios={
    "swift_over_numpy_best": swift_best / numpy_best,
    "swift_over_numpy_median": swift_median / numpy_median,
})
PY
