#!/usr/bin/env bash
# Validates openapi.yaml and runs schemathesis against a running herald with its own embedded PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/.."
herald=${1:-.build/debug/herald}

if [[ ! -x .venv/bin/schemathesis ]]; then
    python3 -m venv .venv
    .venv/bin/pip install -q --disable-pip-version-check -r scripts/requirements-test.txt
fi
.venv/bin/openapi-spec-validator openapi.yaml

# shellcheck source=serve-herald.sh
source scripts/serve-herald.sh
start_herald "$herald" hk_contract

# A category and a few users in different zones, so the documented campaign example plans real waves.
python3 - "$port" "$key" <<'PY'
import json, sys, urllib.request
port, key = sys.argv[1], sys.argv[2]
def call(method, path, body):
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(), method=method,
        headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
    urllib.request.urlopen(request, timeout=5).read()
call("POST", "/v1/categories", {"id": "daily-digest", "name": "Daily digest",
                                "templates": {"en": {"title": "Your digest", "body": "{edition} edition"}}})
for user, zone in [("contract-paris", "Europe/Paris"), ("contract-kolkata", "Asia/Kolkata"),
                   ("contract-kathmandu", "Asia/Kathmandu")]:
    call("PUT", f"/v1/users/{user}", {"locale": "en", "time_zone": zone})
PY

# One worker: the generator is not thread-safe on every Python (a rare internal "AST recursion depth" error).
.venv/bin/schemathesis run openapi.yaml --url "http://127.0.0.1:$port" \
    --header "Authorization: Bearer $key" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
    --phases examples,coverage,fuzzing --max-examples 20 --seed 1 --workers 1 --no-shrink

# The client surface, with a client token of a user that exists (API keys get 403 there, which the run above saw).
client_token=$(python3 - "$port" "$key" <<'PY'
import json, sys, urllib.request
port, key = sys.argv[1], sys.argv[2]
def call(method, path, body):
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(), method=method,
        headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(request, timeout=5))
call("PUT", "/v1/users/contract-client", {"locale": "en"})
print(call("POST", "/v1/users/contract-client/client-tokens", {"ttl_seconds": 3600})["token"])
PY
)
.venv/bin/schemathesis run openapi.yaml --url "http://127.0.0.1:$port" \
    --header "Authorization: Bearer $client_token" --include-tag client \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
    --phases examples,coverage,fuzzing --max-examples 20 --seed 1 --workers 1 --no-shrink
