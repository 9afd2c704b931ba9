#!/usr/bin/env bash
# Measures campaigns on an embedded, durable PostgreSQL: planning a campaign for USERS users spread over 400 zones,
# and fan-out (recipients handed to the pipeline per second, and decided per second) of one wave holding them all.
# usage: scripts/campaign-bench.sh [path/to/herald] [users]   (build first: swift build -c release)
# WORKERS=0 runs no pipeline workers: the figure is then the campaign runner's alone (nothing is decided).
set -euo pipefail
cd "$(dirname "$0")/.."
herald=${1:-.build/release/herald}
users=${2:-1000000}
pg=/usr/lib/postgresql/15/bin

work=$(mktemp -d)
chmod 755 "$work"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
key="hk_bench_$(python3 -c 'import secrets; print(secrets.token_hex(16))')"
HERALD_DATA_DIR="$work/data" HERALD_HTTP_ADDR="127.0.0.1:$port" HERALD_ADMIN_KEY="$key" HERALD_SQL_DIR="$PWD/sql" \
    HERALD_CAMPAIGN_MIN_WAVE_SECONDS=0 HERALD_PIPELINE_WORKERS="${WORKERS:-4}" HERALD_LOG_LEVEL=warning "$herald" serve >"$work/out" 2>"$work/log" &
pid=$!
trap 'kill -TERM $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$work"' EXIT
until curl -sf "127.0.0.1:$port/ready" >/dev/null; do
    kill -0 $pid 2>/dev/null || { tail "$work/log"; exit 1; }
    sleep 0.2
done
psql() { PGPASSFILE="$work/data/pg/pgpass" "$pg/psql" -X -q -h 127.0.0.1 -p "$(cat "$work/data/pg/port")" -U herald -d herald -At "$@"; }
api() { curl -s -H "Authorization: Bearer $key" -H 'Content-Type: application/json' "$@"; }

echo "== loading $users users over 400 zones (COPY), one device each"
python3 - "$users" >"$work/users.tsv" <<'PY'
import sys
from zoneinfo import available_timezones
zones = sorted(z for z in available_timezones() if "/" in z and not z.startswith(("Etc/", "SystemV/", "US/")))[:400]
for i in range(int(sys.argv[1])):
    zone = zones[i % len(zones)] if i % 50 else "\\N"
    print(f"u{i:07d}\ten\t{zone}\t2026-01-01 00:00:00+00\t2026-01-01 00:00:00+00")
PY
start=$(date +%s.%N)
psql -c "\\copy users (id, locale, time_zone, created_at, updated_at) FROM '$work/users.tsv'"
psql -c "INSERT INTO devices (installation_id, user_id, platform, token, app_id, last_registered_at, created_at)
         SELECT 'ios-' || id, id, 'apns', md5(id) || md5('x' || id), 'com.example.app', now(), now() FROM users"
psql -c "ANALYZE"
echo "loaded in $(python3 -c "import time; print(round(time.time() - $start, 1))") s"
api -X POST "127.0.0.1:$port/v1/categories" -d '{"id":"daily-digest","name":"Daily digest",
  "templates":{"en":{"title":"Your digest","body":"{edition} edition"}}}' >/dev/null

echo "== plan: 09:00 tomorrow, everyone"
tomorrow=$(date -u -d tomorrow +%F)
api -o "$work/plan.json" -w 'plan: HTTP %{http_code} in %{time_total} s\n' -X POST "127.0.0.1:$port/v1/campaigns" \
    -d "{\"id\":\"plan\",\"category\":\"daily-digest\",\"audience\":{\"all\":true},\"date\":\"$tomorrow\",
         \"local_time\":\"09:00\",\"data\":{\"edition\":\"Tuesday\"}}"
python3 -c "import json, sys; d = json.load(open(sys.argv[1]))
print(len(d['waves']), 'waves,', d['planned'], 'recipients')" "$work/plan.json"
api -s -X POST "127.0.0.1:$port/v1/campaigns/plan/cancel" >/dev/null

echo "== fan-out: yesterday 00:00 with send_now, one wave of everyone due now"
yesterday=$(date -u -d yesterday +%F)
start=$(date +%s.%N)
api -o /dev/null -w 'plan: HTTP %{http_code} in %{time_total} s\n' -X POST "127.0.0.1:$port/v1/campaigns" \
    -d "{\"id\":\"now\",\"category\":\"daily-digest\",\"audience\":{\"all\":true},\"date\":\"$yesterday\",
         \"local_time\":\"00:00\",\"late\":\"send_now\",\"data\":{\"edition\":\"Monday\"}}"
enqueued_at=""
while true; do
    read -r enqueued pending <<<"$(psql -F ' ' -c "SELECT (SELECT coalesce(sum(enqueued), 0) FROM campaign_waves
        WHERE campaign_id = 'now'), (SELECT count(*) FROM events WHERE state = 'pending')")"
    now=$(date +%s.%N)
    if [[ -z $enqueued_at && $enqueued -ge $users ]]; then
        enqueued_at=$now
        python3 -c "print(f'enqueued {$enqueued} in {$now - $start:.1f} s: '
                          f'{$enqueued / ($now - $start):,.0f} recipients/s')"
    fi
    if [[ -n $enqueued_at && ($pending -eq 0 || ${WORKERS:-4} -eq 0) ]]; then break; fi
    sleep 0.5
done
[[ ${WORKERS:-4} -eq 0 ]] && exit 0
decided=$(psql -c "SELECT count(*) FROM campaign_events ce JOIN decisions d ON d.event_seq = ce.event_seq
                   WHERE ce.campaign_id = 'now'")
python3 -c "print(f'decided {$decided} in {$now - $start:.1f} s: {$decided / ($now - $start):,.0f} recipients/s')"
psql -c "SELECT outcome, count(*) FROM decisions GROUP BY 1 ORDER BY 2 DESC"
