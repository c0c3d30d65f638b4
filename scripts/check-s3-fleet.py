#!/usr/bin/env python3
"""A fleet batch through S3-compatible object storage, end to end (docs/object-storage.md).

Usage: python3 scripts/check-s3-fleet.py [--darkroom PATH] [--keep]

What it runs, all on loopback and all its own:
  - moto (PyPI `moto[server]`) in server mode, checking signatures: the first requests (unsigned)
    create an IAM user and its access key, and every later request must be signed with that key;
  - a throttling proxy in front of moto (this script's own), so an upload stays open long enough
    to kill the worker making it;
  - redis-server, and two `darkroom worker`s configured with the endpoint through
    `--s3-endpoint` and the credentials through the environment, allowed one source bucket and one
    output bucket with `--allow-bucket`.

Then:
  1. `darkroom enqueue 's3://store@uploads/2026/11/*.jpg' -p 'downsample(400x400)' --format webp
     --out s3://store@thumbs/2026/11/` over sources whose keys hold spaces, `+`, `=` and non-ASCII
     characters, listed page by page;
  2. a large PNG output (multipart: several parts) while only the first worker runs; that worker is
     SIGKILLed while one of the parts is held open by the proxy, the second worker is started and
     takes the job over when its claim lapses;
  3. checks: every job succeeded; every output exists once, with the bytes `darkroom process` makes
     from the same source on this machine, its Content-Type and the ETag the event reports; no
     multipart upload is left open in the output bucket.

Exits 0 when every check passes, 1 with the failures otherwise. Needs redis-server, moto_server and
boto3 (which moto installs).
"""

import argparse
import hashlib
import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import zlib
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench_common import Redis, free_port  # noqa: E402

ALIAS = "store"
REGION = "us-east-1"
SOURCE_KEYS = ["2026/11/cat one.jpg", "2026/11/a+b=c.jpg", "2026/11/été/日本.jpg", "2026/11/plain.jpg", "2026/11/skip.png"]
BIG_KEY = "big/noise.png"
VISIBILITY = 6


def fail(message):
    print(f"check-s3-fleet: FAILED: {message}", flush=True)
    sys.exit(1)


def wait_for(what, check, timeout=30.0, every=0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = check()
            if value:
                return value
        except Exception:  # noqa: BLE001 - a server still starting refuses connections
            pass
        time.sleep(every)
    fail(f"timed out after {timeout:.0f} s waiting for {what}")


class ThrottlingProxy:
    """Forwards TCP connections to moto. While `hold` is set, a request carrying `uploadId=` and
    `partNumber=` (an UploadPart) is passed on at `rate` bytes per second, so the part stays open
    for seconds; `part_in_flight` is set while one is."""

    def __init__(self, upstream_port, rate=256 << 10):
        self.upstream = upstream_port
        self.rate = rate
        self.port = free_port()
        self.hold = threading.Event()
        self.part_in_flight = threading.Event()
        self.listener = socket.create_server(("127.0.0.1", self.port))
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client):
        upstream = socket.create_connection(("127.0.0.1", self.upstream))
        throttled = False
        try:
            while True:
                ready, _, _ = select.select([client, upstream], [], [], 30)
                if not ready:
                    return
                for sock in ready:
                    data = sock.recv(65536)
                    if not data:
                        return
                    if sock is client:
                        if b"partNumber=" in data[:2048] and b"uploadId=" in data[:2048] and self.hold.is_set():
                            throttled = True
                        if throttled:
                            self.part_in_flight.set()
                            for start in range(0, len(data), 8192):
                                upstream.sendall(data[start:start + 8192])
                                time.sleep(8192 / self.rate)
                        else:
                            upstream.sendall(data)
                    else:
                        throttled = False
                        client.sendall(data)
        except OSError:
            return
        finally:
            client.close()
            upstream.close()

    def close(self):
        self.listener.close()


def noise_png(width, height, seed=7):
    """An RGB PNG of pseudo-random pixels: it does not compress, so the output is large."""
    rows = bytearray()
    state = seed
    for _ in range(height):
        rows.append(0)
        row = bytearray(width * 3)
        for i in range(0, len(row), 4):
            state = (state * 1103515245 + 12345) & 0x7FFFFFFF
            row[i:i + 4] = state.to_bytes(4, "little")[: len(row) - i]
        rows += row
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(bytes(rows), 1)) + chunk(b"IEND", b""))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--darkroom", default=os.path.join(HERE, "..", ".build", "release", "darkroom"))
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    args = parser.parse_args()
    darkroom = os.path.abspath(args.darkroom)
    for tool in ("redis-server", "moto_server"):
        if not shutil.which(tool):
            fail(f"{tool} is not installed (scripts/install-packages test)")
    import boto3  # noqa: PLC0415 - installed with moto; imported late for the message above
    from botocore.config import Config  # noqa: PLC0415

    work = tempfile.mkdtemp(prefix="darkroom-s3-fleet-")
    processes = []
    redis = None
    proxy = None
    try:
        # moto: the first 4 requests go unchecked (create the user, its key and its policy).
        moto_port = free_port()
        moto_env = dict(os.environ, INITIAL_NO_AUTH_ACTION_COUNT="4")
        moto_log = open(os.path.join(work, "moto.log"), "w")
        processes.append(subprocess.Popen([sys.executable, os.path.join(HERE, "moto-signed.py"), "-H", "127.0.0.1", "-p", str(moto_port)], env=moto_env,
                                          stdout=moto_log, stderr=subprocess.STDOUT))
        moto_url = f"http://127.0.0.1:{moto_port}"
        wait_for("moto", lambda: socket.create_connection(("127.0.0.1", moto_port), timeout=1).close() or True)
        iam = boto3.client("iam", endpoint_url=moto_url, region_name=REGION,
                           aws_access_key_id="bootstrap", aws_secret_access_key="bootstrap")
        iam.create_user(UserName="darkroom")
        key = iam.create_access_key(UserName="darkroom")["AccessKey"]
        iam.put_user_policy(UserName="darkroom", PolicyName="s3", PolicyDocument=json.dumps(
            {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}))
        s3 = boto3.client("s3", endpoint_url=moto_url, region_name=REGION, aws_access_key_id=key["AccessKeyId"],
                          aws_secret_access_key=key["SecretAccessKey"], config=Config(s3={"addressing_style": "path"}))
        wrong = boto3.client("s3", endpoint_url=moto_url, region_name=REGION, aws_access_key_id=key["AccessKeyId"],
                             aws_secret_access_key="not-the-secret", config=Config(s3={"addressing_style": "path"}))
        for bucket in ("uploads", "thumbs"):
            s3.create_bucket(Bucket=bucket)
        try:
            wrong.list_objects_v2(Bucket="uploads")
            fail("moto accepted a request signed with a wrong secret: signatures are not being checked")
        except wrong.exceptions.ClientError:
            pass

        # Sources: the repository's sample JPEGs under keys that need careful signing.
        samples = sorted(os.path.join(HERE, "..", "samples", name) for name in os.listdir(os.path.join(HERE, "..", "samples"))
                         if name.endswith(".jpg"))
        if not samples:
            fail("no samples/*.jpg in the repository")
        local = {}
        for index, source_key in enumerate(SOURCE_KEYS):
            path = samples[index % len(samples)]
            body = open(path, "rb").read()
            s3.put_object(Bucket="uploads", Key=source_key, Body=body)
            local[source_key] = path
        big = noise_png(2400, 1800)
        open(os.path.join(work, "noise.png"), "wb").write(big)
        s3.put_object(Bucket="uploads", Key=BIG_KEY, Body=big)

        proxy = ThrottlingProxy(moto_port)
        redis = Redis(work)
        env = dict(os.environ)
        prefix = "DARKROOM_S3_" + ALIAS.upper() + "_"
        env[prefix + "ACCESS_KEY_ID"] = key["AccessKeyId"]
        env[prefix + "SECRET_ACCESS_KEY"] = key["SecretAccessKey"]
        s3_flags = ["--s3-endpoint", f"{ALIAS}=http://127.0.0.1:{proxy.port};region={REGION};addressing=path",
                    "--allow-bucket", f"{ALIAS}@uploads", "--allow-bucket", f"{ALIAS}@thumbs"]
        redis_flags = ["--redis", redis.url]

        def start_worker(name):
            log = open(os.path.join(work, f"{name}.log"), "w")
            process = subprocess.Popen(
                [darkroom, "worker", "--name", name, "-j", "2", "--visibility-timeout", str(VISIBILITY),
                 "--s3-multipart-threshold-mb", "5"] + redis_flags + s3_flags,
                env=env, stdout=log, stderr=subprocess.STDOUT)
            processes.append(process)
            return process

        def enqueue(*extra):
            result = subprocess.run([darkroom, "enqueue"] + redis_flags + s3_flags + list(extra), env=env,
                                    capture_output=True, text=True)
            if result.returncode != 0:
                fail(f"darkroom enqueue {' '.join(extra)} exited {result.returncode}: {result.stderr[-2000:]}")
            return result.stdout

        # 2 first: the large output through the throttled proxy, its worker killed mid-part.
        first = start_worker("first")
        time.sleep(1)
        proxy.hold.set()
        enqueue(f"s3://{ALIAS}@uploads/{BIG_KEY}", "-p", "rotate(90)", "--format", "png",
                "--out", f"s3://{ALIAS}@thumbs/big/", "--batch", "big")
        wait_for("an UploadPart held open by the proxy", proxy.part_in_flight.is_set, timeout=60)
        first.send_signal(signal.SIGKILL)
        first.wait()
        print("check-s3-fleet: killed worker 'first' with an UploadPart open", flush=True)
        proxy.hold.clear()
        start_worker("second")

        # 1: a glob over the source bucket, listed page by page.
        enqueue(f"s3://{ALIAS}@uploads/2026/11/**/*.jpg", "-p", "downsample(400x400)", "--format", "webp",
                "--out", f"s3://{ALIAS}@thumbs/2026/11/", "--batch", "thumbs")
        start_worker("third")
        for batch in ("big", "thumbs"):
            result = subprocess.run([darkroom, "wait", batch, "--timeout", "180"] + redis_flags, env=env,
                                    capture_output=True, text=True)
            if result.returncode != 0:
                fail(f"darkroom wait {batch} exited {result.returncode}: {result.stdout[-1500:]} {result.stderr[-1500:]}")
            print(f"check-s3-fleet: batch {batch}: {result.stdout.strip().splitlines()[-1] if result.stdout.strip() else 'done'}",
                  flush=True)

        # 3: the checks.
        problems = []
        events = subprocess.run([darkroom, "events", "--json", "--type", "succeeded"] + redis_flags, env=env,
                                capture_output=True, text=True).stdout
        succeeded = [json.loads(line) for line in events.splitlines()
                     if line.startswith("{") and json.loads(line).get("type") == "succeeded"]
        listed = s3.list_objects_v2(Bucket="thumbs").get("Contents", [])
        keys = sorted(item["Key"] for item in listed)
        expected = len([k for k in SOURCE_KEYS if k.endswith(".jpg")]) + 1
        if len(keys) != expected:
            problems.append(f"{len(keys)} objects in the output bucket, expected {expected}: {keys}")
        for source_key, path in local.items():
            if not source_key.endswith(".jpg"):
                continue
            reference = os.path.join(work, "reference.webp")
            subprocess.run([darkroom, "process", path, "-p", "downsample(400x400)", "-o", reference, "--no-cache"],
                           check=True, capture_output=True)
            stem = source_key.rsplit("/", 1)[-1].rsplit(".", 1)[0]
            matches = [k for k in keys if k.startswith("2026/11/") and k.rsplit("/", 1)[-1].startswith(stem + ".")]
            if len(matches) != 1:
                problems.append(f"{source_key}: {len(matches)} outputs ({matches})")
                continue
            stored = s3.get_object(Bucket="thumbs", Key=matches[0])
            if stored["Body"].read() != open(reference, "rb").read():
                problems.append(f"{matches[0]}: bytes differ from darkroom process of the same source")
            if stored.get("ContentType") != "image/webp":
                problems.append(f"{matches[0]}: Content-Type {stored.get('ContentType')}")
        big_outputs = [k for k in keys if k.startswith("big/")]
        if len(big_outputs) != 1:
            problems.append(f"big/: {big_outputs}")
        else:
            reference = os.path.join(work, "big-reference.png")
            subprocess.run([darkroom, "process", os.path.join(work, "noise.png"), "-p", "rotate(90)", "-o", reference,
                            "--no-cache"], check=True, capture_output=True)
            if s3.get_object(Bucket="thumbs", Key=big_outputs[0])["Body"].read() != open(reference, "rb").read():
                problems.append(f"{big_outputs[0]}: bytes differ from darkroom process of the same source")
        etags = {item["Key"]: item["ETag"].strip('"') for item in listed}
        reported = [(output.get("output") or output.get("location"), output.get("etag"))
                    for event in succeeded for output in [event.get("result", {})]]
        if not reported or any(etag is None for _, etag in reported):
            problems.append(f"succeeded events without an etag: {reported[:3]}")
        for location, etag in reported:
            found = [k for k in etags if location and location.endswith(k)]
            if found and etags[found[0]] != etag:
                problems.append(f"{location}: the event says ETag {etag}, the bucket {etags[found[0]]}")
        open_uploads = s3.list_multipart_uploads(Bucket="thumbs").get("Uploads", [])
        if open_uploads:
            problems.append(f"{len(open_uploads)} multipart uploads left open: {[u['Key'] for u in open_uploads]}")
        if problems:
            fail("; ".join(problems))
        print(f"check-s3-fleet: passed — {len(keys)} outputs, each once with the expected bytes; no multipart upload "
              f"left open; a worker killed mid-upload", flush=True)
    finally:
        for process in processes:
            if process.poll() is None:
                process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        if redis:
            redis.stop()
        if proxy:
            proxy.close()
        if args.keep:
            print(f"check-s3-fleet: work directory kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
