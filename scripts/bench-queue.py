#!/usr/bin/env python3
"""Measure the queue: enqueue throughput, cache-hit round trip per worker, and broker overhead.

Usage (from the repository root, after `swift build -c release --product darkroom`):
    python3 scripts/bench-queue.py [--darkroom PATH] [--jobs 100000] [--round-trip-jobs 20000]
                                   [--concurrency N] [--rounds 3] [--only enqueue,out,bare,run]

Starts its own redis-server (persistence off) on a free port in a temporary directory, then:

1. Enqueue: writes `--jobs` source lines to a file and times `darkroom enqueue --from FILE` (one
   process: start-up, chain validation, JSON encoding, pipelined Lua enqueue). Reports jobs/s.
   Redis is flushed between rounds.
2. Round trip on cache hits: one real PNG, `--round-trip-jobs` jobs of the same source and chain
   (distinct job ids, each written to `--out`), so every job after the first is a memory-cache hit and what is measured is
   the broker: reserve, `started` event, acknowledgement with its `succeeded` event. Times one
   `darkroom worker` from its start until the batch is complete (polled with HGET every 20 ms).
   Reports jobs/s per worker process.
2b. The same round trip without `--out` (pure cache hits: nothing is written, the `succeeded`
   event names the cache file): the broker plus a memory-cache lookup per job.
3. The same jobs through `darkroom run` (the in-process MemoryQueue, same worker code, same
   pipeline; but a Redis worker fsyncs each output before acknowledging and `run` does not): the difference in wall time per job between 2 and 3 is the Redis broker's overhead
   per job.

Prints a Markdown table with the median of `--rounds` rounds of each. Exits 2 when the binary or
redis-server is missing.
"""

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

from bench_common import Redis, png


def run(cmd, env, **kw):
    return subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, **kw)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--darkroom", default=".build/release/darkroom")
    parser.add_argument("--jobs", type=int, default=100_000)
    parser.add_argument("--round-trip-jobs", type=int, default=20_000)
    parser.add_argument("--concurrency", type=int, default=None,
                        help="the worker's -j (default: the worker's own default); `run` uses it or the cores")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", default="enqueue,out,bare,run",
                        help="comma-separated measures to run: enqueue, out (round trip with --out), bare (without), run")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (logs)")
    args = parser.parse_args()
    darkroom = os.path.abspath(args.darkroom)
    if not os.access(darkroom, os.X_OK):
        print(f"no darkroom binary at {darkroom}; run `swift build -c release --product darkroom`", file=sys.stderr)
        return 2
    if not shutil.which("redis-server") or not shutil.which("redis-cli"):
        print("redis-server and redis-cli are needed (apt-get install -y redis-server)", file=sys.stderr)
        return 2

    work = tempfile.mkdtemp(prefix="darkroom-bench-queue-")
    redis = Redis(work)
    env = dict(os.environ, DARKROOM_REDIS_URL=redis.url)
    env.pop("DARKROOM_CACHE_DIR", None)
    try:
        # 1. Enqueue.
        listing = os.path.join(work, "sources.txt")
        with open(listing, "w") as f:
            for i in range(args.jobs):
                f.write(f"/volume/images/photo{i:06d}.jpg\n")
        parts = set(args.only.split(","))
        enqueue_times = []
        for _ in range(args.rounds if "enqueue" in parts else 0):
            redis.cli("FLUSHALL")
            start = time.perf_counter()
            run([darkroom, "enqueue", "--from", listing, "-p", "resize(400x300)", "--batch", "bench"], env)
            enqueue_times.append(time.perf_counter() - start)
            queued = int(redis.cli("HGET", "darkroom:batch:bench", "total") or 0)
            if queued != args.jobs:
                raise SystemExit(f"enqueue reported success but the batch holds {queued} jobs, not {args.jobs}")

        # 2. Round trip through Redis, on cache hits.
        image = os.path.join(work, "hit.png")
        with open(image, "wb") as f:
            f.write(png(320, 240))
        hits = os.path.join(work, "hits.txt")
        with open(hits, "w") as f:
            for i in range(args.round_trip_jobs):
                f.write(f'{{"source": "{image}", "id": "hit-{i}"}}\n')
        out = os.path.join(work, "out")

        def round_trip(with_out):
            redis.cli("FLUSHALL")
            shutil.rmtree(out, ignore_errors=True)
            # With --out like `darkroom run` below, so both write the same files.
            run([darkroom, "enqueue", "--from", hits, "-p", "resize(64x48)", "--batch", "hits"]
                + (["--out", out] if with_out else []), env)
            start = time.perf_counter()
            jobs = ["--concurrency", str(args.concurrency)] if args.concurrency else []
            worker = subprocess.Popen([darkroom, "worker"] + jobs + [
                                       "--allow-file-root", work, "--allow-output-root", work, "--name", "bench"], env=env,
                                      stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "worker.log"), "a"))
            while True:
                done = int(redis.command("HGET", "darkroom:batch:hits", "succeeded") or 0)
                if done >= args.round_trip_jobs:
                    break
                if worker.poll() is not None:
                    raise SystemExit(f"the worker exited early; see {work}/worker.log")
                time.sleep(0.02)
            elapsed = time.perf_counter() - start
            worker.send_signal(signal.SIGKILL)
            worker.wait()
            return elapsed

        worker_times = [round_trip(True) for _ in range(args.rounds if "out" in parts else 0)]
        bare_times = [round_trip(False) for _ in range(args.rounds if "bare" in parts else 0)]

        # 3. The same jobs in-process.
        run_times = []
        for _ in range(args.rounds if "run" in parts else 0):
            shutil.rmtree(out, ignore_errors=True)
            start = time.perf_counter()
            run([darkroom, "run", "--from", hits, "-p", "resize(64x48)", "--out", out,
                 "--concurrency", str(args.concurrency or os.cpu_count() or 2)], env)
            run_times.append(time.perf_counter() - start)
    finally:
        redis.stop()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)

    worker_flag = f"-j {args.concurrency}" if args.concurrency else "(default -j)"

    def median(times):
        return statistics.median(times) if times else None
    enqueue, worker, bare, embedded = median(enqueue_times), median(worker_times), median(bare_times), median(run_times)
    n = args.round_trip_jobs
    print(f"| measure | median of {args.rounds} | rate |")
    print("|---|---|---|")
    if enqueue:
        print(f"| enqueue {args.jobs} jobs (one `darkroom enqueue --from`) | {enqueue:.3f} s | {args.jobs / enqueue:,.0f} jobs/s |")
    if worker:
        print(f"| {n} cache-hit jobs, one `darkroom worker {worker_flag}` | {worker:.3f} s | {n / worker:,.0f} jobs/s |")
    if bare:
        print(f"| the same jobs without --out (pure cache hits), one `darkroom worker {worker_flag}` | {bare:.3f} s | {n / bare:,.0f} jobs/s |")
    if embedded:
        print(f"| the same jobs, `darkroom run` (in-process queue, writes --out) | {embedded:.3f} s | {n / embedded:,.0f} jobs/s |")
    if bare:
        # Everything a pure cache hit costs per job, broker included: an upper bound on the broker's share.
        print(f"| wall time per pure cache-hit job (upper bound on broker overhead) | {bare / n * 1e6:.1f} µs | |")
    if worker and embedded:
        # Noisy, and negative when the in-memory queue is the slower one (at high -c, one actor serialises it).
        print(f"| Redis worker − `darkroom run`, per job | {(worker - embedded) / n * 1e6:.1f} µs | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
