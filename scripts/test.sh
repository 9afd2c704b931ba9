#!/usr/bin/env bash
# Runs every test: unit, PostgreSQL integration and end-to-end against the built binary, then the API
# contract checks (OpenAPI validation and schemathesis against a running herald).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
swift=${SWIFT:-swift}

echo "== build (debug, with tests)"
$swift build --build-tests
bin=$($swift build --show-bin-path)

echo "== ICU time zone data from the OS tz database"
tzroot=.build/icu-tz
"$bin/herald" tzdata build --out "$tzroot"
tzdir=$("$bin/herald" tzdata build --out "$tzroot" --print-dir)
export ICU_TIMEZONE_FILES_DIR="$tzdir"

echo "== swift test"
export HERALD_BINARY="$bin/herald"
export HERALD_SQL_DIR="$PWD/sql"
log=$(mktemp)
set +e
$swift test --skip-build 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
echo "== swift test summary"
grep -E "Test run with [0-9]+ tests|Executed [0-9]+ tests" "$log" | tail -3 || true
rm -f "$log"
[[ $status -eq 0 ]] || { echo "swift test failed ($status)"; exit "$status"; }

echo "== deploy files"
scripts/verify-deploy.sh "$bin/herald"

echo "== API contract"
scripts/test-api.sh "$bin/herald"

echo "== all tests passed in $(( $(date +%s) - started )) s"
