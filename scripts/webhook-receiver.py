#!/usr/bin/env python3
"""A webhook receiver for tests and trials: verifies Darkroom-Signature and records each delivery.

    WEBHOOK_SECRET=whsec_... python3 scripts/webhook-receiver.py --port 0 --record FILE [--port-file FILE]
    python3 scripts/webhook-receiver.py --secret-file FILE --record FILE   # the secret read per request

Every POST to any path is appended to FILE as one JSON line: the path, the delivery id, the event
name, whether the signature verified (under any live secret, at most 5 minutes old) and the body.
POST /redirect answers 302 to /ok; POST /slow answers 200 after 2 s (and is recorded then);
anything else answers 200.
"""
import argparse
import hashlib
import hmac
import json
import os
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def verify(header, body, secret, tolerance=300):
    parts = [p.split("=", 1) for p in header.split(",") if "=" in p]
    stamps = [v for k, v in parts if k == "t"]
    if not stamps or abs(time.time() - int(stamps[0])) > tolerance:
        return False
    expected = hmac.new(secret.encode(), stamps[0].encode() + b"." + body, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(expected, v) for k, v in parts if k == "v1")


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.path == "/slow":
            time.sleep(2)
        record = {
            "path": self.path,
            "delivery": self.headers.get("Darkroom-Delivery"),
            "event": self.headers.get("Darkroom-Event"),
            "verified": verify(self.headers.get("Darkroom-Signature", ""), body, self.server.secret()),
            "body": json.loads(body or b"{}"),
        }
        with open(self.server.record, "a") as out:
            out.write(json.dumps(record) + "\n")
        if self.path == "/redirect":
            self.send_response(302)
            self.send_header("Location", "/ok")
        else:
            self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--record", required=True)
    parser.add_argument("--port-file")
    parser.add_argument("--secret-file")
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.record = args.record

    def secret():
        if args.secret_file and os.path.exists(args.secret_file):
            with open(args.secret_file) as source:
                return source.read().strip()
        return os.environ.get("WEBHOOK_SECRET", "")

    server.secret = secret
    if args.port_file:
        with open(args.port_file + ".tmp", "w") as out:
            out.write(str(server.server_address[1]))
        os.rename(args.port_file + ".tmp", args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
