#!/usr/bin/env python3
"""Darkroom against what a user would pick instead: Celery 5 and RQ, each on Redis with Pillow.

Usage (from the repository root, after `swift build -c release --product darkroom`):
    python3 scripts/bench-peers.py [--darkroom PATH] [--rounds 3] [--trivial-jobs 5000]
                                   [--rq-trivial-jobs N] [--only thumbs,trivial]
                                   [--systems darkroom,celery,rq]

Needs Celery, RQ and Pillow in a venv of their own (the script says so and exits 2 when missing):
    python3 -m venv ~/.cache/darkroom-peers-venv
    ~/.cache/darkroom-peers-venv/bin/pip install 'celery[redis]>=5,<6' rq Pillow

Two batches, each run by every system on a fresh redis-server of its own (AOF on, fsync every
second, as docs/deployment.md asks of a fleet), in interleaved rounds (the systems' order rotates
from round to round); medians of --rounds:

1. thumbs: the 72-job thumbnail batch of scripts/bench-scaling.py (the 9 corpus JPEGs in
   ../shared/corpus × 8 boxes, 400…407 px, largest images first) to WebP q80, written into an
   output directory, by 1 and by 2 single-core workers (each pinned to a core of its own with
   `taskset`): `darkroom worker -j 1 --cpus 1`; `celery worker -c 1` (prefork, `acks_late`,
   prefetch 1); an RQ worker (forks a work horse per job). Python does `draft` + `thumbnail` +
   `save` (bench_peers_tasks.py).
2. trivial: --trivial-jobs jobs that do nothing, through one worker process at its defaults,
   unpinned: for Darkroom the same small PNG and chain in every job (distinct ids, no output
   file), so each is a memory-cache hit; for the peers a function that returns its argument
   (Celery's default prefork pool, one child per core; RQ's forking worker). RQ forks a process
   per job, so on a loaded machine 5,000 of its jobs take many minutes: --rq-trivial-jobs gives
   it fewer (its rate, not its total, is compared).

How each enqueues and counts done:
- Darkroom: `darkroom enqueue --from FILE` (chunks of jobs per pipelined Lua call); the workers'
  finish scripts count each job in the batch hash, polled with `HMGET` (a command Darkroom does
  not send). Timed from the start of the enqueue process.
- Celery: `apply_async` per task over one producer connection (an `LPUSH` each); results in Redis
  database 1 (the Redis backend's `SET` and `PUBLISH` per task), counted with `DBSIZE` there.
- RQ: `Queue.enqueue_many` (one pipeline); the worker adds each finished job to
  `rq:finished:default`, counted with `ZCARD`.
  The Python enqueuers are timed from just before their first send (after their imports).

The workers start and register (or say they are ready) first. Then Redis' CPU time (INFO cpu,
used_cpu_user + used_cpu_sys) is read over 3 s of idle, and around the batch; the batch's figure
is given as is and net of the idle rate (heartbeats, blocking reads, AOF). The time Redis spent on
the benchmark's own polling (INFO commandstats) is taken out of both.

Prints Markdown tables. Exits 2 when the binary, redis-server, the venv or the corpus is missing.
"""

import argparse
import glob
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

from bench_common import Redis, png

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "..", "..", "shared", "corpus")
VENV = os.path.expanduser("~/.cache/darkroom-peers-venv")
IDLE_SECONDS = 3.0
POLL_SECONDS = 0.02
BOXES = range(400, 408)
SYSTEMS = ("darkroom", "celery", "rq")


class Run:
    """One system's workers and its own Redis, for one batch."""

    def __init__(self, system, args, workdir, workers, pinned):
        self.system, self.args, self.workdir = system, args, workdir
        self.redis = Redis(workdir, aof=True)
        self.out = os.path.join(workdir, "out")
        os.makedirs(self.out)
        self.ready = os.path.join(workdir, "ready")
        os.makedirs(self.ready)
        self.env = dict(os.environ, DARKROOM_REDIS_URL=self.redis.url, PEERS_REDIS_URL=self.redis.url,
                        PEERS_READY_DIR=self.ready, PEERS_SYSTEM=system,
                        PYTHONPATH=HERE + os.pathsep + os.environ.get("PYTHONPATH", ""))
        self.env.pop("DARKROOM_CACHE_DIR", None)
        self.log = open(os.path.join(workdir, "workers.log"), "a")
        self.procs = []
        for i in range(workers):
            pin = ["taskset", "-c", str(i % (os.cpu_count() or 1))] if pinned else []
            self.procs.append(subprocess.Popen(pin + self.worker_command(i, pinned), env=self.env, cwd=HERE,
                                               stdout=subprocess.DEVNULL, stderr=self.log, start_new_session=True))
        deadline = time.time() + 60
        while self.registered() < workers:
            if time.time() > deadline or any(p.poll() is not None for p in self.procs):
                self.stop()
                raise SystemExit(f"{system} workers did not start; see {workdir}/workers.log")
            time.sleep(0.05)

    def worker_command(self, i, pinned):
        python = os.path.join(VENV, "bin", "python")
        if self.system == "darkroom":
            flags = ["-j", "1", "--cpus", "1"] if pinned else []
            return [self.args.darkroom, "worker", "--name", f"bench-{i}", "--log-level", "error",
                    "--allow-file-root", os.path.abspath(CORPUS), "--allow-file-root", self.workdir,
                    "--allow-output-root", self.workdir] + flags
        if self.system == "celery":
            flags = ["-c", "1"] if pinned else []
            return [python, "-m", "celery", "-A", "bench_peers_tasks", "worker", "-n", f"bench-{i}@%h",
                    "--loglevel", "WARNING"] + flags
        return [python, os.path.join(HERE, "bench_peers_tasks.py"), "rq-worker"]

    def registered(self):
        if self.system == "darkroom":
            return int(self.redis.cli("ZCARD", "darkroom:workers") or 0)
        if self.system == "celery":
            return len(os.listdir(self.ready))
        return int(self.redis.cli("SCARD", "rq:workers") or 0)

    def done(self):
        """Jobs finished so far (failures end the benchmark)."""
        if self.system == "darkroom":
            done, failed = (int(v or 0) for v in self.redis.command("HMGET", "darkroom:batch:bench", "succeeded", "failed"))
        elif self.system == "celery":
            if not hasattr(self, "selected"):
                self.redis.command("SELECT", "1")
                self.selected = True
            done, failed = int(self.redis.command("DBSIZE")), 0
        else:
            done = int(self.redis.command("ZCARD", "rq:finished:default"))
            failed = int(self.redis.command("ZCARD", "rq:failed:default"))
        if failed:
            raise SystemExit(f"{self.system}: {failed} jobs failed; see {self.workdir}/workers.log")
        return done

    def enqueue(self, listing, darkroom_flags):
        """Enqueues the listing (Darkroom with `darkroom_flags(self)`); returns the time.time() the
        enqueue started."""
        if self.system == "darkroom":
            start = time.time()
            subprocess.run([self.args.darkroom, "enqueue", "--from", listing, "--batch", "bench"] + darkroom_flags(self),
                           env=self.env, check=True, stdout=subprocess.DEVNULL)
            return start
        python = os.path.join(VENV, "bin", "python")
        result = subprocess.run([python, os.path.join(HERE, "bench_peers_tasks.py"), "enqueue", self.system, listing],
                                env=self.env, cwd=HERE, check=True, capture_output=True, text=True)
        return float(result.stdout.split()[1])

    def stop(self):
        for proc in self.procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)  # the worker and its pool's children
            proc.wait()
        self.redis.stop()


def redis_cpu(redis):
    """(Redis CPU seconds so far, µs Redis spent on the benchmark's polling so far)."""
    cpu = redis.info("cpu")
    polled = 0
    for key, value in redis.info("commandstats").items():
        if key in ("cmdstat_hmget", "cmdstat_dbsize", "cmdstat_zcard", "cmdstat_select"):
            polled += int(dict(part.split("=") for part in value.split(","))["usec"])
    return float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"]), polled


def batch(system, args, workers, pinned, listings, total, darkroom_flags, files):
    """Runs one batch, which must leave `files` output files; returns (seconds, Redis CPU ms per
    1,000 jobs, the same net of idle)."""
    workdir = tempfile.mkdtemp(prefix=f"darkroom-bench-peers-{system}-")
    run = Run(system, args, workdir, workers, pinned)
    try:
        listing = listings(run)
        idle_before, idle_clock = redis_cpu(run.redis), time.perf_counter()
        time.sleep(IDLE_SECONDS)
        idle_after = redis_cpu(run.redis)
        idle_rate = (idle_after[0] - idle_before[0]) / (time.perf_counter() - idle_clock)
        before = redis_cpu(run.redis)
        start = run.enqueue(listing, darkroom_flags)
        while run.done() < total:
            if any(p.poll() is not None for p in run.procs):
                raise SystemExit(f"{system}: a worker exited; see {workdir}/workers.log")
            time.sleep(POLL_SECONDS)
        elapsed = time.time() - start
        after = redis_cpu(run.redis)
    finally:
        run.stop()
    cpu = (after[0] - before[0]) - (after[1] - before[1]) / 1e6
    written = len(os.listdir(run.out))
    if written != files:
        raise SystemExit(f"{system} wrote {written} files for {total} jobs; see {workdir}/workers.log")
    shutil.rmtree(workdir, ignore_errors=True)
    return elapsed, cpu * 1e6 / total, max(cpu - idle_rate * elapsed, 0) * 1e6 / total


def thumb_listing(photos):
    def write(run):
        listing = os.path.join(run.workdir, "thumbs.jsonl")
        with open(listing, "w") as f:
            for photo in photos:
                stem = os.path.splitext(os.path.basename(photo))[0]
                for box in BOXES:
                    if run.system == "darkroom":
                        f.write(json.dumps({"source": photo, "chain": f"downsample({box}x{box})",
                                            "name": "{id}.{ext}", "id": f"{stem}-{box}"}) + "\n")
                    else:
                        f.write(json.dumps({"kind": "thumbnail", "source": photo, "box": box,
                                            "out": os.path.join(run.out, f"{stem}-{box}.webp")}) + "\n")
        return listing
    return write


def trivial_listing(count):
    def write(run):
        listing = os.path.join(run.workdir, "trivial.jsonl")
        image = os.path.join(run.workdir, "hit.png")
        with open(image, "wb") as f:
            f.write(png(320, 240))
        with open(listing, "w") as f:
            for i in range(count):
                if run.system == "darkroom":
                    f.write(json.dumps({"source": image, "id": f"hit-{i}"}) + "\n")
                else:
                    f.write(json.dumps({"kind": "trivial", "number": i}) + "\n")
        return listing
    return write


def check_environment(args, systems, parts):
    if "darkroom" in systems and not os.access(args.darkroom, os.X_OK):
        sys.exit(print(f"no darkroom binary at {args.darkroom}; run `swift build -c release --product darkroom`",
                       file=sys.stderr) or 2)
    for tool in ("redis-server", "redis-cli", "taskset"):
        if not shutil.which(tool):
            sys.exit(print(f"{tool} is needed (apt-get install -y redis-server util-linux)", file=sys.stderr) or 2)
    python = os.path.join(VENV, "bin", "python")
    if {"celery", "rq"} & set(systems):
        check = subprocess.run([python, "-c", "import celery, rq, redis, PIL"], capture_output=True)
        if check.returncode != 0:
            sys.exit(print(f"Celery, RQ and Pillow are needed in {VENV}:\n"
                           f"    python3 -m venv {VENV}\n"
                           f"    {VENV}/bin/pip install 'celery[redis]>=5,<6' rq Pillow", file=sys.stderr) or 2)
    photos = sorted(glob.glob(os.path.join(os.path.abspath(CORPUS), "j*.jpg")))
    if "thumbs" in parts and len(photos) != 9:
        sys.exit(print(f"the corpus is missing or changed: {len(photos)} JPEGs in {os.path.abspath(CORPUS)}, not 9",
                       file=sys.stderr) or 2)
    # Largest first, as bench-scaling.py orders them, so a batch does not end on one large photo.
    return sorted(photos, key=lambda p: -os.path.getsize(p))


def versions(systems):
    python = os.path.join(VENV, "bin", "python")
    if not {"celery", "rq"} & set(systems):
        return ""
    return subprocess.run([python, "-c", "import celery, rq, PIL; print(f'Celery {celery.__version__}, "
                           "RQ {rq.__version__}, Pillow {PIL.__version__}')"], capture_output=True, text=True).stdout.strip()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--darkroom", default=".build/release/darkroom")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--trivial-jobs", type=int, default=5_000)
    parser.add_argument("--rq-trivial-jobs", type=int, help="RQ's trivial jobs (default: --trivial-jobs)")
    parser.add_argument("--only", default="thumbs,trivial", help="comma-separated: thumbs, trivial")
    parser.add_argument("--systems", default=",".join(SYSTEMS), help="comma-separated: darkroom, celery, rq")
    args = parser.parse_args()
    args.darkroom = os.path.abspath(args.darkroom)
    parts = args.only.split(",")
    systems = [s for s in SYSTEMS if s in args.systems.split(",")]
    photos = check_environment(args, systems, parts)

    measures = []  # (label, workers, pinned, listings, total, darkroom enqueue flags, output files)
    if "thumbs" in parts:
        for n in (1, 2):
            measures.append((f"thumbs, {n} single-core worker{'s' if n > 1 else ''}", n, True, thumb_listing(photos),
                             len(photos) * len(BOXES),
                             lambda run: ["--format", "webp", "--quality", "80", "--out", run.out],
                             len(photos) * len(BOXES)))
    if "trivial" in parts:
        measures.append(("trivial, one worker at its defaults", 1, False, trivial_listing(args.trivial_jobs),
                         args.trivial_jobs, lambda run: ["-p", "resize(64x48)"], 0))
    rq_trivial = args.rq_trivial_jobs or args.trivial_jobs
    results = {}
    for round_number in range(args.rounds):
        order = systems[round_number % len(systems):] + systems[:round_number % len(systems)]
        for label, workers, pinned, listings, total, flags, files in measures:
            for system in order:
                jobs, listing = total, listings
                if system == "rq" and label.startswith("trivial"):
                    jobs, listing = rq_trivial, trivial_listing(rq_trivial)
                results.setdefault((label, system), []).append(
                    batch(system, args, workers, pinned, listing, jobs, flags, files) + (jobs,))
        print(f"round {round_number + 1} of {args.rounds} done", file=sys.stderr)

    print(f"\nMedians of {args.rounds} interleaved rounds; {versions(systems)}; Redis with AOF everysec, "
          f"one fresh server per batch; {os.cpu_count()} cores\n")
    print("| batch | system | jobs | wall | jobs/s | Redis CPU per 1,000 jobs | net of idle |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for label, *_ in measures:
        for system in systems:
            runs = results[(label, system)]
            wall = statistics.median(r[0] for r in runs)
            gross = statistics.median(r[1] for r in runs)
            net = statistics.median(r[2] for r in runs)
            print(f"| {label} | {system} | {runs[0][3]} | {wall:.2f} s | {runs[0][3] / wall:,.1f} | {gross:,.0f} ms | {net:,.0f} ms |")
    if "darkroom" in systems and len(systems) > 1:
        print("\n| batch | Darkroom jobs/s ÷ fastest peer's | Darkroom net Redis CPU per job ÷ lowest peer's |")
        print("|---|---:|---:|")
        for label, *_ in measures:
            rate = {s: results[(label, s)][0][3] / statistics.median(r[0] for r in results[(label, s)]) for s in systems}
            net = {s: statistics.median(r[2] for r in results[(label, s)]) for s in systems}
            peers = [s for s in systems if s != "darkroom"]
            fastest = max(peers, key=lambda s: rate[s])
            leanest = min(peers, key=lambda s: net[s])
            cpu_ratio = f"{net['darkroom'] / net[leanest]:.2f}× ({leanest})" if net[leanest] > 0 else "—"
            print(f"| {label} | {rate['darkroom'] / rate[fastest]:.2f}× ({fastest}) | {cpu_ratio} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
