#!/usr/bin/env bash
# Runs every test: unit, PostgreSQL integration and end-to-end against the built binary, then the API
# contract checks (OpenAPI validation and schemathesis against a running herald) and the web console in a browser.
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

export HERALD_BINARY="$bin/herald"
export HERALD_SQL_DIR="$PWD/sql"
# Every process the tests start inherits this mark, the PostgreSQL servers among them. A test process that dies
# (a crash, a timeout) cannot stop its servers; after each run, whatever still carries the mark is stopped here.
export HERALD_TEST_RUN="$$-$started"
stop_strays() {
    local pid found=()
    for pid in $(grep -lsz -x -F "HERALD_TEST_RUN=$HERALD_TEST_RUN" /proc/[0-9]*/environ | cut -d/ -f3); do
        [[ $pid == "$$" || ! -e /proc/$pid ]] || found+=("$pid")
    done
    if ((${#found[@]})); then
        echo "stopping ${#found[@]} processes the tests left running: $(ps -o comm= -p "${found[@]}" | sort | uniq -c | xargs)"
        kill -KILL "${found[@]}" 2>/dev/null || true
    fi
}
log=$(mktemp)
trap 'stop_strays; rm -f "$log" "$log.shifted"' EXIT
# Two runs: the service suites drive handlers synchronously (blocking database calls) and start real binaries,
# which would starve the timing-sensitive pool and listener tests of the 2-thread cooperative pool.
for part in "--skip HeraldServiceTests" "--filter HeraldServiceTests"; do
    echo "== swift test $part"
    set +e
    # shellcheck disable=SC2086
    $swift test --skip-build $part 2>&1 | tee -a "$log" | grep -v -E '^(◇|↳|\s+Executed|Test Suite|Test Case)'
    status=${PIPESTATUS[0]}
    set -e
    stop_strays
    [[ $status -eq 0 ]] || { echo "swift test $part failed ($status)"; grep -E '✘' "$log" | head -40; exit "$status"; }
done
echo "== swift test summary"
grep -E "Test run with [0-9]+ tests" "$log"

# The suites that store times from the service's clock and read them back against policy, again with the machine's
# wall clock 400 days ahead and 400 days back: scripts/clock-shift moves it for the test process, its PostgreSQL
# and the herald binaries it starts alike. A time stamped by the database's clock where the service's should
# count, or a test date that only holds today, fails here.
shift_lib=.build/clock-shift.so
gcc -O2 -Wall -shared -fPIC -o "$shift_lib" scripts/clock-shift/clock-shift.c -ldl
shifted='DeliveriesQueueTests|FeedbackAPITests|DevicesAPITests|DeviceLossTests|UsersMutesTests|ClientReceiptsTests'
shifted+='|ReadsTests|RetentionTests|CampaignExecutionTests|APIKeysAPITests|EndToEndTests'
shifted+='|UsersDecisionsAPITests|DecisionRepositoryUserTests|LiveActivitiesAPITests|CiphertextConfinementEndToEndTests'
shifted+='|DeliveriesEndingTests|DeliveriesTimeToLiveTests|RetentionUnreadTests|UsersDeleteTests'
shifted+='|ImportDevicesTests|UserRowLockTests|ClientDeviceMoveTests|MePreferenceCenterTests'
shifted+='|RecipientCountersTests|DecisionRepositoryTests'
for days in 400 -400; do
    echo "== swift test, wall clock shifted $days days: $shifted"
    set +e
    CLOCK_SHIFT_SECONDS=$((days * 86400)) LD_PRELOAD="$PWD/$shift_lib" \
        $swift test --skip-build --filter "$shifted" >"$log.shifted" 2>&1
    status=$?
    set -e
    stop_strays
    if [[ $status -ne 0 ]]; then
        echo "swift test with the wall clock shifted $days days failed ($status)"
        grep -E '✘' "$log.shifted" | head -40
        exit "$status"
    fi
    grep -E "Test run with [0-9]+ tests" "$log.shifted"
done
rm -f "$log.shifted"

echo "== benchmark harness (herald bench --quick --soak: every figure present; no speed asserted)"
bench_json=$(mktemp --suffix=.json)
bench_started=$(date +%s)
"$bin/herald" bench --quick --soak --json "$bench_json" > /dev/null
jq -e '([.limit.events_per_second, .limit.deliveries_per_second, .pipeline.events_per_second,
        .pipeline.deliveries_per_second, .pipeline.ratio_to_limit, .ingest.events_per_second, .ingest.p50_ms,
        .ingest.p99_ms, .ingest_alone.events_per_second, .ingest_alone.p99_ms, .latency.p50_ms, .latency.p95_ms, .latency.p99_ms, .memory.peak_rss_mb,
        .population.load_seconds, .campaign.plan_seconds, .campaign.recipients_per_second,
        .campaign.decided_recipients_per_second, .aging.events_per_second, .aging.ratio_to_fresh,
        .aging.partitions_dropped, .aging.keys_trimmed, .ingest_limit.events_per_second,
        .ingest_alone.ratio_to_limit, .ingest.ratio_to_limit, .mixed.events_per_second, .mixed.accepted_per_second,
        .mixed.events_per_batch,
        .latency_limit.cpu_ratio_to_limit, .latency_limit.cpu_ratio_to_pipeline, .latency_limit.pace_ratio,
        .latency_limit.batch_ratio, .latency_limit.back_to_back.cpu_postgres_us_per_event,
        .latency_limit.one_transaction.cpu_ratio_to_pipeline, .latency_limit.one_transaction.cpu_postgres_us_per_event,
        .read_limit.floor_cpu_us_per_event,
        .read_limit.floor_ratio_to_limit, .read_limit.reads.cpu_postgres_us_per_event,
        .read_limit.floor_without_state_ratio_to_limit, .read_limit.locks.cpu_postgres_us_per_event,
        .latency_limit.split_ratio_to_pipeline, .latency_limit.least_ratio_to_pipeline,
        .read_limit.floor_without_state_with_deciding_ratio_to_limit]
        + ([.limit, .pipeline, .aging, .ingest_limit, .latency_limit, .ingest_alone, .ingest, .latency, .mixed,
            .campaign]
           | map(.cpu_herald_us_per_event, .cpu_postgres_us_per_event)) | all(type == "number" and . > 0))
    and (.mixed.backlog | type == "number" and . >= 0)
    and (.read_limit.herald_deciding_cpu_us_per_event | type == "number")
    and ([.latency.watcher_cores, .latency.watcher_herald_cores] | all(type == "number" and . >= 0))
    and (.latency.disk_flush | (.samples > 0) and ([.p50_ms, .p99_ms, .max_ms, .stalls_20ms, .stalled_ms]
            | all(type == "number" and . >= 0)))
    and (.latency.split | [.wait_p50_ms, .wait_p99_ms, .batch_p50_ms, .batch_p99_ms, .slowest_wait_mean_ms,
            .slowest_batch_mean_ms] | all(type == "number"))
    and (.targets | length == 10 and all(.[]; (.value | type == "number") and (.met | type == "boolean")))
    and (.soak | .observed == .events and (.rss_samples_mb | length >= 3 and all(type == "number" and . > 0)))
    and .campaign.status == "run" and (.git_commit | type == "string")' "$bench_json" > /dev/null \
    || { echo "herald bench --quick wrote incomplete figures:"; cat "$bench_json"; exit 1; }
echo "bench --quick passed in $(( $(date +%s) - bench_started )) s"
rm -f "$bench_json"

echo "== deploy files"
scripts/verify-deploy.sh "$bin/herald"

echo "== API contract"
scripts/test-api.sh "$bin/herald"

echo "== console in a browser (headless Chromium, Selenium)"
scripts/test-console.sh "$bin/herald"

echo "== all tests passed in $(( $(date +%s) - started )) s"
