/// Awaits work that cannot be interrupted (pixel work on a thread pool, a blocking Redis call)
/// without being held hostage by it: the caller stops waiting when its task is cancelled or the
/// deadline passes, and the work finishes on its own in the background, its result dropped.
///
/// The worker uses it so a graceful shutdown can give up on jobs still running after the grace
/// period (they stay unacknowledged and are reclaimed) instead of waiting for them; a plugin's
/// provider so a fetch that blocks past its timeout fails on time.
public enum DetachedWait {
    /// The deadline passed before the work finished.
    public struct TimedOut: Error {
        public init() {}
    }

    /// The outcome of `operation`; throws `CancellationError` when the calling task is cancelled
    /// first, `TimedOut` when `deadline` passes first.
    public static func run<T: Sendable>(
        deadline: Duration? = nil,
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let once = ResumeOnce<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                guard once.install(continuation) else { return }
                let work = Task {
                    do { once.resume(with: .success(try await operation())) } catch { once.resume(with: .failure(error)) }
                }
                if let deadline {
                    Task {
                        try? await Task.sleep(for: deadline)
                        once.resume(with: .failure(TimedOut()))
                    }
                }
                // Keeps the work referenced only by itself: nothing cancels it, on purpose.
                _ = work
            }
        } onCancel: {
            once.resume(with: .failure(CancellationError()))
        }
    }
}

/// A continuation resumed exactly once, by whichever outcome comes first. Handles the race where
/// cancellation arrives before the continuation is installed.
private final class ResumeOnce<T: Sendable>: Sendable {
    private enum State {
        case waiting
        case installed(CheckedContinuation<T, any Error>)
        /// An outcome arrived before the continuation (cancellation before `install`).
        case early(Result<T, any Error>)
        case done
    }

    private let state = Locked<State>(.waiting)

    /// Installs the continuation; false when it was resumed at once with an early outcome.
    func install(_ continuation: CheckedContinuation<T, any Error>) -> Bool {
        let early = state.withLock { state -> Result<T, any Error>? in
            switch state {
            case .waiting:
                state = .installed(continuation)
                return nil
            case .early(let result):
                state = .done
                return result
            case .installed, .done:
                return nil
            }
        }
        guard let early else { return true }
        continuation.resume(with: early)
        return false
    }

    func resume(with result: Result<T, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<T, any Error>? in
            switch state {
            case .waiting:
                state = .early(result)
                return nil
            case .installed(let continuation):
                state = .done
                return continuation
            case .early, .done:
                return nil
            }
        }
        continuation?.resume(with: result)
    }
}
