import DarkroomQueue
import DarkroomSystem
import Glibc

/// The event log on the volume: every event of the stream once, in stream order, as JSON lines
/// (`EventLogRecord`), across the current file and its rotated predecessors.
///
/// - **Batches**: `append` writes a whole batch with one `write` and one `fsync`. A batch that
///   fails (a full disk, an `EIO`) is cut off the file again before the error is thrown: the
///   file and the checkpoint say only what was written and synced.
/// - **Rotation**: a batch that leaves the file larger than `maxBytes` rotates it afterwards:
///   `FILE.keep` is deleted, `FILE.n` becomes `FILE.n+1`, `FILE` becomes `FILE.1`, and the next
///   batch starts a new `FILE`. Each step is a rename of a complete, synced file, so a crash at any
///   point loses and repeats nothing.
/// - **Recovery** (`open`): the log's own last complete line is its checkpoint. A half-written last
///   line (a crash mid-write) is cut off with `ftruncate`, and so is a trailing gap record whose
///   events never made it (the gap is found again). When `FILE` is empty or missing, the newest
///   rotated file's last line is the checkpoint.
/// - **Threads**: every system call runs on the log's own `BlockingWorkPool` thread, never on the
///   cooperative pool; waiting for `FILE.lock` sleeps the task between tries and holds no thread.
///
/// One owner (the coordinator's reading task) appends; the lock inside only keeps the blocking
/// half safe to hand to the pool's thread.
public final class EventLog: Sendable {
    public let configuration: EventLogConfiguration
    private let writer: Locked<EventLogWriter>
    private let pool: BlockingWorkPool

    private init(configuration: EventLogConfiguration, writer: Locked<EventLogWriter>, pool: BlockingWorkPool) {
        self.configuration = configuration
        self.writer = writer
        self.pool = pool
    }

    /// Opens the log, creating `FILE` when missing, and recovers its checkpoint. Waits up to
    /// `lockWait` for `FILE.lock` held elsewhere (`eventlog.locked` after that).
    /// - Parameters:
    ///   - fileSystem: the calls the log makes (tests inject faults here).
    ///   - pool: the thread its system calls run on; one of its own by default.
    public static func open(
        configuration: EventLogConfiguration, fileSystem: any FileSystemCalls = GlibcFileSystemCalls(),
        pool: BlockingWorkPool = BlockingWorkPool(threadCount: 1)
    ) async throws(EventLogError) -> EventLog {
        try configuration.validate()
        let lockPath = configuration.path + ".lock"
        let descriptor = try await pool.run { () throws(EventLogError) in
            do throws(Errno) { return try fileSystem.open(lockPath, flags: O_RDWR | O_CREAT | O_CLOEXEC, mode: 0o644) } catch {
                throw .io("cannot open \(lockPath)", error)
            }
        }
        do throws(EventLogError) {
            try await waitForLock(descriptor, path: lockPath, wait: configuration.lockWait, fileSystem: fileSystem, pool: pool)
            let writer = try await pool.run { () throws(EventLogError) in
                Locked(try EventLogWriter.open(configuration, lockDescriptor: descriptor, fileSystem: fileSystem))
            }
            return EventLog(configuration: configuration, writer: writer, pool: pool)
        } catch {
            try? fileSystem.close(descriptor)
            throw error
        }
    }

    /// Tries the lock on the pool, and between tries sleeps the task (no thread is held) until
    /// `wait` has passed, or says who to look for when another process keeps holding it.
    private static func waitForLock(
        _ descriptor: Int32, path: String, wait: Duration, fileSystem: any FileSystemCalls, pool: BlockingWorkPool
    ) async throws(EventLogError) {
        let deadline = ContinuousClock.now + wait
        while true {
            let taken = try await pool.run { () throws(EventLogError) in
                do throws(Errno) { return try fileSystem.tryLock(descriptor) } catch { throw .io("cannot lock \(path)", error) }
            }
            if taken { return }
            let remaining = deadline - ContinuousClock.now
            let refusal = EventLogError(
                .locked, "another process writes this event log (it holds \(path)); run one coordinator per log", errno: Errno(EWOULDBLOCK))
            guard remaining > .zero else { throw refusal }
            do { try await Task.sleep(for: min(remaining, .milliseconds(50))) } catch { throw refusal }
        }
    }

    /// The stream id of the last event in the log; nil when the log holds none.
    public var checkpoint: EventCursor? { writer.withLock { $0.checkpoint } }

    /// The path of the file being written.
    public var path: String { configuration.path }

    /// Appends `envelopes` (after a `gap` record, when given) with one write and one fsync, then
    /// rotates if the file passed `maxBytes`. Events must follow the checkpoint in stream order.
    /// When it throws, the checkpoint has not moved past what the file holds.
    public func append(_ envelopes: [EventEnvelope], gap: EventGap? = nil) async throws(EventLogError) {
        guard !envelopes.isEmpty else { return }
        let writer = self.writer
        try await pool.run { () throws(EventLogError) in
            try writer.withLock { (writer) throws(EventLogError) in try writer.append(envelopes, gap: gap) }
        }
    }

    /// Closes the current file and gives up the lock. Only descriptors are released (every
    /// append was already synced), so this does not wait for the disk.
    public func close() {
        writer.withLock { $0.close() }
    }
}
