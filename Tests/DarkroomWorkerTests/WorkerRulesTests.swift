import DarkroomCache
import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import DarkroomOutput
import DarkroomPipeline
import DarkroomQueue
import DarkroomRedis
import DarkroomSources
import DarkroomSystem
import Testing

@testable import DarkroomWorker

@Suite("Worker rules: retry backoff, error classification")
struct WorkerRulesTests {
    @Test("The worker's backoffs keep their numbers: jobs 1 s to 5 min, queue 0.5 s to 30 s, full jitter")
    func backoffConfigurations() {
        #expect(Backoff.jobs == Backoff(initial: .seconds(1), cap: .seconds(300), jitter: .full))
        #expect(Backoff.queue == Backoff(initial: .milliseconds(500), cap: .seconds(30), jitter: .full))
        #expect(Backoff.immediate.delay(forAttempt: 3) == .zero)
    }

    @Test(
        "Every pipeline error maps to a code and a retry decision",
        arguments: [
            (CodecError(.corrupt, source: "a.jpg", "bad Huffman code") as any Error, "image.corrupt", false),
            (ChainError(code: .invalidArgument, processor: "blur", column: 6, message: "radius must be > 0") as any Error, "chain.invalid-argument", false),
            (RenderError.outputTooLarge(source: "a", size: PixelSize(width: 99_999, height: 1), limit: 16_383) as any Error, "output.too-large", false),
            (BitmapError.tooLarge(width: 70_000, height: 70_000, maxPixelCount: 100_000_000) as any Error, "image.too-large", false),
            (SourceError(.notFound, source: "http://x/a.jpg", "answered 404") as any Error, "source.not-found", false),
            (SourceError(.forbidden, source: "http://x/a.jpg", "answered 403") as any Error, "source.forbidden", false),
            (SourceError(.refused, source: "http://10.0.0.1/a.jpg", "private address") as any Error, "source.refused", false),
            (SourceError(.httpServerError, source: "http://x/a.jpg", "answered 503") as any Error, "source.http-5xx", true),
            (SourceError(.rateLimited, source: "http://x/a.jpg", "answered 429") as any Error, "source.rate-limited", true),
            (SourceError(.timeout, source: "http://x/a.jpg", "timed out") as any Error, "source.timeout", true),
            (SourceError(.connection, source: "http://x/a.jpg", "reset") as any Error, "source.connection", true),
            (CacheError.diskFull(path: "/cache/x", systemError: 28) as any Error, "cache.disk-full", true),
            (CacheError.corrupt(path: "/cache/x", reason: "short") as any Error, "cache.corrupt", false),
            (RedisError.connectionLost("reset") as any Error, "queue.redis", true),
            (RedisError.authenticationFailed("WRONGPASS") as any Error, "queue.redis", false),
            (JobQueueError(.unavailable, "down") as any Error, "queue.unavailable", true),
            (WorkerError.unsupportedFormat("avif") as any Error, "output.unsupported-format", false),
            (OutputError(.diskFull, "full") as any Error, "output.disk-full", true),
            (OutputError(.notAllowed, "refused") as any Error, "output.not-allowed", false),
            (OutputError(.io, "busy") as any Error, "output.io", true),
        ])
    func classification(error: any Error, code: String, transient: Bool) {
        let classified = ErrorClassifier.classify(error)
        #expect(classified.error.code == code)
        #expect(classified.isTransient == transient)
        #expect(!classified.error.message.isEmpty)
    }

    @Test("An error the classifier does not know is retried as internal, never crashing the worker")
    func unknownErrorsAreTransient() {
        struct Surprise: Error {}
        let classified = ErrorClassifier.classify(Surprise())
        #expect(classified.error.code == "internal" && classified.isTransient)
    }
}
