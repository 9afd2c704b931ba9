#!/usr/bin/env bash
# Counts herald's own instructions in the pipeline workers' transactions, the way BENCHMARKS.md's instruction
# counts are made: `valgrind --tool=callgrind` over `herald bench --quick`, collecting only inside
# `BatchProcessor.runTransaction`, dumped as the pipeline phase ends (5,000 events, about 10,000 deliveries). Counts
# are steady from run to run on a noisy machine, unlike times; compare two binaries by running this on each.
#
# usage: scripts/profile-batches.sh [path/to/herald] [output file]   (build first: swift build -c release)
#
# Under valgrind the benchmark cannot start processes, so it runs against a PostgreSQL 15 cluster of its own made
# here (unix socket in a private folder, a random password given through a password file) and a copy of the ICU
# time zone data made before valgrind starts. The binary runs as a copy without its debug sections, which this
# valgrind cannot read (the symbols stay). The count covers herald only; the server's work is not in it. Under
# valgrind the processor's SHA instructions are not offered, so SHA-256 runs on its portable rounds and counts
# more than on the machine itself. Needs valgrind (apt-get install valgrind).
set -euo pipefail
cd "$(dirname "$0")/.."
herald=$(realpath "${1:-.build/release/herald}")
out=$(realpath -m "${2:-.build/profile/batches.callgrind}")
pg=/usr/lib/postgresql/15/bin
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)"; exit 1; }
mkdir -p "$(dirname "$out")"

work=$(mktemp -d)
chmod 755 "$work"
as_owner=()
if [[ $(id -u) -eq 0 ]]; then
    as_owner=(runuser -u postgres --)
    chown postgres: "$work"
fi
server_started=false
cleanup() {
    [[ -n ${valgrind_pid:-} ]] && kill -9 "$valgrind_pid" 2>/dev/null || true
    $server_started && "${as_owner[@]}" "$pg/pg_ctl" -D "$work/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$work" "${tz_home:-}"
    # The benchmark, killed, cannot remove its own folder, nor valgrind the pipes it opened for callgrind_control.
    [[ -z ${bench_pid:-} ]] || rm -rf "${TMPDIR:-/tmp}/herald-bench-$bench_pid" "${TMPDIR:-/tmp}"/vgdb-pipe-*-"$bench_pid"-*
}
trap cleanup EXIT

password=$(python3 -c 'import secrets; print(secrets.token_hex(24))')
(umask 077; printf '%s\n' "$password" > "$work/pwfile")
[[ ${#as_owner[@]} -eq 0 ]] || chown postgres: "$work/pwfile"
"${as_owner[@]}" "$pg/initdb" -D "$work/data" -U herald --auth=scram-sha-256 --pwfile="$work/pwfile" >/dev/null
"${as_owner[@]}" mkdir -m 700 "$work/socket"
"${as_owner[@]}" "$pg/pg_ctl" -D "$work/data" -l "$work/server.log" -w \
    -o "-c listen_addresses='' -c unix_socket_directories='$work/socket' -c port=5432 -c shared_buffers=256MB" \
    start >/dev/null
server_started=true
export PGPASSFILE="$work/pgpass"
(umask 077; printf '*:*:*:herald:%s\n' "$password" > "$PGPASSFILE")
"$pg/createdb" -h "$work/socket" -U herald bench || { tail -5 "$work/server.log"; exit 1; }

# The benchmark keeps its data under $TMPDIR/herald-bench-<pid>; the time zone data goes there first, with valgrind
# started by exec so that the pid is the same.
tz_version=$({ "$herald" tzdata version || true; } | awk '$1 == "os" { print $2 }')
tz_home=$(mktemp -d)
"$herald" tzdata build --out "$tz_home/icu-tz" >/dev/null
cp "$herald" "$work/herald" && strip --strip-debug "$work/herald"
herald="$work/herald"
symbol=$(nm "$herald" | awk '/BatchProcessorV14runTransaction/ && !/NativeDictionary/ && !found { print $3; found = 1 }')
[[ -n $symbol ]] || { echo "no BatchProcessor.runTransaction symbol in $herald"; exit 1; }
err="$work/bench.err"
DATABASE_URL="postgresql://herald@/bench?host=$work/socket" HERALD_SQL_DIR="$PWD/sql" SWIFT_DETERMINISTIC_HASHING=1 \
    TZ_HOME="$tz_home" TZ_VERSION="$tz_version" OUT="$out" SYMBOL="$symbol" HERALD="$herald" bash -c '
    data=${TMPDIR:-/tmp}/herald-bench-$$/icu-tz
    mkdir -p "$data/$TZ_VERSION" && cp "$TZ_HOME"/icu-tz/* "$data/$TZ_VERSION/" && ln -s "$TZ_VERSION" "$data/current"
    export ICU_TIMEZONE_FILES_DIR="$data/$TZ_VERSION"
    exec valgrind --tool=callgrind --callgrind-out-file="$OUT" --toggle-collect="$SYMBOL" "$HERALD" bench --quick \
        --json "$OUT.json"' 2>"$err" &
valgrind_pid=$!
bench_pid=$valgrind_pid
deadline=$((SECONDS + 3600))
until grep -q '^bench: aging' "$err"; do
    kill -0 "$valgrind_pid" 2>/dev/null || { echo "the benchmark ended before its pipeline phase:"; tail -5 "$err"; exit 1; }
    ((SECONDS < deadline)) || { echo "no pipeline phase within an hour"; exit 1; }
    sleep 2
done
rm -f "$out".*
callgrind_control --dump "$valgrind_pid" >/dev/null 2>&1
until compgen -G "$out.*" | grep -v '\.json$' >/dev/null; do sleep 1; done
sleep 2
kill -9 "$valgrind_pid" 2>/dev/null || true
wait "$valgrind_pid" 2>/dev/null || true
valgrind_pid=
dump=$(compgen -G "$out.*" | grep -v '\.json$' | head -1)
mv "$dump" "$out"
rm -f "$out.json"
total=$(callgrind_annotate "$out" | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
echo "herald's instructions in the workers' transactions: $total ($((total / 5000)) per event, 5,000 events)"
echo "profile: $out (callgrind_annotate --inclusive=yes $out)"
