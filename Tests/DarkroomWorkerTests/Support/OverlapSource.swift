import DarkroomSystem
import DarkroomTestSupport
import Glibc

/// An HTTP source for the worker tests, one path per job, that records which fetches were in
/// flight at the same time and holds the fetches of chosen paths until the test lets them through,
/// so "at the same time" is arranged and observed rather than hoped for.
final class OverlapSource: Sendable {
    private final class Record: Sendable {
        struct State {
            var held: Set<String>
            var inFlight: [String: Int] = [:]
            var overlaps: [String: Set<String>] = [:]
            var maxInFlight = 0
        }

        let state: Locked<State>

        init(held: Set<String>) { state = Locked(State(held: held)) }

        /// Answers a fetch of `path`: counts it in flight, waits while the path is held (30 s at
        /// most, so a forgotten hold cannot hang a test), then counts it out.
        func serve(_ path: String, _ bytes: [UInt8]) -> TestHTTPResponse {
            state.withLock { state in
                let others = Set(state.inFlight.keys)
                for other in others { state.overlaps[other, default: []].insert(path) }
                state.overlaps[path, default: []].formUnion(others)
                state.inFlight[path, default: 0] += 1
                state.maxInFlight = max(state.maxInFlight, state.inFlight.values.reduce(0, +))
            }
            for _ in 0..<15_000 where state.withLock({ $0.held.contains(path) }) { usleep(2_000) }
            state.withLock { state in
                state.inFlight[path, default: 1] -= 1
                if state.inFlight[path] == 0 { state.inFlight[path] = nil }
            }
            return .ok(bytes)
        }
    }

    private let record: Record
    private let server: TestHTTPServer

    /// Serves a small JPEG at every path; fetches of `held` paths wait for `release`.
    init(holding held: Set<String> = []) throws {
        let bytes = try WorkerTestKit.image()
        let record = Record(held: held)
        self.record = record
        server = try TestHTTPServer { request in record.serve(request.path, bytes) }
    }

    var origin: String { server.origin }

    func url(_ path: String) -> String { server.url(path) }

    /// Fetches of `path` received so far, finished or not.
    func fetches(_ path: String) -> Int { server.requestCount(path) }

    /// The paths with a fetch in flight now.
    var inFlight: Set<String> { record.state.withLock { Set($0.inFlight.keys) } }

    /// Every path with a fetch in flight at some moment while one of `path` was (`path` itself
    /// when two of its fetches overlapped).
    func overlaps(of path: String) -> Set<String> { record.state.withLock { $0.overlaps[path] ?? [] } }

    /// The most fetches in flight at once so far.
    var maxInFlight: Int { record.state.withLock { $0.maxInFlight } }

    /// Lets held and future fetches of `paths` through.
    func release(_ paths: Set<String>) { record.state.withLock { $0.held.subtract(paths) } }

    /// Lets every fetch through and stops the server.
    func stop() {
        record.state.withLock { $0.held.removeAll() }
        server.stop()
    }
}
