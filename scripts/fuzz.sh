#!/usr/bin/env bash
# Runs every libFuzzer target in Fuzz/ for FUZZ_SECONDS each (default 60), seeded with
# small files that ffmpeg makes here. A crash stops the run with the reproducer's path
# (libFuzzer writes it as crash-*); exit status 0 means every target ran clean.
#
#   make fuzz                         # every target, 60 s each
#   FUZZ_SECONDS=600 make fuzz        # the 10 minutes per target the docs record
#   scripts/fuzz.sh FuzzWAV           # one target
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
work=.fuzz
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FuzzWAV)

command -v ffmpeg >/dev/null 2>&1 || bash scripts/bootstrap.sh

# Seeds: a few real files per target, made once.
seed() { # target, file name, ffmpeg output options...
    local dir=$work/corpus/$1 name=$2; shift 2
    mkdir -p "$dir"
    [ -s "$dir/$name" ] && return 0
    ffmpeg -nostdin -loglevel error -y -f lavfi -i "sine=frequency=440:duration=0.02" \
        -metadata title="Seed Title" -metadata artist="Seed Artist" -metadata album="Seed Album" \
        -metadata track="3/12" -metadata date=1997 "$@" "$dir/$name"
}
seed FuzzWAV s16.wav -c:a pcm_s16le
seed FuzzWAV u8.wav -c:a pcm_u8
seed FuzzWAV s24.wav -c:a pcm_s24le -ac 2
seed FuzzWAV f32.wav -c:a pcm_f32le
seed FuzzWAV f64.wav -c:a pcm_f64le -ac 3

echo "fuzz: building ${targets[*]} with -sanitize=fuzzer,address"
for target in "${targets[@]}"; do
    (cd Fuzz && swift build -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library --product "$target")
done
mkdir -p "$work/crashes"
for target in "${targets[@]}"; do
    echo "fuzz: $target for ${seconds}s"
    mkdir -p "$work/corpus/$target"
    if ! Fuzz/.build/debug/"$target" "$work/corpus/$target" -max_total_time="$seconds" -max_len=65536 \
        -rss_limit_mb=2048 -timeout=10 -artifact_prefix="$work/crashes/$target-" -print_final_stats=1 \
        >"$work/$target.log" 2>&1; then
        tail -30 "$work/$target.log"
        echo "fuzz: $target FAILED; reproducer in $work/crashes/" >&2
        exit 1
    fi
    grep -E "^(Done|stat::number_of_executed_units)" "$work/$target.log" | tail -1
done
echo "fuzz: all targets ran ${seconds}s each without a crash"
