#!/usr/bin/env bash
# Installs what `make test` needs beyond the Swift toolchain, and only what is missing:
#   - ffmpeg, chromium, chromium-driver, ezstream, espeak-ng and icecast2 from Debian (apt-get), when their
#     commands are absent (Debian's ffmpeg has the librsvg decoder that scripts/web-assets.sh draws
#     the app icons with; ezstream is the libshout-based Icecast source of
#     e2e/test_radio_libshout.py; espeak-ng speaks the playground's narrator, scripts/build-voice;
#     icecast2 is the relay of e2e/test_radio_relay.py);
#   - PostgreSQL with PostGIS, installed, set up and started by scripts/postgres-test.sh
#     (a test cluster on 127.0.0.1:55432; the Crowd tests of both suites use it);
#   - a Python venv at e2e/.venv with the pinned packages of e2e/requirements.txt, rebuilt
#     when that file changes (a stamp inside the venv holds the hash it was built from).
# Safe to run again and again: a second run with nothing missing does nothing.
set -euo pipefail

cd "$(dirname "$0")/.."
venv=e2e/.venv
requirements=e2e/requirements.txt
stamp=$venv/.requirements.sha256
python=${PYTHON:-python3}

# Runs a command as root: directly when we are root, through sudo otherwise.
as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

apt_updated=no
# apt-get installs the given Debian packages, quietly and without questions.
apt_install() {
    if [ "$apt_updated" = no ]; then
        as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
        apt_updated=yes
    fi
    echo "bootstrap: installing $* with apt-get"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

# 1. System packages: command name -> Debian package.
missing=()
command -v ffmpeg >/dev/null 2>&1 || missing+=(ffmpeg)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)   # e2e/test_tls.py makes certificates
command -v ezstream >/dev/null 2>&1 || missing+=(ezstream) # e2e/test_radio_libshout.py: a libshout source
command -v espeak-ng >/dev/null 2>&1 || missing+=(espeak-ng) # scripts/build-voice: the playground's narrator
# e2e/test_radio_relay.py: a Debian icecast2 relaying a Quintet mount, run as its own process
# with its own config; Debian's postinst may try to start the system service, which no test uses.
command -v icecast2 >/dev/null 2>&1 || missing+=(icecast2)
if [ ${#missing[@]} -gt 0 ]; then
    apt_install "${missing[@]}"
    # The test starts its own icecast2 on a free port: a system service Debian may have just
    # started (port 8000) is not needed, so the one installed here is stopped and disabled.
    if [[ " ${missing[*]} " == *" icecast2 "* ]] && command -v systemctl >/dev/null 2>&1 \
        && systemctl is-active --quiet icecast2 2>/dev/null; then
        as_root systemctl disable --now icecast2 >/dev/null 2>&1 || true
    fi
fi

# Debian's own python3 creates venvs only with python3-venv (ensurepip) installed.
if ! "$python" -c 'import ensurepip, venv' >/dev/null 2>&1; then
    apt_install python3-venv
fi

# 2. PostgreSQL + PostGIS for the Crowd backend's tests (installs, creates and starts once).
echo "bootstrap: PostgreSQL at $(bash scripts/postgres-test.sh ensure)"

# 3. The e2e venv, rebuilt from scratch when requirements.txt changed since it was made.
wanted=$(sha256sum "$requirements" | cut -d' ' -f1)
if [ -x "$venv/bin/python" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ]; then
    echo "bootstrap: $venv is up to date"
    exit 0
fi
echo "bootstrap: creating $venv from $requirements"
rm -rf "$venv"
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
echo "$wanted" >"$stamp"
echo "bootstrap: $venv ready"
