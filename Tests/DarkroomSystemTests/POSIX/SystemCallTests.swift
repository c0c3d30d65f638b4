import Glibc
import Testing

@testable import DarkroomSystem

@Suite("SystemCall: EINTR and whole reads and writes")
struct SystemCallTests {
    @Test("an interrupted call is made again until it answers")
    func retriesInterruptedCalls() {
        var calls = 0
        let result = SystemCall.retryingInterrupts { () -> Int in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 42
        }
        #expect(result == 42)
        #expect(calls == 3)
    }

    @Test("any other failure is returned at once, errno intact")
    func returnsOtherFailures() {
        var calls = 0
        let result = SystemCall.retryingInterrupts { () -> Int32 in
            calls += 1
            errno = EACCES
            return -1
        }
        #expect(result == -1)
        #expect(errno == EACCES)
        #expect(calls == 1)
    }

    @Test("writeAll and readFully move every byte through a pipe")
    func writesAndReadsEverything() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let message = (0..<4000).map { UInt8(truncatingIfNeeded: $0) }
        #expect(message.withUnsafeBytes { SystemCall.writeAll(ends[1], $0) } == nil)
        close(ends[1])
        var received = [UInt8](repeating: 0, count: 5000)
        let count = received.withUnsafeMutableBytes { SystemCall.readFully(ends[0], into: $0) }
        #expect(count == .success(4000))
        #expect(Array(received[..<4000]) == message)
    }

    @Test("writeAll reports the errno of a failed write")
    func writeFailureCarriesErrno() {
        let failure = [UInt8(1)].withUnsafeBytes { SystemCall.writeAll(-1, $0) }
        #expect(failure == Errno(EBADF))
    }
}
