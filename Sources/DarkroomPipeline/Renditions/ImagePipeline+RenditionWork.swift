import DarkroomCache
import DarkroomCodecs
import DarkroomCore
import DarkroomSources
import DarkroomSystem

/// The work behind `retrieveRenditions`: finding a set of renditions in the caches, and making them.
extension ImagePipeline {
    /// What one decode made for the renditions at `missing`, in that order.
    struct MadeRenditions: Sendable {
        var results: [Result<ImageResult, any Error>]
        /// `fetch` (the source), `decode`, `process` and `encode` (summed), `store` (the cache writes).
        var timings: StageTimings
        var sourceOrigin: SourceOrigin?
    }

    /// Every result of `keys` from the caches, or nil while any is missing (the lease holder
    /// has not stored it yet).
    func cachedAll(_ keys: [String], requests: [ImageRequest]) async throws -> MadeRenditions? {
        var results: [Result<ImageResult, any Error>] = []
        for (key, request) in zip(keys, requests) {
            guard let cached = try await cachedResult(key, for: request) else { return nil }
            results.append(.success(cached))
        }
        return MadeRenditions(results: results, timings: StageTimings(), sourceOrigin: nil)
    }

    /// Fetches the source, decodes it once at `hint`, makes the renditions at `missing` (each from
    /// the decode or its parent's intermediate, as `cascade` says) and stores each.
    func make(
        _ missing: [Int], of renditions: [RenditionRequest], keys: [String], hint: DecodeHint?, cascade: RenditionCascade,
        source: SourceReference, sourceKey: String, prefetched: FetchedSource?
    ) async throws -> MadeRenditions {
        let clock = ContinuousClock()
        var timings = StageTimings()
        // As `compute`: a local file is read when a CPU thread is near.
        let waitsForCPU = prefetched == nil && source.scheme == "file"
        if waitsForCPU { try await localSourceReads.acquire() }
        defer { if waitsForCPU { localSourceReads.release() } }
        var start = clock.now
        let (original, sourceOrigin) = try await original(for: source, sourceKey: sourceKey, prefetched: prefetched)
        // The watermarks of the renditions to make, fetched before their chains run; one that
        // cannot be fetched fails the job, as its source would.
        let resources = try await resolveResources(for: ProcessorChain(missing.flatMap { renditions[$0].chain.processors }))
        timings.fetch = (clock.now - start).inMilliseconds

        let encoded = EncodedImage(bytes: original, sourceName: source.description)
        let work = renditions.map { (chain: $0.chain, output: $0.output) }
        let rendered = try await cpuPool.run { [renderer] in
            try RowBands.countingImage {
                try renderer.renderRenditions(
                    encoded, hint: hint, renditions: work, cascade: cascade, making: missing, resources: resources)
            }
        }
        timings.decode = rendered.decodeMilliseconds
        var results: [Result<ImageResult, any Error>] = []
        for (slot, index) in missing.enumerated() {
            switch rendered.results[slot] {
            case .failure(let error):
                results.append(.failure(error))
            case .success(let made):
                timings.add(made.timings.process ?? 0, to: \.process)
                timings.add(made.timings.encode ?? 0, to: \.encode)
                start = clock.now
                do {
                    results.append(.success(try await store(made, key: keys[index], sourceOrigin: sourceOrigin)))
                } catch {
                    results.append(.failure(error))
                }
                timings.add((clock.now - start).inMilliseconds, to: \.store)
            }
        }
        return MadeRenditions(results: results, timings: timings, sourceOrigin: sourceOrigin)
    }

    /// Stores one rendition under `key` in the disk and memory caches, as `compute` stores a result.
    func store(_ made: RenderResult, key: String, sourceOrigin: SourceOrigin) async throws -> ImageResult {
        let cachePath = try await storeResult(made.bytes, key: key)
        return ImageResult(
            bytes: made.bytes, format: made.format, size: made.size, cachePath: cachePath, origin: .miss,
            sourceOrigin: sourceOrigin, source: made.source, timings: made.timings,
            processedFirstFrameOnly: made.processedFirstFrameOnly)
    }
}
