#!/usr/bin/env bash
# Installs the Debian packages Herald builds and runs with, when any is missing.
set -euo pipefail

packages=(
    libpq-dev libicu-dev icu-devtools libssl-dev libmicrohttpd-dev postgresql-15 tzdata pkg-config
    python3 python3-venv jq
    nats-server libnats-dev python3-yaml
    gcc libc6-dev
    chromium chromium-driver
)

missing=()
for p in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "installing Debian packages: ${missing[*]}" >&2
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -q
"${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
