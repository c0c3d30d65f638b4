#!/usr/bin/env bash
# How a worker's -j (jobs in flight) affects a CPU-bound batch: the 9 corpus JPEGs, each through
# 4 slightly different thumbnail chains (so every job computes: 36 jobs), run by one
# `darkroom worker -j J` with no cache. Prints the batch's wall time and the worker's peak RSS per
# -j. The cache-hit side of the choice is `scripts/bench-queue.py --only bare --concurrency J`.
#
#   scripts/bench-worker-concurrency.sh [J …]       (default: 2 8 16; `default` runs without -j)
#
# Reads ../shared/corpus (by path; never copied). Needs redis-server and a release build.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus="$(cd .. && pwd)/shared/corpus"
if [ ! -d "$corpus" ]; then
    echo "THE CORPUS IS MISSING: $corpus (this benchmark reads its photographs)" >&2
    exit 2
fi
darkroom="$PWD/.build/release/darkroom"
[ -x "$darkroom" ] || { echo "build first: swift build -c release --product darkroom" >&2; exit 2; }
work=$(mktemp -d /tmp/darkroom-bench-j.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
redis-server --port "$port" --save "" --appendonly no --dir "$work" >/dev/null &
redis_pid=$!
trap 'kill $redis_pid 2>/dev/null; rm -rf "$work"' EXIT
sleep 0.3
url="redis://127.0.0.1:$port"
echo "| -j | 36 computed jobs: wall | worker peak RSS |"
echo "|---:|---:|---:|"
for j in "${@:-2 8 16}"; do
    for j1 in $j; do
        redis-cli -p "$port" FLUSHALL >/dev/null
        mkdir -p "$work/out"
        for size in 400 401 402 403; do
            "$darkroom" enqueue --redis "$url" "$corpus"/j*.jpg -p "downsample(${size}x${size})" --format webp \
                --batch "b$j1" --out "$work/out" >/dev/null
        done
        start=$(date +%s.%N)
        jobs=(-j "$j1")
        [ "$j1" = default ] && jobs=()
        /usr/bin/time -f "%M" -o "$work/rss" "$darkroom" worker --redis "$url" "${jobs[@]}" --allow-file-root "$corpus" \
            --allow-output-root "$work/out" --log-level error &
        worker=$!
        "$darkroom" wait "b$j1" --redis "$url" >/dev/null
        end=$(date +%s.%N)
        # SIGTERM to the worker itself (time(1) does not pass signals on); time then reports.
        pkill -TERM -P $worker; wait $worker || true
        printf "| %s | %.2f s | %d MB |\n" "$j1" "$(echo "$end - $start" | bc)" "$(( $(cat "$work/rss") / 1024 ))"
    done
done
