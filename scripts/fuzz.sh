#!/usr/bin/env bash
# Runs every libFuzzer target in Fuzz/ for FUZZ_SECONDS each (default 60), seeded with
# small files that ffmpeg makes here. A crash stops the run with the reproducer's path
# (libFuzzer writes it as crash-*); exit status 0 means every target ran clean.
#
#   make fuzz                         # every target, 60 s each
#   FUZZ_SECONDS=600 make fuzz        # the 10 minutes per target the docs record
#   scripts/fuzz.sh FuzzMP3           # one target (FuzzWAV FuzzWAVTags FuzzMP3 FuzzFLAC FuzzOgg FuzzMP4 FuzzCredits FuzzSensorLog
#                                     #   FuzzAudioFrames FuzzIcecastHead FuzzCrowdJSON FuzzFormFields)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
work=.fuzz
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FuzzWAV FuzzWAVTags FuzzMP3 FuzzFLAC FuzzOgg FuzzMP4 FuzzCredits FuzzSensorLog
                                     FuzzAudioFrames FuzzIcecastHead FuzzCrowdJSON FuzzFormFields)

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
# A cover image, attached to the formats that carry pictures.
mkdir -p "$work"
[ -s "$work/cover.png" ] || ffmpeg -nostdin -loglevel error -y -f lavfi -i color=red:size=8x8 -frames:v 1 "$work/cover.png"
seed_with_cover() { # target, file name, ffmpeg output options...
    local dir=$work/corpus/$1 name=$2; shift 2
    mkdir -p "$dir"
    [ -s "$dir/$name" ] && return 0
    ffmpeg -nostdin -loglevel error -y -f lavfi -i "sine=frequency=440:duration=0.02" -i "$work/cover.png" \
        -map 0:a -map 1:v -disposition:v attached_pic -metadata title="Seed Title" -metadata artist="Seed Artist" \
        -metadata album="Seed Album" -metadata track="3/12" -metadata date=1997 "$@" "$dir/$name"
}
for target in "${targets[@]}"; do
    case $target in
        FuzzWAV|FuzzWAVTags)
            seed "$target" s16.wav -c:a pcm_s16le
            seed "$target" u8.wav -c:a pcm_u8
            seed "$target" s24.wav -c:a pcm_s24le -ac 2
            seed "$target" f32.wav -c:a pcm_f32le
            seed "$target" f64.wav -c:a pcm_f64le -ac 3 ;;
        FuzzMP3)
            seed_with_cover FuzzMP3 v24.mp3 -c:a libmp3lame -c:v copy -id3v2_version 4
            seed_with_cover FuzzMP3 v23.mp3 -c:a libmp3lame -c:v copy -id3v2_version 3 -write_id3v1 1
            seed FuzzMP3 cbr.mp3 -c:a libmp3lame -b:a 64k -write_xing 0 ;;
        FuzzFLAC)
            seed_with_cover FuzzFLAC cover.flac -c:a flac -c:v copy
            seed FuzzFLAC plain.flac -c:a flac ;;
        FuzzOgg)
            seed FuzzOgg vorbis.ogg -c:a libvorbis
            seed FuzzOgg opus.opus -c:a libopus ;;
        FuzzMP4)
            seed_with_cover FuzzMP4 cover.m4a -c:a aac -c:v copy
            seed FuzzMP4 faststart.m4a -c:a aac -movflags +faststart ;;
        FuzzCredits)
            # The first byte picks the frame (0 TMCL, 1 TIPL, 2 IPLS, 3 IPL, 4 TXXX, 5-6 FLAC, 7-8 MP4).
            mkdir -p "$work/corpus/FuzzCredits"
            printf '\x00\x03guitar\x00Ada North\x00\x00Ben\x00' > "$work/corpus/FuzzCredits/tmcl"
            printf '\x02\x01\xff\xfed\x00r\x00\x00\x00\xff\xfeR\x00i\x00\x00\x00' > "$work/corpus/FuzzCredits/ipls"
            printf '\x05Ada North (drums (drum set))' > "$work/corpus/FuzzCredits/performer"
            printf '\x06b10bbbfc-cf9e-42e0-be17-e2c3e1d2600d/4d5447d7-c61c-4120-ba1b-d7f471d385b9' > "$work/corpus/FuzzCredits/mbid" ;;
        FuzzSensorLog)
            mkdir -p "$work/corpus/FuzzSensorLog"
            # One of each log shape the importer reads, a few seconds of walking-like motion.
            python3 - "$work/corpus/FuzzSensorLog" <<'PY'
import json, math, os, sys
d = sys.argv[1]
def rows(n=300, rate=50.0):
    for i in range(n):
        t = i / rate
        b = 0.3 * math.sin(2 * math.pi * 1.8 * t)
        yield t, 0.1 * b, 0.2, 0.98 + b
def write(name, text):
    path = os.path.join(d, name)
    if not os.path.exists(path):
        open(path, "w").write(text)
write("plain.csv", "time,x,y,z\n" + "".join(f"{t:.3f},{x:.4f},{y:.4f},{z:.4f}\n" for t, x, y, z in rows()))
write("ms.csv", "timestamp_ms,ax,ay,az\n" + "".join(f"{1700000000000 + t * 1000:.0f},{x * 9.81:.3f},{y * 9.81:.3f},{z * 9.81:.3f}\n" for t, x, y, z in rows()))
write("sensorlogger.csv", "time,seconds_elapsed,z,y,x\n" + "".join(f"{1700000000000000000 + int(t * 1e9)},{t:.3f},{z * 9.81:.3f},{y * 9.81:.3f},{x * 9.81:.3f}\n" for t, x, y, z in rows()))
write("noheader.csv", "".join(f"{t:.3f};{x:.4f};{y:.4f};{z:.4f}\n" for t, x, y, z in rows(100)))
write("iso.csv", "time,x,y,z\n" + "".join(f"2026-11-25T10:00:{t:06.3f}Z,{x:.4f},{y:.4f},{z:.4f}\n" for t, x, y, z in rows(100)))
write("lines.jsonl", "".join(json.dumps({"t": t, "accel": {"x": x, "y": y, "z": z}}) + "\n" for t, x, y, z in rows(100)))
PY
            ;;
        FuzzAudioFrames)
            # A live source's bytes: the input's first byte picks the framing (even: MPEG audio,
            # odd: ADTS) and the piece size; the rest is a real stream made by ffmpeg.
            dir=$work/corpus/FuzzAudioFrames
            mkdir -p "$dir"
            if [ ! -s "$dir/cbr.mp3.in" ]; then
                seed FuzzAudioFrames-tmp cbr.mp3 -c:a libmp3lame -b:a 64k -write_xing 0 -id3v2_version 0
                seed FuzzAudioFrames-tmp vbr.mp3 -c:a libmp3lame -q:a 4
                seed FuzzAudioFrames-tmp mono22.mp3 -c:a libmp3lame -ar 22050 -ac 1
                seed FuzzAudioFrames-tmp adts.aac -c:a aac -f adts
                for f in cbr.mp3 vbr.mp3 mono22.mp3; do
                    { printf '\x20'; cat "$work/corpus/FuzzAudioFrames-tmp/$f"; } > "$dir/$f.in"
                done
                { printf '\x21'; cat "$work/corpus/FuzzAudioFrames-tmp/adts.aac"; } > "$dir/adts.aac.in"
                rm -rf "$work/corpus/FuzzAudioFrames-tmp"
            fi ;;
        FuzzIcecastHead)
            # Request heads as Icecast sources and listeners send them, and an app request.
            dir=$work/corpus/FuzzIcecastHead
            mkdir -p "$dir"
            printf 'PUT /live/show.mp3 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nAuthorization: Basic c291cmNlOmszeQ==\r\nExpect: 100-continue\r\nContent-Type: audio/mpeg\r\nIce-Name: Show\r\nIce-Public: 0\r\n\r\n' > "$dir/put"
            printf 'SOURCE /live/a%%20b.mp3?x=1 HTTP/1.0\r\nAuthorization: Basic c291cmNlOms=\r\nContent-Type: audio/aacp\r\n\r\n\xff\xf1' > "$dir/source"
            printf 'GET /live/show.mp3 HTTP/1.0\r\nIcy-MetaData: 1\r\nUser-Agent: VLC/3.0\r\n\r\n' > "$dir/listener"
            printf 'GET http://host/live/x.mp3 HTTP/1.1\nHost: x\n\n' > "$dir/absolute-lf"
            printf 'GET /api/version HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n' > "$dir/app" ;;
        FuzzCrowdJSON)
            # Report bodies: valid, every field, escapes, nesting, a duplicate, numbers at the edges.
            dir=$work/corpus/FuzzCrowdJSON
            mkdir -p "$dir"
            printf '{"device":"phone-1","lat":45.4642,"lon":9.19}' > "$dir/minimal.json"
            printf '{"device":"d","lat":-90,"lon":180,"age":150,"sex":"f","comment":"caf\\u00e9 \\ud83d\\ude00 \\"q\\"","radius":2000,"min":1,"max":100,"limit":20000}' > "$dir/full.json"
            printf '{"device":"d","lat":1e-7,"lon":-0.0,"age":null,"sex":null,"extra":[1,{"a":[true,false,null]}]}' > "$dir/nested.json"
            printf '{"device":"d","device":"e","lat":1.5E+1,"lon":2}' > "$dir/duplicate.json"
            printf ' \t{"lat":9007199254740993,"lon":1.7976931348623157e308,"radius":200.0}\n' > "$dir/numbers.json" ;;
        FuzzFormFields)
            # Query strings: the crowd's search, Subsonic's parameters, escapes good and bad.
            dir=$work/corpus/FuzzFormFields
            mkdir -p "$dir"
            printf 'lat=45.4642&lon=9.19&radius=500&min=2&max=100&limit=50' > "$dir/search"
            printf 'u=admin&p=enc:70617373&v=1.16.1&c=app&f=json&id=1&id=2' > "$dir/subsonic"
            printf 'q=copper+sky&name=Caf%%C3%%A9&bad=%%zz&half=%%4&empty=&=x&&flag' > "$dir/escapes" ;;
    esac
done

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
