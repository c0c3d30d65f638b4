"""What the benchmark scripts share: arguments and timing (bench-png-encode.py, bench-animation.py),
a private redis-server (bench-queue.py, bench-scaling.py, and through bench_http.py the HTTP API
benchmarks) and a test PNG (bench-queue.py, bench-webhook-latency.py)."""

import argparse
import copy
import os
import socket
import struct
import subprocess
import sys
import time
import zlib


def arguments(doc, name):
    """INPUTS_DIR, --rounds and --darkroom; exits when Pillow (used to compare outputs) is missing."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("inputs", help="the directory scripts/make-animated-inputs.py wrote")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--darkroom", default=os.path.join(os.path.dirname(__file__), "..", ".build", "release", "darkroom"))
    parser.add_argument("--baseline", help="another darkroom binary, run in the same rounds (where the script supports it)")
    args = parser.parse_args()
    if subprocess.run([sys.executable, "-c", "import PIL"]).returncode != 0:
        sys.exit(f"{name}: needs Pillow (`pip install Pillow`)")
    return args


def timed(command, scratch, name, outputs=None):
    """Runs `command`; returns wall seconds, CPU seconds (user + system) and peak RSS in MB.
    `outputs`, a list when given, collects the command's standard output (a `--json` record).

    Measured by /usr/bin/time: a child's own ru_maxrss starts at its parent's high-water mark
    (Linux keeps it across fork and exec), which would hide a small tool's memory.
    """
    report = os.path.join(scratch, "time.txt")
    result = subprocess.run(["/usr/bin/time", "-o", report, "-f", "%e %U %S %M"] + command, capture_output=True)
    if result.returncode != 0:
        sys.exit(f"{name}: {' '.join(command)} failed: {result.stderr.decode()}")
    if outputs is not None:
        outputs.append(result.stdout.decode())
    wall, user, system, rss = open(report).read().split()[-4:]
    return float(wall), float(user) + float(system), int(rss) / 1024


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Redis:
    """A redis-server of the benchmark's own on a free loopback port, persistence off unless
    `aof` (then `appendonly yes`, `appendfsync everysec`: what docs/deployment.md asks of a fleet)."""

    def __init__(self, workdir, aof=False):
        self.port = free_port()
        self.sent = 0  # commands sent through command(), so a benchmark can discount its polling
        self.url = f"redis://127.0.0.1:{self.port}"
        persistence = ["--appendonly", "yes", "--appendfsync", "everysec"] if aof else ["--appendonly", "no"]
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""] + persistence
            + ["--dir", workdir, "--logfile", os.path.join(workdir, "redis.log")])
        for _ in range(200):
            if self.cli("PING") == "PONG":
                return
            time.sleep(0.02)
        raise SystemExit("redis-server did not start")

    def command(self, *args):
        """One command over a kept connection, for polling: spawning redis-cli every 20 ms cost
        the worker under test about an eighth of this 2-core machine."""
        self.sent = getattr(self, "sent", 0) + 1
        if not hasattr(self, "sock"):
            self.sock = socket.create_connection(("127.0.0.1", self.port))
            self.reader = self.sock.makefile("rb")
        parts = [str(a).encode() for a in args]
        self.sock.sendall(b"*%d\r\n" % len(parts) + b"".join(b"$%d\r\n%s\r\n" % (len(p), p) for p in parts))
        return self._reply()

    def _reply(self):
        line = self.reader.readline().rstrip(b"\r\n")
        kind, rest = line[:1], line[1:]
        if kind == b"$":
            length = int(rest)
            if length < 0:
                return None
            data = self.reader.read(length + 2)[:-2]
            return data.decode()
        if kind == b"*":
            return [self._reply() for _ in range(int(rest))]
        if kind == b"-":
            raise SystemExit(f"redis: {rest.decode()}")
        return rest.decode()

    def connection(self):
        """Another handle on this server with a connection of its own (for a polling thread);
        `stop` stays the original's."""
        other = copy.copy(self)
        for name in ("sock", "reader"):
            other.__dict__.pop(name, None)
        return other

    def cli(self, *args):
        result = subprocess.run(["redis-cli", "-p", str(self.port)] + list(args), capture_output=True, text=True)
        return result.stdout.strip()

    def stop(self):
        if hasattr(self, "sock"):
            self.sock.close()
        self.proc.terminate()
        self.proc.wait()

    def info(self, section):
        """`INFO section` as a dict of its `key:value` lines."""
        fields = {}
        for line in self.cli("INFO", section).splitlines():
            if ":" in line and not line.startswith("#"):
                key, value = line.split(":", 1)
                fields[key] = value
        return fields


def png(width, height):
    """An RGB PNG of a gradient, made without Pillow."""
    rows = b"".join(b"\x00" + bytes((x * 7 + y * 3) & 255 for x in range(width * 3)) for y in range(height))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b""))
