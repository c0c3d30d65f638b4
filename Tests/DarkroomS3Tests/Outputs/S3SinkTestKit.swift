import DarkroomOutput
import DarkroomOutputContract
import DarkroomS3
import DarkroomSystem
import DarkroomTestSupport
import Glibc
import Synchronization
import Testing

/// One moto server for the output-sink suites, with the bucket `outputs` allowed on the default
/// endpoint and `elsewhere` created but not allowed; each harness writes under a fresh prefix, so
/// tests never see each other's objects.
enum S3SinkTestKit {
    static let sharedServer = Task { () async throws -> MotoS3Server in
        let server = try await MotoS3Server()
        try await server.createBucket("outputs")
        try await server.createBucket("elsewhere")
        return server
    }

    static let pool = BlockingWorkPool(threadCount: 8)
    private static let counter = Atomic<Int>(0)

    /// A fresh prefix ending in `/`.
    static func prefix(_ label: String = "t") -> String { "\(label)\(counter.add(1, ordering: .relaxed).newValue)/" }

    static func server() async throws -> MotoS3Server { try await sharedServer.value }

    static func configuration(_ server: MotoS3Server) -> S3Configuration {
        S3Configuration(
            endpoints: [server.endpoint(alias: S3Endpoint.defaultAlias)],
            allowedBuckets: [S3Bucket(endpoint: S3Endpoint.defaultAlias, name: "outputs")])
    }

    static func client(_ server: MotoS3Server) -> S3Client {
        S3Client(endpoint: server.endpoint(alias: S3Endpoint.defaultAlias), pool: pool)
    }

    /// A sink on the shared server, writing through `store` when given (a fault-injecting wrapper).
    static func sink(
        _ server: MotoS3Server, options: S3SinkOptions = .init(), store: (@Sendable (S3Client) -> any S3OutputStore)? = nil
    ) -> S3Sink {
        let client = client(server)
        return S3Sink(
            configuration: configuration(server), stores: [S3Endpoint.defaultAlias: store?(client) ?? client], options: options)
    }

    /// Runs async `body` to completion from synchronous code (the harness's readers are synchronous).
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let box = Locked<T?>(nil)
        let done = BlockingSignal()
        Task.detached {
            let value = await body()
            box.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return box.withLock { $0! }
    }

    /// The bytes of the object at an `s3://` location, nil when there is none.
    static func read(_ location: String, client: S3Client) -> [UInt8]? {
        guard let address = try? S3ObjectAddress.parse(location) else { return nil }
        return blocking { try? await client.getObject(bucket: address.bucket.name, key: address.key, maxBytes: 1 << 30).bytes }
    }

    /// The objects under `prefix` (relative names), and `(upload) NAME` for each multipart upload in progress.
    static func entries(_ prefix: String, client: S3Client) -> [String] {
        blocking {
            var names: [String] = []
            var token: String?
            repeat {
                guard let page = try? await client.listObjects(bucket: "outputs", prefix: prefix, continuationToken: token) else { break }
                names += page.objects.map { String($0.key.dropFirst(prefix.count)) }
                token = page.nextContinuationToken
            } while token != nil
            let uploads = (try? await client.listMultipartUploads(bucket: "outputs", prefix: prefix)) ?? []
            return (names + uploads.map { "(upload) " + String($0.key.dropFirst(prefix.count)) }).sorted()
        }
    }

    /// The contract harness: a fresh prefix of `outputs`; `s3://elsewhere/…` is refused.
    static func factory(_ server: MotoS3Server) -> OutputSinkFactory {
        {
            let client = client(server)
            let prefix = prefix()
            return OutputSinkHarness(
                sink: sink(server), destination: "s3://outputs/\(prefix)", refusedDestination: "s3://elsewhere/\(prefix)",
                read: { read($0, client: client) }, entries: { entries(prefix, client: client) })
        }
    }
}

/// A one-shot signal polled every 200 µs: the harness's
/// synchronous readers wait on a detached task with it.
final class BlockingSignal: Sendable {
    private let state = Locked<Bool>(false)

    func signal() { state.withLock { $0 = true } }

    func wait() {
        while !state.withLock({ $0 }) { usleep(200) }
    }
}
