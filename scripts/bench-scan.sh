#!/usr/bin/env bash
# Library scan speed next to mutagen and tinytag, on the shared yardstick library.
#
#   bash scripts/bench-scan.sh [--files 20000] [--runs 3] [--work /tmp/quintet-libbench] [--json FILE]
#
# Uses the yardstick in ../shared/library-bench (override with LIBRARY_BENCH=DIR); nothing of
# it is copied here. Steps:
#   1. make_big.sh N --out WORK/big (kept and reused while its expected.json says N files);
#   2. warms the page cache (reads every file once);
#   3. builds quintet in release (skip with QUINTET_RELEASE_BIN=path/to/quintet);
#   4. RUNS rounds, each interleaving: mutagen and tinytag (the yardstick's timed unit,
#      `anchor_scan.py scan TOOL ROOT`, one process, after one untimed `anchor_scan.sh` call
#      that sets up its venv), then `quintet scan ROOT --data FRESH --json` into an empty
#      catalog, then an unchanged rescan into the same data folder; each timed as a whole
#      process (wall clock; /usr/bin/time -v for the maximum RSS);
#   5. checks quintet's catalog (DATA/quintet.sqlite) against expected.json: every title,
#      artist, track number and cover flag;
#   6. prints files/s (median of the runs), the ratios, rescan seconds, max RSS and the load
#      average; with --json writes the same as JSON; when the catalog check passed, writes
#      Benchmarks/results/scan-<UTC time>.json (scripts/bench_result.py).
set -euo pipefail

cd "$(dirname "$0")/.."
export BENCH_COMMAND=${BENCH_COMMAND:-"bash scripts/bench-scan.sh $*"}
export BENCH_LOAD_START=${BENCH_LOAD_START:-$(cut -d' ' -f1-3 /proc/loadavg)}
repo=$PWD
files=20000
runs=3
work=/tmp/quintet-libbench
json_out=""
while [ $# -gt 0 ]; do
    case "$1" in
        --files) files=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --work) work=$2; shift 2 ;;
        --json) json_out=$2; shift 2 ;;
        -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
        *) echo "bench-scan: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
case "$files$runs" in *[!0-9]*) echo "bench-scan: --files and --runs take whole numbers" >&2; exit 2 ;; esac
[ "$runs" -ge 1 ] || { echo "bench-scan: --runs must be at least 1" >&2; exit 2; }

bench_dir=${LIBRARY_BENCH:-$repo/../shared/library-bench}
if [ ! -x "$bench_dir/anchor_scan.sh" ] || [ ! -x "$bench_dir/make_big.sh" ]; then
    echo "bench-scan: the yardstick is not at $bench_dir (set LIBRARY_BENCH=DIR)" >&2
    exit 2
fi
bench_dir=$(cd "$bench_dir" && pwd)
[ -x /usr/bin/time ] || { echo "bench-scan: /usr/bin/time is missing (apt-get install time)" >&2; exit 2; }
load_at_start=$(cut -d' ' -f1-3 /proc/loadavg)

mkdir -p "$work"
work=$(cd "$work" && pwd)
big=$work/big
music=$big/music
expected=$big/expected.json

# 1. The library, generated once per file count.
have=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("n", -1))' "$expected" 2>/dev/null || echo -1)
if [ "$have" != "$files" ]; then
    echo "bench-scan: generating $files files into $big (make_big.sh)"
    rm -rf "$big"
    bash "$bench_dir/make_big.sh" "$files" --out "$big"
else
    echo "bench-scan: reusing $big ($files files)"
fi

# The yardstick's venv (mutagen + tinytag pinned): anchor_scan.sh sets it up, and this
# untimed call also checks that its interface works on this library.
echo "bench-scan: anchor_scan.sh scan (untimed, sets up the yardstick's venv)"
bash "$bench_dir/anchor_scan.sh" scan tinytag "$music" >/dev/null
anchor_py=$bench_dir/.venv/bin/python

# 2. A warm page cache.
echo "bench-scan: warming the page cache"
find "$music" -type f -print0 | xargs -0 cat >/dev/null

# 3. Quintet in release.
if [ -n "${QUINTET_RELEASE_BIN:-}" ]; then
    quintet=$QUINTET_RELEASE_BIN
else
    echo "bench-scan: swift build -c release --product quintet --static-swift-stdlib"
    swift build -c release --product quintet --static-swift-stdlib
    quintet=$repo/.build/release/quintet
fi
[ -x "$quintet" ] || { echo "bench-scan: no quintet binary at $quintet" >&2; exit 2; }

# 4. Interleaved rounds. `timed NAME CMD...` runs CMD once under /usr/bin/time -v and appends
# "NAME round seconds max_rss_kb" to the results file; CMD's stdout goes to WORK/NAME.out.
results=$work/results.txt
: >"$results"
load_before_runs=$(cut -d' ' -f1-3 /proc/loadavg)
timed() {
    local name=$1 round=$2
    shift 2
    local start end rss
    start=$(date +%s.%N)
    /usr/bin/time -v -o "$work/$name.time" "$@" >"$work/$name.out" 2>"$work/$name.err" || {
        echo "bench-scan: $name failed:" >&2
        tail -20 "$work/$name.err" >&2
        exit 1
    }
    end=$(date +%s.%N)
    rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/$name.time")
    echo "$name $round $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }') $rss" >>"$results"
}
for round in $(seq 1 "$runs"); do
    echo "bench-scan: round $round/$runs (load $(cut -d' ' -f1 /proc/loadavg))"
    timed mutagen "$round" "$anchor_py" "$bench_dir/anchor_scan.py" scan mutagen "$music"
    timed tinytag "$round" "$anchor_py" "$bench_dir/anchor_scan.py" scan tinytag "$music"
    data=$work/data-$round
    rm -rf "$data"
    mkdir -p "$data"
    timed quintet "$round" "$quintet" scan "$music" --data "$data" --json
    cp "$work/quintet.out" "$work/quintet-scan-$round.json"
    timed rescan "$round" "$quintet" scan "$music" --data "$data" --json
    cp "$work/rescan.out" "$work/quintet-rescan-$round.json"
done

# 5 and 6. Check the last round's catalog, then the table (and JSON).
ANCHOR_PY=$anchor_py python3 - "$work" "$runs" "$files" "$expected" "$json_out" "$load_at_start" "$load_before_runs" "$quintet" <<'EOF'
import json, os, sqlite3, statistics, sys

work, runs, files, expected_path, json_out, load_start, load_runs, quintet = sys.argv[1:9]
runs, files = int(runs), int(files)
rows = [line.split() for line in open(os.path.join(work, "results.txt"))]
by = {}
for name, _round, seconds, rss in rows:
    by.setdefault(name, []).append((float(seconds), int(rss)))

def counted(name, round_):
    if name in ("quintet", "rescan"):
        report = json.load(open(os.path.join(work, f"quintet-{'scan' if name == 'quintet' else 'rescan'}-{round_}.json")))
        return report["files"], len(report["errors"])
    return int(open(os.path.join(work, f"{name}.out")).read().split()[-1]), 0

n_quintet, quintet_errors = counted("quintet", runs)
n_mutagen, _ = counted("mutagen", runs)
n_tinytag, _ = counted("tinytag", runs)

# The catalog against expected.json: title, artist (as the file writes it), track, cover flag.
expected = json.load(open(expected_path))["files"]
db = sqlite3.connect(f"file:{os.path.join(work, f'data-{runs}', 'quintet.sqlite')}?mode=ro", uri=True)
songs = {path: (title, artist, track, bool(pic)) for path, title, artist, track, pic in
         db.execute("SELECT path, title, artist, track, has_picture FROM library_song")}
album_count = db.execute("SELECT COUNT(*) FROM library_album").fetchone()[0]
mismatches = []
for path, want in expected.items():
    got = songs.get(path)
    wanted = (want["title"], "; ".join(want["artist"]), want["track"], want["has_cover"])
    if got != wanted:
        mismatches.append((path, got, wanted))
extra = sorted(set(songs) - set(expected))

def median_seconds(name):
    return statistics.median(s for s, _ in by[name])

def rate(name, n):
    return n / median_seconds(name)

report = {
    "files": files,
    "runs": runs,
    "load_average_at_start": load_start,
    "load_average_before_runs": load_runs,
    "quintet": quintet,
    "mutagen": {"files": n_mutagen, "seconds": [s for s, _ in by["mutagen"]], "files_per_s": rate("mutagen", n_mutagen),
                "max_rss_kb": max(r for _, r in by["mutagen"])},
    "tinytag": {"files": n_tinytag, "seconds": [s for s, _ in by["tinytag"]], "files_per_s": rate("tinytag", n_tinytag),
                "max_rss_kb": max(r for _, r in by["tinytag"])},
    "quintet_scan": {"files": n_quintet, "errors": quintet_errors, "seconds": [s for s, _ in by["quintet"]],
                     "files_per_s": rate("quintet", n_quintet), "max_rss_kb": max(r for _, r in by["quintet"])},
    "quintet_rescan": {"seconds": [s for s, _ in by["rescan"]], "median_s": median_seconds("rescan"),
                       "max_rss_kb": max(r for _, r in by["rescan"])},
    "catalog_check": {"expected": len(expected), "songs": len(songs), "albums": album_count,
                      "mismatches": len(mismatches), "unexpected_songs": len(extra),
                      "first_mismatches": [{"path": p, "got": g, "expected": w} for p, g, w in mismatches[:5]]},
}
report["ratio_quintet_tinytag"] = report["quintet_scan"]["files_per_s"] / report["tinytag"]["files_per_s"]
report["ratio_quintet_mutagen"] = report["quintet_scan"]["files_per_s"] / report["mutagen"]["files_per_s"]

def row(label, value):
    print(f"  {label:<38} {value}")

print()
print(f"bench-scan: {files} files, {runs} run(s), median of the runs, warm page cache, {os.cpu_count()} cores")
row("load average at start", load_start)
row("load average before the timed runs", load_runs)
for key, label in (("mutagen", "mutagen (anchor_scan.py scan)"), ("tinytag", "tinytag (anchor_scan.py scan)"),
                   ("quintet_scan", "quintet scan, empty catalog")):
    r = report[key]
    row(label, f"{r['files_per_s']:,.0f} files/s  ({', '.join(f'{s:.2f}' for s in r['seconds'])} s; "
               f"max RSS {r['max_rss_kb'] / 1024:,.0f} MiB)")
row("quintet / tinytag", f"{report['ratio_quintet_tinytag']:.2f}x")
row("quintet / mutagen", f"{report['ratio_quintet_mutagen']:.2f}x")
r = report["quintet_rescan"]
row("quintet rescan, unchanged", f"{r['median_s']:.2f} s  (max RSS {r['max_rss_kb'] / 1024:,.0f} MiB)")
c = report["catalog_check"]
row("catalog vs expected.json", f"{c['mismatches']} mismatches of {c['expected']} "
                                f"({c['songs']} songs, {c['unexpected_songs']} unexpected, {quintet_errors} scan errors)")
for m in c["first_mismatches"]:
    print(f"    {m['path']}: got {m['got']}, expected {m['expected']}")
if json_out:
    with open(json_out, "w") as f:
        json.dump(report, f, indent=1, ensure_ascii=False)
    print(f"bench-scan: wrote {json_out}")
if c["mismatches"] or c["unexpected_songs"]:
    print("bench-scan: the catalog check failed: no result file written")
    sys.exit(1)

sys.path.insert(0, "scripts")
import bench_result
from bench_result import figure
def versions():
    try:
        import subprocess
        out = subprocess.run([os.environ["ANCHOR_PY"], "-c",
                              "import mutagen, importlib.metadata as m; print(mutagen.version_string, m.version('tinytag'))"],
                             capture_output=True, text=True, check=True).stdout.split()
        return {"mutagen": f"mutagen {out[0]}", "tinytag": f"tinytag {out[1]}"}
    except Exception:
        return {"mutagen": "mutagen", "tinytag": "tinytag"}
tool = versions()
q, m, t, rs = report["quintet_scan"], report["mutagen"], report["tinytag"], report["quintet_rescan"]
bench_result.write("scan", parameters={"files": files, "runs": runs, "warm_page_cache": True},
    figures={
        "quintet_files_per_s": figure(q["files_per_s"], "files/s", "quintet scan", seconds=q["seconds"]),
        "tinytag_files_per_s": figure(t["files_per_s"], "files/s", tool["tinytag"], seconds=t["seconds"]),
        "mutagen_files_per_s": figure(m["files_per_s"], "files/s", tool["mutagen"], seconds=m["seconds"]),
        "quintet_rescan_s": figure(rs["median_s"], "s", "quintet scan (unchanged rescan)", seconds=rs["seconds"]),
        "quintet_max_rss_mib": figure(q["max_rss_kb"] / 1024, "MiB", "quintet scan"),
        "quintet_rescan_max_rss_mib": figure(rs["max_rss_kb"] / 1024, "MiB", "quintet scan (rescan)"),
        "tinytag_max_rss_mib": figure(t["max_rss_kb"] / 1024, "MiB", tool["tinytag"]),
        "mutagen_max_rss_mib": figure(m["max_rss_kb"] / 1024, "MiB", tool["mutagen"]),
    },
    ratios={
        "quintet_over_tinytag": report["ratio_quintet_tinytag"],
        "quintet_over_mutagen": report["ratio_quintet_mutagen"],
        "rescan_over_2s_bound": rs["median_s"] / 2.0,
    },
    details={"catalog_check": c, "load_average_at_start": load_start, "load_average_before_runs": load_runs})
sys.exit(0)
EOF
