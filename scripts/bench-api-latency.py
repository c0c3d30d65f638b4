#!/usr/bin/env python3
"""Measure single-job submit latency at a fixed rate, sent open-loop: `POST /v1/jobs` through one
`darkroom api` on loopback.

Usage (from the repository root, after `swift build -c release --product darkroom`):
    python3 scripts/bench-api-latency.py [--darkroom PATH] [--rate 500] [--seconds 20]
                                         [--warm-up 2] [--connections 32]

Starts its own redis-server (persistence off) and one `darkroom api` on a loopback port, makes an
API key, and sends `--rate` requests a second for `--warm-up` + `--seconds` seconds, each a job
`{"source": "https://images.example.com/u/N.jpg", "chain": "downsample(400x400)", "format": "webp"}`
(no worker runs). Requests are sent open-loop (`bench_http.OpenLoop`): each has an intended send
time on a fixed schedule, and its latency runs from that time to its answer, so a server that
stalls makes the requests behind it late and they count — unlike `wrk`, which waits for answers
before sending more and so hides the stall. The pool holds `--connections` keep-alive connections;
a request that finds none free waits for one (and that wait counts too).

Reports, for the requests after the warm-up: p50, p90, p99, p99.9 and max latency; the answers'
statuses (all must be 201); how late the client wrote the requests (how many more than 1 ms
late, p99 and max of the lateness, how many waited for a connection), so the reader can judge
the client; the CPU the API and Redis used, and Redis commands per request; and the load average. Exits 2 when the binary or
redis-server is missing.
"""

import argparse
import json
import shutil
import sys
import tempfile
from collections import Counter

from bench_http import (DEFAULT_DARKROOM, Fleet, OpenLoop, context, load_average, percentile, process_cpu, redis_commands,
                        redis_cpu, request_bytes, require)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--darkroom", default=DEFAULT_DARKROOM)
    parser.add_argument("--rate", type=float, default=500)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--warm-up", type=float, default=2)
    parser.add_argument("--connections", type=int, default=32)
    args = parser.parse_args()
    require(args.darkroom)
    work = tempfile.mkdtemp(prefix="darkroom-bench-api-latency-")
    print(context())
    fleet = Fleet(args.darkroom, work)
    try:
        api, port = fleet.api()
        token = fleet.api_key()
        warm = int(args.rate * args.warm_up)
        total = warm + int(args.rate * args.seconds)
        requests = [request_bytes("POST", "/v1/jobs", token, json.dumps(
            {"source": f"https://images.example.com/u/{i:06d}.jpg", "chain": "downsample(400x400)", "format": "webp"}).encode())
            for i in range(total)]
        sender = OpenLoop(port, args.connections)
        api_before, redis_before, commands_before = process_cpu(api.pid), redis_cpu(fleet.redis), redis_commands(fleet.redis)
        sender.run(requests, args.rate)
        api_cpu, used_redis = process_cpu(api.pid) - api_before, redis_cpu(fleet.redis) - redis_before
        commands = redis_commands(fleet.redis) - commands_before
        load = load_average()
        sender.close()
    finally:
        fleet.stop()
        shutil.rmtree(work, ignore_errors=True)

    measured = total - warm
    latencies = [v * 1000 for v in sender.latencies(warm)]
    lags = [v * 1000 for v in sender.lags(warm)]
    statuses = Counter(s for s in sender.status[warm:])
    bad = [i for i in range(warm, total) if sender.status[i] != 201]
    print(f"{measured:,} requests at {args.rate:g}/s over {args.connections} keep-alive connections "
          f"(after {warm:,} warm-up requests); load average at the end {load}")
    print()
    print("| answered | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms | statuses |")
    print("|---:|---:|---:|---:|---:|---:|---|")
    if latencies:
        print(f"| {len(latencies):,} of {measured:,} | {percentile(latencies, 0.5):.2f} | {percentile(latencies, 0.9):.2f} | "
              f"{percentile(latencies, 0.99):.2f} | {percentile(latencies, 0.999):.2f} | {max(latencies):.2f} | "
              f"{', '.join(f'{s}: {n:,}' for s, n in sorted(statuses.items(), key=lambda x: str(x[0])))} |")
    print()
    late = sum(1 for v in lags if v > 1)
    print(f"client: {late:,} requests written more than 1 ms after their intended time "
          f"(lateness p99 {percentile(lags, 0.99):.2f} ms, max {max(lags):.2f} ms); "
          f"{sender.waited:,} waited for a free connection")
    seconds = args.warm_up + args.seconds
    print(f"CPU over the run: the API {api_cpu / seconds:.2f} of a core ({api_cpu / total * 1000:.2f} ms per request), "
          f"Redis {used_redis / seconds:.2f} ({commands / total:.1f} commands per request)")
    if bad:
        print(f"first refused answer: {sender.status[bad[0]]} {sender.bodies[bad[0]]!r}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
