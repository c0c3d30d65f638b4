#!/usr/bin/env python3
"""Measure submitting through the HTTP API against `darkroom enqueue --from`, the same jobs on
the same Redis, rounds interleaved.

Usage (from the repository root, after `swift build -c release --product darkroom`):
    python3 scripts/bench-api-submit.py [--darkroom PATH] [--jobs 50000] [--per-request 100]
                                        [--connections 1,4] [--rounds 3]

Starts its own redis-server (persistence off) and one `darkroom api` on a loopback port. The jobs
are `--jobs` JSON lines `{"source": "https://images.example.com/u/N.jpg"}` with the chain
`downsample(400x400)` and the format `webp` (no worker runs, so nothing is fetched). Each round
measures, in alternating order, Redis flushed and a new API key made before each:

- enqueue: one `darkroom enqueue --from FILE -p CHAIN --format webp` process, timed from its start
  to its exit (start-up, validation, pipelined Lua), as in bench-queue.py;
- API, for each `--connections` count C: the same jobs as `POST /v1/batches` bodies of
  `--per-request` jobs (the chain and format as the batch's defaults), sent over C keep-alive
  connections, each sending its next request when its last was answered; timed from the first
  request to the last answer (after one warm-up request). Every answer must be 201.

Reports jobs/s per round and the medians, the API's ratio to enqueue (median of the rounds'
ratios), and CPU per 1,000 jobs of the API process, of Redis and of this client (so a reader can
see whether the client bounds the API side), or of the enqueue process and Redis. Exits 2 when the
binary or redis-server is missing.
"""

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from bench_http import DEFAULT_DARKROOM, Connection, Fleet, context, process_cpu, redis_cpu, request_bytes, require

CHAIN, FORMAT = "downsample(400x400)", "webp"


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def enqueue(fleet, listing, batch, jobs):
    cpu, redis_before = children_cpu(), redis_cpu(fleet.redis)
    start = time.perf_counter()
    fleet.run("enqueue", "--from", listing, "-p", CHAIN, "--format", FORMAT, "--batch", batch)
    elapsed = time.perf_counter() - start
    check_total(fleet, batch, jobs)
    return elapsed, {"enqueue": children_cpu() - cpu, "redis": redis_cpu(fleet.redis) - redis_before}


def through_api(fleet, api, port, token, bodies, batch, jobs, connections):
    pool = [Connection(port) for _ in range(connections)]
    status, body = pool[0].request(request_bytes("POST", "/v1/jobs", token, json.dumps(
        {"source": "https://images.example.com/warm.jpg", "chain": CHAIN, "batch": "warm-up"}).encode()))
    if status != 201:
        sys.exit(f"the warm-up request answered {status}: {body[:500]!r}")
    requests = [request_bytes("POST", "/v1/batches", token, body.replace(b"@BATCH@", batch.encode())) for body in bodies]
    failures = []

    def send(connection, share):
        for data in share:
            status, answer = connection.request(data)
            if status != 201:
                failures.append((status, answer[:500]))
                return

    threads = [threading.Thread(target=send, args=(c, requests[i::connections])) for i, c in enumerate(pool)]
    api_before, redis_before, client_before = process_cpu(api.pid), redis_cpu(fleet.redis), time.process_time()
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - start
    cpu = {"api": process_cpu(api.pid) - api_before, "redis": redis_cpu(fleet.redis) - redis_before,
           "client": time.process_time() - client_before}
    for connection in pool:
        connection.close()
    if failures:
        sys.exit(f"a submit answered {failures[0][0]}: {failures[0][1]!r}")
    check_total(fleet, batch, jobs)
    return elapsed, cpu


def check_total(fleet, batch, jobs):
    total = int(fleet.redis.command("HGET", f"darkroom:batch:{batch}", "total") or 0)
    if total != jobs:
        sys.exit(f"batch {batch} holds {total} jobs, not {jobs}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--darkroom", default=DEFAULT_DARKROOM)
    parser.add_argument("--jobs", type=int, default=50_000)
    parser.add_argument("--per-request", type=int, default=100)
    parser.add_argument("--connections", default="1,4", help="comma-separated connection counts for the API side")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    require(args.darkroom)
    counts = [int(c) for c in args.connections.split(",")]
    work = tempfile.mkdtemp(prefix="darkroom-bench-api-submit-")
    print(context())
    fleet = Fleet(args.darkroom, work)
    try:
        sources = [f"https://images.example.com/u/{i:06d}.jpg" for i in range(args.jobs)]
        listing = os.path.join(work, "jobs.jsonl")
        with open(listing, "w") as out:
            out.writelines(json.dumps({"source": s}) + "\n" for s in sources)
        bodies = [json.dumps({"batch": "@BATCH@", "chain": CHAIN, "format": FORMAT,
                              "jobs": [{"source": s} for s in sources[i:i + args.per_request]]}).encode()
                  for i in range(0, args.jobs, args.per_request)]
        api, port = fleet.api()
        measures = ["enqueue"] + [f"api-{c}" for c in counts]
        times = {m: [] for m in measures}
        cpus = {m: [] for m in measures}
        for round_number in range(args.rounds):
            order = measures if round_number % 2 == 0 else list(reversed(measures))
            for measure in order:
                fleet.redis.command("FLUSHALL")
                batch = f"{measure}-{round_number}"
                if measure == "enqueue":
                    elapsed, cpu = enqueue(fleet, listing, batch, args.jobs)
                else:
                    token = fleet.api_key()
                    elapsed, cpu = through_api(fleet, api, port, token, bodies, batch, args.jobs, int(measure[4:]))
                times[measure].append(elapsed)
                cpus[measure].append(cpu)
                print(f"round {round_number + 1} {measure}: {args.jobs / elapsed:,.0f} jobs/s", file=sys.stderr)
    finally:
        fleet.stop()
        shutil.rmtree(work, ignore_errors=True)

    print(f"{args.jobs:,} jobs, API bodies of {args.per_request} jobs, {args.rounds} rounds interleaved")
    print()
    print("| path | jobs/s per round | median | / enqueue (median of rounds) | CPU ms per 1,000 jobs (median) |")
    print("|---|---|---:|---:|---|")
    for measure in measures:
        rates = [args.jobs / t for t in times[measure]]
        if measure == "enqueue":
            name, ratio = "`darkroom enqueue --from` (one process)", ""
        else:
            name = f"`POST /v1/batches`, {measure[4:]} connection{'s' if measure[4:] != '1' else ''}"
            ratio = f"{statistics.median(e / t for e, t in zip(times['enqueue'], times[measure])):.2f}×"
        per_thousand = ", ".join(f"{part} {statistics.median(c[part] for c in cpus[measure]) / args.jobs * 1e6:.1f}"
                                 for part in cpus[measure][0])
        print(f"| {name} | {' · '.join(f'{r:,.0f}' for r in rates)} | {statistics.median(rates):,.0f} | {ratio} | {per_thousand} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
