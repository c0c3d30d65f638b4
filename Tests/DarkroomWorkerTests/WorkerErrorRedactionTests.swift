import DarkroomQueue
import DarkroomSources
import DarkroomTestSupport
import DarkroomWorker
import Testing

@Suite("Worker: a failed job's error message is redacted like its source")
struct WorkerErrorRedactionTests {
    private static let secrets = ["SIGSECRET", "TOKENSECRET", "PASSSECRET", "HOPSECRET"]

    @Test("Given signed URLs answering 403 (directly, after a redirect, with user-info), no credential reaches the failed event")
    func forbiddenSignedURLs() async throws {
        let source = try TestHTTPServer { request in
            request.path == "/moved"
                ? .redirect(to: request.origin + "/expired.jpg?X-Amz-Signature=HOPSECRET&w=1")
                : .status(403)
        }
        defer { source.stop() }
        let queue = MemoryQueue(configuration: JobQueueConfiguration(maxAttempts: 1))
        let running = WorkerTestKit.Running(
            Worker(
                queue: queue, pipeline: WorkerTestKit.pipeline(allowing: [source.origin]),
                configuration: WorkerTestKit.configuration(), logger: WorkerTestKit.silent))
        let withUser = source.url("/a.jpg").replacing("http://", with: "http://alice:pa/PASSSECRET@")
        _ = try await queue.enqueue([
            WorkerTestKit.job(source.url("/expired.jpg?X-Amz-Signature=SIGSECRET&token=TOKENSECRET;sig=SIGSECRET")),
            WorkerTestKit.job(source.url("/moved?sig=SIGSECRET")),
            WorkerTestKit.job(withUser),
        ])
        let events = try await WorkerTestKit.finish("b", on: queue)
        try await running.stop()

        let failures = events.filter { $0.type == .failed }
        #expect(failures.count == 3)
        for failure in failures {
            let message = try #require(failure.error?.message)
            #expect(!Self.secrets.contains { message.contains($0) }, "\(message)")
            #expect(message.contains("***"), "\(message)")
        }
        #expect(failures.contains { $0.error?.code == "source.forbidden" })
    }

    @Test("The classifier redacts the source an error names, even one a URL scan would cut short")
    func classifierRedactsNamedSource() {
        let typed = "https://u:pa ss@example.com/a b.jpg?sig=SIGSECRET"
        let classified = ErrorClassifier.classify(SourceError(.forbidden, source: typed, "answered 403; redirects to https://e.com/x?token=TOKENSECRET"))
        #expect(classified.error.message == "https://***@example.com/a b.jpg?sig=***: answered 403; redirects to https://e.com/x?token=***")
    }
}
