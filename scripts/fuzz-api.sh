#!/usr/bin/env bash
# Fuzzes the whole HTTP API with schemathesis: `quintet serve` on a fresh data folder (the demo
# library, a first admin), then every operation of GET /api/openapi.json with all of
# schemathesis' checks (no 5xx, every status, header and body as documented, bad input refused,
# schema-valid input accepted, 405 for undocumented methods, sign-in enforced) for
# FUZZ_API_SECONDS (default 600). Exit status 0 means no check failed. The server's log and
# schemathesis' reports (JUnit, a pytest file that replays each failure) go to .fuzz/api/.
#
#   make fuzz                          # libFuzzer targets, then this for 10 minutes
#   FUZZ_API_SECONDS=60 scripts/fuzz-api.sh
#   QUINTET_BIN=.build/release/quintet scripts/fuzz-api.sh
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_API_SECONDS:-600}
work=.fuzz/api
venv=.fuzz/api-venv
requirements=scripts/fuzz-api-requirements.txt
binary=${QUINTET_BIN:-.build/debug/quintet}
password=fuzz-admin-password

command -v ffmpeg >/dev/null 2>&1 || bash scripts/bootstrap.sh
[ -x "$binary" ] || swift build --product quintet

# The venv, rebuilt when the requirements change (as scripts/bootstrap.sh does for e2e/.venv).
wanted=$(sha256sum "$requirements" | cut -d' ' -f1)
if ! [ -x "$venv/bin/st" ] || [ "$(cat "$venv/.requirements.sha256" 2>/dev/null)" != "$wanted" ]; then
    echo "fuzz-api: creating $venv from $requirements"
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
    echo "$wanted" >"$venv/.requirements.sha256"
fi

rm -rf "$work"
mkdir -p "$work"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
QUINTET_ADMIN_PASSWORD=$password "$binary" serve --host 127.0.0.1 --port "$port" --data "$work/data" \
    --web Web --log-level warning --crowd-rate-limit 0 >"$work/server.log" 2>&1 &
server=$!
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null || true' EXIT
base=http://127.0.0.1:$port
for _ in $(seq 1 300); do
    curl -fsS "$base/healthz" >/dev/null 2>&1 && break
    kill -0 $server 2>/dev/null || { cat "$work/server.log"; echo "fuzz-api: the server did not start" >&2; exit 1; }
    sleep 0.1
done

echo "fuzz-api: schemathesis against $base/api/openapi.json for ${seconds}s"
status=0
"$venv/bin/st" --config-file scripts/fuzz-api.toml run "$base/api/openapi.json" \
    --checks all --auth "admin:$password" --max-time "$seconds" --workers 2 \
    --report junit,pytest --report-dir "$work/report" || status=$?
if grep -q "unhandled error" "$work/server.log"; then
    grep "unhandled error" "$work/server.log" | head -20
    echo "fuzz-api: the server logged unhandled errors (see $work/server.log)" >&2
    status=1
fi
[ $status -eq 0 ] && echo "fuzz-api: ${seconds}s, every check passed" || echo "fuzz-api: FAILED; reports in $work/report" >&2
exit $status
