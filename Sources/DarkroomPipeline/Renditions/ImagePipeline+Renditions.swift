import DarkroomCache
import DarkroomCodecs
import DarkroomCore
import DarkroomSources
import DarkroomSystem

extension ImagePipeline {
    /// Several renditions of one source from one fetch and one decode. Each rendition's result is
    /// looked up in the caches first under its own key (`RenditionDecode.key`); only when some
    /// are missing is the source fetched and decoded, once, at the shared hint, and only the
    /// missing ones are processed, encoded and stored, each from the decode or from a larger
    /// rendition's intermediate (`RenditionCascade`). The hint and the cascade are computed over
    /// *all* the renditions, so a retry makes the missing ones exactly as the first attempt would
    /// have (the intermediates of cached parents are made again, not encoded).
    ///
    /// Throws for what fails every rendition (the source, the decode, the rendition limits);
    /// a rendition that fails alone is a `.failure` in its place.
    public func retrieveRenditions(source: SourceReference, _ renditions: [RenditionRequest]) async throws -> RenditionsResult {
        try configuration.limits.checkRenditionCount(renditions.count, source: source.description)
        let clock = ContinuousClock()
        let start = clock.now
        let (sourceKey, prefetched) = try await keyedSource(source)
        let hint = RenditionDecode.sharedHint(renditions.map(\.chain.decodeHint))
        let chains = renditions.map(\.chain)
        let cascade = RenditionCascade(chains: chains)
        let requests = renditions.map { ImageRequest(source: source, chain: $0.chain, output: $0.output) }
        let keys = requests.indices.map { index in
            RenditionDecode.key(
                single: requests[index].resultKey(sourceKey: sourceKey), own: chains[index].decodeHint, shared: hint,
                lineage: cascade.lineage(of: index, chains: chains))
        }
        var results: [Result<ImageResult, any Error>?] = Array(repeating: nil, count: renditions.count)
        for index in renditions.indices {
            if let cached = try await cachedResult(keys[index], for: requests[index]) { results[index] = .success(cached) }
        }
        var timings = StageTimings(fetch: (clock.now - start).inMilliseconds)
        let missing = renditions.indices.filter { results[$0] == nil }
        guard !missing.isEmpty else {
            return RenditionsResult(
                results: await withPlaceholders(results.map { $0! }, for: requests, keys: keys), keys: keys, decodeHint: hint,
                cascade: cascade, timings: timings, sourceOrigin: nil)
        }

        // Fleet-wide, as `computeOnce`: one worker makes a set of missing renditions, the others
        // wait for all of them to appear in the shared cache.
        let work: @Sendable () async throws -> MadeRenditions = { [self] in
            try await make(
                missing, of: renditions, keys: keys, hint: hint, cascade: cascade, source: source, sourceKey: sourceKey,
                prefetched: prefetched)
        }
        let made: MadeRenditions
        if let leases = configuration.leases, configuration.diskCache != nil {
            let missingKeys = missing.map { keys[$0] }
            let missingRequests = missing.map { requests[$0] }
            made = try await LeasedWork.run(
                key: "renditions:" + missingKeys.joined(separator: "\n"), leases: leases, timing: configuration.leaseTiming,
                lookup: { [self] in try await cachedAll(missingKeys, requests: missingRequests) }, work: work)
        } else {
            made = try await work()
        }
        for (slot, index) in missing.enumerated() { results[index] = made.results[slot] }
        timings.add(made.timings.fetch ?? 0, to: \.fetch)
        timings.decode = made.timings.decode
        timings.process = made.timings.process
        timings.encode = made.timings.encode
        timings.store = made.timings.store
        return RenditionsResult(
            results: await withPlaceholders(results.map { $0! }, for: requests, keys: keys), keys: keys, decodeHint: hint,
            cascade: cascade, timings: timings, sourceOrigin: made.sourceOrigin)
    }
}
