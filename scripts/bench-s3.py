#!/usr/bin/env python3
"""Object storage against the volume: what a worker spends per job when its sources and outputs are
in S3 buckets rather than files (docs/benchmarks.md, "Object storage").

Usage (from the repository root, after `swift build -c release --product darkroom`):
    python3 scripts/bench-s3.py [--darkroom PATH] [--corpus DIR] [--rounds 5]

The JPEGs of ../shared/corpus (NOT in this repository: the script says so and exits 2 when it is
missing) → `downsample(400x400)` WebP, no cache, one `darkroom worker -j 2` per variant and round,
interleaved (the order alternates):
  - volume: sources are files under --allow-file-root, outputs go to a directory;
  - s3:     sources are listed from a bucket (`s3://bench@bench-in/*.jpg`), outputs go to another bucket,
            on moto (scripts/moto-signed.py, signatures checked) on loopback.
The worker's CPU (user + system, from /proc) is read just before the batch is enqueued and after
`darkroom wait` returns, so start-up and shutdown are left out; moto's own CPU over the same span is
reported apart. Prints the medians per job and the ratio s3 / volume (target ≤ 1.15).
"""

import argparse
import glob
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

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench_common import Redis, free_port  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    """User + system CPU of process `pid` so far, from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--darkroom", default=os.path.join(HERE, "..", ".build", "release", "darkroom"))
    parser.add_argument("--corpus", default=os.path.join(HERE, "..", "..", "shared", "corpus"))
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    darkroom = os.path.abspath(args.darkroom)
    photos = sorted(glob.glob(os.path.join(args.corpus, "*.jpg")))
    if not photos:
        print(f"bench-s3: no JPEGs in {args.corpus}: the benchmark corpus (../shared/corpus) is NOT in this "
              "repository; pass --corpus DIR", file=sys.stderr)
        sys.exit(2)
    import boto3  # noqa: PLC0415 - installed with moto
    from botocore.config import Config  # noqa: PLC0415

    work = tempfile.mkdtemp(prefix="darkroom-bench-s3-")
    processes = []
    redis = None
    try:
        moto_port = free_port()
        moto = subprocess.Popen([sys.executable, os.path.join(HERE, "moto-signed.py"), "-H", "127.0.0.1", "-p", str(moto_port)],
                                env=dict(os.environ, INITIAL_NO_AUTH_ACTION_COUNT="3"),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        processes.append(moto)
        url = f"http://127.0.0.1:{moto_port}"
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", moto_port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        iam = boto3.client("iam", endpoint_url=url, region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="x")
        iam.create_user(UserName="bench")
        key = iam.create_access_key(UserName="bench")["AccessKey"]
        iam.put_user_policy(UserName="bench", PolicyName="s3", PolicyDocument=json.dumps(
            {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}))
        s3 = boto3.client("s3", endpoint_url=url, region_name="us-east-1", aws_access_key_id=key["AccessKeyId"],
                          aws_secret_access_key=key["SecretAccessKey"], config=Config(s3={"addressing_style": "path"}))
        s3.create_bucket(Bucket="bench-in")
        s3.create_bucket(Bucket="bench-out")
        sources = os.path.join(work, "in")
        os.makedirs(sources)
        for photo in photos:
            shutil.copy(photo, sources)
            s3.upload_file(photo, "bench-in", os.path.basename(photo))
        redis = Redis(work)
        env = dict(os.environ, DARKROOM_S3_BENCH_ACCESS_KEY_ID=key["AccessKeyId"],
                   DARKROOM_S3_BENCH_SECRET_ACCESS_KEY=key["SecretAccessKey"])
        env.pop("DARKROOM_CACHE_DIR", None)
        s3_flags = ["--s3-endpoint", f"bench={url}", "--allow-bucket", "bench@bench-in", "--allow-bucket", "bench@bench-out"]
        chain = ["-p", "downsample(400x400)", "--format", "webp"]

        def one(variant, round_index):
            batch = f"{variant}-{round_index}"
            out = os.path.join(work, "out", batch)
            os.makedirs(out)
            flags = s3_flags if variant == "s3" else ["--allow-file-root", sources, "--allow-output-root", os.path.join(work, "out")]
            worker = subprocess.Popen([darkroom, "worker", "-j", "2", "--redis", redis.url] + flags, env=env,
                                      stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, f"{batch}.log"), "w"))
            processes.append(worker)
            time.sleep(1.0)
            if variant == "s3":
                targets = ["s3://bench@bench-in/*.jpg", "--out", f"s3://bench@bench-out/{batch}/"]
            else:
                targets = sorted(glob.glob(os.path.join(sources, "*.jpg"))) + ["--out", out]
            worker_before, moto_before, start = cpu_seconds(worker.pid), cpu_seconds(moto.pid), time.perf_counter()
            subprocess.run([darkroom, "enqueue", "--redis", redis.url, "--batch", batch] + (s3_flags if variant == "s3" else [])
                           + chain + targets, env=env, check=True, capture_output=True)
            waited = subprocess.run([darkroom, "wait", batch, "--redis", redis.url, "--timeout", "300"], env=env,
                                    capture_output=True, text=True)
            wall = time.perf_counter() - start
            worker_cpu, moto_cpu = cpu_seconds(worker.pid) - worker_before, cpu_seconds(moto.pid) - moto_before
            worker.send_signal(signal.SIGTERM)
            worker.wait()
            if waited.returncode != 0 or f"{len(photos)} succeeded" not in waited.stdout:
                sys.exit(f"bench-s3: batch {batch} did not succeed: {waited.stdout[-500:]} {waited.stderr[-500:]}")
            return wall, worker_cpu, moto_cpu

        results = {"volume": [], "s3": []}
        one("volume", "warm")
        one("s3", "warm")
        for round_index in range(args.rounds):
            order = ["volume", "s3"] if round_index % 2 == 0 else ["s3", "volume"]
            for variant in order:
                results[variant].append(one(variant, round_index))
                wall, worker_cpu, moto_cpu = results[variant][-1]
                print(f"round {round_index + 1} {variant:6}: wall {wall:.2f} s, worker CPU {worker_cpu:.2f} s, "
                      f"moto CPU {moto_cpu:.2f} s", flush=True)
        jobs = len(photos)
        print(f"\n{jobs} JPEGs → downsample(400x400) WebP, {args.rounds} interleaved rounds, medians per job:")
        medians = {}
        for variant, rows in results.items():
            wall = statistics.median(r[0] for r in rows) / jobs * 1000
            worker_cpu = statistics.median(r[1] for r in rows) / jobs * 1000
            moto_cpu = statistics.median(r[2] for r in rows) / jobs * 1000
            medians[variant] = worker_cpu
            print(f"  {variant:6}: wall {wall:.1f} ms, worker CPU {worker_cpu:.1f} ms, S3 server CPU {moto_cpu:.1f} ms")
        print(f"  worker CPU per job, s3 / volume: {medians['s3'] / medians['volume']:.3f} (target ≤ 1.15)")
    finally:
        for process in processes:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
        if redis:
            redis.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
