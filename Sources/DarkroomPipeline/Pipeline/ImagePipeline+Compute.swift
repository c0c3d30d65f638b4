import DarkroomCache
import DarkroomCodecs
import DarkroomCore
import DarkroomSources
import DarkroomSystem

extension ImagePipeline {
    /// `compute`, at most once across the fleet: with leases and a shared disk cache, the worker
    /// that takes the lease `result:<resultKey>` computes, and the others wait for its result to
    /// appear on disk (a `.disk` hit) — or take over when its lease expires without one.
    func computeOnce(_ request: ImageRequest, sourceKey: String, resultKey: String, prefetched: FetchedSource?) async throws -> ImageResult {
        guard let leases = configuration.leases, configuration.diskCache != nil else {
            return try await compute(request, sourceKey: sourceKey, resultKey: resultKey, prefetched: prefetched)
        }
        return try await LeasedWork.run(
            key: "result:" + resultKey, leases: leases, timing: configuration.leaseTiming,
            lookup: { [self] in try await cachedResult(resultKey, for: request) },
            work: { [self] in try await compute(request, sourceKey: sourceKey, resultKey: resultKey, prefetched: prefetched) })
    }

    /// Fetches (or finds) the original, renders it and stores both.
    func compute(_ request: ImageRequest, sourceKey: String, resultKey: String, prefetched: FetchedSource?) async throws -> ImageResult {
        let clock = ContinuousClock()
        var timings = StageTimings()

        // A local file is read when a CPU thread is near (see `localSourceReads`); other sources
        // are fetched at once, since their latency is worth overlapping with other jobs' work.
        let waitsForCPU = prefetched == nil && request.source.scheme == "file"
        if waitsForCPU { try await localSourceReads.acquire() }
        defer { if waitsForCPU { localSourceReads.release() } }

        var start = clock.now
        let (original, sourceOrigin) = try await original(for: request.source, sourceKey: sourceKey, prefetched: prefetched)
        // A watermark's image, fetched before the chain runs (processors do no I/O).
        let resources = try await resolveResources(for: request.chain)
        timings.fetch = (clock.now - start).inMilliseconds

        let renderRequest = RenderRequest(
            source: EncodedImage(bytes: original, sourceName: request.source.description),
            chain: request.chain, output: request.output, resources: resources)
        let rendered = try await cpuPool.run { [renderer, onWorkStart = request.onWorkStart] in
            onWorkStart?(.computation)
            // Counted, so kernels split rows only over cores no other image is using.
            return try RowBands.countingImage { try renderer.render(renderRequest) }
        }
        timings.decode = rendered.timings.decode
        timings.process = rendered.timings.process
        timings.encode = rendered.timings.encode

        start = clock.now
        let cachePath = try await storeResult(rendered.bytes, key: resultKey)
        if let placeholders = rendered.placeholders { try await storePlaceholders(placeholders, resultKey: resultKey) }
        timings.store = (clock.now - start).inMilliseconds

        var result = ImageResult(
            bytes: rendered.bytes, format: rendered.format, size: rendered.size, cachePath: cachePath,
            origin: .miss, sourceOrigin: sourceOrigin, source: rendered.source, timings: timings,
            processedFirstFrameOnly: rendered.processedFirstFrameOnly)
        result.placeholders = rendered.placeholders
        return result
    }

    /// Stores a result under `key` in the disk cache and (when small enough) the memory cache;
    /// its disk cache path, nil without a disk cache.
    func storeResult(_ bytes: [UInt8], key: String) async throws -> String? {
        var cachePath: String?
        if let disk = configuration.diskCache {
            try await ioPool.run { try disk.store(bytes, for: key, in: .results) }
            cachePath = disk.path(for: key, in: .results)
        }
        if bytes.count <= configuration.memoryCacheMaxResultBytes {
            memory?.set(bytes, for: "r:" + key, cost: bytes.count)
        }
        return cachePath
    }

    /// The source bytes: memory, then the disk's originals (network sources only: local files
    /// and `data:` URIs are already at hand), then the provider. Network originals are stored
    /// so a second chain on the same URL does not download again.
    func original(for reference: SourceReference, sourceKey: String, prefetched: FetchedSource?) async throws -> ([UInt8], SourceOrigin) {
        // Object storage is a network source too: its originals are shared through the disk cache
        // and downloaded once across the fleet, as URLs are.
        let isNetwork = reference.scheme == "http" || reference.scheme == "https" || reference.scheme == "s3"
        if let prefetched { return (prefetched.bytes, .local) }
        if let bytes = memory?.value(for: "o:" + sourceKey) { return (bytes, .memory) }
        let disk = isNetwork ? configuration.diskCache : nil
        if let disk, let found = try await storedOriginal(sourceKey, in: disk) { return found }
        guard let disk, let leases = configuration.leases else {
            return try await download(reference, sourceKey: sourceKey, into: disk, isNetwork: isNetwork)
        }
        // One download per source across the fleet: the lease holder fetches and stores the
        // original; the others wait for it in the shared originals area.
        return try await LeasedWork.run(
            key: "source:" + sourceKey, leases: leases, timing: configuration.leaseTiming,
            lookup: { [self] in try await storedOriginal(sourceKey, in: disk) },
            work: { [self] in try await download(reference, sourceKey: sourceKey, into: disk, isNetwork: isNetwork) })
    }

    /// A network original already in the shared disk cache, kept in memory too once read.
    private func storedOriginal(_ sourceKey: String, in disk: DiskCache) async throws -> ([UInt8], SourceOrigin)? {
        guard let bytes = try await ioPool.run({ try disk.data(for: sourceKey, in: .originals) }) else { return nil }
        remember(original: bytes, key: sourceKey)
        return (bytes, .disk)
    }

    /// Fetches through the provider and stores a network original in the disk cache.
    private func download(
        _ reference: SourceReference, sourceKey: String, into disk: DiskCache?,
        isNetwork: Bool
    ) async throws -> ([UInt8], SourceOrigin) {
        let fetched = try await fetcher.fetch(reference, policy: configuration.sourcePolicy)
        if let disk {
            let bytes = fetched.bytes
            try await ioPool.run { try disk.store(bytes, for: sourceKey, in: .originals) }
        }
        if isNetwork { remember(original: fetched.bytes, key: sourceKey) }
        return (fetched.bytes, isNetwork ? .network : .local)
    }

    private func remember(original bytes: [UInt8], key: String) {
        guard bytes.count <= configuration.memoryCacheMaxOriginalBytes else { return }
        memory?.set(bytes, for: "o:" + key, cost: bytes.count)
    }
}
