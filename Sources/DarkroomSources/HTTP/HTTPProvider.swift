import DarkroomCore
import DarkroomSystem

/// Fetches `http` and `https` sources through libcurl, under a `SourcePolicy`.
///
/// - Every transfer runs on this provider's `BlockingWorkPool` (a network pool: many threads,
///   since they mostly wait), never on Swift's cooperative pool; a flood of slow downloads
///   therefore cannot starve CPU work, and at most `threadCount` transfers run at once.
/// - Redirects are followed here, one request per hop, and each hop is checked again: http/https
///   only, no user information, inside the allow-list, and its connection must pass the SSRF
///   guard on the address libcurl actually connects to (`AddressPolicy`).
/// - The body is limited while it streams (after decompression), as well as by `Content-Length`.
/// - Cancelling the calling task aborts the transfer within about a second.
public struct HTTPProvider: DataProviding {
    public var schemes: Set<String> { ["http", "https"] }
    /// The threads transfers run on.
    public let pool: BlockingWorkPool

    /// "libcurl/7.88.1 OpenSSL/3.0.x zlib/… brotli/…", for version reports.
    public static var libcurlVersion: String { CurlRuntime.version }

    /// The process-wide network pool `HTTPProvider()` uses: 32 threads, started on first use, so
    /// making providers (or registries) freely never multiplies threads.
    public static let sharedPool = BlockingWorkPool(threadCount: 32)

    /// A provider on `sharedPool`.
    public init() {
        self.init(pool: Self.sharedPool)
    }

    /// A provider running transfers on `pool` (share one network pool between providers).
    public init(pool: BlockingWorkPool) {
        self.pool = pool
    }

    /// A provider with its own pool of `networkThreads` threads: the number of transfers that can
    /// be in flight at once.
    public init(networkThreads: Int) {
        self.init(pool: BlockingWorkPool(threadCount: networkThreads))
    }

    /// The normalised URL (`HTTP://Example.com:80/a.jpg#x` → `http://example.com/a.jpg`), after
    /// checking the scheme and the allow-list, so a source the policy refuses is refused before any
    /// cache is consulted.
    public func cacheKey(for reference: SourceReference, policy: SourcePolicy) throws(SourceError) -> String? {
        do {
            return try SourceGuard(policy).authorize(reference.raw).0.serialized
        } catch {
            throw error.sourceError(for: reference.description)
        }
    }

    public func fetch(_ reference: SourceReference, policy: SourcePolicy) async throws(SourceError) -> FetchedSource {
        let cancellation = TransferCancellation()
        let outcome: Result<FetchedSource, SourceError>
        do {
            outcome = try await withTaskCancellationHandler {
                try await pool.run {
                    HTTPFetch(reference: reference, policy: policy, cancellation: cancellation).run()
                }
            } onCancel: {
                cancellation.cancel()
            }
        } catch {
            // `HTTPFetch.run` reports failures in its result; the pool itself does not throw.
            throw SourceError(.connection, source: reference.description, "could not run the transfer: \(error)")
        }
        return try outcome.get()
    }
}
