import DarkroomCache
import DarkroomCodecs
import DarkroomCore
import DarkroomSources
import DarkroomSystem

/// One output of several made from one source (`ImagePipeline.retrieveRenditions`).
public struct RenditionRequest: Sendable {
    /// The rendition's name (for messages).
    public var name: String
    public var chain: ProcessorChain
    /// How it is encoded. Renditions are still images: `frames` is always `.first`.
    public var output: OutputOptions

    public init(name: String, chain: ProcessorChain, output: OutputOptions = OutputOptions()) {
        self.name = name
        self.chain = chain
        self.output = output
        self.output.frames = .first
    }
}

/// What `retrieveRenditions` made.
public struct RenditionsResult: Sendable {
    /// Each rendition's result (from a cache or this decode), or why it failed, in order.
    public var results: [Result<ImageResult, any Error>]
    /// Each rendition's result cache key (`RenditionDecode.key`), in order.
    public var keys: [String]
    /// The hint of the shared decode (`RenditionDecode.sharedHint`).
    public var decodeHint: DecodeHint?
    /// The job's stages: the lookups and the fetch (`fetch`), the one decode, the renditions'
    /// processing and encoding summed, and the cache writes.
    public var timings: StageTimings
    /// Where the source came from; nil when every rendition was in a cache.
    public var sourceOrigin: SourceOrigin?
}

extension ImagePipeline {
    /// Several renditions of one source from one fetch and one decode. Each rendition's result is
    /// looked up in the caches first under its own key (`RenditionDecode.key`); only when some
    /// are missing is the source fetched and decoded, once, at the shared hint (computed over
    /// *all* the renditions, so a retry makes the missing ones exactly as the first attempt would
    /// have), and only the missing ones are processed, encoded and stored.
    ///
    /// Throws for what fails every rendition (the source, the decode, the rendition limits);
    /// a rendition that fails alone is a `.failure` in its place.
    public func retrieveRenditions(source: SourceReference, _ renditions: [RenditionRequest]) async throws -> RenditionsResult {
        try configuration.limits.checkRenditionCount(renditions.count, source: source.description)
        let policy = configuration.sourcePolicy
        let clock = ContinuousClock()
        var start = clock.now
        var prefetched: FetchedSource?
        let sourceKey: String
        if let key = try await ioPool.run({ [fetcher] in try fetcher.registry.cacheKey(for: source, policy: policy) }) {
            sourceKey = key
        } else {
            let fetched = try await fetcher.fetch(source, policy: policy)
            prefetched = fetched
            sourceKey = fetched.cacheKey
        }
        let hint = RenditionDecode.sharedHint(renditions.map(\.chain.decodeHint))
        let requests = renditions.map { ImageRequest(source: source, chain: $0.chain, output: $0.output) }
        let keys = zip(requests, renditions).map { request, rendition in
            RenditionDecode.key(single: request.resultKey(sourceKey: sourceKey), own: rendition.chain.decodeHint, shared: hint)
        }
        var results: [Result<ImageResult, any Error>?] = Array(repeating: nil, count: renditions.count)
        for index in renditions.indices {
            if let cached = try await cachedResult(keys[index], for: requests[index]) { results[index] = .success(cached) }
        }
        var timings = StageTimings(fetch: (clock.now - start).inMilliseconds)
        let missing = renditions.indices.filter { results[$0] == nil }
        guard !missing.isEmpty else {
            return RenditionsResult(results: results.map { $0! }, keys: keys, decodeHint: hint, timings: timings, sourceOrigin: nil)
        }

        // As `compute`: a local file is read when a CPU thread is near.
        let waitsForCPU = prefetched == nil && source.scheme == "file"
        if waitsForCPU { try await localSourceReads.acquire() }
        defer { if waitsForCPU { localSourceReads.release() } }
        start = clock.now
        let (original, sourceOrigin) = try await original(for: source, sourceKey: sourceKey, prefetched: prefetched)
        timings.add((clock.now - start).inMilliseconds, to: \.fetch)

        let encoded = EncodedImage(bytes: original, sourceName: source.description)
        let work = missing.map { (chain: renditions[$0].chain, output: renditions[$0].output) }
        let rendered = try await cpuPool.run { [renderer] in
            try RowBands.countingImage { try renderer.renderRenditions(encoded, hint: hint, renditions: work) }
        }
        timings.decode = rendered.decodeMilliseconds
        for (slot, index) in missing.enumerated() {
            switch rendered.results[slot] {
            case .failure(let error):
                results[index] = .failure(error)
            case .success(let made):
                timings.add(made.timings.process ?? 0, to: \.process)
                timings.add(made.timings.encode ?? 0, to: \.encode)
                start = clock.now
                do {
                    results[index] = .success(try await store(made, key: keys[index], sourceOrigin: sourceOrigin))
                } catch {
                    results[index] = .failure(error)
                }
                timings.add((clock.now - start).inMilliseconds, to: \.store)
            }
        }
        return RenditionsResult(results: results.map { $0! }, keys: keys, decodeHint: hint, timings: timings, sourceOrigin: sourceOrigin)
    }

    /// Stores one rendition under `key` in the disk and memory caches, as `compute` stores a result.
    private func store(_ made: RenderResult, key: String, sourceOrigin: SourceOrigin) async throws -> ImageResult {
        let cachePath = try await storeResult(made.bytes, key: key)
        return ImageResult(
            bytes: made.bytes, format: made.format, size: made.size, cachePath: cachePath, origin: .miss,
            sourceOrigin: sourceOrigin, source: made.source, timings: made.timings,
            processedFirstFrameOnly: made.processedFirstFrameOnly)
    }
}
