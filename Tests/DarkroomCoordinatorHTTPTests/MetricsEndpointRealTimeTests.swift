import DarkroomQueue
import DarkroomTestSupport
import Foundation
import Testing

/// `/metrics` read over a real socket and parsed by Prometheus' own Python parser.
@Suite("The /metrics endpoint", .realTime)
struct MetricsEndpointRealTimeTests {
    /// Parses standard input with prometheus_client and prints `{family: [type, samples]}`.
    static let parser = """
        import json, sys
        from prometheus_client.parser import text_string_to_metric_families
        families = {f.name: [f.type, len(f.samples)] for f in text_string_to_metric_families(sys.stdin.read())}
        print(json.dumps(families))
        """

    @Test("Given a batch that ran, then /metrics is Prometheus text that prometheus_client parses, with the job outcomes")
    func parsesWithPrometheusClient() async throws {
        let harness = try await CoordinatorHTTPHarness()
        let reply: HTTPTestClient.Reply
        do {
            _ = try await harness.queue.enqueue((1...3).map { QueueTestKit.job("m\($0)", batch: "metrics") })
            try await harness.queue.publish([.workerOnline(worker: "test-worker")])
            try await QueueTestKit.finish(harness.queue) { job in
                job.id.rawValue == "m3" ? .failed(JobError(code: "source.not-found", message: "404")) : .succeeded(QueueTestKit.result())
            }
            // batchEnqueued, workerOnline, 3 × (started + terminal).
            try await harness.waitForEvents(8)
            try await Task.sleep(for: .milliseconds(400))  // a queue poll
            reply = try await harness.http.get("/metrics", headers: harness.bearer)
        } catch {
            await harness.stop()
            throw error
        }
        await harness.stop()
        #expect(reply.status == 200)
        #expect(reply.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        #expect(reply.text.contains(#"darkroom_jobs_total{outcome="succeeded",code="none"} 2"#))
        #expect(reply.text.contains(#"darkroom_jobs_total{outcome="failed",code="source.not-found"} 1"#))
        #expect(reply.text.contains("darkroom_workers_live 1"))
        #expect(reply.text.contains(#"darkroom_queue_depth{priority="normal"} 0"#))

        guard try await ChildProcess.run(["/usr/bin/env", "python3", "-c", "import prometheus_client"]).status == 0 else {
            print("skipped: the Prometheus parser check needs PyPI's prometheus_client (python3 -m pip install prometheus_client)")
            return
        }
        let parsed = try await ChildProcess.run(["/usr/bin/env", "python3", "-c", Self.parser], stdin: reply.text)
        #expect(parsed.status == 0, "prometheus_client rejected /metrics: \(parsed.errors)")
        let families = try #require(try JSONSerialization.jsonObject(with: Data(parsed.output.utf8)) as? [String: [Any]])
        // The parser names counter families without `_total`.
        let expected = [
            "darkroom_jobs": "counter", "darkroom_coordinator_events": "counter", "darkroom_job_stage_duration_seconds": "histogram",
            "darkroom_job_duration_seconds": "histogram", "darkroom_workers_live": "gauge", "darkroom_queue_depth": "gauge",
            "darkroom_coordinator_checkpoint_lag_seconds": "gauge", "darkroom_dead_letters": "counter",
        ]
        for (name, type) in expected {
            #expect(families[name]?.first as? String == type, "\(name) in \(families.keys.sorted())")
        }
    }
}
