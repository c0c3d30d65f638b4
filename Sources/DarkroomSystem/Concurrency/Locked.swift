import Glibc

/// A value behind a lock: every read and write goes through `withLock`, which holds a POSIX
/// mutex for the duration of the closure.
///
///     let counts = Locked([String: Int]())
///     counts.withLock { $0["jobs", default: 0] += 1 }
///
/// Darkroom uses this instead of the standard library's `Synchronization.Mutex`, with the same
/// `withLock` shape, for one reason: ThreadSanitizer. On Linux, `Mutex` is built on raw futex
/// calls inside the precompiled standard library, which TSan cannot see, so a correct program
/// guarded by `Mutex` reports data races under `--sanitize=thread` (measured here: a 4-thread
/// counter under `Mutex` reports races, the same program under a pthread mutex reports none).
/// TSan intercepts `pthread_mutex_lock`, so every lock in Darkroom is one it understands and the
/// sanitizer pass checks the locking the product really ships. Uncontended, both cost an atomic
/// compare-and-swap; the mutex lives in its own allocation, made once per `Locked`.
///
/// A class rather than a `~Copyable` struct, so it can be captured by closures and tasks that
/// share it (a `Mutex` cannot be captured).
public final class Locked<Value: ~Copyable>: @unchecked Sendable {
    // Why `@unchecked Sendable` is sound: `value` is only reached inside `withLock`, between
    // `pthread_mutex_lock` and `pthread_mutex_unlock` on `mutex`, so no two threads touch it at
    // once; values enter through `init(_:)` and leave `withLock` as `sending`, so no reference to
    // non-Sendable state stays behind outside the lock. The mutex itself is allocated once in
    // `init` and destroyed in `deinit`, when no other reference can exist.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    /// Wraps `initialValue`; from now on it is reachable only through `withLock`.
    public init(_ initialValue: consuming sending Value) {
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        // Default attributes: a normal, non-recursive mutex. Locking it again from inside
        // `withLock` deadlocks, as with `Mutex`.
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed with \(status)")
        value = initialValue
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value and returns what it returns. Keep the body
    /// short and never `await` or block in it: every other caller waits meanwhile.
    public func withLock<Result: ~Copyable, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

}
