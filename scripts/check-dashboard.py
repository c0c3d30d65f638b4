#!/usr/bin/env python3
"""The coordinator's dashboard in headless Chromium, end to end, with real processes.

Usage (from anywhere, after building darkroom):
    python3 scripts/check-dashboard.py [--darkroom PATH] [--chromium PATH] [--keep]

It starts a throw-away redis-server, `darkroom coordinator --http` (with a token and
--output-root), one `darkroom worker` (--max-attempts 1, so a transient failure is dead at once)
and a small image server on loopback that answers 503 for a file it does not have yet. Then it
enqueues a batch of four jobs: two images the server has, two it does not — those two fail with a
retried error (`source.http-5xx`, 503), and, out of attempts, become dead letters.

Chromium opens /?token=TOKEN (the login: a session cookie, then a redirect to /) and the script
checks, on the page, as an operator would go:
  1. the batch is listed with 4 of 4 ended and the failures are shown;
  2. its jobs (the batch's "jobs" button), filtered to `succeeded`, then one succeeded job with
     its output previewed (the <img> loaded: naturalWidth > 0);
  3. the dead letters listed; the missing images are put on the server (what fixes the cause),
     each dead letter's "retry" clicked, and the retried jobs seen to succeed on their job view,
     which still lists the dead attempt's error.

Chromium is driven over the DevTools protocol on --remote-debugging-pipe (NUL-separated JSON on
fds 3 and 4, scripts/devtools_pipe.py): a page that holds an EventSource open never settles, so
--dump-dom would never return, and the pipe needs no package beyond the standard library. Exit 0 when every step
passes, 1 with the failing step and the page's DOM otherwise, 2 when a tool is missing.
"""

import argparse
import base64
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

from devtools_pipe import ChromiumPipe

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOKEN = "dashboard-check-token-0123456789abcdef"
STEP_TIMEOUT = 90  # seconds per step: generous, for a 2-core machine under load


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ImageServer(http.server.ThreadingHTTPServer):
    """Serves the files of one directory; a file it does not have is 503 (a retried error)."""

    def __init__(self, directory):
        self.directory = directory

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(handler):
                path = os.path.join(directory, os.path.basename(handler.path))
                if not os.path.isfile(path):
                    handler.send_response(503)
                    handler.send_header("Content-Length", "0")
                    handler.end_headers()
                    return
                data = open(path, "rb").read()
                handler.send_response(200)
                handler.send_header("Content-Type", "image/png")
                handler.send_header("Content-Length", str(len(data)))
                handler.end_headers()
                handler.wfile.write(data)

            def log_message(handler, *args):
                pass

        super().__init__(("127.0.0.1", 0), Handler)


class Browser(ChromiumPipe):
    """Headless Chromium (scripts/devtools_pipe.py) with one page attached."""

    def __init__(self, chromium, profile):
        super().__init__(chromium, profile, ["--window-size=1280,1400"])
        self.session = None

    def open(self, url):
        self.session = self.attach(url)

    def page(self, method, params=None):
        return self.call(method, params, self.session)

    def run(self, expression):
        return self.evaluate(expression, self.session)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--darkroom", default=os.path.join(REPOSITORY, ".build/debug/darkroom"))
    parser.add_argument("--chromium", default=next((p for p in ["/usr/bin/chromium", "/usr/bin/chromium-browser",
                                                                  "/usr/bin/google-chrome"] if os.path.exists(p)), None))
    parser.add_argument("--keep", action="store_true", help="keep the scratch directory (logs, screenshot)")
    options = parser.parse_args()
    for tool, path in [("darkroom", options.darkroom), ("chromium", options.chromium),
                       ("redis-server", shutil.which("redis-server"))]:
        if not path or not os.path.exists(path):
            print(f"check-dashboard: {tool} not found ({path}); build darkroom, or scripts/install-packages test")
            return 2

    work = tempfile.mkdtemp(prefix="darkroom-dashboard-check-")
    images, out = os.path.join(work, "images"), os.path.join(work, "out")
    os.makedirs(images)
    os.makedirs(out)
    samples = [os.path.join(REPOSITORY, "samples", name) for name in ("chelsea.png", "coffee.png")]
    shutil.copy(samples[0], os.path.join(images, "ok1.png"))
    shutil.copy(samples[1], os.path.join(images, "ok2.png"))
    server = ImageServer(images)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    image_base = f"http://127.0.0.1:{server.server_address[1]}/"

    processes, browser = [], None
    redis_port, http_port = free_port(), free_port()
    redis = f"redis://127.0.0.1:{redis_port}"
    base = f"http://127.0.0.1:{http_port}"
    environment = dict(os.environ, DARKROOM_HTTP_TOKEN=TOKEN)

    def start(name, arguments):
        log = open(os.path.join(work, name + ".log"), "w")
        processes.append(subprocess.Popen(arguments, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                          env=environment, cwd=work))

    def api(path):
        request = urllib.request.Request(base + path, headers={"Authorization": "Bearer " + TOKEN})
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)

    def until(what, check, timeout=STEP_TIMEOUT):
        deadline = time.time() + timeout
        while True:
            try:
                value = check()
                if value:
                    return value
            except Exception:  # not up yet, not there yet
                pass
            if time.time() > deadline:
                raise AssertionError(f"{what}: not seen within {timeout} s")
            time.sleep(0.25)

    def on_page(what, expression, timeout=STEP_TIMEOUT):
        print(f"-- {what}", flush=True)
        return until(what, lambda: browser.run(expression), timeout)

    status = 1
    try:
        start("redis", ["redis-server", "--port", str(redis_port), "--save", "", "--appendonly", "no", "--dir", work])
        until("redis-server", lambda: socket.create_connection(("127.0.0.1", redis_port), timeout=1).close() or True)
        start("coordinator", [options.darkroom, "coordinator", "--http", f"127.0.0.1:{http_port}", "--output-root", out,
                              "--redis", redis])
        until("the coordinator's /healthz", lambda: urllib.request.urlopen(base + "/healthz", timeout=5).status == 200)
        start("worker", [options.darkroom, "worker", "--name", "check-worker", "-j", "2", "--max-attempts", "1",
                         "--allow-source", image_base, "--allow-output-root", out, "--redis", redis])
        until("the worker's heartbeat", lambda: api("/status").get("workers"))
        sources = [image_base + name for name in ("ok1.png", "ok2.png", "late1.png", "late2.png")]
        subprocess.run([options.darkroom, "enqueue", *sources, "--batch", "browser", "--out", out, "--format", "png",
                        "-p", "downsample(64x64)", "--redis", redis], check=True, stdout=subprocess.DEVNULL, cwd=work)
        print("-- the batch ends: 2 succeeded, 2 dead", flush=True)
        until("the batch's end", lambda: (lambda b: b["complete"] and b["succeeded"] == 2 and b["dead"] == 2)(
            api("/v1/batches/browser")))

        browser = Browser(options.chromium, os.path.join(work, "profile"))
        browser.open(f"{base}/?token={TOKEN}")
        on_page("the batch listed with 4 of 4 ended, and its failures",
                """(() => { const b = document.querySelector('[data-batch="browser"]');
                   return b && b.dataset.finished === "4" && document.querySelector('#failures [data-code]') !== null; })()""")
        browser.run("""document.querySelector('[data-batch="browser"] button[data-action="batch-jobs"]').click()""")
        on_page("the batch's jobs", "document.querySelectorAll('#batch-jobs tr[data-job]').length === 4")
        browser.run("""(() => { const s = document.getElementById("batch-state"); s.value = "succeeded";
                            s.dispatchEvent(new Event("change")); })()""")
        on_page("the batch's succeeded jobs only",
                """(() => { const rows = [...document.querySelectorAll('#batch-jobs tr[data-job]')];
                   return location.hash.endsWith("/succeeded") && rows.length === 2
                       && rows.every((r) => r.dataset.state === "succeeded"); })()""")
        browser.run("document.querySelector('#batch-jobs tr[data-job] a').click()")
        on_page("a succeeded job with its output previewed",
                """(() => { const img = document.getElementById("job-preview");
                   return document.querySelector('#job[data-state="succeeded"]') !== null
                       && img !== null && img.complete && img.naturalWidth > 0; })()""")

        dead = on_page("the two dead letters",
                       """(() => { const rows = [...document.querySelectorAll('#dead-letters tr[data-dead-letter]')];
                          return rows.length === 2 ? rows.map((r) => r.dataset.job) : null; })()""")
        for name in ("late1.png", "late2.png"):
            shutil.copy(samples[0], os.path.join(images, name))
        for remaining in (1, 0):
            browser.run("""document.querySelector('#dead-letters tr[data-dead-letter] button[data-action="retry-dead"]').click()""")
            on_page(f"a retry clicked: {remaining} dead letter(s) left",
                    f"""document.querySelectorAll('#dead-letters tr[data-dead-letter]').length === {remaining}
                        && document.getElementById("dlq-result").textContent === "retried 1" """)
        for job in dead:
            browser.run(f"location.hash = '#job/' + encodeURIComponent({json.dumps(job)})")
            on_page(f"the retried job {job} succeeded, with its preview and the dead attempt's error",
                    f"""(() => {{ const view = document.querySelector('#job[data-state="succeeded"]');
                       if (!view || view.dataset.job !== {json.dumps(job)}) {{ document.getElementById("drill-refresh").click(); return false; }}
                       const img = document.getElementById("job-preview"), errors = document.getElementById("job-errors");
                       return img !== null && img.complete && img.naturalWidth > 0
                         && errors !== null && errors.textContent.includes("attempt 1 · source.http-5xx"); }})()""")
        shot = browser.page("Page.captureScreenshot", {"format": "png"})
        open(os.path.join(work, "dashboard.png"), "wb").write(base64.b64decode(shot["data"]))
        print("check-dashboard: every step passed")
        status = 0
    except (AssertionError, subprocess.CalledProcessError) as failure:
        print(f"check-dashboard: FAILED: {failure}")
        if browser:
            try:
                dom = browser.run("document.documentElement.outerHTML") or ""
                open(os.path.join(work, "dashboard.html"), "w").write(dom)
                print(dom[-4000:])
            except SystemExit:
                pass
        for name in ("coordinator", "worker"):
            path = os.path.join(work, name + ".log")
            if os.path.exists(path):
                print(f"-- {name}.log (last lines)")
                print("".join(open(path).readlines()[-25:]))
    finally:
        if browser:
            browser.close()
        for process in reversed(processes):
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
        server.shutdown()
        if options.keep or status != 0:
            print(f"check-dashboard: scratch directory kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
