import DarkroomQueue
import DarkroomTestSupport
import Foundation
import Testing

/// The dashboard in a real browser: Debian's headless Chromium opens `/?token=…` (which sets the
/// session cookie and redirects to `/`), the page runs against a running coordinator with its
/// `EventSource` and `/status` polling, and the test reads the live DOM.
///
/// Chromium is driven over the DevTools protocol on `--remote-debugging-pipe` (a small Python
/// script, no extra package) rather than with `--dump-dom --virtual-time-budget`: virtual time
/// waits for every network request to end, and the page's `/events` stream never ends, so that
/// form never returns. The pipe also lets one page load see the progress move.
@Suite("The dashboard in headless Chromium", .realTime)
struct DashboardBrowserRealTimeTests {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].first(where: ChildProcess.exists)

    @Test("Given a batch running, then the page shows its progress, the workers and the failures, and the progress moves as jobs end")
    func batchAndWorkers() async throws {
        guard let chromium = Self.chromium else {
            print("skipped: the dashboard test needs Chromium (apt-get install chromium)")
            return
        }
        let harness = try await CoordinatorHTTPHarness()
        let work = harness.directory + "/browser"
        let screenshot = NSTemporaryDirectory() + "darkroom-dashboard-\(UUID().uuidString).png"
        do {
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
            _ = try await harness.queue.enqueue((1...4).map { QueueTestKit.job("d\($0)", batch: "browser-batch") })
            try await harness.queue.publish([.workerOnline(worker: "worker-a"), .workerOnline(worker: "worker-b")])
            for name in ["worker-a", "worker-b"] {
                try await harness.queue.heartbeat(
                    WorkerInfo(name: name, host: "h", pid: 1, concurrency: 2, processors: [:], version: "test", startedAt: .now()),
                    ttl: .seconds(600))
            }
            try await QueueTestKit.finish(harness.queue, count: 2, consumer: "worker-a") { _ in .succeeded(QueueTestKit.result()) }
            try await QueueTestKit.finish(harness.queue, count: 1, consumer: "worker-b") { _ in
                .failed(JobError(code: "decode.corrupt", message: "not an image"))
            }
            // batchEnqueued + 2 workerOnline + 3 × (started + terminal).
            try await harness.waitForEvents(9)

            let stages = [
                [#"data-batch="browser-batch""#, #"data-finished="3""#, #"data-worker="worker-a""#, #"data-state="live""#],
                [#"data-finished="4""#],
            ]
            let url = "http://127.0.0.1:\(harness.port)/?token=\(CoordinatorHTTPHarness.token)"
            let stagesJSON = String(decoding: try JSONSerialization.data(withJSONObject: stages), as: UTF8.self)
            let browser = Task {
                try await ChildProcess.run(["/usr/bin/env", "python3", "-c", Self.probe, chromium, url, work, stagesJSON], timeout: 120)
            }
            // Stage 1 seen: end the last job while the page stays open.
            let deadline = ContinuousClock.now + .seconds(60)
            while !FileManager.default.fileExists(atPath: work + "/stage1.ready"), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
            }
            try await QueueTestKit.finish(harness.queue, count: 1, consumer: "worker-a") { _ in .succeeded(QueueTestKit.result()) }
            _ = FileManager.default.createFile(atPath: work + "/stage2.go", contents: nil)
            let outcome = try await browser.value
            #expect(outcome.status == 0, "the browser probe: \(outcome.output) \(outcome.errors.suffix(600))")

            let first = (try? String(contentsOfFile: work + "/stage1.html", encoding: .utf8)) ?? ""
            #expect(first.contains(#"data-batch="browser-batch""#), "the batch in the DOM")
            #expect(first.contains(#"data-finished="3""#) && first.contains(#"data-total="4""#), "3 of 4 finished")
            #expect(first.contains(#"data-worker="worker-a""#) && first.contains(#"data-worker="worker-b""#), "both workers")
            #expect(first.contains(#"data-code="decode.corrupt""#), "the failure with its code")
            #expect(first.contains(#"data-priority="high""#), "queue depth per priority")
            // The chart opened from the coordinator's per-minute series (the 3 jobs ended before
            // the page loaded), and says what its latency is.
            #expect(first.range(of: #"data-history="[1-9]"#, options: .regularExpression) != nil, "the chart's history")
            #expect(first.contains(#"id="chart-definition""#) && first.contains("last attempt"), "the latency definition")
            #expect(first.contains(#"data-failure-code="decode.corrupt" data-final="1" data-retried="0""#), "failures by code")
            let second = (try? String(contentsOfFile: work + "/stage2.html", encoding: .utf8)) ?? ""
            #expect(second.contains(#"data-finished="4""#), "the progress moved to 4 of 4 on the same page")
            try? FileManager.default.removeItem(atPath: screenshot)
            try FileManager.default.moveItem(atPath: work + "/dashboard.png", toPath: screenshot)
            print("dashboard screenshot: \(screenshot)")
        } catch {
            await harness.stop()
            throw error
        }
        await harness.stop()
    }

    /// Drives Chromium over `--remote-debugging-pipe` (DevTools messages separated by NUL bytes on
    /// fds 3 and 4). Arguments: chromium, url, work directory, stages as JSON (lists of strings
    /// the DOM must all contain). Per stage it waits up to 30 s for the markers, writes
    /// `stageN.html`; between stages it writes `stageN.ready` and waits for `stageN+1.go`. Then a
    /// screenshot, `dashboard.png`.
    static let probe = #"""
        import base64, json, os, subprocess, sys, time

        chromium, url, work = sys.argv[1], sys.argv[2], sys.argv[3]
        stages = json.loads(sys.argv[4])  # [[marker, …], [marker, …]]
        to_chrome_r, to_chrome_w = os.pipe()
        from_chrome_r, from_chrome_w = os.pipe()
        args = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--remote-debugging-pipe",
                "--user-data-dir=" + os.path.join(work, "profile"), "--window-size=1280,1000", "about:blank"]
        browser = subprocess.Popen(["bash", "-c", f'exec "$0" "$@" 3<&{to_chrome_r} 4>&{from_chrome_w}', chromium] + args,
                                   pass_fds=(to_chrome_r, from_chrome_w), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r); os.close(from_chrome_w)
        pending = b""; next_id = 0

        def call(method, params=None, session=None):
            global pending, next_id
            next_id += 1
            message = {"id": next_id, "method": method, "params": params or {}}
            if session: message["sessionId"] = session
            os.write(to_chrome_w, json.dumps(message).encode() + b"\0")
            while True:
                while b"\0" not in pending:
                    chunk = os.read(from_chrome_r, 1 << 16)
                    if not chunk: raise SystemExit("chromium closed the DevTools pipe")
                    pending += chunk
                raw, pending = pending.split(b"\0", 1)
                reply = json.loads(raw)
                if reply.get("id") == next_id:
                    if "error" in reply: raise SystemExit(f"{method}: {reply['error']}")
                    return reply["result"]

        def dom(session):
            result = call("Runtime.evaluate", {"expression": "document.documentElement.outerHTML", "returnByValue": True}, session)
            return result["result"].get("value", "")

        try:
            target = call("Target.createTarget", {"url": url})["targetId"]
            session = call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            for index, markers in enumerate(stages):
                deadline = time.time() + 30
                while True:
                    html = dom(session)
                    if all(marker in html for marker in markers): break
                    if time.time() > deadline:
                        open(os.path.join(work, f"stage{index + 1}.html"), "w").write(html)
                        raise SystemExit(f"stage {index + 1}: markers not in the DOM after 30 s: {[m for m in markers if m not in html]}")
                    time.sleep(0.2)
                open(os.path.join(work, f"stage{index + 1}.html"), "w").write(html)
                if index + 1 < len(stages):
                    open(os.path.join(work, f"stage{index + 1}.ready"), "w").close()
                    deadline = time.time() + 30
                    while not os.path.exists(os.path.join(work, f"stage{index + 2}.go")):
                        if time.time() > deadline: raise SystemExit(f"stage {index + 2} never started")
                        time.sleep(0.1)
            shot = call("Page.captureScreenshot", {"format": "png"}, session)
            open(os.path.join(work, "dashboard.png"), "wb").write(base64.b64decode(shot["data"]))
            call("Browser.close")
        finally:
            try: browser.wait(timeout=10)
            except subprocess.TimeoutExpired: browser.kill()
        """#
}
