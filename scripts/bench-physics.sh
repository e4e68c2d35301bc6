#!/usr/bin/env bash
# Issue 8's speed figure: Physics2D next to Box2D 2.4.1, Box2D 3.1.1 and Chipmunk (pymunk)
# on the four scenes of ../shared/physics-bench, in one interleaved run_all.py run, then the
# ratios of thread CPU ms/step (ours / theirs), also written as
# Benchmarks/results/physics-<UTC time>.json (scripts/bench_result.py).
#
#   make bench-physics                      # REPEAT=3 (median of 3 interleaved repeats)
#   PHYSICS_BENCH=/path/to/physics-bench make bench-physics
#
# The harness is run, not copied into the project: it is copied to a temporary folder
# (its build/ and results/ stay out of ../shared) and set up there with its own setup.sh
# (Debian's libbox2d-dev, nlohmann-json, g++, pymunk from PyPI; Box2D 3.1.1 from the pyb2d3
# wheel). A build folder from an earlier run is reused when BENCH_WORK is set.
set -euo pipefail
cd "$(dirname "$0")/.."
export BENCH_COMMAND=${BENCH_COMMAND:-"REPEAT=${REPEAT:-3} bash scripts/bench-physics.sh $*"}
export BENCH_LOAD_START=${BENCH_LOAD_START:-$(cut -d' ' -f1-3 /proc/loadavg)}
repeat=${REPEAT:-3}
src=${PHYSICS_BENCH:-../shared/physics-bench}
[ -f "$src/run_all.py" ] || { echo "physics-bench not found at $src (set PHYSICS_BENCH)" >&2; exit 2; }
work=${BENCH_WORK:-$(mktemp -d)/physics-bench}
if [ ! -x "$work/build/box2d_bench" ] || [ ! -x "$work/build/box2d3_bench" ]; then
    mkdir -p "$work"
    cp -r "$src"/. "$work"/
    (cd "$work" && ./setup.sh --with-v3)
fi
# QUINTET_RELEASE_BIN=path (absolute) measures that binary and builds nothing.
bin=${QUINTET_RELEASE_BIN:-}
if [ -z "$bin" ]; then
    swift build -c release --product quintet --static-swift-stdlib >/dev/null
    bin=$PWD/.build/release/quintet
fi
out=$work/results
python3 "$work/run_all.py" --repeat "$repeat" --out "$out" \
    --engine swift="$bin physics run {scene} --json"
cat "$out/summary.md"
python3 - "$out/results.jsonl" "$repeat" <<'PY'
import collections, json, statistics, sys
sys.path.insert(0, "scripts")
import bench_result
from bench_result import figure
cpu = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r = json.loads(line)
    res = r.get("result") or {}
    v = res.get("cpu_ms_per_step_mean")
    if v is not None:
        cpu[(res.get("scene"), r["engine_key"])].append(v)
med = {k: statistics.median(v) for k, v in cpu.items()}
scenes = sorted({s for s, _ in med}, key=["pyramid20", "pyramid40", "many_circles", "car_crossing"].index)
print("\n| scene | Swift CPU ms/step | Box2D 2.4.1 | ratio | Box2D 3.1.1 | ratio | pymunk | ratio |")
print("|---|---|---|---|---|---|---|---|")
for s in scenes:
    sw = med.get((s, "swift"))
    row = [s, f"{sw:.3f}"]
    for e in ("box2d", "box2d3", "pymunk"):
        o = med.get((s, e))
        row += [f"{o:.3f}", f"{sw / o:.2f}"] if o else ["–", "–"]
    print("| " + " | ".join(row) + " |")

tools = {"swift": "quintet Physics2D", "box2d": "Box2D 2.4.1", "box2d3": "Box2D 3.1.1", "pymunk": "pymunk (Chipmunk)"}
figures, ratios = {}, {}
for (s, e), v in sorted(med.items()):
    figures[f"{s}_{e}_cpu_ms_per_step"] = figure(v, "ms/step (thread CPU, median of repeats)", tools.get(e, e),
                                                 repeats=cpu[(s, e)])
for s in scenes:
    sw = med.get((s, "swift"))
    for e in ("box2d", "box2d3", "pymunk"):
        o = med.get((s, e))
        if sw is not None and o:
            ratios[f"{s}_swift_over_{e}"] = sw / o
bench_result.write("physics", parameters={"repeat": int(sys.argv[2]), "scenes": scenes},
                   figures=figures, ratios=ratios)
PY
