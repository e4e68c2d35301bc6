#!/usr/bin/env bash
# scripts/postgres-test.sh — a real PostgreSQL + PostGIS for the Crowd's tests and benchmarks.
#
#   scripts/postgres-test.sh ensure   install (if missing), create (once), start (if stopped),
#                                     create role, database and extension; prints exactly one
#                                     line on stdout: the connection URL
#   scripts/postgres-test.sh stop     stops the server (the cluster folder stays)
#   scripts/postgres-test.sh status   says whether it runs (exit 0) or not (exit 1)
#
# What `ensure` does, each step only when it is needed (it is idempotent and safe to run from
# several processes at once: the steps run under a lock file):
#   1. installs Debian's `postgresql` and `postgresql-<major>-postgis-3` with apt-get
#      (`apt-get update` first only if the install fails);
#   2. creates a cluster in $QUINTET_PG_DIR (default /tmp/quintet-pg) owned by the `postgres`
#      user (or by the caller when not run as root), listening only on 127.0.0.1, port
#      $QUINTET_PG_PORT (default 55432), its Unix socket inside the cluster folder;
#      settings for tests and benchmarks: fsync and synchronous_commit on (durability is part
#      of the comparison with the embedded store), shared_buffers 256MB, max_connections 100;
#   3. starts it if it is not running;
#   4. creates role `quintet` (password `quintet`, may create databases) and database
#      `quintet_test` owned by it, with `CREATE EXTENSION postgis` (PostGIS needs a superuser).
# Everything but the URL goes to stderr. Run as root here and in CI.
set -euo pipefail

PORT="${QUINTET_PG_PORT:-55432}"
DIR="${QUINTET_PG_DIR:-/tmp/quintet-pg}"
DATA="$DIR/data"
SOCK="$DIR/run"
LOG="$DIR/server.log"
DB=quintet_test
ROLE=quintet
PASSWORD=quintet
URL="postgres://$ROLE:$PASSWORD@127.0.0.1:$PORT/$DB"

say() { echo "postgres-test: $*" >&2; }
die() { say "error: $*"; exit 1; }

if [ "$(id -u)" = 0 ]; then OWNER=postgres; else OWNER="$(id -un)"; fi

# Runs a command as the cluster's owner.
as_owner() {
    if [ "$(id -un)" = "$OWNER" ]; then "$@"; else runuser -u "$OWNER" -- "$@"; fi
}

# The newest installed server's bin folder (Debian keeps them in /usr/lib/postgresql/MAJOR/bin).
pg_bin() {
    local v
    v="$(ls -1 /usr/lib/postgresql 2>/dev/null | sort -n | tail -1)"
    [ -n "$v" ] && [ -x "/usr/lib/postgresql/$v/bin/postgres" ] && echo "/usr/lib/postgresql/$v/bin"
}

postgis_installed() {
    local bin="$1" share
    share="$("$bin/pg_config" --sharedir 2>/dev/null || true)"
    [ -n "$share" ] || share="/usr/share/postgresql/$(basename "$(dirname "$bin")")"
    ls "$share"/extension/postgis.control >/dev/null 2>&1
}

install_packages() {
    local bin major
    bin="$(pg_bin || true)"
    if [ -n "$bin" ] && postgis_installed "$bin"; then return 0; fi
    [ "$(id -u)" = 0 ] || die "PostgreSQL or PostGIS is missing and only root can install them (apt-get)"
    if [ -n "$bin" ]; then major="$(basename "$(dirname "$bin")")"; else
        major="$(apt-cache show postgresql 2>/dev/null | sed -n 's/^Depends:.*postgresql-\([0-9][0-9]*\).*/\1/p' | head -1)"
        [ -n "$major" ] || major=15
    fi
    local pkgs=(postgresql "postgresql-$major" "postgresql-$major-postgis-3")
    say "installing ${pkgs[*]}"
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get install -y -q "${pkgs[@]}" >&2; then
        say "install failed; apt-get update, then again"
        apt-get update -q >&2
        apt-get install -y -q "${pkgs[@]}" >&2
    fi
    bin="$(pg_bin || true)"
    [ -n "$bin" ] && postgis_installed "$bin" || die "PostgreSQL with PostGIS is still missing after apt-get"
}

# A process that exists and is not a zombie (a killed server's pid may linger as one).
pid_alive() {
    local pid="$1"
    [ -n "$pid" ] && [ -r "/proc/$pid/stat" ] && [ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" != Z ]
}

server_pid() { head -1 "$DATA/postmaster.pid" 2>/dev/null || true; }

# Running = the server answers on its socket.
is_running() {
    local bin="$1"
    [ -f "$DATA/PG_VERSION" ] && "$bin/pg_isready" -q -h "$SOCK" -p "$PORT" >/dev/null 2>&1
}

create_cluster() {
    local bin="$1" major
    major="$(basename "$(dirname "$bin")")"
    if [ -f "$DATA/PG_VERSION" ] && [ "$(cat "$DATA/PG_VERSION")" != "$major" ]; then
        # A cluster of another PostgreSQL (the machine changed): test data only, start afresh.
        say "the cluster in $DATA is PostgreSQL $(cat "$DATA/PG_VERSION"), the server is $major: recreating it"
        rm -rf "$DATA"
    fi
    [ -f "$DATA/PG_VERSION" ] && return 0
    say "creating a cluster in $DATA"
    mkdir -p "$DIR"
    rm -rf "$DATA"
    mkdir -p "$DATA" "$SOCK"
    chown "$OWNER" "$DIR" "$DATA" "$SOCK"
    chmod 700 "$DATA"
    as_owner "$bin/initdb" -D "$DATA" -U postgres --encoding=UTF8 --locale=C.UTF-8 \
        --auth-local=peer --auth-host=scram-sha-256 >&2 ||
        as_owner "$bin/initdb" -D "$DATA" -U postgres --encoding=UTF8 --locale=C \
            --auth-local=peer --auth-host=scram-sha-256 >&2
    # Our settings go last in postgresql.conf: the last one wins.
    cat >>"$DATA/postgresql.conf" <<EOF

# --- scripts/postgres-test.sh (tests and benchmarks) ---
listen_addresses = '127.0.0.1'
port = $PORT
unix_socket_directories = '$SOCK'
max_connections = 100
shared_buffers = 256MB
fsync = on
synchronous_commit = on
full_page_writes = on
logging_collector = off
EOF
    if [ "$OWNER" != postgres ]; then
        # Not root: the owner's own name is the superuser's, peer auth maps it.
        echo "local all all trust" >"$DATA/pg_hba.conf.new"
        grep -v '^local' "$DATA/pg_hba.conf" >>"$DATA/pg_hba.conf.new" || true
        mv "$DATA/pg_hba.conf.new" "$DATA/pg_hba.conf"
    fi
}

start_server() {
    local bin="$1"
    is_running "$bin" && return 0
    mkdir -p "$SOCK"; chown "$OWNER" "$SOCK"
    touch "$LOG"; chown "$OWNER" "$LOG"
    # A stale pid file from a killed server (the machine kept the folder, not the process).
    if [ -f "$DATA/postmaster.pid" ]; then
        local pid; pid="$(server_pid)"
        if pid_alive "$pid"; then
            # Still starting or shutting down: give it a moment.
            for _ in $(seq 1 30); do is_running "$bin" && return 0; pid_alive "$pid" || break; sleep 1; done
            is_running "$bin" && return 0
            pid_alive "$pid" && die "a server (pid $pid) holds $DATA but does not answer; see $LOG"
        fi
        rm -f "$DATA/postmaster.pid"
    fi
    say "starting PostgreSQL on 127.0.0.1:$PORT"
    if ! as_owner "$bin/pg_ctl" -D "$DATA" -l "$LOG" -w -t 60 -o "-p $PORT" start >&2; then
        tail -20 "$LOG" >&2 || true
        die "PostgreSQL did not start (log: $LOG)"
    fi
}

psql_super() {
    local bin="$1"; shift
    as_owner "$bin/psql" -X -q -v ON_ERROR_STOP=1 -h "$SOCK" -p "$PORT" -U postgres "$@"
}

create_database() {
    local bin="$1"
    psql_super "$bin" -d postgres >&2 <<EOF
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '$ROLE') THEN
    CREATE ROLE $ROLE LOGIN CREATEDB PASSWORD '$PASSWORD';
  END IF;
END \$\$;
EOF
    if [ "$(psql_super "$bin" -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$DB'")" != 1 ]; then
        psql_super "$bin" -d postgres -c "CREATE DATABASE $DB OWNER $ROLE" >&2
    fi
    psql_super "$bin" -d "$DB" -c "SET client_min_messages = warning; CREATE EXTENSION IF NOT EXISTS postgis" >&2
}

ensure() {
    install_packages
    local bin; bin="$(pg_bin)"
    mkdir -p "$DIR"
    # One `ensure` at a time (tests in parallel may all call it).
    exec 9>"$DIR/.lock"
    flock 9
    create_cluster "$bin"
    start_server "$bin"
    create_database "$bin"
    flock -u 9
    echo "$URL"
}

stop() {
    local bin; bin="$(pg_bin || true)"
    [ -n "$bin" ] || { say "PostgreSQL is not installed"; return 0; }
    if [ -f "$DATA/postmaster.pid" ] && pid_alive "$(server_pid)"; then
        as_owner "$bin/pg_ctl" -D "$DATA" -m fast -w stop >&2
    else
        say "not running"
    fi
}

status() {
    local bin; bin="$(pg_bin || true)"
    if [ -n "$bin" ] && is_running "$bin"; then say "running on 127.0.0.1:$PORT ($DATA)"; echo "$URL"; else say "not running"; return 1; fi
}

case "${1:-}" in
    ensure) ensure ;;
    stop) stop ;;
    status) status ;;
    *) echo "usage: $0 ensure|stop|status" >&2; exit 2 ;;
esac
