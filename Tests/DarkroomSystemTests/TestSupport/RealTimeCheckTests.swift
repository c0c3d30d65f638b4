import DarkroomTestSupport
import Testing

/// The check behind `.realTime` (Tests/DarkroomTestSupport/RealTime.swift), here because the test
/// support has no test target of its own. Its other half (a marked test fails in a parallel pass)
/// and the helpers' calls on marked tests are exercised by every real-time suite.
@Suite("The real-time check: a helper that waits on real time fails a test not marked .realTime")
struct RealTimeCheckTests {
    @Test("An unmarked test that reaches a real-time helper records exactly one issue, naming the helper")
    func unmarkedTestFails() {
        #expect(!RealTime.isMarked)
        withKnownIssue {
            RealTime.require("A helper that restarts something")
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("A helper that restarts something") && $0.rawValue.contains(".realTime") }
        }
    }
}
