#!/usr/bin/env python3
"""Measure webhook delivery latency of cache-hit jobs: from each job's terminal event to the
receiver having its delivery, at a fixed submit rate.

Usage (from the repository root, after `swift build -c release --product darkroom`):
    python3 scripts/bench-webhook-latency.py [--darkroom PATH] [--rate 1000] [--seconds 10]
                                             [--per-request 10] [--concurrency J]

Starts its own redis-server (persistence off), a `darkroom coordinator` (which runs the webhook
notifier), one `darkroom worker` (`-j J`, default its own), one `darkroom api` and a receiver (this
script with `--receive`: an asyncio HTTP/1.1 server on loopback that answers 200 at once and
notes when each request had fully arrived). It registers the receiver as the endpoint `bench`
(`darkroom webhook add … --allow-private-network`) and makes an API key granted the work
directory's sources and that endpoint.

One job (a 320×240 PNG, `resize(64x48)`) is submitted and waited for, so the result is in the
worker's cache. Then the same work is submitted again, each job naming the endpoint, at `--rate`
jobs a second for `--seconds` seconds: `POST /v1/batches` of `--per-request` jobs on an open-loop
schedule (`bench_http.OpenLoop`), all in the batch `hooks`. Every job is a cache hit; each ends
with a `succeeded` event, which the notifier turns into a `job.succeeded` delivery.

The latency of a delivery is its arrival at the receiver minus the `at` of the terminal event in
its body (the time the worker's acknowledgement recorded it; one clock, loopback, millisecond
resolution). Reports p50, p90, p99 and max over the `job.*` deliveries, how many arrived (and how
many duplicates), how many verified (HMAC over the raw body, as docs/http-api.md shows), the
`batch.ended` deliveries apart, the submit answers and the load average. Exits 2 when the binary
or redis-server is missing.
"""

import argparse
import asyncio
import calendar
import hashlib
import hmac
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

from bench_common import free_port, png
from bench_http import (DEFAULT_DARKROOM, Connection, Fleet, OpenLoop, context, load_average, percentile, process_cpu,
                        redis_cpu, request_bytes, require, wait_for_port)

CHAIN = "resize(64x48)"


def receive(port, record):
    """The receiver: answers every request 200 at once (keep-alive when the sender keeps it) and
    appends one JSON line per request to `record` (flushed every 100 ms and on SIGTERM)."""
    pending = []

    async def handle(reader, writer):
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                headers = {k.strip().lower(): v.strip() for k, v in (l.split(":", 1) for l in lines[1:] if ":" in l)}
                if headers.get("expect", "").lower() == "100-continue":
                    writer.write(b"HTTP/1.1 100 Continue\r\n\r\n")
                body = await reader.readexactly(int(headers.get("content-length", "0")))
                arrived = time.time()
                close = headers.get("connection", "").lower() == "close"
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n" + (b"Connection: close\r\n" if close else b"") + b"\r\n")
                pending.append({"arrived": arrived, "delivery": headers.get("darkroom-delivery"),
                                "event": headers.get("darkroom-event"), "signature": headers.get("darkroom-signature", ""),
                                "body": body.decode()})
                await writer.drain()
                if close:
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        except asyncio.CancelledError:
            # Shutting down with the sender's kept connections still open: not an error.
            pass
        finally:
            writer.close()

    async def main():
        out = open(record, "a")

        def flush():
            if pending:
                out.write("".join(json.dumps(p) + "\n" for p in pending))
                pending.clear()
                out.flush()
        stopping = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stopping.set)
        server = await asyncio.start_server(handle, "127.0.0.1", port, backlog=1024)
        async with server:
            while not stopping.is_set():
                try:
                    await asyncio.wait_for(stopping.wait(), 0.1)
                except asyncio.TimeoutError:
                    pass
                flush()
        flush()
    asyncio.run(main())


def at_seconds(text):
    """An event's `at` (2026-11-27T12:00:00.123Z) as Unix seconds."""
    return calendar.timegm(time.strptime(text[:19], "%Y-%m-%dT%H:%M:%S")) + int(text[20:23]) / 1000


def verified(record, secret, tolerance=300):
    parts = [p.split("=", 1) for p in record["signature"].split(",") if "=" in p]
    stamps = [v for k, v in parts if k == "t"]
    if not stamps or abs(record["arrived"] - int(stamps[0])) > tolerance:
        return False
    expected = hmac.new(secret.encode(), stamps[0].encode() + b"." + record["body"].encode(), hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(expected, v) for k, v in parts if k == "v1")


def read_records(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.endswith("\n")]


def stream_ms(entry_id):
    return int(entry_id.split("-")[0]) if entry_id else 0


def sample(redis, stop, samples):
    """Every 50 ms: how far the notifier's checkpoint is behind the newest event (ms of stream
    time: events not yet made deliveries), and how many deliveries are due but unclaimed and
    pending (created, not yet delivered)."""
    while not stop.is_set():
        now = int(time.time() * 1000)
        cursor = stream_ms(redis.command("GET", "darkroom:webhooks:cursor"))
        newest = redis.command("XREVRANGE", "darkroom:events", "+", "-", "COUNT", "1")
        head = stream_ms(newest[0][0]) if newest else 0
        due = int(redis.command("ZCOUNT", "darkroom:webhooks:due", "-inf", now))
        pending = int(redis.command("ZCARD", "darkroom:webhooks:pending"))
        samples.append((max(0, head - cursor) if cursor else 0, due, pending))
        stop.wait(0.05)


def wait_for_batch(fleet, batch, count, timeout):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if int(fleet.redis.command("HGET", f"darkroom:batch:{batch}", "succeeded") or 0) >= count:
            return
        time.sleep(0.05)
    sys.exit(f"batch {batch} did not finish in {timeout} s; logs in {fleet.workdir}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--darkroom", default=DEFAULT_DARKROOM)
    parser.add_argument("--rate", type=float, default=1000, help="jobs submitted a second")
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--per-request", type=int, default=10)
    parser.add_argument("--concurrency", type=int, default=None, help="the worker's -j (default: its own)")
    parser.add_argument("--keep", action="store_true", help="keep the work directory (logs, the receiver's record)")
    parser.add_argument("--receive", nargs=2, metavar=("PORT", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.receive:
        receive(int(args.receive[0]), args.receive[1])
        return 0
    require(args.darkroom)
    work = tempfile.mkdtemp(prefix="darkroom-bench-webhooks-")
    print(context())
    fleet = Fleet(args.darkroom, work)
    record = os.path.join(work, "deliveries.jsonl")
    receiver, records = None, []
    try:
        port = free_port()
        receiver = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--receive", str(port), record])
        wait_for_port(port, receiver, "the receiver", work)
        image = os.path.join(work, "hit.png")
        with open(image, "wb") as f:
            f.write(png(320, 240))
        coordinator = fleet.start("coordinator", "coordinator", "--log-level", "warning")
        jobs = ["--concurrency", str(args.concurrency)] if args.concurrency else []
        worker = fleet.start("worker", "worker", *jobs, "--allow-file-root", work, "--name", "bench", "--log-level", "warning")
        api, api_port = fleet.api()
        secret = json.loads(fleet.run("webhook", "add", "bench", f"http://127.0.0.1:{port}/hook",
                                      "--allow-private-network", "--json"))["secret"]
        token = fleet.api_key("--allow-source", work, "--allow-webhook", "bench")

        warm = Connection(api_port)
        status, body = warm.request(request_bytes("POST", "/v1/jobs", token, json.dumps(
            {"source": image, "chain": CHAIN, "batch": "warm"}).encode()))
        if status != 201:
            sys.exit(f"the first submit answered {status}: {body[:500]!r}")
        wait_for_batch(fleet, "warm", 1, 60)
        warm.close()

        requests_count = int(args.rate * args.seconds / args.per_request)
        total = requests_count * args.per_request
        body = json.dumps({"batch": "hooks", "chain": CHAIN,
                           "jobs": [{"source": image, "webhook": "bench"}] * args.per_request}).encode()
        requests = [request_bytes("POST", "/v1/batches", token, body)] * requests_count
        sender = OpenLoop(api_port, 4)
        load_before = load_average()
        cpu_before = {name: process_cpu(p.pid) for name, p in (("coordinator", coordinator), ("worker", worker), ("api", api))}
        redis_before = redis_cpu(fleet.redis)
        started = time.time()
        samples, stop_sampling = [], threading.Event()
        sampler = threading.Thread(target=sample, args=(fleet.redis.connection(), stop_sampling, samples), daemon=True)
        sampler.start()
        sender.run(requests, args.rate / args.per_request)
        refused = [(s, b) for s, b in zip(sender.status, sender.bodies) if s != 201]
        if refused:
            sys.exit(f"{len(refused)} submits were refused; the first: {refused[0][0]} {refused[0][1]!r}")
        deadline = time.time() + 120
        while time.time() < deadline:
            records = read_records(record)
            if len({r["delivery"] for r in records if (r["event"] or "").startswith("job.")}) >= total:
                break
            time.sleep(0.5)
        elapsed = time.time() - started
        stop_sampling.set()
        sampler.join()
        cpu = {name: process_cpu(p.pid) - cpu_before[name] for name, p in (("coordinator", coordinator), ("worker", worker), ("api", api))}
        cpu["redis"] = redis_cpu(fleet.redis) - redis_before
        load_after = load_average()
        sender.close()
    finally:
        if receiver is not None:
            receiver.terminate()
            receiver.wait()
            records = read_records(record)
        fleet.stop()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)

    jobs_records = [r for r in records if (r["event"] or "").startswith("job.")]
    first = {}
    for r in jobs_records:
        first.setdefault(r["delivery"], r)
    latencies = [(r["arrived"] - at_seconds(json.loads(r["body"])["event"]["at"])) * 1000 for r in first.values()]
    good = sum(1 for r in records if verified(r, secret))
    batch_ends = [r for r in records if r["event"] == "batch.ended"]
    submit = [v * 1000 for v in sender.latencies()]
    print(f"{total:,} cache-hit jobs submitted at {args.rate:g}/s ({requests_count:,} requests of {args.per_request}); "
          f"load average {load_before} before, {load_after} after")
    print()
    print("| deliveries (job.*) | duplicates | p50 ms | p90 ms | p99 ms | max ms | signatures verified |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    if latencies:
        print(f"| {len(first):,} of {total:,} | {len(jobs_records) - len(first):,} | {percentile(latencies, 0.5):.1f} | "
              f"{percentile(latencies, 0.9):.1f} | {percentile(latencies, 0.99):.1f} | {max(latencies):.1f} | {good:,} of {len(records):,} |")
    print()
    print(f"batch.ended deliveries: {len(batch_ends)}; submit answers p50 {percentile(submit, 0.5):.1f} ms, "
          f"p99 {percentile(submit, 0.99):.1f} ms")
    if samples:
        behind, due, pending = ([s[i] for s in samples] for i in range(3))
        print(f"every 50 ms until the last delivery ({len(samples)} samples), median / max: the notifier's checkpoint "
              f"{percentile(behind, 0.5):,} / {max(behind):,} ms behind the newest event; deliveries due and unclaimed "
              f"{percentile(due, 0.5):,} / {max(due):,}; pending {percentile(pending, 0.5):,} / {max(pending):,}")
    print("CPU over the run, cores: " + ", ".join(f"{name} {seconds / elapsed:.2f}" for name, seconds in cpu.items())
          + f" ({elapsed:.1f} s)")
    return 0 if len(first) == total else 1


if __name__ == "__main__":
    sys.exit(main())
