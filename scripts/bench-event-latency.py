#!/usr/bin/env python3
"""Measure how long a job's terminal event takes to reach its followers: `darkroom events --follow`
(the `EventSource` that `wait` uses too) and the coordinator's `/events` (what the dashboard
follows), and the dashboard page itself in headless Chromium, on loopback.

Usage (from the repository root, after `swift build -c release --product darkroom`):
    python3 scripts/bench-event-latency.py [--darkroom PATH] [--events 2000] [--rate 200]

Starts its own redis-server and `darkroom coordinator --http 127.0.0.1:PORT` (no token, loopback),
a `darkroom events --follow --json` process and an SSE client on `/events`. Then it appends
`--events` `succeeded` events to the stream at `--rate` per second, each stamped with the time of
its XADD (what a worker's acknowledgement script does), through one pipelined redis-cli. Each
follower notes when each event arrives; the latency is arrival minus the event's `at` (one clock:
everything runs on this machine). The dashboard is opened in headless Chromium (when `chromium`
is installed, unless `--no-browser`) with a hook, installed over the DevTools protocol before the
page runs, that notes in the page when its own EventSource's handler gets each event (the page
takes its figures from those; its chart redraws once a second by design). Prints p50, p95 and p99 per follower as a Markdown table.
"""

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid

from devtools_pipe import ChromiumPipe


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def iso_now():
    now = time.time()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + ".%03dZ" % int((now % 1) * 1000)


def at_seconds(text):
    # 2026-11-25T12:00:00.123Z
    base = time.strptime(text[:19], "%Y-%m-%dT%H:%M:%S")
    import calendar
    return calendar.timegm(base) + int(text[20:23]) / 1000


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(q * len(ordered) + 0.999999) - 1))]


def follow_lines(stream, arrivals, prefix=""):
    for raw in stream:
        line = raw.decode() if isinstance(raw, bytes) else raw
        if prefix:
            if not line.startswith(prefix):
                continue
            line = line[len(prefix):]
        now = time.time()
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if record.get("type") == "succeeded" and record.get("batch") == "latency":
            arrivals.append(now - at_seconds(record["at"]))


def sse_client(port, arrivals, ready):
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(b"GET /events?batch=latency HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        ready.set()
        follow_lines(sock.makefile("rb"), arrivals, prefix="data: ")


BROWSER_HOOK = """
(() => {
  // Wraps EventSource so the dashboard's own stream notes, per event of the bench's batch, how
  // long after its `at` the page's message handler got it.
  window.__latencies = [];
  const Original = window.EventSource;
  window.EventSource = function (url, options) {
    const source = new Original(url, options);
    source.addEventListener("message", (message) => {
      const now = Date.now();
      try {
        const record = JSON.parse(message.data);
        if (record.type === "succeeded" && record.batch === "latency") window.__latencies.push(now - Date.parse(record.at));
      } catch (error) {}
    });
    return source;
  };
  window.EventSource.prototype = Original.prototype;
})();
"""


class Browser(ChromiumPipe):
    """Headless Chromium on the dashboard (scripts/devtools_pipe.py), with `BROWSER_HOOK`
    installed before the page runs."""

    def __init__(self, chromium, url, workdir):
        super().__init__(chromium, os.path.join(workdir, "profile"))
        self.session = self.attach("about:blank")
        self.call("Page.enable", session=self.session)
        self.call("Page.addScriptToEvaluateOnNewDocument", {"source": BROWSER_HOOK}, self.session)
        self.call("Page.navigate", {"url": url}, self.session)

    def latencies(self):
        return [ms / 1000 for ms in json.loads(self.evaluate("JSON.stringify(window.__latencies || [])", self.session) or "[]")]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--darkroom", default=".build/release/darkroom")
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--rate", type=float, default=200)
    parser.add_argument("--no-browser", action="store_true", help="leave out the dashboard in headless Chromium")
    args = parser.parse_args()
    if not os.access(args.darkroom, os.X_OK) or shutil.which("redis-server") is None:
        print("needs %s (swift build -c release --product darkroom) and redis-server" % args.darkroom, file=sys.stderr)
        sys.exit(2)
    workdir = tempfile.mkdtemp(prefix="darkroom-bench-latency-")
    port, http_port = free_port(), free_port()
    url = "redis://127.0.0.1:%d" % port
    children = [subprocess.Popen(["redis-server", "--port", str(port), "--save", "", "--dir", workdir], stdout=subprocess.DEVNULL)]
    try:
        time.sleep(0.3)
        children.append(subprocess.Popen(
            [args.darkroom, "coordinator", "--redis", url, "--http", "127.0.0.1:%d" % http_port, "--log-level", "warning"],
            stdout=subprocess.DEVNULL))
        follower = subprocess.Popen([args.darkroom, "events", "--redis", url, "--follow", "--json", "--batch", "latency"],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        children.append(follower)
        cli_arrivals, sse_arrivals = [], []
        threading.Thread(target=follow_lines, args=(follower.stdout, cli_arrivals), daemon=True).start()
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", http_port)).close()
                break
            except OSError:
                time.sleep(0.05)
        ready = threading.Event()
        threading.Thread(target=sse_client, args=(http_port, sse_arrivals, ready), daemon=True).start()
        ready.wait(5)
        browser = None
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        if chromium and not args.no_browser:
            browser = Browser(chromium, "http://127.0.0.1:%d/" % http_port, workdir)
        elif not args.no_browser:
            print("chromium is missing (apt-get install chromium): the dashboard row is left out", file=sys.stderr)
        time.sleep(1.5 if browser is None else 4)
        cli = subprocess.Popen(["redis-cli", "-p", str(port)], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        interval = 1 / args.rate
        start = time.monotonic()
        for number in range(args.events):
            due = start + number * interval
            pause = due - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            event = json.dumps({"at": iso_now(), "attempt": 1, "batch": "latency", "id": str(uuid.uuid4()),
                                "job": str(uuid.uuid4()), "type": "succeeded", "version": 1, "worker": "bench:1",
                                "result": {"bytes": 1, "cache": "memory", "format": "webp", "height": 1, "width": 1, "ms": {}}},
                               separators=(",", ":"))
            cli.stdin.write("XADD darkroom:events * event '%s'\n" % event)
            cli.stdin.flush()
        cli.stdin.close()
        cli.wait()
        deadline = time.time() + 10
        while (len(cli_arrivals) < args.events or len(sse_arrivals) < args.events) and time.time() < deadline:
            time.sleep(0.1)
        browser_arrivals = []
        if browser is not None:
            while time.time() < deadline:
                browser_arrivals = browser.latencies()
                if len(browser_arrivals) >= args.events:
                    break
                time.sleep(0.2)
            browser.close()
        print("| follower | events | p50 ms | p95 ms | p99 ms |")
        print("|---|---:|---:|---:|---:|")
        for name, values in (("darkroom events --follow (EventSource, as wait)", cli_arrivals),
                             ("coordinator /events (SSE, as the dashboard)", sse_arrivals),
                             ("the dashboard in headless Chromium (its EventSource's message handler)", browser_arrivals)):
            if name.startswith("the dashboard") and browser is None:
                continue
            if not values:
                print("| %s | 0 | – | – | – |" % name)
                continue
            ms = [v * 1000 for v in values]
            print("| %s | %d | %.1f | %.1f | %.1f |" % (name, len(values), statistics.median(ms), percentile(ms, 0.95), percentile(ms, 0.99)))
    finally:
        for child in reversed(children):
            child.terminate()
            try:
                child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                child.kill()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
