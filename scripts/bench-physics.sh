#!/usr/bin/env bash
# Issue 8's speed figure: Physics2D next to Box2D 2.4.1, Box2D 3.1.1 and Chipmunk (pymunk)
# on the four scenes of ../shared/physics-bench, and issue 25's two large scenes (pyramid100,
# pile5000; written by scripts/physics_scenes.py), in one interleaved run_all.py run; then the
# ratios of thread CPU ms/step (ours / theirs), also written as
# Benchmarks/results/physics-<UTC time>.json (scripts/bench_result.py).
#
# Issue 25's wall-time figure: the same run also runs Box2D 3.1.1 on 2 worker threads
# (engine key box2d3_2w: Benchmarks/physics/box2d3_workers.cpp, our own runner with a small
# thread pool, built here against the harness's Box2D 3.1.1) and Physics2D's soft step with 2
# threads (engine key swift_soft_2w: --workers 2), and prints their wall ms/step side by side.
#
#   make bench-physics                      # REPEAT=3 (median of 3 interleaved repeats)
#   PHYSICS_BENCH=/path/to/physics-bench make bench-physics
#   LARGE_SCENES=0 make bench-physics       # the four harness scenes only
#   WORKERS=0 make bench-physics            # without the 2-worker runs (Box2D 3.1.1 and Physics2D)
#   SOFT=0 make bench-physics               # without the soft-step solver (quintet physics run --solver soft-step)
#   CHAIN=0 make bench-physics              # without Box2D 3.1.1's 50-link chain and 20-box column (box2d3_chain.cpp, box2d3_column.cpp)
#   STEPS=30 BENCH_NO_RESULT=1 ...          # trying the script: every scene cut to 30 steps
#
# The harness is run, not copied into the project: it is copied to a temporary folder
# (its build/ and results/ stay out of ../shared) and set up there with its own setup.sh
# (Debian's libbox2d-dev, nlohmann-json, g++, pymunk from PyPI; Box2D 3.1.1 from the pyb2d3
# wheel). A build folder from an earlier run is reused when BENCH_WORK is set. The two large
# scenes are generated into $BENCH_WORK/scenes-large, and box2d3_workers is built into
# $BENCH_WORK/build (it includes the copy's bench_common.hpp and links its build/box2d3).
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
scenes=(pyramid20 pyramid40 many_circles car_crossing)
if [ "${LARGE_SCENES:-1}" != 0 ]; then
    python3 scripts/physics_scenes.py "$work/scenes-large" >/dev/null
    scenes+=("$work/scenes-large/pyramid100.json" "$work/scenes-large/pile5000.json")
fi
engines=(--engine swift="$bin physics run {scene} --json --solver legacy")
# Issue 25's soft-step solver (the CLI's default), beside the legacy one (SOFT=0: off).
if [ "${SOFT:-1}" != 0 ]; then
    engines+=(--engine swift_soft="$bin physics run {scene} --json --solver soft-step")
    # ... and on 2 threads (the world's worker pool), for the wall-time figure beside Box2D v3's.
    if [ "${WORKERS:-1}" != 0 ]; then
        engines+=(--engine swift_soft_2w="$bin physics run {scene} --json --solver soft-step --workers 2")
    fi
fi
if [ "${WORKERS:-1}" != 0 ]; then
    v3=$work/build/box2d3
    [ -f "$v3/lib64/libbox2d.a" ] || (cd "$work" && ./build_v3.sh)
    w=$work/build/box2d3_workers
    if [ ! -x "$w" ] || [ Benchmarks/physics/box2d3_workers.cpp -nt "$w" ]; then
        g++ -O2 -std=c++17 -Wall -Wextra -I"$v3/include" -I"$work" -o "$w" \
            Benchmarks/physics/box2d3_workers.cpp "$v3/lib64/libbox2d.a" -lpthread -lm
    fi
    engines+=(--engine box2d3_2w="$w {scene} --workers 2 --json")
fi
out=$work/results
python3 "$work/run_all.py" --repeat "$repeat" --out "$out" ${STEPS:+--steps "$STEPS"} --scenes "${scenes[@]}" "${engines[@]}"
cat "$out/summary.md"
# Issue 25's chain: 50 links on revolute joints holding a 100 kg box, in Box2D 3.1.1
# (Benchmarks/physics/box2d3_chain.cpp); SoftStepTests holds Physics2D's soft step to its figures.
rm -f "$out/chain.json" "$out/column.jsonl"
if [ "${CHAIN:-1}" != 0 ]; then
    v3=$work/build/box2d3
    [ -f "$v3/lib64/libbox2d.a" ] || (cd "$work" && ./build_v3.sh)
    c=$work/build/box2d3_chain
    if [ ! -x "$c" ] || [ Benchmarks/physics/box2d3_chain.cpp -nt "$c" ]; then
        g++ -O2 -std=c++17 -Wall -Wextra -I"$v3/include" -o "$c" \
            Benchmarks/physics/box2d3_chain.cpp "$v3/lib64/libbox2d.a" -lpthread -lm
    fi
    "$c" | tee "$out/chain.json"
    # ... and its 20-box column with densities alternating 1:RATIO (Benchmarks/physics/box2d3_column.cpp).
    k=$work/build/box2d3_column
    if [ ! -x "$k" ] || [ Benchmarks/physics/box2d3_column.cpp -nt "$k" ]; then
        g++ -O2 -std=c++17 -Wall -Wextra -I"$v3/include" -o "$k" \
            Benchmarks/physics/box2d3_column.cpp "$v3/lib64/libbox2d.a" -lpthread -lm
    fi
    for ratio in 1 10 100; do "$k" "$ratio"; done | tee "$out/column.jsonl"
fi
python3 - "$out/results.jsonl" "$repeat" <<'PY'
import collections, json, statistics, sys
sys.path.insert(0, "scripts")
import bench_result
from bench_result import figure
ORDER = ["pyramid20", "pyramid40", "many_circles", "car_crossing", "pyramid100", "pile5000"]
WORKERS = "box2d3_2w"   # Box2D 3.1.1 on 2 worker threads (Benchmarks/physics/box2d3_workers.cpp)
SOFT2 = "swift_soft_2w"  # Physics2D's soft step on 2 threads (quintet physics run --workers 2)
cpu = collections.defaultdict(list)
wall = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r = json.loads(line)
    res = r.get("result") or {}
    key = (res.get("scene"), r["engine_key"])
    v = res.get("cpu_ms_per_step_mean")
    if v is not None and r["engine_key"] not in (WORKERS, SOFT2):   # CPU of the calling thread only: wall counts
        cpu[key].append(v)
    v = (res.get("ms_per_step") or {}).get("mean")
    if v is not None:
        wall[key].append(v)
med = {k: statistics.median(v) for k, v in cpu.items()}
wmed = {k: statistics.median(v) for k, v in wall.items()}
scenes = sorted({s for s, _ in wmed}, key=lambda s: ORDER.index(s) if s in ORDER else len(ORDER))
print("\n| scene | Swift CPU ms/step | Box2D 2.4.1 | ratio | Box2D 3.1.1 | ratio | pymunk | ratio |")
print("|---|---|---|---|---|---|---|---|")
for s in scenes:
    sw = med.get((s, "swift"))
    row = [s, f"{sw:.3f}"]
    for e in ("box2d", "box2d3", "pymunk"):
        o = med.get((s, e))
        row += [f"{o:.3f}", f"{sw / o:.2f}"] if o else ["–", "–"]
    print("| " + " | ".join(row) + " |")

if any(e == "swift_soft" for _, e in med):
    print("\n**Soft step** (`--solver soft-step`, 4 sub-steps; issue 25): thread CPU ms/step and ratios.\n")
    print("| scene | soft step | ÷ legacy | ÷ Box2D 2.4.1 | ÷ Box2D 3.1.1 |")
    print("|---|---|---|---|---|")
    for s in scenes:
        so = med.get((s, "swift_soft"))
        if so is None:
            continue
        row = [s, f"{so:.3f}"]
        for e in ("swift", "box2d", "box2d3"):
            o = med.get((s, e))
            row.append(f"{so / o:.2f}" if o else "–")
        print("| " + " | ".join(row) + " |")

tools = {"swift": "quintet Physics2D", "swift_soft": "quintet Physics2D, soft step", SOFT2: "quintet Physics2D, soft step, 2 threads", "box2d": "Box2D 2.4.1", "box2d3": "Box2D 3.1.1", "pymunk": "pymunk (Chipmunk)"}
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
    so = med.get((s, "swift_soft"))
    for e in ("swift", "box2d", "box2d3"):
        o = med.get((s, e))
        if so is not None and o:
            ratios[f"{s}_swift_soft_over_{e}"] = so / o

# Issue 25: wall ms/step with 2 workers: Box2D 3.1.1 on 2 workers beside Physics2D's soft step on
# 2 threads (swift_soft_2w), its soft step and legacy solver on 1, and Box2D 3.1.1 on 1 worker.
if any(e == WORKERS for _, e in wmed):
    print("\n**Wall ms/step with 2 workers** (mean over the measured steps, median of repeats).\n")
    print("| scene | Physics2D soft step, 2 threads | Box2D 3.1.1, 2 workers | ratio | Physics2D soft step, 1 thread | Physics2D legacy (1 thread) | Box2D 3.1.1, 1 worker |")
    print("|---|---|---|---|---|---|---|")
    labels = {"swift": "quintet Physics2D legacy (1 thread)", "swift_soft": "quintet Physics2D soft step (1 thread)",
              SOFT2: "quintet Physics2D soft step, 2 threads", WORKERS: "Box2D 3.1.1, 2 workers",
              "box2d3": "Box2D 3.1.1, 1 worker"}
    f = lambda v: f"{v:.3f}" if v is not None else "–"
    for s in scenes:
        s2, w2 = wmed.get((s, SOFT2)), wmed.get((s, WORKERS))
        print(f"| {s} | {f(s2)} | {f(w2)} | {f(s2 / w2) if s2 is not None and w2 else '–'} | "
              f"{f(wmed.get((s, 'swift_soft')))} | {f(wmed.get((s, 'swift')))} | {f(wmed.get((s, 'box2d3')))} |")
        for e, label in labels.items():
            v = wmed.get((s, e))
            if v is not None:
                figures[f"{s}_{e}_wall_ms_per_step"] = figure(v, "ms/step (wall, median of repeats)", label,
                                                              repeats=wall[(s, e)])
        sw = wmed.get((s, "swift"))
        if sw is not None and w2:
            ratios[f"{s}_swift_wall_over_box2d3_2workers"] = sw / w2
        if s2 is not None and w2:
            ratios[f"{s}_swift_soft_2w_wall_over_box2d3_2workers"] = s2 / w2
import os
params = {"repeat": int(sys.argv[2]), "scenes": scenes}
if any(e == WORKERS for _, e in wmed):
    params["box2d3_workers"] = 2
if os.environ.get("STEPS"):
    params["steps_override"] = int(os.environ["STEPS"])
chain = os.path.join(os.path.dirname(sys.argv[1]), "chain.json")
if os.path.exists(chain):
    c = json.load(open(chain))
    for key in ("max_gap_m", "max_joint_gap_m", "end_box_drop_m"):
        figures[f"chain50_box2d3_{key}"] = figure(c[key], "m", "Box2D 3.1.1 (Benchmarks/physics/box2d3_chain.cpp)")
column = os.path.join(os.path.dirname(sys.argv[1]), "column.jsonl")
if os.path.exists(column):
    for line in open(column):
        c = json.loads(line)
        for key in ("max_dx_m", "top_drop_m"):
            figures[f"column20_ratio{int(c['ratio'])}_box2d3_{key}"] = figure(
                c[key], "m", "Box2D 3.1.1 (Benchmarks/physics/box2d3_column.cpp)")
bench_result.write("physics", parameters=params,
                   figures=figures, ratios=ratios)
PY
