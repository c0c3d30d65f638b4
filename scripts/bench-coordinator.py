#!/usr/bin/env python3
"""Measure the coordinator: how fast it drains a pre-filled event stream into its projections and
the event log, and the CPU it spends per 1,000 events.

Usage (from the repository root, after `swift build -c release --product darkroom`):
    python3 scripts/bench-coordinator.py [--darkroom PATH] [--events 1000000] [--rounds 3] [--no-log]
        [--records current|49af717]

Starts its own redis-server (persistence off) on a free port in a temporary directory. Each round:

1. Fills `{p}:events` with `--events` recorded events written straight to the stream with
   `redis-cli --pipe` (no worker runs): per job a `started` and a terminal event (98 % `succeeded`
   with a result, 2 % a final `failed` with an error), jobs in batches of 10,000, each batch opened
   by its `batchEnqueued` and given its `{p}:batch:<name>` hash as `enqueue` would, 16 workers.
   Event records are the exact JSON the workers write.
2. Starts `darkroom coordinator --event-log FILE` (release build) and times it from its start
   until its projections' checkpoint is the last event and the log's last line is that event.
3. Reads the coordinator's CPU time (user + system, from /proc) and Redis's (`INFO cpu`) over
   the drain, then stops the coordinator with SIGTERM.

With `--live JOBS_PER_SECOND` it measures a live fleet's load instead: a redis connection
appends each job's two records (the workers' exact JSON) in 10 ms ticks at that rate for
`--seconds`, while the coordinator (with its log) follows; it reports the coordinator's CPU over
the run in cores (CPU seconds per second), and Redis's, which includes the appends themselves.

With `--commandstats`, also prints Redis's time per command over each drain. With `--memory`,
the fill also writes what `enqueue` keeps per job (its idempotency marker `{p}:job:<id>`, value =
batch, 7-day expiry, and its entry in the batch's job index `{p}:batchjobs:queued:<batch>`, as the
enqueue script writes them), and the round prints the bytes per job Redis keeps after the drain
once the stream is deleted (`used_memory` against the flushed server), in all and by kind (job
index, jobstate hashes, markers with their records, the rest: batch and worker keys).

With `--fleet JOBS` it measures what a live fleet's jobs cost Redis instead, the issue's way: a
redis-server with AOF (`appendfsync everysec`), one `darkroom worker -j 1 --cpus 1`, with and
without a `darkroom coordinator` (defaults: webhook notifier on, no HTTP, no event log), JOBS small
jobs (a 320x240 PNG, each job its own `resize` so none is a cache hit). Each run starts the
processes, waits for them to register, measures 4 s of the idle fleet, enqueues the batch and
waits for its counters and the coordinator's checkpoint. From `INFO commandstats` it counts
script calls (`EVALSHA` + `EVAL`), `XREAD`s and all commands per job (commands run inside scripts
count under their own names too, so only calls are counted, not their times); from `INFO cpu`
Redis's CPU per job, in full and net of the idle fleet's rate. With `--baseline PATH` every round
runs that binary too, interleaved (baseline, this build, …), so the two compare in one run; with
`--worker PATH` every run's worker and `enqueue` come from that binary, so only the coordinators
differ.

Prints a Markdown table with the median of `--rounds` rounds: events/s, coordinator CPU ms per
1,000 events, Redis CPU ms per 1,000 events (the projection script runs inside Redis). Exits 2
when the binary, redis-server or redis-cli is missing.
"""

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

PREFIX = "darkroom"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def resp(*args):
    out = [b"*%d\r\n" % len(args)]
    for a in args:
        if isinstance(a, str):
            a = a.encode()
        out.append(b"$%d\r\n%s\r\n" % (len(a), a))
    return b"".join(out)


def iso(ms):
    seconds, millis = divmod(ms, 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + ".%03dZ" % millis


def record(**fields):
    fields["version"] = 1
    return json.dumps(fields, sort_keys=True, separators=(",", ":"))


# The records' shape: "current" as this build's workers write them (terminal events name the
# job's source and chain, a result with an output has its sha256), or "49af717" as workers wrote
# them before those keys (--records 49af717, to run an older binary on the records it knew).
RECORDS = "current"


def job_events(job, batch, at, job_id=None):
    """The two records of one job: `started`, then `succeeded` (one job in 50: a final `failed`)."""
    worker = "bench-host:%d" % (1000 + job % 16)
    job_id = job_id or str(uuid.uuid4())
    started = record(at=iso(at), attempt=1, batch=batch, id=str(uuid.uuid4()), job=job_id, type="started", worker=worker)
    described = {} if RECORDS != "current" else {
        "source": "https://images.example.com/uploads/2026/11/%08d.jpg" % job,
        "chain": "resize(400x300, mode: fit, anchor: center)|>roundCorner(24, corners: all, background: #00000000)"}
    if job % 50 == 49:
        terminal = record(at=iso(at + 40), attempt=1, batch=batch, id=str(uuid.uuid4()), job=job_id,
                          type="failed", worker=worker,
                          error={"code": "image.corrupt", "message": "bench: a corrupt image", "willRetry": False},
                          **described)
    else:
        result = {"bytes": 41234, "cache": "miss", "format": "webp", "height": 267,
                  "ms": {"decode": 5.125, "encode": 9.5, "fetch": 0.25, "process": 3.75, "store": 0.5},
                  "output": "/shared/out/%s.webp" % job_id, "width": 400}
        if RECORDS == "current":
            result["sha256"] = uuid.uuid4().hex + uuid.uuid4().hex
        terminal = record(at=iso(at + 40), attempt=1, batch=batch, id=str(uuid.uuid4()), job=job_id,
                          type="succeeded", worker=worker, result=result, **described)
    return started, terminal


def batch_opening(batch, count, at, stream_id="*"):
    """The batch hash `enqueue` writes and its `batchEnqueued` event."""
    return [resp("HSET", "%s:batch:%s" % (PREFIX, batch), "total", str(count), "succeeded", "0",
                 "failed", "0", "dead", "0", "cancelled", "0"),
            resp("XADD", "%s:events" % PREFIX, stream_id, "event",
                 record(at=iso(at), batch=batch, count=count, id=str(uuid.uuid4()), type="batchEnqueued"))]


# What `enqueue` keeps per job (--memory): the idempotency marker and the batch's job index.
WINDOW_MS = 7 * 86_400_000


def enqueue_keys(job_id, batch, place):
    """The keys the enqueue script writes for one new job, as it writes them: its marker (value =
    batch, expiring after the window) and its place in the batch's `queued` job index."""
    index = "%s:batchjobs:queued:%s" % (PREFIX, batch)
    return [resp("SET", "%s:job:%s" % (PREFIX, job_id), batch, "NX", "PX", str(WINDOW_MS)),
            resp("ZADD", index, str(place), job_id), resp("PEXPIRE", index, str(WINDOW_MS))]


def fill(port, events, markers=False):
    """Writes `events` events (and the batch hashes) through redis-cli --pipe; with `markers`,
    each job's marker and job index entry too (`enqueue_keys`), and every event appended with a
    stream id of its own time (`<at ms>-<n>`, jobs 41 ms apart), as in a fleet whose clocks agree
    with Redis's: a finished job's record keeps the event's time as its difference from the
    stream id's, a few digits more per digit of disagreement."""
    base = int(time.time() * 1000) - (7_200_000 if markers else 3_600_000)
    spacing = 41 if markers else 1
    chunks = []
    written = 0
    job = 0
    batch_size = 10_000
    while written < events:
        batch = "bench-%d" % (job // batch_size)
        at = base + spacing * job
        if job % batch_size == 0:
            count = min(batch_size, (events - written) // 2 + 1)
            chunks += batch_opening(batch, count, at - 1, "%d-1" % (at - 1) if markers else "*")
            written += 1
        job_id = str(uuid.uuid4())
        if markers:
            chunks += enqueue_keys(job_id, batch, job % batch_size + 1)
        for offset, event in zip((0, 40), job_events(job, batch, at, job_id)):
            stream_id = "%d-0" % (at + offset) if markers else "*"
            chunks.append(resp("XADD", "%s:events" % PREFIX, stream_id, "event", event))
        written += 2
        job += 1
    data = b"".join(chunks)
    subprocess.run(["redis-cli", "-p", str(port), "--pipe"], input=data, check=True, stdout=subprocess.DEVNULL)


def live(darkroom, port, workdir, rate, seconds):
    """A live fleet's event flow: `rate` jobs/s (two events each) appended in 10 ms ticks, as the
    workers would, while the coordinator (with its log) follows. Returns the coordinator's and
    Redis's CPU over the run (Redis's includes the appends), in cores, and the events appended."""
    redis(port, "FLUSHALL")
    log = os.path.join(workdir, "events.jsonl")
    for name in os.listdir(workdir):
        if name.startswith("events.jsonl"):
            os.remove(os.path.join(workdir, name))
    command = [darkroom, "coordinator", "--redis", "redis://127.0.0.1:%d" % port, "--log-level", "warning",
               "--event-log", log]
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    sock = socket.create_connection(("127.0.0.1", port))
    reader = sock.makefile("rb")

    def send(chunks):
        sock.sendall(b"".join(chunks))
        for _ in chunks:
            line = reader.readline()
            if line.startswith(b"$"):
                reader.readline()
            elif line.startswith(b"-"):
                sys.exit("redis refused an append: %r" % line)

    try:
        batch = "live"
        total_jobs = rate * seconds
        send(batch_opening(batch, total_jobs, int(time.time() * 1000)))
        time.sleep(2)  # the coordinator starts, takes the lease and catches up
        tick = 0.01
        per_tick = rate * tick
        start = time.monotonic()
        cpu_before, redis_before = process_cpu(child.pid), redis_cpu(port)
        job = 0
        while job < total_jobs:
            due = min(int((time.monotonic() - start) / tick + 1) * per_tick, total_jobs)
            chunks = []
            while job < due:
                for event in job_events(job, batch, int(time.time() * 1000)):
                    chunks.append(resp("XADD", "%s:events" % PREFIX, "*", "event", event))
                job += 1
            if chunks:
                send(chunks)
            next_tick = start + (int((time.monotonic() - start) / tick) + 1) * tick
            time.sleep(max(next_tick - time.monotonic(), 0))
        elapsed = time.monotonic() - start
        cpu = process_cpu(child.pid) - cpu_before
        redis_used = redis_cpu(port) - redis_before
        last = redis(port, "XREVRANGE", "%s:events" % PREFIX, "+", "-", "COUNT", "1").splitlines()[0]
        deadline = time.monotonic() + 30
        while not at_or_after(redis(port, "HGET", "%s:coordinator" % PREFIX, "checkpoint"), last):
            if time.monotonic() > deadline:
                sys.exit("the coordinator did not catch up within 30 s of the last append")
            time.sleep(0.05)
    finally:
        sock.close()
        child.send_signal(signal.SIGTERM)
        child.wait(timeout=60)
    return cpu / elapsed, redis_used / elapsed, job * 2, elapsed


def redis(port, *args):
    return subprocess.run(["redis-cli", "-p", str(port), *args], check=True, capture_output=True, text=True).stdout.strip()


def redis_cpu(port):
    info = redis(port, "INFO", "cpu")
    values = dict(line.split(":", 1) for line in info.splitlines() if ":" in line)
    return float(values["used_cpu_user"]) + float(values["used_cpu_sys"])


def process_cpu(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def at_or_after(cursor, target):
    def key(text):
        parts = text.split("-")
        return (int(parts[0]), int(parts[1])) if len(parts) == 2 and all(p.isdigit() for p in parts) else (-1, -1)
    return key(cursor) >= key(target)


def last_line(path):
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(size - 4096, 0))
            lines = f.read().splitlines()
            return json.loads(lines[-1]) if lines else None
    except (FileNotFoundError, ValueError):
        return None


def print_commandstats(port):
    """Where Redis's CPU went over the drain, costliest command first (`--commandstats`)."""
    rows = []
    for line in redis(port, "INFO", "commandstats").splitlines():
        if line.startswith("cmdstat_"):
            name, _, fields = line.partition(":")
            values = dict(item.split("=") for item in fields.split(","))
            rows.append((float(values["usec"]), name[len("cmdstat_"):], int(values["calls"])))
    for usec, name, calls in sorted(rows, reverse=True)[:12]:
        print("  %-16s %10d calls %10.0f ms" % (name, calls, usec / 1000), file=sys.stderr)


def used_memory(port):
    return int(dict(line.split(":", 1) for line in redis(port, "INFO", "memory").splitlines() if ":" in line)["used_memory"])


def round_(darkroom, port, workdir, events, with_log, commandstats=False, memory=False):
    redis(port, "FLUSHALL")
    empty = used_memory(port)
    fill(port, events, markers=memory)
    last = redis(port, "XREVRANGE", "%s:events" % PREFIX, "+", "-", "COUNT", "1").splitlines()[0]
    log = os.path.join(workdir, "events.jsonl")
    for name in os.listdir(workdir):
        if name.startswith("events.jsonl"):
            os.remove(os.path.join(workdir, name))
    command = [darkroom, "coordinator", "--redis", "redis://127.0.0.1:%d" % port, "--event-stream-cap", "2000000",
               "--log-level", "warning"]
    if with_log:
        command += ["--event-log", log, "--event-log-max-mb", "4096"]
    if commandstats:
        redis(port, "CONFIG", "RESETSTAT")
    cpu_before = redis_cpu(port)
    start = time.monotonic()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    try:
        while True:
            # The coordinator appends workerOffline events of its own (the recorded workers never
            # heartbeat), so "done" is reaching the last recorded event, not the stream's end.
            done = at_or_after(redis(port, "HGET", "%s:coordinator" % PREFIX, "checkpoint"), last)
            if done and with_log:
                line = last_line(log)
                done = line is not None and at_or_after(line.get("streamId", ""), last)
            if done:
                break
            if child.poll() is not None:
                sys.exit("the coordinator exited early with status %d" % child.returncode)
            time.sleep(0.02)
        elapsed = time.monotonic() - start
        cpu = process_cpu(child.pid)
        redis_used = redis_cpu(port) - cpu_before
        if commandstats:
            print_commandstats(port)
    finally:
        child.send_signal(signal.SIGTERM)
        child.wait(timeout=60)
    if memory:
        print_memory(port, empty, events // 2)
    if with_log:
        with open(log, "rb") as f:
            lines = sum(1 for _ in f)
        if lines < events:
            sys.exit("the log holds %d lines for %d events" % (lines, events))
    return events / elapsed, cpu * 1e6 / events, redis_used * 1e6 / events, elapsed


def delete_matching(port, pattern):
    """Deletes every key matching `pattern` (SCAN, then DEL through redis-cli --pipe)."""
    names = subprocess.run(["redis-cli", "-p", str(port), "--scan", "--pattern", pattern],
                           check=True, capture_output=True, text=True).stdout.split()
    if names:
        subprocess.run(["redis-cli", "-p", str(port), "--pipe"], input=b"".join(resp("DEL", name) for name in names),
                       check=True, stdout=subprocess.DEVNULL)
    return len(names)


def print_memory(port, empty, jobs):
    """What the drained jobs leave once the stream is gone, by used_memory (which counts the expiry
    table that MEMORY USAGE misses), in all and by kind: deleting one kind of key after the other
    (job index, projection hashes, markers), the difference each deletion makes. The rest is the
    per-batch and per-worker keys (ten batches per 100,000 jobs)."""
    redis(port, "DEL", "%s:events" % PREFIX)
    total = used_memory(port)
    parts = []
    for name, pattern in (("batch job index", "%s:batchjobs:*" % PREFIX), ("jobstate hashes", "%s:jobstate:*" % PREFIX),
                          ("markers and records", "%s:job:*" % PREFIX)):
        before = used_memory(port)
        keys = delete_matching(port, pattern)
        time.sleep(1.5)  # serverCron shrinks the emptied key and expiry tables (they hold ~16 bytes a key)
        parts.append("%s %.1f (%d keys)" % (name, (before - used_memory(port)) / jobs, keys))
    print("memory: %.1f bytes per job kept after the drain (%d jobs, stream deleted): %s; the rest %.1f"
          % ((total - empty) / jobs, jobs, ", ".join(parts), (used_memory(port) - empty) / jobs), file=sys.stderr)


def fleet_counters(port):
    """(script calls, XREADs, commands, CPU seconds, µs of the benchmark's own HMGET/HGET polls)."""
    calls = {}
    for line in redis(port, "INFO", "commandstats").splitlines():
        if line.startswith("cmdstat_"):
            name, _, fields = line.partition(":")
            values = dict(item.split("=") for item in fields.split(","))
            calls[name[len("cmdstat_"):]] = (int(values["calls"]), int(values["usec"]))
    scripts = sum(calls.get(name, (0, 0))[0] for name in ("evalsha", "eval", "fcall"))
    polling = sum(calls.get(name, (0, 0))[1] for name in ("hmget", "hget", "info"))
    return scripts, calls.get("xread", (0, 0))[0], sum(c for c, _ in calls.values()), redis_cpu(port), polling


def fleet_run(darkroom, port, workdir, jobs, with_coordinator, batch, worker=None):
    """One run of the fleet measure (the worker and `enqueue` from `worker` when given, else from
    `darkroom`); returns a dict of per-job figures."""
    coordinator, darkroom = darkroom, worker or darkroom
    redis(port, "FLUSHALL")
    env = dict(os.environ, DARKROOM_REDIS_URL="redis://127.0.0.1:%d" % port)
    env.pop("DARKROOM_CACHE_DIR", None)
    log = open(os.path.join(workdir, "fleet.log"), "a")
    procs = [subprocess.Popen([darkroom, "worker", "-j", "1", "--cpus", "1", "--name", "bench-worker", "--log-level", "error",
                               "--allow-file-root", workdir], env=env, stdout=subprocess.DEVNULL, stderr=log)]
    if with_coordinator:
        procs.append(subprocess.Popen([coordinator, "coordinator", "--log-level", "warning"], env=env,
                                      stdout=subprocess.DEVNULL, stderr=log))
    try:
        deadline = time.monotonic() + 30
        while int(redis(port, "ZCARD", "%s:workers" % PREFIX) or 0) < 1 or (
                with_coordinator and not redis(port, "HGET", "%s:coordinator" % PREFIX, "owner")):
            if time.monotonic() > deadline:
                sys.exit("the fleet did not register; see %s/fleet.log" % workdir)
            time.sleep(0.05)
        time.sleep(1)
        idle_before, idle_clock = fleet_counters(port), time.monotonic()
        time.sleep(4)
        idle_after = fleet_counters(port)
        idle_rate = ((idle_after[3] - idle_before[3]) - (idle_after[4] - idle_before[4]) / 1e6) / (time.monotonic() - idle_clock)
        idle_scripts = (idle_after[0] - idle_before[0]) / (time.monotonic() - idle_clock)
        before, start = fleet_counters(port), time.monotonic()
        subprocess.run([darkroom, "enqueue", "--from", os.path.join(workdir, "fleet.txt"), "-p", "resize(64x48)", "--batch", batch],
                       env=env, check=True, stdout=subprocess.DEVNULL)
        while int(redis(port, "HGET", "%s:batch:%s" % (PREFIX, batch), "succeeded") or 0) < jobs:
            if time.monotonic() - start > 600:
                sys.exit("the batch did not finish; see %s/fleet.log" % workdir)
            time.sleep(0.02)
        finished = time.monotonic()
        if with_coordinator:
            last = redis(port, "XREVRANGE", "%s:events" % PREFIX, "+", "-", "COUNT", "1").splitlines()[0]
            while not at_or_after(redis(port, "HGET", "%s:coordinator" % PREFIX, "checkpoint"), last):
                if time.monotonic() - finished > 30:
                    sys.exit("the coordinator did not catch up; see %s/fleet.log" % workdir)
                time.sleep(0.02)
        elapsed = time.monotonic() - start
        after = fleet_counters(port)
    finally:
        for proc in reversed(procs):
            proc.send_signal(signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    cpu = (after[3] - before[3]) - (after[4] - before[4]) / 1e6
    return {"jobs/s": jobs / (finished - start), "scripts": (after[0] - before[0]) / jobs, "xread": (after[1] - before[1]) / jobs,
            "commands": (after[2] - before[2]) / jobs, "cpu_us": cpu * 1e6 / jobs,
            "net_cpu_us": max(cpu - idle_rate * elapsed, 0) * 1e6 / jobs, "idle_scripts_per_s": idle_scripts}


def wait_for_redis(port):
    """Waits up to 5 s for a just-started redis-server to answer PING."""
    for _ in range(100):
        try:
            redis(port, "PING")
            return
        except subprocess.CalledProcessError:
            time.sleep(0.05)


def fleet_main(args):
    """`--fleet`: interleaved runs of each binary, without and with a coordinator."""
    workdir = tempfile.mkdtemp(prefix="darkroom-bench-fleet-")
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from bench_common import png
    source = os.path.join(workdir, "small.png")
    with open(source, "wb") as f:
        f.write(png(320, 240))
    with open(os.path.join(workdir, "fleet.txt"), "w") as f:
        for i in range(args.fleet):
            f.write(json.dumps({"source": source, "chain": "resize(%dx%d)" % (40 + i % 200, 30 + i // 200), "id": "fleet-%d" % i}) + "\n")
    port = free_port()
    server = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "yes",
                               "--appendfsync", "everysec", "--dir", workdir], stdout=subprocess.DEVNULL)
    builds = ([("baseline", os.path.abspath(args.baseline))] if args.baseline else []) + [("this build", os.path.abspath(args.darkroom))]
    results = {}
    try:
        wait_for_redis(port)
        for number in range(args.rounds):
            for label, binary in builds:
                for with_coordinator in (False, True):
                    figures = fleet_run(binary, port, workdir, args.fleet, with_coordinator, "fleet-%d" % number,
                                        worker=args.worker and os.path.abspath(args.worker))
                    results.setdefault((label, with_coordinator), []).append(figures)
                    print("round %d %s %s: %s" % (number + 1, label, "with coordinator" if with_coordinator else "worker only",
                                                  ", ".join("%s %.2f" % item for item in figures.items())), file=sys.stderr)
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(workdir, ignore_errors=True)
    print("| build | coordinator | jobs/s | script calls / job | XREADs / job | commands / job | Redis CPU µs / job | net of idle |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for (label, with_coordinator), runs in results.items():
        med = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
        print("| %s | %s | %.0f | %.2f | %.2f | %.1f | %.0f | %.0f |" % (
            label, "yes" if with_coordinator else "no", med["jobs/s"], med["scripts"], med["xread"], med["commands"],
            med["cpu_us"], med["net_cpu_us"]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--darkroom", default=".build/release/darkroom")
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-log", action="store_true", help="projections only, no event log")
    parser.add_argument("--live", type=int, metavar="JOBS_PER_SECOND",
                        help="instead of a drain, follow a live flow of this many jobs/s and report CPU in cores")
    parser.add_argument("--seconds", type=int, default=30, help="how long the live flow runs (--live)")
    parser.add_argument("--fleet", type=int, metavar="JOBS",
                        help="instead of a drain, a worker (-j 1 --cpus 1) with and without a coordinator on this many small jobs")
    parser.add_argument("--baseline", help="with --fleet: another darkroom binary, run interleaved with this one")
    parser.add_argument("--worker", help="with --fleet: run every build's coordinator beside this binary's worker and enqueue, "
                                         "so that only the coordinators differ")
    parser.add_argument("--commandstats", action="store_true", help="print Redis's time per command for each round")
    parser.add_argument("--memory", action="store_true",
                        help="also print the bytes per job the drained projections keep (used_memory, stream deleted)")
    parser.add_argument("--records", choices=["current", "49af717"], default="current",
                        help="the event records' shape: this build's (default) or those before source, chain and sha256")
    args = parser.parse_args()
    global RECORDS
    RECORDS = args.records
    for tool in ("redis-server", "redis-cli"):
        if shutil.which(tool) is None:
            print("%s is missing (apt-get install redis-server)" % tool, file=sys.stderr)
            sys.exit(2)
    if not os.access(args.darkroom, os.X_OK):
        print("%s is missing: run swift build -c release --product darkroom" % args.darkroom, file=sys.stderr)
        sys.exit(2)
    if args.fleet:
        fleet_main(args)
        return
    workdir = tempfile.mkdtemp(prefix="darkroom-bench-coordinator-")
    port = free_port()
    server = subprocess.Popen(["redis-server", "--port", str(port), "--save", "", "--appendonly", "no", "--dir", workdir],
                              stdout=subprocess.DEVNULL)
    try:
        wait_for_redis(port)
        if args.live:
            runs = []
            for number in range(args.rounds):
                cores, redis_cores, events, elapsed = live(args.darkroom, port, workdir, args.live, args.seconds)
                print("round %d: %d events in %.1f s, coordinator %.3f cores, Redis %.3f cores (appends included)"
                      % (number + 1, events, elapsed, cores, redis_cores), file=sys.stderr)
                runs.append((cores, redis_cores))
            print("| live jobs/s | events/s | seconds | coordinator CPU (cores) | Redis CPU incl. appends (cores) |")
            print("|---:|---:|---:|---:|---:|")
            print("| %d | %d | %d | %.3f | %.3f |" % (args.live, args.live * 2, args.seconds,
                                                     statistics.median(r[0] for r in runs),
                                                     statistics.median(r[1] for r in runs)))
            return
        results = []
        for number in range(args.rounds):
            rate, cpu, redis_ms, elapsed = round_(args.darkroom, port, workdir, args.events, not args.no_log, args.commandstats,
                                                  args.memory)
            print("round %d: %.0f events/s (%.1f s), coordinator %.1f ms CPU / 1000 events, Redis %.1f ms / 1000 events"
                  % (number + 1, rate, elapsed, cpu, redis_ms), file=sys.stderr)
            results.append((rate, cpu, redis_ms))
        print("| events | with log | events/s | coordinator CPU ms / 1000 events | Redis CPU ms / 1000 events |")
        print("|---:|---|---:|---:|---:|")
        print("| %d | %s | %.0f | %.1f | %.1f |" % (
            args.events, "no" if args.no_log else "yes", statistics.median(r[0] for r in results),
            statistics.median(r[1] for r in results), statistics.median(r[2] for r in results)))
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
