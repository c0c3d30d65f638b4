import Glibc
import Testing

/// Marks a suite (or a test) as real-time: it waits on time no test can move — real `darkroom`
/// processes signalled mid-run, a redis-server that restarts, Redis's own clock (visibility
/// timeouts through `XAUTOCLAIM`, `PX` expiry). `scripts/test` runs such suites in a serial pass
/// of their own, where their time windows hold; everything else runs in parallel.
///
///     @Suite("The fleet, end to end with real processes and Redis", .realTime, .serialized)
///     struct FleetRealTimeTests { … }
///
/// The scripts find the real-time suites by this trait in their `@Suite(…)` attribute
/// (`scripts/realtime-suites`), not by their names. Two checks keep the trait and the passes
/// honest, so a suite in the wrong pass fails instead of flaking:
/// - a test carrying the trait fails when it runs in a parallel pass (`DARKROOM_TEST_PASS` is
///   `parallel`): the selection missed it;
/// - the helpers that wait on real time call `RealTime.require(_:)`, which fails a test that does
///   not carry the trait (a restarting `RedisTestServer`, the fleet of real processes, signalled
///   `darkroom` processes, Redis-clock queue harnesses).
public struct RealTimeTrait: SuiteTrait, TestTrait, TestScoping {
    /// Every test of a marked suite carries the trait, so the checks see it on each.
    public var isRecursive: Bool { true }

    /// Scopes each test case; a suite itself needs no scope.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? { testCase == nil ? nil : self }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        if RealTime.pass == "parallel" {
            Issue.record(
                """
                \(test.id) is marked .realTime but runs in a parallel pass: scripts/realtime-suites did not find it \
                (mark its @Suite, not a single @Test, and keep the suite at the top level of its file)
                """)
            return
        }
        try await function()
    }
}

extension Trait where Self == RealTimeTrait {
    /// The suite waits on real time and runs in `scripts/test`'s serial pass (`RealTimeTrait`).
    public static var realTime: Self { RealTimeTrait() }
}

/// The check behind `.realTime`, for helpers that wait on real time.
public enum RealTime {
    /// The pass `scripts/test` runs (`parallel` or `serial`), from `DARKROOM_TEST_PASS`; nil when
    /// the tests run some other way (`swift test --filter …`), where nothing is checked against it.
    public static var pass: String? { getenv("DARKROOM_TEST_PASS").map { String(cString: $0) } }

    /// Whether the running test carries `.realTime` (true outside a test: nothing to check).
    public static var isMarked: Bool {
        guard let test = Test.current else { return true }
        return test.traits.contains { $0 is RealTimeTrait }
    }

    /// Fails the running test unless it is marked `.realTime`: `what` waits on real time, and an
    /// unmarked test would run in the parallel pass, where its time windows do not hold.
    /// The caller's place comes as plain literals, not `#_sourceLocation`: that macro would need
    /// `import Testing` in every file that calls this.
    public static func require(
        _ what: String, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) {
        guard !isMarked else { return }
        Issue.record(
            "\(what) waits on real time: mark the suite `.realTime` so scripts/test runs it in the serial pass",
            sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
}
