import CDarkroomPlugin
import DarkroomSystem

/// The host's side of a `darkroom_byte_sink`: collects the bytes a plugin's provider or encoder
/// streams and tells it to stop when they pass the size limit or the time is up. A plugin may call it from any thread,
/// so its state is behind a lock.
final class HostByteSink: Sendable {
    enum StopReason: Sendable, Equatable {
        case tooLarge(Int)
        case timedOut(Double)
        case stopped
        /// The plugin broke the ABI: a write of bytes from a NULL pointer.
        case invalidWrite
    }

    private struct State {
        var bytes: [UInt8] = []
        var stop: StopReason?
    }

    let maxBytes: Int
    let timeout: Double
    /// Nil for no time limit (an encoder's sink).
    private let deadline: ContinuousClock.Instant?
    private let state = Locked(State())

    init(maxBytes: Int, timeout: Double) {
        self.maxBytes = maxBytes
        self.timeout = timeout
        // Past a day the deadline is no limit at all (and `now + huge` would overflow).
        deadline = timeout.isFinite && timeout < 86_400 ? .now + .saturatingSeconds(timeout) : nil
    }

    var bytes: [UInt8] { state.withLock { $0.bytes } }
    var stopReason: StopReason? { state.withLock { $0.stop } }

    /// Records a write the ABI forbids, so the call fails whatever status the plugin returns.
    func markInvalidWrite() { state.withLock { $0.stop = .invalidWrite } }

    /// Asks the plugin to stop at its next call (the fetch lost the race with its timeout).
    func stop() { state.withLock { if $0.stop == nil { $0.stop = .stopped } } }

    /// Appends, unless that would pass the limit or the time is up. Returns whether to go on.
    func append(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let late = deadline.map { ContinuousClock.now > $0 } ?? false
        return state.withLock { state in
            guard state.stop == nil else { return false }
            if late {
                state.stop = .timedOut(timeout)
                return false
            }
            guard bytes.count <= maxBytes - state.bytes.count else {
                state.stop = .tooLarge(maxBytes)
                return false
            }
            state.bytes.append(contentsOf: bytes)
            return true
        }
    }

    /// Whether the plugin should give up now.
    var shouldStop: Bool {
        if let deadline, ContinuousClock.now > deadline {
            state.withLock { if $0.stop == nil { $0.stop = .timedOut(timeout) } }
            return true
        }
        return state.withLock { $0.stop != nil }
    }

    /// A C sink pointing at this object, valid during `body`.
    func withCSink<R>(_ body: (UnsafePointer<darkroom_byte_sink>) -> R) -> R {
        withExtendedLifetime(self) {
            var sink = darkroom_byte_sink(
                host: Unmanaged.passUnretained(self).toOpaque(),
                write: { host, bytes, count in
                    guard let host else { return 1 }
                    let sink = Unmanaged<HostByteSink>.fromOpaque(host).takeUnretainedValue()
                    guard count > 0 else { return sink.shouldStop ? 1 : 0 }
                    guard let bytes else {
                        sink.markInvalidWrite()
                        return 1
                    }
                    return sink.append(UnsafeBufferPointer(start: bytes, count: count)) ? 0 : 1
                },
                should_stop: { host in
                    guard let host else { return 1 }
                    return Unmanaged<HostByteSink>.fromOpaque(host).takeUnretainedValue().shouldStop ? 1 : 0
                },
                max_bytes: UInt64(max(0, maxBytes)), timeout_seconds: timeout)
            return body(&sink)
        }
    }

    /// `sink`'s C sink during `body`, or NULL when there is no sink (a request member the host
    /// leaves unset).
    static func withOptionalCSink<R>(_ sink: HostByteSink?, _ body: (UnsafePointer<darkroom_byte_sink>?) -> R) -> R {
        guard let sink else { return body(nil) }
        return sink.withCSink { body($0) }
    }
}
