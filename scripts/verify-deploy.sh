#!/usr/bin/env bash
# Checks the systemd unit with systemd-analyze (when the machine has it) against the built binary.
set -euo pipefail
cd "$(dirname "$0")/.."
herald=$(realpath "${1:-.build/debug/herald}")
python3 scripts/verify-kubernetes.py
if ! command -v systemd-analyze >/dev/null; then
    echo "systemd-analyze not installed; unit check not run"
    exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed "s#/usr/local/bin/herald#$herald#g" deploy/herald.service >"$work/herald.service"
out=$(systemd-analyze verify "$work/herald.service" 2>&1 || true)
if [[ -n "$out" ]]; then
    echo "$out"
    exit 1
fi
echo "deploy/herald.service: systemd-analyze verify found nothing to report"
