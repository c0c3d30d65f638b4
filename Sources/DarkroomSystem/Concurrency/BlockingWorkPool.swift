import Glibc

/// A fixed set of threads for blocking C calls and pixel work, outside Swift's cooperative pool.
///
/// Decoding a 20 MP JPEG or resampling a large bitmap takes tens of milliseconds of pure CPU, and
/// libcurl/hiredis calls block. Run on the cooperative pool, such work would stall every other
/// task on that thread (the pool has one thread per core). `run` hands the closure to one of this
/// pool's own threads and suspends the calling task until it finishes, so at most `threadCount`
/// of these run at once (the bound), and the cooperative threads stay free for I/O and events.
/// This is swift-nio's `NIOThreadPool` idea, in the smallest form Darkroom needs.
public final class BlockingWorkPool: Sendable {
    /// The number of threads, fixed at creation.
    public let threadCount: Int
    private let state: PoolState

    /// A pool of up to `threadCount` threads (at least 1). Threads start on demand, when work
    /// arrives and every started thread is busy, so a pool sized for a burst of downloads costs
    /// nothing in a run that never downloads.
    public init(threadCount: Int) {
        self.threadCount = max(1, threadCount)
        state = PoolState(maximumThreads: self.threadCount)
    }

    /// Runs `body` on a pool thread and returns its result, or throws what it threw (its own
    /// error type kept: a `throws(CacheError)` body makes a `throws(CacheError)` call). The task
    /// is not cancelled mid-call (C code cannot be interrupted); a cancelled task's work still
    /// completes.
    public func run<T: Sendable, Failure: Error>(_ body: @escaping @Sendable () throws(Failure) -> T) async throws(Failure) -> T {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, Failure>, Never>) in
            state.enqueue { continuation.resume(returning: Result { () throws(Failure) in try body() }) }
        }
        return try result.get()
    }

    /// Lets the threads finish the queued work and exit. Work submitted afterwards never runs.
    public func shutdown() {
        state.shutdown()
    }

    deinit {
        state.shutdown()
    }
}

/// The queue and the threads' condition variable.
///
/// `@unchecked Sendable` is safe because every access to `jobs`, `head`, `stopping`, `started`
/// and `idle` happens between `pthread_mutex_lock` and `pthread_mutex_unlock` on `mutex`, which
/// lives for the life of this object (threads hold a strong reference to it until they exit).
private final class PoolState: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Queued work; a taken slot is set to nil at once, so nothing a finished closure captured
    /// stays alive until the next compaction.
    private var jobs: [(@Sendable () -> Void)?] = []
    private var head = 0
    private var stopping = false
    private let maximumThreads: Int
    /// Threads started so far, and how many of them are waiting for work.
    private var started = 0
    private var idle = 0

    init(maximumThreads: Int) {
        self.maximumThreads = maximumThreads
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    func enqueue(_ job: @escaping @Sendable () -> Void) {
        pthread_mutex_lock(mutex)
        jobs.append(job)
        // Work waiting beyond the idle threads gets a new thread, up to the maximum.
        let startAnother = jobs.count - head > idle && started < maximumThreads
        if startAnother { started += 1 }
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
        if startAnother { startThread() }
    }

    func shutdown() {
        pthread_mutex_lock(mutex)
        stopping = true
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    func startThread() {
        // The thread holds the state strongly until its loop ends.
        guard !DetachedThread.start({ self.loop() }) else { return }
        // Out of threads: the queued work waits for the threads already running. Only a pool
        // that could not start even one thread cannot make progress.
        pthread_mutex_lock(mutex)
        started -= 1
        let none = started == 0
        pthread_mutex_unlock(mutex)
        precondition(!none, "BlockingWorkPool could not start a thread")
    }

    private func loop() {
        while true {
            pthread_mutex_lock(mutex)
            while head == jobs.count && !stopping {
                idle += 1
                pthread_cond_wait(condition, mutex)
                idle -= 1
            }
            if head == jobs.count {  // stopping and nothing left
                pthread_mutex_unlock(mutex)
                return
            }
            let job = jobs[head]
            jobs[head] = nil
            head += 1
            if head > 64, head * 2 > jobs.count {  // compact now and then
                jobs.removeFirst(head)
                head = 0
            }
            pthread_mutex_unlock(mutex)
            job?()
        }
    }
}
