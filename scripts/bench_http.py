"""What the HTTP API benchmarks share (bench-api-submit.py, bench-api-latency.py,
bench-webhook-latency.py): a private redis-server (bench_common.Redis) with the release
`darkroom` processes a benchmark starts against it, an API key, raw keep-alive HTTP/1.1
connections, an open-loop sender, percentiles, and what the machine was doing meanwhile."""

import json
import os
import select
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections import deque

from bench_common import Redis, free_port

DEFAULT_DARKROOM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".build", "release", "darkroom")


def require(darkroom):
    """Exits 2 unless the release binary and redis-server are there."""
    if not os.access(darkroom, os.X_OK):
        print(f"no darkroom binary at {darkroom}; run `swift build -c release --product darkroom`", file=sys.stderr)
        sys.exit(2)
    if not shutil.which("redis-server") or not shutil.which("redis-cli"):
        print("redis-server and redis-cli are needed (apt-get install -y redis-server)", file=sys.stderr)
        sys.exit(2)


def context():
    """One line for the report: when, which commit, and the load average as the run starts."""
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=os.path.dirname(os.path.abspath(__file__))).stdout.strip() or "unknown"
    return f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} · commit {commit} · load average {load_average()}"


def load_average():
    return " ".join(open("/proc/loadavg").read().split()[:3])


def process_cpu(pid):
    """User + system CPU seconds of a live process, from /proc."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def redis_cpu(redis):
    info = redis.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def redis_commands(redis):
    """Commands Redis has run since it started (EVALSHA counts one, whatever its script calls)."""
    return int(redis.info("stats")["total_commands_processed"])


def percentile(values, q):
    """The nearest-rank percentile (q in 0…1) of a non-empty list."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(q * len(ordered) + 0.999999) - 1))]


class Fleet:
    """A private redis-server (persistence off) and the darkroom processes started against it,
    each logging to WORKDIR/NAME.log; `stop` ends them (SIGTERM, then SIGKILL) in reverse order."""

    def __init__(self, darkroom, workdir):
        self.darkroom = os.path.abspath(darkroom)
        self.workdir = workdir
        self.redis = Redis(workdir)
        self.env = dict(os.environ, DARKROOM_REDIS_URL=self.redis.url)
        self.env.pop("DARKROOM_CACHE_DIR", None)
        self.children = []

    def run(self, *args):
        """Runs a one-shot command; returns its standard output."""
        result = subprocess.run([self.darkroom] + list(args), env=self.env, capture_output=True, text=True)
        if result.returncode != 0:
            sys.exit(f"darkroom {' '.join(args)} exited {result.returncode}: {result.stderr.strip()}")
        return result.stdout

    def start(self, name, *args):
        log = open(os.path.join(self.workdir, name + ".log"), "a")
        child = subprocess.Popen([self.darkroom] + list(args), env=self.env, stdout=subprocess.DEVNULL, stderr=log)
        self.children.append(child)
        return child

    def api(self):
        """Starts `darkroom api` on a free loopback port; returns (process, port) once it accepts."""
        port = free_port()
        child = self.start("api", "api", "--listen", f"127.0.0.1:{port}", "--log-level", "warning")
        wait_for_port(port, child, "darkroom api", os.path.join(self.workdir, "api.log"))
        return child, port

    def api_key(self, *grants):
        """Makes a key that submits and reads, with a rate limit far above any benchmark's rate;
        returns its token."""
        out = self.run("api-key", "create", "--name", "bench", "--scope", "submit,read", "--rate", "1000000",
                       "--burst", "1000000", "--json", *grants)
        return json.loads(out)["token"]

    def stop(self):
        for child in reversed(self.children):
            if child.poll() is None:
                child.terminate()
            try:
                child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
        self.redis.stop()


def wait_for_port(port, child, name, log):
    for _ in range(500):
        if child is not None and child.poll() is not None:
            sys.exit(f"{name} exited {child.returncode}; see {log}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.02)
    sys.exit(f"{name} did not listen on port {port}; see {log}")


def request_bytes(method, path, token, body=b""):
    head = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n")
    return head.encode() + body


class ResponseReader:
    """Splits the bytes of one keep-alive connection into responses (Content-Length or chunked)."""

    def __init__(self):
        self.buffer = b""

    def feed(self, data):
        """Adds bytes; returns the (status, body) of each response they complete."""
        self.buffer += data
        done = []
        while True:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return done
            lines = self.buffer[:end].decode("latin-1").split("\r\n")
            status = int(lines[0].split()[1])
            headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:] if ":" in line)}
            rest = self.buffer[end + 4:]
            if "content-length" in headers:
                length = int(headers["content-length"])
                if len(rest) < length:
                    return done
                done.append((status, rest[:length]))
                self.buffer = rest[length:]
            elif headers.get("transfer-encoding", "").lower() == "chunked":
                body, position = b"", 0
                while True:
                    line_end = rest.find(b"\r\n", position)
                    if line_end < 0:
                        return done
                    size = int(rest[position:line_end].split(b";")[0], 16)
                    if len(rest) < line_end + 2 + size + 2:
                        return done
                    body += rest[line_end + 2:line_end + 2 + size]
                    position = line_end + 2 + size + 2
                    if size == 0:
                        break
                done.append((status, body))
                self.buffer = rest[position:]
            else:
                done.append((status, b""))
                self.buffer = rest


class Connection:
    """One keep-alive connection to the API on loopback, one request at a time."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.reader = ResponseReader()
        self.index = None  # the open-loop request in flight on it

    def request(self, data):
        """Sends a request; returns (status, body)."""
        self.sock.sendall(data)
        while True:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise SystemExit("the API closed a connection")
            answers = self.reader.feed(chunk)
            if answers:
                return answers[0]

    def close(self):
        self.sock.close()


class OpenLoop:
    """Sends `requests[i]` at `start + i / rate` over a pool of keep-alive connections, whatever
    the answers do: a sender thread sleeps to each intended time (clock_nanosleep, not an event
    loop's millisecond timer), takes an idle connection (waiting when every one is busy) and
    writes the request; a reader thread (epoll) notes when each answer is complete. Latency is
    measured from the intended time, so a server that stalls shows its queue. `lag` is how late
    each request was written: the client's own lateness (woken late) plus any wait for a free
    connection (`waited` counts those)."""

    def __init__(self, port, connections):
        sys.setswitchinterval(0.0002)  # the reader must not hold the GIL past the sender's wake-up
        self.pool = [Connection(port) for _ in range(connections)]
        self.idle = deque(self.pool)
        self.ready = threading.Condition()

    def run(self, requests, rate, settle=30):
        n = len(requests)
        self.due, self.woke, self.sent = [0.0] * n, [0.0] * n, [0.0] * n
        self.done, self.status, self.bodies = [None] * n, [None] * n, [None] * n
        self.waited = 0
        self.remaining = n
        finished = threading.Event()
        poller = select.epoll()
        by_fd = {c.sock.fileno(): c for c in self.pool}
        for fd in by_fd:
            poller.register(fd, select.EPOLLIN)
        stop = threading.Event()

        def read():
            while not stop.is_set():
                for fd, _ in poller.poll(0.1):
                    now = time.perf_counter()
                    connection = by_fd[fd]
                    chunk = connection.sock.recv(1 << 16)
                    if not chunk:
                        raise SystemExit("the API closed a connection")
                    for status, body in connection.reader.feed(chunk):
                        index = connection.index
                        self.done[index], self.status[index] = now, status
                        if status >= 300:
                            self.bodies[index] = body
                        with self.ready:
                            connection.index = None
                            self.idle.append(connection)
                            self.ready.notify()
                            self.remaining -= 1
                            if self.remaining == 0:
                                finished.set()

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        start = time.perf_counter() + 0.05
        for i, data in enumerate(requests):
            due = start + i / rate
            self.due[i] = due
            pause = due - time.perf_counter()
            if pause > 0:
                time.sleep(pause)
            self.woke[i] = time.perf_counter()
            with self.ready:
                if not self.idle:
                    self.waited += 1
                    while not self.idle:
                        self.ready.wait()
                connection = self.idle.popleft()
                connection.index = i
            self.sent[i] = time.perf_counter()
            connection.sock.sendall(data)
        finished.wait(settle)
        stop.set()
        reader.join()
        self.elapsed = time.perf_counter() - start
        return self

    def latencies(self, first=0):
        """Seconds from each answered request's intended time to its answer, from request `first`."""
        return [d - s for d, s in zip(self.done[first:], self.due[first:]) if d is not None]

    def lags(self, first=0):
        return [s - d for s, d in zip(self.sent[first:], self.due[first:])]

    def close(self):
        for connection in self.pool:
            connection.close()
