#!/usr/bin/env bash
# The studio's bundled jingles (issue 22): three short sounds for the effect pads, synthesised
# by ffmpeg from formulas (no recorded or third-party audio), written to
# Web/radio/studio/jingles/<name>.mp3. Run by scripts/web-assets.sh (so by `make run` and
# `make test`); a jingle is only made again when this script changes. Not committed.
set -euo pipefail
cd "$(dirname "$0")/.."
out=Web/radio/studio/jingles
mkdir -p "$out"
stamp=$(sha256sum "$0" | cut -c1-16)
if [ -f "$out/.stamp" ] && [ "$(cat "$out/.stamp")" = "$stamp" ] && [ -f "$out/chime.mp3" ] && [ -f "$out/drumroll.mp3" ] && [ -f "$out/applause.mp3" ]; then
    exit 0
fi

make_jingle() { # name seconds expression [filters]
    ffmpeg -hide_banner -loglevel error -y -f lavfi -i "aevalsrc='$3':s=44100:d=$2" \
        -af "${4:-anull},afade=t=out:st=$(awk "BEGIN { print $2 - 0.15 }"):d=0.15,alimiter=limit=0.9" \
        -ac 2 -c:a libmp3lame -b:a 160k "$out/$1.mp3"
}

# A chime: C6, E6, G6 and C7 struck 0.18 s apart, each a bell (fundamental and a quiet
# inharmonic partial) decaying exponentially.
note() { # start frequency
    echo "gte(t,$1)*exp(-3.2*(t-$1))*(0.32*sin(2*PI*$2*(t-$1))+0.08*sin(2*PI*$2*2.76*(t-$1)))"
}
make_jingle chime 1.8 "$(note 0 1046.5)+$(note 0.18 1318.5)+$(note 0.36 1568)+$(note 0.54 2093)"

# A drum roll: noise strokes at 24 per second swelling for 1.4 s, then a hit.
make_jingle drumroll 2.2 \
    "(random(0)*2-1)*lt(t,1.4)*(0.15+0.45*t/1.4)*pow(0.5+0.5*cos(2*PI*24*t),6)+(random(1)*2-1)*gte(t,1.4)*0.9*exp(-5*(t-1.4))" \
    "bandpass=f=900:width_type=o:w=2.5"

# Applause: many claps, noise gated by two incommensurate fast tremolos, swelling in and out.
make_jingle applause 2.6 \
    "(random(0)*2-1)*0.55*pow(0.5+0.5*sin(2*PI*11.3*t)*sin(2*PI*17.9*t+1),2)*min(1,t*3)*min(1,(2.6-t)*1.5)" \
    "highpass=f=600,lowpass=f=7000"

echo "$stamp" >"$out/.stamp"
echo "jingles: $(ls "$out"/*.mp3 | wc -l) made in $out"
