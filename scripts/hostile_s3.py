"""The `s3://` section of scripts/hostile-inputs.py: hostile object-storage answers and inputs.

Starts moto (signatures checked, through scripts/moto-signed.py, with an IAM user as
scripts/check-s3-fleet.py makes one) and a fault server of its own (stdlib `http.server` on
loopback) that answers each key with one fault. Each case runs `darkroom process s3://… -p CHAIN
-o OUT --json` (or `--out s3://…/` for outputs) and checks the exit status, the exact error code,
how many requests the fault server saw for the case (0 for inputs refused before any request, 1
for a redirect, which is never followed), and that neither standard output nor standard error holds
the secret key or the `<StringToSign>` of the error bodies.
"""

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
REGION = "us-east-1"
FAULT_SECRET = "fault-secret-0123456789abcdefghijklmnopqrs"
FAULT_KEY_ID = "AKIDHOSTILEFAULT"
STRING_TO_SIGN = "AWS4-HMAC-SHA256\n20261128T000000Z\n20261128/us-east-1/s3/aws4_request\ne3b0c442"


def error_body(code: str) -> bytes:
    """An S3 error body holding what must never reach a message: the key id and the string to sign."""
    return (f"<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>{code}</Code><Message>m</Message>"
            f"<AWSAccessKeyId>{FAULT_KEY_ID}</AWSAccessKeyId><StringToSign>{STRING_TO_SIGN}</StringToSign>"
            f"<SignatureProvided>{FAULT_SECRET}</SignatureProvided></Error>").encode()


# Key (under bucket `b`) -> (status, S3 error code) answered to any request for it.
FAULTS = {
    "403-denied.jpg": (403, "AccessDenied"),
    "403-signature.jpg": (403, "SignatureDoesNotMatch"),
    "403-key-id.jpg": (403, "InvalidAccessKeyId"),
    "400-expired.jpg": (400, "ExpiredToken"),
    "403-skew.jpg": (403, "RequestTimeTooSkewed"),
    "503-slowdown.jpg": (503, "SlowDown"),
    "404.jpg": (404, "NoSuchKey"),
}


class FaultServer:
    """Answers `/b/KEY` by FAULTS, `/b/301.jpg` and `/b/307.jpg` with redirects, `/b/stall.jpg`
    with 64 of 4,096 announced bytes and then silence, and outputs under `/b/out/` with a 404 to
    HEAD and 403 AccessDenied to every write. Records every request as (method, path, status)."""

    def __init__(self):
        self.requests = []
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def answer(self, status, body=b"", headers=()):
                with server.lock:
                    server.requests.append((self.command, self.path.split("?")[0], status))
                self.send_response(status)
                for name, value in headers:
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)

            def handle_any(self):
                length = int(self.headers.get("Content-Length") or 0)
                if length:
                    self.rfile.read(length)
                path = self.path.split("?")[0]
                key = path[len("/b/"):] if path.startswith("/b/") else ""
                if key in FAULTS:
                    status, code = FAULTS[key]
                    return self.answer(status, error_body(code), [("Content-Type", "application/xml")])
                if key in ("301.jpg", "307.jpg"):
                    return self.answer(int(key[:3]), b"", [("Location", "http://127.0.0.1:9/elsewhere.jpg"),
                                                           ("x-amz-bucket-region", "eu-west-1")])
                if key == "stall.jpg":
                    with server.lock:
                        server.requests.append((self.command, path, 200))
                    self.send_response(200)
                    self.send_header("Content-Length", "4096")
                    self.send_header("ETag", "\"0123456789abcdef0123456789abcdef\"")
                    self.end_headers()
                    self.wfile.write(b"\xff\xd8" + bytes(62))
                    self.wfile.flush()
                    server.stopping.wait(30)
                    return None
                if key.startswith("out/"):
                    if self.command == "HEAD":
                        return self.answer(404)
                    return self.answer(403, error_body("AccessDenied"), [("Content-Type", "application/xml")])
                return self.answer(404, error_body("NoSuchKey"), [("Content-Type", "application/xml")])

            do_GET = do_HEAD = do_PUT = do_POST = do_DELETE = handle_any

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def count(self):
        with self.lock:
            return len(self.requests)

    def since(self, start):
        with self.lock:
            return self.requests[start:]

    def close(self):
        self.stopping.set()
        self.httpd.shutdown()
        self.httpd.server_close()


class Moto:
    """moto with signatures checked, an IAM user allowed everything, and its access key."""

    def __init__(self, work):
        port = _free_port()
        env = dict(os.environ, INITIAL_NO_AUTH_ACTION_COUNT="4")
        self.log = open(os.path.join(work, "moto.log"), "w")
        self.process = subprocess.Popen([sys.executable, os.path.join(HERE, "moto-signed.py"), "-H", "127.0.0.1",
                                         "-p", str(port)], env=env, stdout=self.log, stderr=subprocess.STDOUT)
        self.url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise RuntimeError("moto did not start (see moto.log)")
                time.sleep(0.05)
        import boto3  # noqa: PLC0415 - installed with moto; only this section needs it
        from botocore.config import Config  # noqa: PLC0415
        iam = boto3.client("iam", endpoint_url=self.url, region_name=REGION,
                           aws_access_key_id="bootstrap", aws_secret_access_key="bootstrap")
        iam.create_user(UserName="darkroom")
        key = iam.create_access_key(UserName="darkroom")["AccessKey"]
        iam.put_user_policy(UserName="darkroom", PolicyName="s3", PolicyDocument=json.dumps(
            {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}))
        self.key_id, self.secret = key["AccessKeyId"], key["SecretAccessKey"]
        self.s3 = boto3.client("s3", endpoint_url=self.url, region_name=REGION, aws_access_key_id=self.key_id,
                               aws_secret_access_key=self.secret, config=Config(s3={"addressing_style": "path"}))

    def close(self):
        self.process.terminate()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


def _free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class S3Case:
    """`source` processed with `output_args`; `expected` the error code ("ok" for success), `exit`
    the status, `requests` how many the fault server must see (None: not checked)."""

    def __init__(self, name, source, expected, exit_status=None, requests=None, output_args=None, extra=()):
        self.name = name
        self.source = source
        self.expected = expected
        self.exit = exit_status if exit_status is not None else (0 if expected == "ok" else 1)
        self.requests = requests
        self.output_args = output_args
        self.extra = tuple(extra)


def cases(tmp):
    ok = os.path.join(tmp, "ok.jpg")
    fault = "s3://fault@b/"
    return [
        S3Case("control: an object from moto", "s3://store@photos/in/ok.jpg", "ok"),
        S3Case("control: to a bucket on moto (--out s3://…/)", ok, "ok",
               output_args=["--out", "s3://store@thumbs/out/"]),
        S3Case("a bucket not allowed", "s3://store@private/ok.jpg", "source.refused"),
        S3Case("a key with a '..' segment", fault + "a/../404.jpg", "source.refused", requests=0),
        S3Case("a key with a control character", fault + "a\x01.jpg", "source.refused", requests=0),
        S3Case("a bucket not allowed on the fault endpoint", "s3://fault@other/404.jpg", "source.refused", requests=0),
        S3Case("404 NoSuchKey from moto", "s3://store@photos/in/missing.jpg", "source.not-found"),
        S3Case("403 SignatureDoesNotMatch from moto (a wrong secret)", "s3://wrong@photos/in/ok.jpg", "source.credentials"),
        S3Case("404 NoSuchKey", fault + "404.jpg", "source.not-found", requests=1),
        S3Case("403 AccessDenied", fault + "403-denied.jpg", "source.forbidden", requests=1),
        S3Case("403 SignatureDoesNotMatch", fault + "403-signature.jpg", "source.credentials", requests=1),
        S3Case("403 InvalidAccessKeyId", fault + "403-key-id.jpg", "source.credentials", requests=1),
        S3Case("400 ExpiredToken", fault + "400-expired.jpg", "source.credentials", requests=1),
        S3Case("403 RequestTimeTooSkewed", fault + "403-skew.jpg", "source.clock-skew", requests=1),
        S3Case("301 redirect (never followed)", fault + "301.jpg", "source.redirect-refused", requests=1),
        S3Case("307 redirect (never followed)", fault + "307.jpg", "source.redirect-refused", requests=1),
        S3Case("503 SlowDown", fault + "503-slowdown.jpg", "source.rate-limited", requests=1),
        S3Case("stalls after 64 of 4,096 bytes (--fetch-timeout 2)", fault + "stall.jpg", "source.timeout", requests=1,
               extra=("--fetch-timeout", "2")),
        S3Case("output: 403 AccessDenied on PUT", ok, "output.forbidden", output_args=["--out", "s3://fault@b/out/"]),
        S3Case("output: a bucket not allowed (exit 2, before any work)", ok, "output.not-allowed", exit_status=2,
               requests=0, output_args=["--out", "s3://fault@other/out/"]),
        S3Case("output: a key with a '..' segment (exit 2)", ok, "output.not-allowed", exit_status=2, requests=0,
               output_args=["-o", "s3://fault@b/out/../x.png"]),
    ]


def verdict(case, run, seen, secrets, moto):
    reasons = []
    if run.timed_out:
        reasons.append("timed out")
    elif run.signal is not None:
        reasons.append(f"crashed ({run.exit_text})")
    elif run.exit != case.exit:
        reasons.append(f"exit {run.exit}, expected {case.exit}")
    if case.exit == 2:
        # A usage error prints no record: the code is in the message on standard error.
        if f"[{case.expected}]" not in run.stderr:
            reasons.append(f"standard error does not name [{case.expected}]")
    elif run.code != case.expected:
        reasons.append(f"code {run.code or 'none'}, expected {case.expected}")
    if case.requests is not None and len(seen) != case.requests:
        reasons.append(f"the fault server saw {len(seen)} requests, expected {case.requests}")
    writes = [entry for entry in seen if entry[0] in ("PUT", "POST") and 200 <= entry[2] < 300]
    if writes:
        reasons.append(f"the fault server accepted a write: {writes}")
    if case.expected == "output.forbidden" and not any(entry[0] == "PUT" for entry in seen):
        reasons.append("no PUT reached the fault server")
    printed = json.dumps(run.records) + run.stderr
    for secret in secrets:
        if secret in printed:
            reasons.append("a secret or the string to sign was printed")
            break
    if case.expected == "ok" and case.output_args:
        listed = moto.s3.list_objects_v2(Bucket="thumbs", Prefix="out/").get("KeyCount", 0)
        if listed != 1:
            reasons.append(f"{listed} objects under s3://store@thumbs/out/, expected 1")
    return reasons


def run_section(darkroom, tmp, chain, run_darkroom):
    """Runs the cases; prints a Markdown table; returns (passed, failed, failure lines)."""
    print("\n`s3://` sources and bucket outputs (moto and a fault server on loopback):\n")
    if not shutil.which("moto_server"):
        print("skipped: moto_server is not installed (scripts/install-packages test)")
        return 0, 0, []
    started = time.monotonic()
    moto = Moto(tmp)
    server = FaultServer()
    saved = dict(os.environ)
    try:
        moto.s3.create_bucket(Bucket="photos")
        moto.s3.create_bucket(Bucket="thumbs")
        moto.s3.create_bucket(Bucket="private")
        with open(os.path.join(tmp, "ok.jpg"), "rb") as f:
            body = f.read()
        moto.s3.put_object(Bucket="photos", Key="in/ok.jpg", Body=body)
        moto.s3.put_object(Bucket="private", Key="ok.jpg", Body=body)
        os.environ.update({
            "DARKROOM_S3_STORE_ACCESS_KEY_ID": moto.key_id, "DARKROOM_S3_STORE_SECRET_ACCESS_KEY": moto.secret,
            "DARKROOM_S3_WRONG_ACCESS_KEY_ID": moto.key_id, "DARKROOM_S3_WRONG_SECRET_ACCESS_KEY": "not-the-secret",
            "DARKROOM_S3_FAULT_ACCESS_KEY_ID": FAULT_KEY_ID, "DARKROOM_S3_FAULT_SECRET_ACCESS_KEY": FAULT_SECRET,
        })
        flags = [
            "--s3-endpoint", f"store={moto.url};region={REGION};addressing=path",
            "--s3-endpoint", f"wrong={moto.url};region={REGION};addressing=path",
            "--s3-endpoint", f"fault=http://127.0.0.1:{server.port};region={REGION};addressing=path",
            "--allow-bucket", "store@photos", "--allow-bucket", "store@thumbs", "--allow-bucket", "wrong@photos",
            "--allow-bucket", "fault@b",
        ]
        secrets = [FAULT_SECRET, moto.secret, "StringToSign", STRING_TO_SIGN.split("\n")[1]]
        print("| case | expected | exit | error code | fault-server requests | wall ms | result |")
        print("|---|---|---|---|---:|---:|---|")
        passed = failed = 0
        failures = []
        for index, case in enumerate(cases(tmp)):
            output_args = case.output_args or ["-o", os.path.join(tmp, "out", f"s3-{index:02d}.png")]
            before = server.count()
            run = run_darkroom(darkroom, [case.source], output_args, chain, False, tmp, flags + list(case.extra))
            seen = server.since(before)
            reasons = verdict(case, run, seen, secrets, moto)
            code = run.code or (case.expected if case.exit == 2 and f"[{case.expected}]" in run.stderr else None)
            if reasons:
                failed += 1
                failures.append(f"- s3: {case.name}: {'; '.join(reasons)}\n    stderr: {run.stderr[-400:]}")
            else:
                passed += 1
            print(f"| {case.name} | {case.expected} | {run.exit_text} | {code or '—'} | {len(seen)} | "
                  f"{run.wall_ms:.0f} | {'FAIL: ' + '; '.join(reasons) if reasons else 'pass'} |")
        print(f"\n(the `s3://` section took {time.monotonic() - started:.1f} s)")
        return passed, failed, failures
    finally:
        os.environ.clear()
        os.environ.update(saved)
        server.close()
        moto.close()
