import DarkroomOutput
import DarkroomPipeline
import DarkroomQueue
import DarkroomSystem

/// A job with renditions that failed: the first rendition's error (which decides the code and
/// whether to retry) and the renditions stored before it (`JobError.written`).
struct RenditionsFailure: Error {
    var underlying: any Error
    var written: [String]
}

extension Worker {
    /// Makes every rendition from one fetch and one decode (`ImagePipeline.retrieveRenditions`)
    /// and stores each output through the sink, each atomically. Every rendition that could be
    /// made is stored even when another failed; then the first failure fails the job, naming the
    /// stored ones (`RenditionsFailure`). A retry finds those in the cache and makes only the rest.
    func executeRenditions(_ plan: JobPlan, renditions: [PlannedRendition], output: String?) async throws -> JobResult {
        let sink = configuration.outputs
        if let output {
            try await DetachedWait.run { try await sink.prepare(output) }
        }
        let pipeline = self.pipeline
        let source = plan.request.source
        let requests = renditions.map(\.request)
        let made = try await DetachedWait.run { try await pipeline.retrieveRenditions(source: source, requests) }
        try Task.checkCancellation()

        let clock = ContinuousClock()
        var writeMilliseconds = 0.0
        var results: [RenditionResult] = []
        var written: [String] = []
        var failure: (any Error)?
        for (rendition, outcome) in zip(renditions, made.results) {
            let image: ImageResult
            switch outcome {
            case .failure(let error):
                failure = failure ?? error
                continue
            case .success(let value):
                image = value
            }
            var location = image.cachePath
            var checksum: String?
            var etag: String?
            if let output {
                let start = clock.now
                do {
                    let names = try plan.outputNames(for: image.format, rendition: rendition)
                    let owner = plan.owner
                    let bytes = image.bytes
                    let stored = try await DetachedWait.run {
                        try await Self.store(bytes, name: names.name, fallback: names.fallback, owner: owner, in: output, sink: sink)
                    }
                    location = stored.location
                    checksum = stored.sha256
                    etag = stored.etag
                } catch {
                    failure = failure ?? error
                    continue
                }
                writeMilliseconds += (clock.now - start).inMilliseconds
            }
            written.append(rendition.name)
            results.append(
                RenditionResult(
                    name: rendition.name, output: location, format: image.format.rawValue, width: image.size.width,
                    height: image.size.height, bytes: image.bytes.count, cache: image.origin, sha256: checksum, etag: etag,
                    placeholders: image.placeholders))
        }
        if let failure { throw RenditionsFailure(underlying: failure, written: written) }
        // No failure, so every rendition (there is at least one) has its result.
        let origin = JobResult.origin(of: results)
        return JobResult(
            renditions: results, ms: Self.stages(made.timings, origin: origin, outputWrite: output == nil ? nil : writeMilliseconds))
    }
}
