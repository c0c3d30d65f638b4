import DarkroomCache
import DarkroomCodecs
import DarkroomCore
import DarkroomSources
import DarkroomSystem

/// Kingfisher's "cache → download → process → cache" flow, made for a server fleet:
/// result cache (memory, then the shared disk) → original cache → provider → decode (shrinking on
/// load for the chain) → processors → encode → store the original and the result.
///
/// Stages run on separate bounded pools, so a flood of slow downloads never starves processing
/// and pixel work never blocks the Swift cooperative pool: fetches on the providers' network pool
/// (`maxConcurrentFetches`), decode/process/encode on a CPU pool (`maxConcurrentProcessing`),
/// cache file I/O on a small I/O pool. Identical work is shared: concurrent requests for one
/// result compute it once, and concurrent fetches of one source download it once.
public final class ImagePipeline: Sendable {
    public let configuration: Configuration
    let fetcher: SourceFetcher
    let renderer: ImageRenderer
    let cpuPool: BlockingWorkPool
    let ioPool: BlockingWorkPool
    let memory: MemoryCache<String, [UInt8]>?
    /// Local files are read only when a CPU thread is near: at most one more than the CPU threads
    /// are read and not yet rendered. Reading a file takes no time worth overlapping, so a worker running
    /// many jobs at once (for cache hits) does not hold every waiting job's source in memory.
    let localSourceReads: AsyncPermits
    /// Concurrent requests for one result compute it once; the work goes on when its callers leave,
    /// so the result still reaches the cache.
    let resultWork = RequestCoalescer<String, ImageResult>()

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        let networkPool = BlockingWorkPool(threadCount: configuration.maxConcurrentFetches)
        ioPool = BlockingWorkPool(threadCount: 4)
        cpuPool = BlockingWorkPool(threadCount: configuration.maxConcurrentProcessing)
        localSourceReads = AsyncPermits(limit: configuration.maxConcurrentProcessing + 1)
        let providers: ProviderRegistry
        do {
            providers = try ProviderRegistry(configuration.providers, pools: ProviderPools(network: networkPool, files: ioPool))
        } catch {
            // Plugin catalogs refuse a module whose scheme is taken, so only a hand-made
            // configuration can get here.
            preconditionFailure("ImagePipeline.Configuration.providers: \(error)")
        }
        fetcher = SourceFetcher(registry: providers, failureMemoryDuration: configuration.failedSourceMemory)
        renderer = ImageRenderer(coders: configuration.coders, limits: configuration.limits)
        memory = configuration.memoryCacheBytes > 0 ? MemoryCache(costLimit: configuration.memoryCacheBytes) : nil
    }

    deinit {
        cpuPool.shutdown()
        ioPool.shutdown()
    }

    /// Produces the result for `request`, from a cache when possible.
    public func retrieve(_ request: ImageRequest) async throws -> ImageResult {
        let clock = ContinuousClock()
        let start = clock.now
        let (sourceKey, prefetched) = try await keyedSource(request.source)
        let resultKey = request.resultKey(sourceKey: sourceKey)
        if var cached = try await cachedResult(resultKey, for: request) {
            request.onWorkStart?(.cacheHit)
            cached.timings.fetch = (clock.now - start).inMilliseconds
            return try await withPlaceholders(cached, for: request, resultKey: resultKey)
        }
        let computed = try await resultWork.value(for: resultKey) { [self] in
            try await computeOnce(request, sourceKey: sourceKey, resultKey: resultKey, prefetched: prefetched)
        }
        return try await withPlaceholders(computed, for: request, resultKey: resultKey)
    }

    /// A result from the memory cache, then the disk cache.
    func cachedResult(_ resultKey: String, for request: ImageRequest) async throws -> ImageResult? {
        if let bytes = memory?.value(for: "r:" + resultKey) {
            return try describe(bytes, origin: .memory, cachePath: configuration.diskCache?.path(for: resultKey, in: .results))
        }
        guard let disk = configuration.diskCache else { return nil }
        let found = try await ioPool.run { try disk.data(for: resultKey, in: .results) }
        guard let bytes = found else { return nil }
        let result: ImageResult
        do {
            result = try describe(bytes, origin: .disk, cachePath: disk.path(for: resultKey, in: .results))
        } catch {
            // An entry that is not a readable image (damaged on the volume, or written by a buggy
            // build) is dropped and recomputed rather than failing every request for it.
            try? await ioPool.run { try disk.removeValue(for: resultKey, in: .results) }
            return nil
        }
        if bytes.count <= configuration.memoryCacheMaxResultBytes {
            memory?.set(bytes, for: "r:" + resultKey, cost: bytes.count)
        }
        return result
    }

    /// Format and size of a cached result, read from its header.
    private func describe(_ bytes: [UInt8], origin: CacheOutcome, cachePath: String?) throws -> ImageResult {
        let info = try configuration.coders.readInfo(EncodedImage(bytes: bytes, sourceName: cachePath ?? "cached result"))
        return ImageResult(
            bytes: bytes, format: info.format, size: info.uprightSize, cachePath: cachePath,
            origin: origin, sourceOrigin: nil, source: nil, timings: StageTimings())
    }
}

extension ImagePipeline {
    /// Runs blocking file work (writing an output, say) on the pipeline's I/O pool, so callers in
    /// async code never block the cooperative pool.
    public func runBlocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await ioPool.run(body)
    }
}

extension ImagePipeline {
    /// `source`'s cache key, known before fetching for URLs, files and objects; a `data:` URI is
    /// keyed by its content, so it is "fetched" (decoded, which is cheap) first and handed back.
    func keyedSource(_ source: SourceReference) async throws -> (sourceKey: String, prefetched: FetchedSource?) {
        let policy = configuration.sourcePolicy
        if let key = try await ioPool.run({ [fetcher] in try fetcher.registry.cacheKey(for: source, policy: policy) }) {
            return (key, nil)
        }
        let fetched = try await fetcher.fetch(source, policy: policy)
        return (fetched.cacheKey, fetched)
    }
}
