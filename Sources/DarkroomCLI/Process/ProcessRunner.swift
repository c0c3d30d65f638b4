import DarkroomCodecs
import DarkroomCore
import DarkroomOutput
import DarkroomPipeline
import DarkroomQueue
import DarkroomSources
import DarkroomSystem
import DarkroomWorker
import Foundation

/// Runs a `ProcessPlan` through an `ImagePipeline` and writes every result. Different images go
/// to different cores (for thumbnails that beats splitting one small image); the pipeline keeps
/// fetching, pixel work and cache I/O on their own bounded pools.
struct ProcessRunner: Sendable {
    var plan: ProcessPlan
    var chain: ProcessorChain
    /// `--rendition`s: when any, each input makes all of them from one decode instead of `chain`.
    var renditions: [Rendition] = []
    var pipeline: ImagePipeline
    var output: OutputOptions
    /// Images in flight at once. With network sources more than the CPU count may wait on the
    /// network while others compute.
    var inFlight: Int
    /// Where `s3://` outputs go (`BucketOutput.sink`); nil when the plan writes files only.
    var bucketOutputs: (any OutputSink)?

    /// Processes everything, starting the most expensive inputs first (`LargestFirst`); `onRecord`
    /// is called once per input as each finishes (any order).
    func run(onRecord: @escaping @Sendable (ImageRecord) -> Void) async -> (succeeded: Int, failed: Int) {
        var succeeded = 0
        var failed = 0
        let items = LargestFirst.ordered(plan.items, workingDirectory: FileManager.default.currentDirectoryPath) { $0.input }
        await withTaskGroup(of: ImageRecord.self) { group in
            var next = 0
            func startNext() {
                guard next < items.count else { return }
                let item = items[next]
                next += 1
                group.addTask { await processOne(item) }
            }
            // Back-pressure: only `inFlight` items at once; the next starts when one ends.
            for _ in 0..<max(1, inFlight) { startNext() }
            for await record in group {
                if record.succeeded { succeeded += 1 } else { failed += 1 }
                onRecord(record)
                startNext()
            }
        }
        return (succeeded, failed)
    }

    /// One `--rendition`, bound.
    struct Rendition: Sendable {
        var request: RenditionRequest
        /// `{chain}` in its output name.
        var chainDigest: String
    }

    private func processOne(_ item: ProcessPlan.Item) async -> ImageRecord {
        if !renditions.isEmpty { return await processRenditions(item) }
        do {
            let request = ImageRequest(source: SourceReference(item.input), chain: chain, output: output)
            let result = try await pipeline.retrieve(request)
            let path = try item.destination.path(for: result.format)
            let clock = ContinuousClock()
            let writeStart = clock.now
            let written = try await write(result.bytes, to: path)
            // The same stages, counted the same way, as a worker's `succeeded` event (`run --json`).
            let made = JobResult(
                output: written.location, format: result.format.rawValue, width: result.size.width, height: result.size.height,
                bytes: result.bytes.count, cache: result.origin, sha256: written.sha256,
                ms: Worker.stages(result.timings, origin: result.origin, outputWrite: (clock.now - writeStart).inMilliseconds),
                etag: written.etag, placeholders: result.placeholders)
            return ImageRecord(
                firstFrameOnly: result.source.map { _ in result.processedFirstFrameOnly },
                input: result.source.map {
                    .init(
                        format: $0.format.rawValue, width: $0.uprightSize.width, height: $0.uprightSize.height,
                        frames: $0.frameCount, origin: result.sourceOrigin?.rawValue)
                },
                result: made, source: item.input, status: JobEventType.succeeded.rawValue)
        } catch {
            return ImageRecord(
                error: JobError(code: ErrorReport.code(of: error), message: ErrorReport.message(of: error, input: item.input)),
                source: item.input, status: JobEventType.failed.rawValue)
        }
    }

    /// Every rendition of one input from one decode, each written atomically. A rendition that
    /// fails fails the input (the others are still written); the record's error says which were.
    private func processRenditions(_ item: ProcessPlan.Item) async -> ImageRecord {
        var written: [String] = []
        do {
            let made = try await pipeline.retrieveRenditions(source: SourceReference(item.input), renditions.map(\.request))
            let clock = ContinuousClock()
            let writeStart = clock.now
            var results: [RenditionResult] = []
            var failure: (any Error)?
            for (rendition, outcome) in zip(renditions, made.results) {
                do {
                    let image = try outcome.get()
                    let path = try item.destination.path(for: image.format, rendition: rendition.request.name, chainDigest: rendition.chainDigest)
                    let stored = try await write(image.bytes, to: path)
                    written.append(rendition.request.name)
                    results.append(
                        RenditionResult(
                            name: rendition.request.name, output: stored.location, format: image.format.rawValue, width: image.size.width,
                            height: image.size.height, bytes: image.bytes.count, cache: image.origin, sha256: stored.sha256,
                            etag: stored.etag, placeholders: image.placeholders))
                } catch {
                    failure = failure ?? error
                }
            }
            if let failure { throw failure }
            let origin = JobResult.origin(of: results)
            let result = JobResult(
                renditions: results, ms: Worker.stages(made.timings, origin: origin, outputWrite: (clock.now - writeStart).inMilliseconds))
            // The source as decoded once for every rendition: any rendition made now reports it
            // (none does when every rendition came from the cache, as for a single output).
            let decoded = made.results.lazy.compactMap { try? $0.get() }.first { $0.source != nil }
            return ImageRecord(
                firstFrameOnly: decoded.map(\.processedFirstFrameOnly),
                input: decoded?.source.map {
                    .init(
                        format: $0.format.rawValue, width: $0.uprightSize.width, height: $0.uprightSize.height,
                        frames: $0.frameCount, origin: made.sourceOrigin?.rawValue)
                },
                result: result, source: item.input, status: JobEventType.succeeded.rawValue)
        } catch {
            return ImageRecord(
                error: JobError(
                    code: ErrorReport.code(of: error), message: ErrorReport.message(of: error, input: item.input),
                    written: written),
                source: item.input, status: JobEventType.failed.rawValue)
        }
    }
}
