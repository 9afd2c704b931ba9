#!/usr/bin/env bash
# The web console in a real browser: headless Chromium driven by Selenium against a running herald with its own
# embedded PostgreSQL, through the flow a product manager follows. Screenshots of every screen go to
# test-artifacts/console/.
set -euo pipefail
cd "$(dirname "$0")/.."
herald=${1:-.build/debug/herald}

for tool in chromium chromedriver; do
    command -v "$tool" >/dev/null || { echo "test-console: $tool is missing (make deps installs chromium and chromium-driver)"; exit 1; }
done
[[ -x .venv/bin/python ]] || python3 -m venv .venv
if ! .venv/bin/python -c 'import selenium' 2>/dev/null; then
    .venv/bin/pip install -q --disable-pip-version-check -r scripts/requirements-console.txt
fi

ready() {
    python3 -c 'import sys, urllib.request; urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/ready", timeout=2)' \
        "$1" >/dev/null 2>&1
}

work=$(mktemp -d)
chmod 755 "$work"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
key="hk_console_$(python3 -c 'import secrets; print(secrets.token_urlsafe(24))')"
HERALD_DATA_DIR="$work/data" HERALD_HTTP_ADDR="127.0.0.1:$port" HERALD_ADMIN_KEY="$key" HERALD_SQL_DIR="$PWD/sql" \
    HERALD_CONSOLE_DIR="$PWD/console" HERALD_CAMPAIGN_MIN_WAVE_SECONDS=0 "$herald" serve >"$work/herald.out" 2>"$work/herald.log" &
pid=$!
cleanup() {
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

for _ in $(seq 1 300); do
    if ready "$port"; then break; fi
    kill -0 "$pid" 2>/dev/null || { echo "herald exited early"; tail -20 "$work/herald.log"; exit 1; }
    sleep 0.2
done
ready "$port" || { echo "herald never became ready"; tail -20 "$work/herald.log"; exit 1; }

artifacts=test-artifacts/console
rm -rf "$artifacts"
mkdir -p "$artifacts"
# A campaign's wave runs at once (HERALD_CAMPAIGN_MIN_WAVE_SECONDS=0), so the console can follow one to its end.
# Selenium Manager stays offline: the driver is Debian's chromedriver.
if ! SE_OFFLINE=true .venv/bin/python scripts/console_test.py --url "http://127.0.0.1:$port" --key "$key" \
    --artifacts "$artifacts"; then
    echo "test-console: FAILED; screenshots so far in $artifacts; last lines of the herald log:"
    tail -20 "$work/herald.log"
    exit 1
fi
echo "test-console: passed; screenshots in $artifacts"
