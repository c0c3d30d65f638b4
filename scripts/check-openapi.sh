#!/usr/bin/env bash
# Checks the HTTP job API against its contract, docs/openapi.json:
#   1. the document itself through openapi-spec-validator (OpenAPI 3.1);
#   2. a live `darkroom api` (the binary given, default .build/release/darkroom) on a throw-away
#      redis-server, with an API key made by `darkroom api-key create`, through schemathesis:
#      every check (status codes and response bodies conform, undeclared methods answer 405,
#      nothing answers 5xx), generated requests from the schema, and stateful sequences.
# The settings (which refusals the schema cannot express) are in scripts/schemathesis.toml.
#
# Run from anywhere: bash scripts/check-openapi.sh [path/to/darkroom]. It installs nothing: the
# tools are redis-server (Debian) and, from PyPI, openapi-spec-validator and schemathesis
# (scripts/install-packages ci). Exit 1 when either check fails.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=$(realpath "${1:-.build/release/darkroom}")

echo "-- openapi-spec-validator docs/openapi.json"
python3 -m openapi_spec_validator docs/openapi.json

work=$(mktemp -d)
redis_port=$((20000 + RANDOM % 10000))
api_port=$((redis_port + 1))
cleanup() {
    [ -n "${api_pid:-}" ] && kill "$api_pid" 2>/dev/null && wait "$api_pid" 2>/dev/null
    redis-cli -p "$redis_port" shutdown nosave >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

redis-server --port "$redis_port" --save '' --appendonly no --daemonize yes \
    --dir "$work" --logfile "$work/redis.log" >/dev/null
for _ in $(seq 50); do redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break; sleep 0.1; done
redis="redis://127.0.0.1:$redis_port"

mkdir -p "$work/out" "$work/cache"
token=$("$binary" api-key create --redis "$redis" --name schemathesis \
    --scope submit --scope read --scope admin --rate 100000 --burst 100000 --json |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')

"$binary" api --listen "127.0.0.1:$api_port" --redis "$redis" \
    --output-root "$work/out" --cache-root "$work/cache" >"$work/api.log" 2>&1 &
api_pid=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$api_port/v1/openapi.json" >/dev/null && break; sleep 0.1; done

echo "-- schemathesis against darkroom api on 127.0.0.1:$api_port"
repository=$(pwd)
# From the scratch directory: schemathesis keeps its state in .schemathesis/ where it runs.
if ! (cd "$work" && schemathesis --config-file "$repository/scripts/schemathesis.toml" --no-color run "$repository/docs/openapi.json" \
    --url "http://127.0.0.1:$api_port" -H "Authorization: Bearer $token" \
    --checks all --max-examples 40 --seed 1 >"$work/schemathesis.log" 2>&1); then
    cat "$work/schemathesis.log"
    echo "-- the API's log:"
    tail -40 "$work/api.log"
    exit 1
fi
tail -12 "$work/schemathesis.log"
