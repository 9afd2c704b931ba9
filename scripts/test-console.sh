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

# shellcheck source=serve-herald.sh
source scripts/serve-herald.sh
start_herald "$herald" hk_console HERALD_CONSOLE_DIR="$PWD/console" HERALD_CAMPAIGN_MIN_WAVE_SECONDS=0

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
