#!/usr/bin/env bash
# Builds the generated files of Web/ (gitignored, never committed), only what is out of date:
#   - the apps' icons, Web/icons/<app>-{192,512}.png, <app>-maskable-{192,512}.png and
#     <app>-apple-180.png, from the glyphs Web/icons/src/<app>.svg (white on transparent,
#     drawn in a 100×100 box within 10..90) on the app's theme_color, read from its manifest
#     (Web/manifest.webmanifest for "home", Web/<app>/manifest.webmanifest for the others).
#     The "any" icons are a rounded square; the maskable and Apple ones fill the square (the
#     phone cuts its own shape) and keep the glyph inside the safe circle (80 % of the width).
#     Rendered by ffmpeg's librsvg decoder (Debian's ffmpeg has it; scripts/bootstrap.sh
#     installs ffmpeg).
#   - Web/precache.json: the files the service worker (Web/sw.js) keeps for offline use — the
#     pages (a folder's index.html as its folder URL), scripts, styles, manifests and the
#     favicon — with a version, the SHA-256 of their contents, that tells the worker to fetch
#     them all again when anything changed.
# `make run`, `make test` and `make e2e` run it; so does the e2e suite's conftest.py when
# pytest is started directly. Safe to run again and again.
set -euo pipefail

cd "$(dirname "$0")/.."
web=Web
glyphs=$web/icons/src
icons=$web/icons

if ! (ffmpeg -hide_banner -decoders 2>/dev/null || true) | grep librsvg >/dev/null; then
    echo "web-assets: ffmpeg with the librsvg decoder is needed to draw the icons" \
         "(Debian's ffmpeg has it: bash scripts/bootstrap.sh)" >&2
    exit 1
fi

# The theme_color of an app's manifest.
theme_color() {
    local manifest=$web/$1/manifest.webmanifest
    [ "$1" = home ] && manifest=$web/manifest.webmanifest
    sed -n 's/.*"theme_color": *"\(#[0-9a-fA-F]\{6\}\)".*/\1/p' "$manifest"
}

# An icon's SVG on stdout: the glyph (its root <svg> placed in the 70 % middle box) on a
# background of colour $2, a rounded square (any) or the full square (full).
compose() {
    local glyph=$1 colour=$2 shape=$3 radius=0
    [ "$shape" = any ] && radius=22
    printf '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
    printf '<rect width="100" height="100" rx="%s" fill="%s"/>' "$radius" "$colour"
    sed '1s/<svg /<svg x="15" y="15" width="70" height="70" /' "$glyph"
    printf '</svg>\n'
}

# Renders SVG file $1 to a PNG of $2×$2 pixels at $3.
render() {
    ffmpeg -hide_banner -loglevel error -y -width "$2" -height "$2" -i "$1" -frames:v 1 "$3"
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
drawn=0
for glyph in "$glyphs"/*.svg; do
    app=$(basename "$glyph" .svg)
    colour=$(theme_color "$app")
    if [ -z "$colour" ]; then
        echo "web-assets: no theme_color in the manifest of $app" >&2
        exit 1
    fi
    for shape in any full; do
        compose "$glyph" "$colour" "$shape" >"$work/$app-$shape.svg"
    done
    for target in "$app-192.png any 192" "$app-512.png any 512" "$app-maskable-192.png full 192" \
                  "$app-maskable-512.png full 512" "$app-apple-180.png full 180"; do
        read -r name shape size <<<"$target"
        out=$icons/$name
        manifest=$web/$app/manifest.webmanifest
        [ "$app" = home ] && manifest=$web/manifest.webmanifest
        if [ -f "$out" ] && [ "$out" -nt "$glyph" ] && [ "$out" -nt "$0" ] && [ "$out" -nt "$manifest" ]; then
            continue
        fi
        render "$work/$app-$shape.svg" "$size" "$out"
        drawn=$((drawn + 1))
    done
done
echo "web-assets: $drawn icons drawn in $icons"

# The studio's jingles (synthesised by ffmpeg; made again only when their script changes).
bash "$(dirname "$0")/jingles.sh"

# The offline list: what the pages load from Web/ (not the trust page, the icons' sources or
# PNGs, the service worker itself or this list), the playground's module, its games' atlases, the
# narrator's voice files and the whole story folder (lines, pages, the drawing to print) included
# (`make wasm` builds them first), so an installed playground plays offline.
files=$(cd "$web" && find . -type f \( -name '*.html' -o -name '*.js' -o -name '*.css' \
            -o -name '*.webmanifest' -o -name '*.wasm' -o -name 'favicon.svg' -o -path './playground/atlas/*' \
            -o -path './playground/voice/*' -o -path './playground/story/*' -o -path './radio/studio/jingles/*.mp3' \) \
            ! -path './tls/*' ! -path './icons/*' ! -name 'sw.js' | LC_ALL=C sort)
version=$(cd "$web" && cat $files | sha256sum | cut -c1-16)
{
    printf '{\n  "version": "%s",\n  "files": [' "$version"
    separator=""
    for file in $files; do
        url=${file#.}
        url=${url%index.html}
        printf '%s\n    "%s"' "$separator" "$url"
        separator=","
    done
    printf '\n  ]\n}\n'
} >"$work/precache.json"
if ! cmp -s "$work/precache.json" "$web/precache.json"; then
    cp "$work/precache.json" "$web/precache.json"
fi
echo "web-assets: $web/precache.json lists $(echo "$files" | wc -l) files (version $version)"
