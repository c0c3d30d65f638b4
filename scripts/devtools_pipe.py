"""Headless Chromium driven over the DevTools protocol on --remote-debugging-pipe: JSON messages
separated by NUL bytes, written to the browser's fd 3 and read from its fd 4. Standard library
only. Used by scripts/check-dashboard.py and scripts/bench-event-latency.py.

The pipe rather than --dump-dom: a page that holds an EventSource open (the dashboard) never
settles, so --dump-dom (with --virtual-time-budget) never returns.
"""

import json
import os
import subprocess


class ChromiumPipe:
    def __init__(self, chromium, profile, extra_args=()):
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()
        args = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--remote-debugging-pipe",
                "--user-data-dir=" + profile, *extra_args, "about:blank"]
        self.process = subprocess.Popen(["bash", "-c", 'exec "$0" "$@" 3<&%d 4>&%d' % (to_r, from_w), chromium] + args,
                                        pass_fds=(to_r, from_w), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_r)
        os.close(from_w)
        self.pending, self.next_id = b"", 0

    def call(self, method, params=None, session=None):
        """Sends one command (to a page when `session` is given) and returns its result; an error
        answer raises SystemExit naming the method."""
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_w, json.dumps(message).encode() + b"\0")
        while True:
            while b"\0" not in self.pending:
                chunk = os.read(self.from_r, 1 << 16)
                if not chunk:
                    raise SystemExit("chromium closed the DevTools pipe")
                self.pending += chunk
            raw, self.pending = self.pending.split(b"\0", 1)
            reply = json.loads(raw)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise SystemExit("%s: %s" % (method, reply["error"]))
                return reply["result"]

    def attach(self, url):
        """Opens a page at `url` and returns its session id."""
        target = self.call("Target.createTarget", {"url": url})["targetId"]
        return self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]

    def evaluate(self, expression, session):
        """The value of a JavaScript expression on the page."""
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session)
        return result["result"].get("value")

    def close(self):
        try:
            self.call("Browser.close")
        except SystemExit:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
