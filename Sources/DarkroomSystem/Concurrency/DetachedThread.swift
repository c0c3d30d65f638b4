#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
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
        #if canImport(Darwin)
        if let thread { pthread_detach(thread) }
        #else
        pthread_detach(thread)
        #endif
        return true
    }
}
