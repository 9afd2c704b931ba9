# Sourced by the test scripts that drive a running herald: `start_herald BINARY KEY_PREFIX [NAME=VALUE ...]` serves
# on a free loopback port with its own embedded PostgreSQL in a temporary folder, waits until it is ready, and stops
# it and removes the folder on exit. It sets `work`, `port`, `key` and `pid`.

ready() {
    python3 -c 'import sys, urllib.request; urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/ready", timeout=2)' \
        "$1" >/dev/null 2>&1
}

start_herald() {
    local binary=$1 prefix=$2
    shift 2
    work=$(mktemp -d)
    chmod 755 "$work"
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    key="${prefix}_$(python3 -c 'import secrets; print(secrets.token_urlsafe(24))')"
    env HERALD_DATA_DIR="$work/data" HERALD_HTTP_ADDR="127.0.0.1:$port" HERALD_ADMIN_KEY="$key" \
        HERALD_SQL_DIR="$PWD/sql" "$@" "$binary" serve >"$work/herald.out" 2>"$work/herald.log" &
    pid=$!
    trap stop_herald EXIT
    for _ in $(seq 1 300); do
        if ready "$port"; then return 0; fi
        kill -0 "$pid" 2>/dev/null || { echo "herald exited early"; tail -20 "$work/herald.log"; exit 1; }
        sleep 0.2
    done
    ready "$port" || { echo "herald never became ready"; tail -20 "$work/herald.log"; exit 1; }
}

stop_herald() {
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    rm -rf "$work"
}
