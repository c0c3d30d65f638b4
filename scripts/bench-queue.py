#!/usr/bin/env python3
"""Measure the queue: enqueue throughput, cache-hit round trip per worker, and broker overhead.

Usage (from the repository root, after `swift build -c release --product darkroom`):
    python3 scripts/bench-queue.py [--darkroom PATH] [--baseline PATH] [--jobs 100000]
                                   [--round-trip-jobs 20000] [--concurrency N] [--rounds 3]
                                   [--only enqueue,out,bare,run]

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

With `--baseline PATH` (another build, e.g. of an earlier commit) every measure runs with both
binaries, alternating within each round (which one goes first alternates too), and the table
gives both and their ratio: compare builds in one run, since this machine's speed drifts.

Prints a Markdown table with the median of `--rounds` rounds of each. Exits 2 when a binary or
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
    parser.add_argument("--baseline", help="another darkroom binary to measure in the same rounds")
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
    binaries = [darkroom] + ([os.path.abspath(args.baseline)] if args.baseline else [])
    for binary in binaries:
        if not os.access(binary, os.X_OK):
            print(f"no darkroom binary at {binary}; run `swift build -c release --product darkroom`", file=sys.stderr)
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

        def interleaved(measure):
            """`measure(binary)` for each binary, --rounds times, the order alternating: the
            times per binary."""
            times = {binary: [] for binary in binaries}
            for round_number in range(args.rounds):
                order = binaries if round_number % 2 == 0 else binaries[::-1]
                for binary in order:
                    times[binary].append(measure(binary))
            return times

        def enqueue(binary):
            redis.cli("FLUSHALL")
            start = time.perf_counter()
            run([binary, "enqueue", "--from", listing, "-p", "resize(400x300)", "--batch", "bench"], env)
            elapsed = time.perf_counter() - start
            queued = int(redis.cli("HGET", "darkroom:batch:bench", "total") or 0)
            if queued != args.jobs:
                raise SystemExit(f"enqueue reported success but the batch holds {queued} jobs, not {args.jobs}")
            return elapsed

        enqueue_times = interleaved(enqueue) if "enqueue" in parts else None

        # 2. Round trip through Redis, on cache hits.
        image = os.path.join(work, "hit.png")
        with open(image, "wb") as f:
            f.write(png(320, 240))
        hits = os.path.join(work, "hits.txt")
        with open(hits, "w") as f:
            for i in range(args.round_trip_jobs):
                f.write(f'{{"source": "{image}", "id": "hit-{i}"}}\n')
        out = os.path.join(work, "out")

        def round_trip(darkroom, with_out):
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

        worker_times = interleaved(lambda binary: round_trip(binary, True)) if "out" in parts else None
        bare_times = interleaved(lambda binary: round_trip(binary, False)) if "bare" in parts else None

        # 3. The same jobs in-process.
        def embedded(binary):
            shutil.rmtree(out, ignore_errors=True)
            start = time.perf_counter()
            run([binary, "run", "--from", hits, "-p", "resize(64x48)", "--out", out,
                 "--concurrency", str(args.concurrency or os.cpu_count() or 2)], env)
            return time.perf_counter() - start

        run_times = interleaved(embedded) if "run" in parts else None
    finally:
        redis.stop()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)

    report(args, binaries, enqueue_times, worker_times, bare_times, run_times)
    return 0


def report(args, binaries, enqueue_times, worker_times, bare_times, run_times):
    """The Markdown table: per measure the median time and rate of each binary, and with a
    baseline the rate's ratio (this build's over the baseline's)."""
    worker_flag = f"-j {args.concurrency}" if args.concurrency else "(default -j)"
    n = args.round_trip_jobs
    rows = [
        (enqueue_times, f"enqueue {args.jobs} jobs (one `darkroom enqueue --from`)", args.jobs),
        (worker_times, f"{n} cache-hit jobs, one `darkroom worker {worker_flag}`", n),
        (bare_times, f"the same jobs without --out (pure cache hits), one `darkroom worker {worker_flag}`", n),
        (run_times, "the same jobs, `darkroom run` (in-process queue, writes --out)", n),
    ]
    names = ["this build"] + (["baseline", "this ÷ baseline (rate)"] if len(binaries) > 1 else [])
    print(f"| measure (median of {args.rounds}) | " + " | ".join(names) + " |")
    print("|---|" + "---:|" * len(names))
    medians = {}
    for times, label, count in rows:
        if not times:
            continue
        cells = []
        for binary in binaries:
            medians[(label, binary)] = statistics.median(times[binary])
            cells.append(f"{medians[(label, binary)]:.3f} s, {count / medians[(label, binary)]:,.0f} jobs/s")
        if len(binaries) > 1:
            cells.append(f"{medians[(label, binaries[1])] / medians[(label, binaries[0])]:.2f}×")
        print(f"| {label} | " + " | ".join(cells) + " |")
    for binary in binaries:
        which = "" if binary == binaries[0] else " (baseline)"
        bare = medians.get((rows[2][1], binary))
        worker = medians.get((rows[1][1], binary))
        embedded = medians.get((rows[3][1], binary))
        if bare:
            # Everything a pure cache hit costs per job, broker included: an upper bound on the broker's share.
            print(f"| wall time per pure cache-hit job (upper bound on broker overhead){which} | {bare / n * 1e6:.1f} µs |")
        if worker and embedded:
            # Noisy, and negative when the in-memory queue is the slower one (at high -c, one actor serialises it).
            print(f"| Redis worker − `darkroom run`, per job{which} | {(worker - embedded) / n * 1e6:.1f} µs |")


if __name__ == "__main__":
    sys.exit(main())
