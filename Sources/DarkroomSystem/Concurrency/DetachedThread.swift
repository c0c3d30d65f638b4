import Glibc

/// Starts a detached thread for blocking work, outside Swift's cooperative pool, whose threads
/// must never block for long: a cache sweep walking a network volume, and every thread of a
/// `BlockingWorkPool`. The one place Darkroom calls `pthread_create`.
public enum DetachedThread {
    private final class Job {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Runs `body` on a new thread. Returns false (and runs nothing) when no thread could be made.
    public static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let job = Unmanaged.passRetained(Job(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { raw in
                guard let raw else { return nil }
                Unmanaged<Job>.fromOpaque(raw).takeRetainedValue().body()
                return nil
            }, job)
        guard result == 0 else {
            Unmanaged<Job>.fromOpaque(job).release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}
