#!/usr/bin/env python3
"""How Darkroom scales with workers, and what each job costs Redis.

Usage (from the repository root, after `swift build -c release --product darkroom`):
    python3 scripts/bench-scaling.py [--darkroom PATH] [--rounds 3] [--chains 8] [--hit-jobs 20000]
                                     [--workers 1,2,4] [--only cpu,hits,small] [--small-jobs 1000]
                                     [--baseline PATH] [--idle 2]

Starts its own redis-server as a fleet's should be (AOF on, fsync every second) on a free port in
a temporary directory. For each worker count N, in interleaved rounds (1, 2, 4, 1, 2, 4, …):

1. cpu: the corpus JPEGs (../shared/corpus/j*.jpg, read by path) through --chains slightly
   different thumbnail chains (downsample to 400, 401, … px, WebP, no cache: every job decodes,
   resizes and encodes), largest images first, run by N `darkroom worker -j 1 --cpus 1` processes — one job and one pixel
   thread each, so one worker is worth one core. The workers start and register first; the time
   runs from the enqueue until the batch's counters say every job succeeded.
2. hits: one small PNG, --hit-jobs jobs of the same source and chain (distinct ids, no output
   file), so after each worker's first job every job is a memory-cache hit: what is timed is the
   broker's round trip (reserve, `started` event, acknowledgement with the `succeeded` event). N
   workers at the default -j.

3. small (only when asked for, `--only small`): --small-jobs tiny jobs (one small PNG through a
   different `downsample` each, so every job computes, in a few milliseconds) run by ONE worker
   with `-j 1 --cpus 1`: what a job costs Redis when a worker runs one job at a time. With
   --baseline PATH, the same batch runs with that build too, alternating with --darkroom in every
   round, and the table gives both side by side with their ratio.
4. spread (only when asked for, `--only spread`): the cpu batch run by TWO workers with `--cpus 1`
   at the default -j (16), this build and --baseline alternating: when each worker finished its
   last job (its last `succeeded` event's `at`), the gap between the two, and the median job's
   compute time (decode + process + encode): a worker that hoards finishes its pile long after
   the other has run dry.

Around each batch it reads Redis' INFO commandstats and INFO cpu: commands and Lua script calls
(EVALSHA) per job, and Redis' own CPU time (user + system) per 1,000 jobs, enqueue included.
Before each batch it measures the same for --idle seconds (2) with the workers registered and the queue empty, and
gives the batch's figures net of that idle cost too. From the net CPU it projects the ceiling of one
Redis (one core) in jobs/s and how many workers of each kind that feeds.

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

IDLE_SECONDS = 2.0
POLL_SECONDS = 0.02
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

    def cpu_seconds(self):
        """User + system CPU time the workers have used so far (/proc/PID/stat)."""
        total = 0
        for proc in self.procs:
            with open(f"/proc/{proc.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
        return total / os.sysconf("SC_CLK_TCK")

    def stop(self):
        for proc in self.procs:
            proc.send_signal(signal.SIGKILL)
        for proc in self.procs:
            proc.wait()


class Monitor:
    """Counts what Redis executes, through MONITOR on a connection of its own: commands clients
    sent (by name) and commands Lua scripts ran inside them. MONITOR costs Redis time, so it runs
    only in an extra, untimed batch."""

    def __init__(self, port):
        import socket
        import threading
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.sendall(b"MONITOR\r\n")
        self.reader = self.sock.makefile("rb")
        assert self.reader.readline().startswith(b"+OK")
        self.sent, self.in_scripts = {}, 0
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        for line in self.reader:
            # +1764150000.123456 [0 127.0.0.1:40000] "XADD" "key" … — or [0 lua] inside a script.
            try:
                origin = line.split(b"[", 1)[1].split(b"]", 1)[0]
                name = line.split(b'"', 2)[1].decode().lower()
            except IndexError:
                continue
            if origin.endswith(b" lua"):
                self.in_scripts += 1
            else:
                self.sent[name] = self.sent.get(name, 0) + 1

    def stop(self):
        import socket
        self.sock.shutdown(socket.SHUT_RDWR)
        self.thread.join(timeout=5)
        self.sock.close()


def redis_counters(redis):
    """(commands, EVALSHA calls, CPU seconds, {command: (calls, µs)}) so far."""
    stats = redis.info("commandstats")
    commands = evalsha = 0
    per_command = {}
    for key, value in stats.items():
        fields = dict(part.split("=") for part in value.split(","))
        calls = int(fields["calls"])
        per_command[key.removeprefix("cmdstat_")] = (calls, int(fields["usec"]))
        commands += calls
        if key in ("cmdstat_evalsha", "cmdstat_eval"):
            evalsha += calls
    cpu = redis.info("cpu")
    return commands, evalsha, float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"]), per_command


def tiny_listing(work, count):
    """A job listing of `count` different downsamples of one 160×120 PNG; returns its path."""
    image = os.path.join(work, "small.png")
    png(160, 120).save(image)
    listing = os.path.join(work, "small.txt")
    lines = [f'{{"source": "{image}", "chain": "downsample({20 + i}x{20 + i})", "id": "small-{i}"}}\n' for i in range(count)]
    with open(listing, "w") as f:
        f.writelines(lines)
    return listing


def worker_finishes(redis):
    """From the events stream: ({worker: its last `succeeded` event's time in s}, [each job's
    decode + process + encode ms])."""
    import datetime
    import json
    finish, compute = {}, []
    for _, fields in redis.command("XRANGE", "darkroom:events", "-", "+"):
        event = json.loads(dict(zip(fields[::2], fields[1::2]))["event"])
        if event.get("type") != "succeeded":
            continue
        at = datetime.datetime.fromisoformat(event["at"].replace("Z", "+00:00")).timestamp()
        finish[event["worker"]] = max(finish.get(event["worker"], 0), at)
        ms = event.get("result", {}).get("ms", {})
        compute.append(sum(ms.get(stage, 0) for stage in ("decode", "process", "encode")))
    return finish, compute


def run_batch(darkroom, redis, workdir, count, worker_flags, roots, listing, chain, batch, total, monitor=False, idle=IDLE_SECONDS,
              inspect=None):
    """Starts `count` workers, enqueues `listing`, waits for the batch; returns (seconds, costs), or
    with `monitor` the commands sent per job (by name) and the commands scripts ran per job."""
    redis.cli("FLUSHALL")
    fleet = Fleet(darkroom, redis, workdir, count, worker_flags, roots)
    watcher = Monitor(redis.port) if monitor else None
    try:
        # What the registered workers and Redis' own timers cost while the queue is empty (blocking
        # reads, heartbeats, AOF fsync), so the batch's cost can be given net of it as well.
        idle_start, idle_clock = redis_counters(redis), time.perf_counter()
        time.sleep(idle)
        idle_end = redis_counters(redis)
        idle_seconds = time.perf_counter() - idle_clock
        idle_cpu_per_s = (idle_end[2] - idle_start[2]) / idle_seconds
        before, workers_cpu = redis_counters(redis), fleet.cpu_seconds()
        start = time.perf_counter()
        subprocess.run([darkroom, "enqueue", "--from", listing, "-p", chain, "--format", "webp", "--batch", batch],
                       env=fleet.env, check=True, stdout=subprocess.DEVNULL)
        # Polled with HMGET, which Darkroom itself does not send, so its cost can be taken out.
        while True:
            done, failed = (int(v or 0) for v in redis.command("HMGET", f"darkroom:batch:{batch}", "succeeded", "failed"))
            if failed:
                raise SystemExit(f"{failed} jobs failed; see {workdir}/workers.log")
            if done >= total:
                break
            time.sleep(POLL_SECONDS)
        elapsed = time.perf_counter() - start
        after, workers_cpu = redis_counters(redis), fleet.cpu_seconds() - workers_cpu
        inspected = inspect(redis) if inspect else None
    finally:
        fleet.stop()
        if watcher:
            watcher.stop()
    if watcher:
        # The benchmark's own INFO, HMGET and FLUSHALL are not Darkroom's.
        sent = {name: n / total for name, n in watcher.sent.items() if name not in ("info", "hmget", "flushall", "monitor")}
        return sent, watcher.in_scripts / total
    # The polling above goes through the same Redis: take its time out.
    polling_seconds = (after[3].get("hmget", (0, 0))[1] - before[3].get("hmget", (0, 0))[1]) / 1e6
    cpu = after[2] - before[2] - polling_seconds
    breakdown = {name: ((calls - before[3].get(name, (0, 0))[0]) / total, (usec - before[3].get(name, (0, 0))[1]) / total)
                 for name, (calls, usec) in after[3].items()}
    return elapsed, {"breakdown": breakdown, "worker_cores": workers_cpu / elapsed, "cpu_ms_per_1000": cpu * 1e6 / total,
                     "inspected": inspected,
                     "net_cpu_ms_per_1000": max(cpu - idle_cpu_per_s * elapsed, 0) * 1e6 / total}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--darkroom", default=".build/release/darkroom")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--chains", type=int, default=8)
    parser.add_argument("--hit-jobs", type=int, default=20_000)
    parser.add_argument("--workers", default="1,2,4")
    parser.add_argument("--only", default="cpu,hits", help="any of cpu, hits, small, spread")
    parser.add_argument("--small-jobs", type=int, default=1000)
    parser.add_argument("--baseline", default=None, help="another darkroom build for the small batch, alternated with --darkroom")
    parser.add_argument("--idle", type=float, default=IDLE_SECONDS, help="seconds of idle measured before each batch")
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
    if parts & {"cpu", "spread"} and not photos:
        print(f"THE CORPUS IS MISSING: {os.path.abspath(CORPUS)} (the cpu measure reads its JPEGs)", file=sys.stderr)
        return 2
    counts = [int(n) for n in args.workers.split(",")]

    work = tempfile.mkdtemp(prefix="darkroom-bench-scaling-")
    redis = Redis(work, aof=True)
    results = {("cpu", n): [] for n in counts} | {("hits", n): [] for n in counts}
    builds = [("this build", darkroom)] + ([("baseline", os.path.abspath(args.baseline))] if args.baseline else [])
    small = {label: [] for label, _ in builds}
    spread = {label: [] for label, _ in builds}
    try:
        cpu_listing = os.path.join(work, "cpu.txt")
        # Largest images first (as `darkroom run` orders its jobs), so the batch does not end with
        # one worker on a 20 MP photo while the others idle: the same order for every worker count.
        from PIL import Image
        pixels = {photo: Image.open(photo).size[0] * Image.open(photo).size[1] for photo in photos}
        with open(cpu_listing, "w") as f:
            for i, photo in sorted(enumerate(photos), key=lambda item: -pixels[item[1]]):
                for k in range(args.chains):
                    f.write(f'{{"source": "{os.path.abspath(photo)}", "chain": "downsample({400 + k}x{400 + k})", '
                            f'"id": "cpu-{k}-{i}"}}\n')
        cpu_total = args.chains * len(photos)
        hit_image = os.path.join(work, "hit.png")
        png(320, 240).save(hit_image)
        hit_listing = os.path.join(work, "hits.txt")
        with open(hit_listing, "w") as f:
            for i in range(args.hit_jobs):
                f.write(f'{{"source": "{hit_image}", "id": "hit-{i}"}}\n')

        # Each small job a different downsample of one tiny PNG: every job computes, in milliseconds.
        small_listing = tiny_listing(work, args.small_jobs)

        for round_number in range(args.rounds):
            if "small" in parts:
                # Alternating builds, the order flipped every round, so drift hits both alike.
                for label, binary in (builds if round_number % 2 == 0 else builds[::-1]):
                    small[label].append(run_batch(
                        binary, redis, work, 1, ["-j", "1", "--cpus", "1"], [work], small_listing, "downsample(20x20)",
                        f"small-{round_number}-{label.replace(' ', '-')}", args.small_jobs, idle=args.idle))
            if "spread" in parts:
                for label, binary in (builds if round_number % 2 == 0 else builds[::-1]):
                    spread[label].append(run_batch(
                        binary, redis, work, 2, ["--cpus", "1"], [os.path.abspath(CORPUS)], cpu_listing,
                        "downsample(400x400)", f"spread-{round_number}-{label.replace(' ', '-')}", cpu_total,
                        idle=args.idle, inspect=worker_finishes))
            for n in counts:
                if "cpu" in parts:
                    results[("cpu", n)].append(run_batch(
                        darkroom, redis, work, n, ["-j", "1", "--cpus", "1"], [os.path.abspath(CORPUS)],
                        cpu_listing, "downsample(400x400)", f"cpu-{round_number}-{n}", cpu_total, idle=args.idle))
                if "hits" in parts:
                    results[("hits", n)].append(run_batch(
                        darkroom, redis, work, n, [], [work], hit_listing, "resize(64x48)",
                        f"hits-{round_number}-{n}", args.hit_jobs, idle=args.idle))
            print(f"round {round_number + 1} of {args.rounds} done", file=sys.stderr)
        # One more, untimed batch of each kind under MONITOR, with one worker and with the most.
        monitored = {}
        for n in sorted({counts[0], counts[-1]}) if parts & {"cpu", "hits"} else []:
            if "cpu" in parts:
                monitored[("cpu", n)] = run_batch(
                    darkroom, redis, work, n, ["-j", "1", "--cpus", "1"], [os.path.abspath(CORPUS)],
                    cpu_listing, "downsample(400x400)", f"cpu-monitored-{n}", cpu_total, monitor=True)
            if "hits" in parts:
                monitored[("hits", n)] = run_batch(
                    darkroom, redis, work, n, [], [work], hit_listing, "resize(64x48)", f"hits-monitored-{n}",
                    args.hit_jobs, monitor=True)
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
        print("| workers | wall | jobs/s | speed-up over 1 | efficiency (speed-up ÷ min(workers, cores)) | cores the workers used |")
        print("|---:|---:|---:|---:|---:|---:|")
        one = median("cpu", counts[0])
        cores = os.cpu_count() or 1
        for n in counts:
            t = median("cpu", n)
            speedup = one / t
            print(f"| {n} | {t:.2f} s | {cpu_total / t:.1f} | {speedup:.2f}× | {speedup / min(n, cores):.0%} | "
                  f"{median('cpu', n, 'worker_cores'):.2f} |")
    if "hits" in parts:
        print(f"\nCache-hit round trips: {args.hit_jobs} jobs, workers at the default -j, median of {args.rounds}\n")
        print("| workers | wall | jobs/s | µs per job | cores the workers used |")
        print("|---:|---:|---:|---:|---:|")
        for n in counts:
            t = median("hits", n)
            print(f"| {n} | {t:.2f} s | {args.hit_jobs / t:,.0f} | {t / args.hit_jobs * 1e6:.0f} | "
                  f"{median('hits', n, 'worker_cores'):.2f} |")

    if "small" in parts:
        print_small(small, args.small_jobs, args.rounds)
    if "spread" in parts:
        print_spread(spread, cpu_total, args.rounds)
    if not parts & {"cpu", "hits"}:
        return 0

    print("\nRedis commands per job, counted with MONITOR in one more batch of each kind (enqueue included)\n")
    print("| batch | workers | sent by Darkroom | of them Lua scripts (EVALSHA) | run inside the scripts | the most sent |")
    print("|---|---:|---:|---:|---:|---|")
    for (kind, n), (sent, in_scripts) in sorted(monitored.items()):
        top = ", ".join(f"{name} {per_job:.2f}" for name, per_job in sorted(sent.items(), key=lambda i: -i[1])[:5])
        lua = sent.get("evalsha", 0) + sent.get("eval", 0)
        print(f"| {kind} | {n} | {sum(sent.values()):.2f} | {lua:.2f} | {in_scripts:.2f} | {top} |")

    print("\nRedis CPU per job (AOF everysec), from INFO cpu around each timed batch. Net: less what the same")
    print("registered workers and Redis' timers cost while idle, measured for 2 s before each batch.\n")
    print("| batch | workers | Redis CPU per 1,000 jobs | net | one Redis core's ceiling at the net cost |")
    print("|---|---:|---:|---:|---:|")
    measured = [kind for kind in ("cpu", "hits") if kind in parts]
    for kind in measured:
        for n in counts:
            net_ms = median(kind, n, "net_cpu_ms_per_1000")
            ceiling = f"{1e6 / net_ms:,.0f} jobs/s" if net_ms > 0 else "—"
            print(f"| {kind} | {n} | {median(kind, n, 'cpu_ms_per_1000'):.0f} ms | {net_ms:.0f} ms | {ceiling} |")
    print("\nRedis time per command, per job (one worker, the last timed round; µs as Redis times each")
    print("command, a script's own commands counted both inside it and on their own line)\n")
    print("| batch | command | executions per job | µs per job |")
    print("|---|---|---:|---:|")
    for kind in measured:
        breakdown = results[(kind, counts[0])][-1][1]["breakdown"]
        for name, (calls, usec) in sorted(breakdown.items(), key=lambda item: -item[1][1])[:8]:
            if calls >= 0.01 and name not in ("info", "flushall", "hmget"):
                print(f"| {kind} | {name} | {calls:.2f} | {usec:.1f} |")
    if "cpu" in parts and "hits" in parts:
        per_worker_cpu = cpu_total / median("cpu", counts[0])
        per_worker_hits = args.hit_jobs / median("hits", counts[0])
        print("\nProjection: workers one Redis core feeds, at the median net Redis CPU per job above\n")
        print("| batch | one worker's jobs/s | Redis ceiling | workers fed |")
        print("|---|---:|---:|---:|")
        for kind, per_worker in (("cpu", per_worker_cpu), ("hits", per_worker_hits)):
            net_ms = statistics.median(median(kind, n, "net_cpu_ms_per_1000") for n in counts)
            ceiling = 1e6 / net_ms
            print(f"| {kind} | {per_worker:,.1f} | {ceiling:,.0f} jobs/s | {ceiling / per_worker:,.0f} |")
    return 0


def print_spread(spread, total, rounds):
    """The spread batch's table: per build and round, the two workers' finishing gap against the
    median job's compute time."""
    print(f"\nUneven finish: {total} thumbnail jobs, TWO workers with --cpus 1 at the default -j, {rounds} interleaved rounds\n")
    print("| build | round | wall | worker finish gap | median job compute | gap ÷ job |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, runs in spread.items():
        for index, (elapsed, costs) in enumerate(runs):
            finish, compute = costs["inspected"]
            gap = max(finish.values()) - min(finish.values()) if len(finish) == 2 else float("nan")
            job = statistics.median(compute) / 1000 if compute else float("nan")
            print(f"| {label} | {index + 1} | {elapsed:.2f} s | {gap:.2f} s | {job:.2f} s | {gap / job:.2f} |")


def print_small(small, total, rounds):
    """The small batch's table: per build, script calls and commands per job (INFO commandstats,
    enqueue included), Redis CPU per job in full and net of idle, wall time; medians of the rounds."""
    def per_job(runs, pick):
        return statistics.median(pick(r) for r in runs)

    def scripts(run):
        breakdown = run[1]["breakdown"]
        return sum(breakdown.get(name, (0, 0))[0] for name in ("evalsha", "eval", "fcall", "fcall_ro"))

    def commands(run):
        # Top-level commands only would need MONITOR; commandstats counts those inside scripts too.
        return sum(calls for name, (calls, _) in run[1]["breakdown"].items() if name not in ("info", "hmget", "flushall"))

    print(f"\nSmall jobs: {total} jobs, ONE worker with -j 1 --cpus 1, median of {rounds} interleaved rounds\n")
    print("| build | script calls per job | commands per job (scripts' own included) | Redis CPU µs per job | net of idle | wall |")
    print("|---|---:|---:|---:|---:|---:|")
    figures = {}
    for label, runs in small.items():
        figures[label] = (per_job(runs, scripts), per_job(runs, lambda r: r[1]["net_cpu_ms_per_1000"]))
        print(f"| {label} | {figures[label][0]:.2f} | {per_job(runs, commands):.1f} | "
              f"{per_job(runs, lambda r: r[1]['cpu_ms_per_1000']):.0f} | {figures[label][1]:.0f} | {per_job(runs, lambda r: r[0]):.2f} s |")
    if "baseline" in figures and figures["baseline"][0] > 0 and figures["baseline"][1] > 0:
        calls, net = figures["this build"][0] / figures["baseline"][0], figures["this build"][1] / figures["baseline"][1]
        print(f"\nThis build ÷ baseline: {calls:.2f}× the script calls, {net:.2f}× the net Redis CPU per job")
        print("Each round's pair (this build, baseline), net µs per job: " + ", ".join(
            f"({a[1]['net_cpu_ms_per_1000']:.0f}, {b[1]['net_cpu_ms_per_1000']:.0f})"
            for a, b in zip(small["this build"], small["baseline"])))


if __name__ == "__main__":
    sys.exit(main())
