#!/usr/bin/env bash
# The cadence estimator's CPU at two revisions, side by side (issue 21: "at most 2× today's").
# Each revision's Sources/{Locking,AudioCore,Cadence} (git archive) is compiled in release in a
# scratch package with a small timing program: `quintet bench cadence`'s synthetic 60-minute
# 100 Hz run (Sources/quintet/Bench+Cadence.swift, copied), RUNS timed analyses (default 7);
# best and median seconds. Only the three modules are built (≈ 1 minute each), not quintet.
# The same program scores generator C's two parts (Tests/CadenceTests' CadenceScore,
# GaitGenerator, GaitGeneratorC and CadenceSetC, taken from NEW for both revisions), so the JSON
# also holds each revision's accuracy ("accuracy": {"tuned", "unseen"}) — the "before" figures.
#
#   bash scripts/bench-cadence-cpu.sh [BASE [NEW]]     # default: main and HEAD
#   bash scripts/bench-cadence-cpu.sh --json main HEAD  # {"base": {...}, "new": {...}}
set -euo pipefail
cd "$(dirname "$0")/.."
json=0
if [ "${1:-}" = "--json" ]; then json=1; shift; fi
base=${1:-main} new=${2:-HEAD} runs=${RUNS:-7}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build() { # revision, directory
    mkdir -p "$2/Sources/timing"
    git archive "$1" Sources/Locking Sources/AudioCore Sources/Cadence | tar -x -C "$2"
    for f in CadenceScore GaitGenerator GaitGeneratorC CadenceSetC; do
        git show "$new:Tests/CadenceTests/$f.swift" >"$2/Sources/timing/$f.swift"
    done
    cat >"$2/Package.swift" <<'SWIFT'
// swift-tools-version:6.2
import PackageDescription
let s: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]
let package = Package(name: "cadencecpu", platforms: [.macOS(.v15)], targets: [
    .target(name: "Locking", swiftSettings: s),
    .target(name: "AudioCore", dependencies: ["Locking"], swiftSettings: s),
    .target(name: "Cadence", dependencies: ["AudioCore"], swiftSettings: s),
    .executableTarget(name: "timing", dependencies: ["Cadence", "AudioCore"], swiftSettings: s),
])
SWIFT
    cat >"$2/Sources/timing/main.swift" <<'SWIFT'
import AudioCore
import Cadence
import Foundation
// quintet bench cadence's synthetic run: 165–175 spm, 60 minutes at 100 Hz.
var rng = SplitMix64(seed: 5)
var samples = [AccelerationSample]()
var t = 0.0, phase = 0.0
while t < 3600 {
    let spm = 170 + 5 * sin(2 * Double.pi * t / 300)
    let step = phase - phase.rounded(.down)
    let vertical = 0.8 * cos(2 * Double.pi * step) + 1.5 * exp(-pow((step - 0.05) / 0.04, 2))
    let noise = { 0.02 * (rng.nextUnit() * 2 - 1) }
    samples.append(AccelerationSample(t: t, x: 0.6 * (1 + vertical) + noise(), y: 0.8 * (1 + vertical) + noise(), z: noise()))
    let dt = (1 + 0.2 * (rng.nextUnit() * 2 - 1)) / 100
    t += dt
    phase += dt * spm / 60
}
let runs = Int(CommandLine.arguments[1]) ?? 7
var times = [Double](), steps = 0
for _ in 0..<runs {
    let start = Date()
    steps = CadenceEstimator().analyze(samples).totalSteps
    times.append(Date().timeIntervalSince(start))
}
times.sort()
var accuracy = [String: Any]()
for part in CadenceSetC.Part.allCases { accuracy[part.rawValue] = GroupedCadenceScore.score(CadenceEstimator(), part: part).json }
let result: [String: Any] = ["best_s": times[0], "median_s": times[runs / 2], "runs": runs, "steps": steps, "accuracy": accuracy]
print(String(data: try! JSONSerialization.data(withJSONObject: result, options: [.sortedKeys]), encoding: .utf8)!)
SWIFT
    swift build -c release --package-path "$2" >/dev/null
}
build "$base" "$work/base"
build "$new" "$work/new"
b=$("$work/base/.build/release/timing" "$runs")
n=$("$work/new/.build/release/timing" "$runs")
if [ $json = 1 ]; then
    echo "{\"base\": $b, \"new\": $n, \"base_rev\": \"$(git rev-parse --short "$base")\", \"new_rev\": \"$(git rev-parse --short "$new")\"}"
else
    for pair in "$base:$b" "$new:$n"; do
        rev=${pair%%:*} result=${pair#*:}
        echo "$result" | python3 -c "
import json, sys
r = json.load(sys.stdin)
print(f'$rev ($(git rev-parse --short "$rev")): CPU best {r[\"best_s\"]:.4f} s, median {r[\"median_s\"]:.4f} s over {r[\"runs\"]} runs')
for part in ('tuned', 'unseen'):
    a = r['accuracy'][part]['all']
    print(f'  {part}: coverage {a[\"coverage\"]:.3f}, median {a[\"median_spm\"]} spm, p95 {a[\"p95_spm\"]} spm, still with cadence {a[\"still_with_cadence\"]}')
"
    done
fi
