import Glibc
import Synchronization

/// The signal that asked a long-running command (`events --follow`) to stop, set from a C signal
/// handler. An atomic store is async-signal-safe, which is all the handler does.
private let receivedSignal = Atomic<Int32>(0)

/// SIGINT/SIGTERM as a flag the command polls between reads, so it can stop cleanly (print where
/// to resume, exit 0) instead of dying mid-line. Reads block for at most a second, which bounds
/// how long a Ctrl-C takes to act.
enum Interruption {
    /// Installs the handlers for SIGINT and SIGTERM. Until then the default (terminate) applies.
    static func install() {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber) { number in receivedSignal.store(number, ordering: .relaxed) }
        }
    }

    /// The signal received since `install`, if any.
    static var received: Int32? {
        let value = receivedSignal.load(ordering: .relaxed)
        return value == 0 ? nil : value
    }

    static var isRequested: Bool { received != nil }
}
