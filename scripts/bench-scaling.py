#!/usr/bin/env python3
"""How Darkroom scales with workers, and what each job costs Redis.

Usage (from the repository root, after `swift build -c release --product darkroom`):
    python3 scripts/bench-scaling.py [--darkroom PATH] [--rounds 3] [--chains 4] [--hit-jobs 20000]
                                     [--workers 1,2,4] [--only cpu,hits]

Starts its own redis-server as a fleet's should be (AOF on, fsync every second) on a free port in
a temporary directory. For each worker count N, in interleaved rounds (1, 2, 4, 1, 2, 4, …):

1. cpu: the corpus JPEGs (../shared/corpus/j*.jpg, read by path) through --chains slightly
   different thumbnail chains (downsample to 400, 401, … px, WebP, no cache: every job decodes,
   resizes and encodes), run by N `darkroom worker -j 1 --cpus 1` processes — one job and one pixel
   thread each, so one worker is worth one core. The workers start and register first; the time
   runs from the enqueue until the batch's counters say every job succeeded.
2. hits: one small PNG, --hit-jobs jobs of the same source and chain (distinct ids, no output
   file), so after each worker's first job every job is a memory-cache hit: what is timed is the
   broker's round trip (reserve, `started` event, acknowledgement with the `succeeded` event). N
   workers at the default -j.

Around each batch it reads Redis' INFO commandstats and INFO cpu: commands and Lua script calls
(EVALSHA) per job, and Redis' own CPU time (user + system) per 1,000 jobs, enqueue included.
From those it projects the ceiling of one Redis (one core) in jobs/s and how many workers of
each kind that feeds.

Prints Markdown tables with the median of --rounds rounds. Exits 2 when the binary, redis-server
or the corpus is missing.
"""

import argparse
import glob
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

from bench_common import Redis

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "corpus")


def png(width, height):
    """A small opaque PNG, made by Pillow."""
    from PIL import Image
    image = Image.new("RGB", (width, height))
    image.putdata([((x * 7) & 255, (y * 3) & 255, (x + y) & 255) for y in range(height) for x in range(width)])
    return image


class Fleet:
    """N `darkroom worker` processes against one Redis."""

    def __init__(self, darkroom, redis, workdir, count, flags, roots):
        self.procs = []
        self.redis = redis
        env = dict(os.environ, DARKROOM_REDIS_URL=redis.url)
        env.pop("DARKROOM_CACHE_DIR", None)
        self.env = env
        log = open(os.path.join(workdir, "workers.log"), "a")
        for i in range(count):
            root_flags = [flag for root in roots for flag in ("--allow-file-root", root)]
            self.procs.append(subprocess.Popen(
                [darkroom, "worker", "--name", f"bench-{count}-{i}", "--log-level", "error"] + flags + root_flags,
                env=env, stdout=subprocess.DEVNULL, stderr=log))
        # Ready when every worker's heartbeat is listed (each sends one as it starts).
        deadline = time.time() + 30
        while int(redis.cli("ZCARD", "darkroom:workers") or 0) < count:
            if time.time() > deadline:
                raise SystemExit(f"workers did not register; see {workdir}/workers.log")
            time.sleep(0.05)

    def stop(self):
        for proc in self.procs:
            proc.send_signal(signal.SIGKILL)
        for proc in self.procs:
            proc.wait()


def redis_counters(redis):
    """(commands, EVALSHA calls, CPU seconds) so far."""
    stats = redis.info("commandstats")
    commands = evalsha = 0
    for key, value in stats.items():
        calls = int(dict(part.split("=") for part in value.split(","))["calls"])
        commands += calls
        if key in ("cmdstat_evalsha", "cmdstat_eval"):
            evalsha += calls
    cpu = redis.info("cpu")
    return commands, evalsha, float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"])


def run_batch(darkroom, redis, workdir, count, worker_flags, roots, listing, chain, batch, total):
    """Starts `count` workers, enqueues `listing`, waits for the batch; returns (seconds, costs)."""
    redis.cli("FLUSHALL")
    fleet = Fleet(darkroom, redis, workdir, count, worker_flags, roots)
    try:
        before, polls = redis_counters(redis), redis.sent
        start = time.perf_counter()
        subprocess.run([darkroom, "enqueue", "--from", listing, "-p", chain, "--format", "webp", "--batch", batch],
                       env=fleet.env, check=True, stdout=subprocess.DEVNULL)
        while True:
            done = int(redis.command("HGET", f"darkroom:batch:{batch}", "succeeded") or 0)
            failed = int(redis.command("HGET", f"darkroom:batch:{batch}", "failed") or 0)
            if failed:
                raise SystemExit(f"{failed} jobs failed; see {workdir}/workers.log")
            if done >= total:
                break
            time.sleep(0.01)
        elapsed = time.perf_counter() - start
        after = redis_counters(redis)
    finally:
        fleet.stop()
    # The polling above goes through the same Redis: take its HGETs out of the command count.
    commands = after[0] - before[0] - (redis.sent - polls)
    commands -= 1  # the INFO cpu of the first snapshot
    return elapsed, {"commands": commands / total, "lua": (after[1] - before[1]) / total,
                     "cpu_ms_per_1000": (after[2] - before[2]) * 1e6 / total}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--darkroom", default=".build/release/darkroom")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--chains", type=int, default=4)
    parser.add_argument("--hit-jobs", type=int, default=20_000)
    parser.add_argument("--workers", default="1,2,4")
    parser.add_argument("--only", default="cpu,hits")
    args = parser.parse_args()
    darkroom = os.path.abspath(args.darkroom)
    if not os.access(darkroom, os.X_OK):
        print(f"no darkroom binary at {darkroom}; run `swift build -c release --product darkroom`", file=sys.stderr)
        return 2
    if not shutil.which("redis-server"):
        print("redis-server is needed (apt-get install -y redis-server)", file=sys.stderr)
        return 2
    parts = set(args.only.split(","))
    photos = sorted(glob.glob(os.path.join(CORPUS, "j*.jpg")))
    if "cpu" in parts and not photos:
        print(f"THE CORPUS IS MISSING: {os.path.abspath(CORPUS)} (the cpu measure reads its JPEGs)", file=sys.stderr)
        return 2
    counts = [int(n) for n in args.workers.split(",")]

    work = tempfile.mkdtemp(prefix="darkroom-bench-scaling-")
    redis = Redis(work, aof=True)
    results = {("cpu", n): [] for n in counts} | {("hits", n): [] for n in counts}
    try:
        cpu_listing = os.path.join(work, "cpu.txt")
        with open(cpu_listing, "w") as f:
            for k in range(args.chains):
                for i, photo in enumerate(photos):
                    f.write(f'{{"source": "{os.path.abspath(photo)}", "chain": "downsample({400 + k}x{400 + k})", '
                            f'"id": "cpu-{k}-{i}"}}\n')
        cpu_total = args.chains * len(photos)
        hit_image = os.path.join(work, "hit.png")
        png(320, 240).save(hit_image)
        hit_listing = os.path.join(work, "hits.txt")
        with open(hit_listing, "w") as f:
            for i in range(args.hit_jobs):
                f.write(f'{{"source": "{hit_image}", "id": "hit-{i}"}}\n')

        for round_number in range(args.rounds):
            for n in counts:
                if "cpu" in parts:
                    results[("cpu", n)].append(run_batch(
                        darkroom, redis, work, n, ["-j", "1", "--cpus", "1"], [os.path.abspath(CORPUS)],
                        cpu_listing, "downsample(400x400)", f"cpu-{round_number}-{n}", cpu_total))
                if "hits" in parts:
                    results[("hits", n)].append(run_batch(
                        darkroom, redis, work, n, [], [work], hit_listing, "resize(64x48)",
                        f"hits-{round_number}-{n}", args.hit_jobs))
            print(f"round {round_number + 1} of {args.rounds} done", file=sys.stderr)
    finally:
        redis.stop()
        shutil.rmtree(work, ignore_errors=True)

    def median(kind, n, key=None):
        runs = results[(kind, n)]
        if key is None:
            return statistics.median(r[0] for r in runs)
        return statistics.median(r[1][key] for r in runs)

    if "cpu" in parts:
        print(f"\nCPU-bound batch: {cpu_total} jobs ({len(photos)} corpus JPEGs × {args.chains} chains), "
              f"workers with -j 1 --cpus 1, median of {args.rounds}\n")
        print("| workers | wall | jobs/s | speed-up over 1 | efficiency (speed-up ÷ min(workers, cores)) |")
        print("|---:|---:|---:|---:|---:|")
        one = median("cpu", counts[0])
        cores = os.cpu_count() or 1
        for n in counts:
            t = median("cpu", n)
            speedup = one / t
            print(f"| {n} | {t:.2f} s | {cpu_total / t:.1f} | {speedup:.2f}× | {speedup / min(n, cores):.0%} |")
    if "hits" in parts:
        print(f"\nCache-hit round trips: {args.hit_jobs} jobs, workers at the default -j, median of {args.rounds}\n")
        print("| workers | wall | jobs/s | µs per job |")
        print("|---:|---:|---:|---:|")
        for n in counts:
            t = median("hits", n)
            print(f"| {n} | {t:.2f} s | {args.hit_jobs / t:,.0f} | {t / args.hit_jobs * 1e6:.0f} |")

    print("\nRedis per job (enqueue + reserve + events + acknowledgement; AOF everysec)\n")
    print("| batch | workers | commands per job | of them Lua (EVALSHA) | Redis CPU per 1,000 jobs | one Redis core's ceiling |")
    print("|---|---:|---:|---:|---:|---:|")
    for kind in ("cpu", "hits"):
        if kind not in parts:
            continue
        for n in counts:
            cpu_ms = median(kind, n, "cpu_ms_per_1000")
            ceiling = 1e6 / cpu_ms if cpu_ms > 0 else float("inf")
            print(f"| {kind} | {n} | {median(kind, n, 'commands'):.1f} | {median(kind, n, 'lua'):.1f} | "
                  f"{cpu_ms:.0f} ms | {ceiling:,.0f} jobs/s |")
    if "cpu" in parts and "hits" in parts:
        per_worker_cpu = cpu_total / median("cpu", counts[0])
        per_worker_hits = args.hit_jobs / median("hits", counts[0])
        print("\nProjection: workers one Redis core feeds, at the per-job Redis CPU above\n")
        print("| batch | one worker's jobs/s | Redis ceiling | workers fed |")
        print("|---|---:|---:|---:|")
        for kind, per_worker in (("cpu", per_worker_cpu), ("hits", per_worker_hits)):
            cpu_ms = statistics.median(median(kind, n, "cpu_ms_per_1000") for n in counts)
            ceiling = 1e6 / cpu_ms
            print(f"| {kind} | {per_worker:,.1f} | {ceiling:,.0f} jobs/s | {ceiling / per_worker:,.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
