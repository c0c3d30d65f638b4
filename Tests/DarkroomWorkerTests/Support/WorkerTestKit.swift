import DarkroomCache
import DarkroomCodecs
import DarkroomCore
import DarkroomOutput
import DarkroomPipeline
import DarkroomQueue
import DarkroomStandardProcessors
import DarkroomSystem
import DarkroomTestSupport
import DarkroomWorker
import Foundation
import Logging
import Testing

/// Scratch directories, real images, workers over a `MemoryQueue`, and event collection for the
/// worker tests.
enum WorkerTestKit {
    static func makeDirectory(_ label: String = "worker") throws -> String { try TestImages.makeDirectory(label) }

    static func remove(_ path: String) { try? FileManager.default.removeItem(atPath: path) }

    /// A `width`×`height` gradient encoded as `format`; `tint` changes the bytes.
    static func image(_ format: ImageFormat = .jpeg, width: Int = 120, height: Int = 80, tint: UInt8 = 90) throws -> [UInt8] {
        try TestImages.gradient(format, width: width, height: height, tint: tint)
    }

    @discardableResult
    static func write(_ bytes: [UInt8], to path: String) throws -> String {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func read(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    static func decode(_ path: String) throws -> DecodedImage {
        try CoderRegistry.standard.decode(EncodedImage(bytes: try read(path), sourceName: path))
    }

    static let silent = Logger(label: "darkroom.worker.tests", factory: { _ in SwiftLogNoOpLogHandler() })

    /// A pipeline whose file sources must be under `fileRoot` and whose HTTP sources may be `allowing`.
    static func pipeline(
        fileRoot: String? = nil, allowing origins: [String] = [], disk: DiskCache? = nil,
        leases: (any WorkLeases)? = nil
    ) -> ImagePipeline {
        var configuration = ImagePipeline.Configuration()
        configuration.sourcePolicy.fileRoots = fileRoot.map { [$0] } ?? []
        configuration.sourcePolicy.allowedSourcePrefixes = origins.map { $0 + "/" }
        configuration.diskCache = disk
        configuration.leases = leases
        configuration.maxConcurrentProcessing = 2
        return configuration.build()
    }

    /// A worker configuration with test-sized timings: no retry delays, quick heartbeats.
    static func configuration(
        name: String = "test-worker", concurrency: Int = 2, outputRoots: [String] = [],
        gracePeriod: Duration = .seconds(10), processors: ProcessorRegistry = StandardProcessors.registry,
        releaseDelay: Duration = .seconds(3600)
    ) -> WorkerConfiguration {
        WorkerConfiguration(
            name: name, concurrency: concurrency, gracePeriod: gracePeriod,
            heartbeatInterval: .milliseconds(200), retryBackoff: .immediate,
            queueBackoff: Backoff(initial: .milliseconds(10), cap: .milliseconds(50)),
            releaseDelay: releaseDelay, reserveWait: .milliseconds(200),
            outputs: VolumeSink(roots: outputRoots), processors: processors, version: "test")
    }

    static func job(
        _ source: String, chain: String = "downsample(40x40)", batch: String = "b", output: String? = nil,
        format: String? = nil, id: JobID = .make()
    ) -> Job {
        Job(id: id, batch: batch, source: source, chain: chain, format: format, output: output)
    }

    /// Runs `worker` in a task; `stop` shuts it down gracefully and waits for `run` to return.
    struct Running {
        let worker: Worker
        let task: Task<Void, any Error>

        init(_ worker: Worker) {
            self.worker = worker
            task = Task { try await worker.run() }
        }

        func stop() async throws {
            worker.shutdownGracefully()
            try await task.value
        }

        /// Cancels `run` (a hard stop) and waits for it: the jobs in hand are abandoned, left
        /// pending and unacknowledged, as a worker that crashed leaves them.
        func kill() async {
            task.cancel()
            _ = try? await task.value
        }
    }

    /// Waits until every job of `batch` has its terminal event (at most `timeout`), then returns
    /// every event of the batch, oldest first.
    static func finish(_ batch: String, on queue: MemoryQueue, timeout: Duration = .seconds(60)) async throws -> [JobEvent] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let progress = try await queue.batchProgress(batch), progress.isComplete { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        let progress = try #require(try await queue.batchProgress(batch))
        #expect(progress.isComplete, "batch \(batch) did not finish in time: \(progress)")
        return try await events(on: queue).filter { $0.batch == batch }
    }

    /// Every retained event.
    static func events(on queue: MemoryQueue) async throws -> [JobEvent] {
        var cursor = EventCursor.start
        var all: [JobEvent] = []
        while true {
            let page = try await queue.readEvents(after: cursor, limit: 1000, wait: .zero)
            guard let last = page.last else { return all }
            all += page.map(\.event)
            cursor = last.cursor
        }
    }

    /// Runs `body` while moving `clock` forward 50 ms every few milliseconds of real time: for
    /// waits on the clock that start at a moment the test cannot see (a grace period that begins
    /// when the worker notices its stop).
    static func advancing<T>(_ clock: ManualQueueClock, _ body: () async throws -> T) async rethrows -> T {
        let ticker = Task {
            while !Task.isCancelled {
                clock.advance(by: .milliseconds(50))
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
        defer { ticker.cancel() }
        return try await body()
    }

    /// Polls `condition` every 20 ms for up to `timeout`; true when it became true (a thrown
    /// error counts as not yet).
    static func eventually(timeout: Duration = .seconds(30), _ condition: () async throws -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if (try? await condition()) == true { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return (try? await condition()) == true
    }
}

extension ImagePipeline.Configuration {
    func build() -> ImagePipeline { ImagePipeline(configuration: self) }
}

extension WorkerTestKit {
    /// A worker whose only output root `out/` holds `link` → a sibling `secret/` directory, with a
    /// source at `in/a.jpg`: the set-up of the output-escape tests.
    struct SymlinkedOutputRoot {
        let dir: String
        let source: String
        let queue: MemoryQueue
        let running: Running

        init() throws {
            dir = try WorkerTestKit.makeDirectory()
            source = try WorkerTestKit.write(try WorkerTestKit.image(), to: "\(dir)/in/a.jpg")
            try FileManager.default.createDirectory(atPath: "\(dir)/out", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: "\(dir)/secret", withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: "\(dir)/out/link", withDestinationPath: "\(dir)/secret")
            queue = MemoryQueue()
            running = Running(
                Worker(
                    queue: queue, pipeline: WorkerTestKit.pipeline(fileRoot: "\(dir)/in"),
                    configuration: WorkerTestKit.configuration(outputRoots: ["\(dir)/out"]),
                    logger: WorkerTestKit.silent))
        }
    }
}
