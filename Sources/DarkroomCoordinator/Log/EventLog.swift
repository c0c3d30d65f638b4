import DarkroomQueue
import DarkroomSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The event log on the volume: every event of the stream once, in stream order, as JSON lines
/// (`EventLogRecord`), across the current file and its rotated predecessors.
///
/// - **Batches**: `append` writes a whole batch with one `write` and one `fsync`.
/// - **Rotation**: a batch that leaves the file larger than `maxBytes` rotates it afterwards:
///   `FILE.keep` is deleted, `FILE.n` becomes `FILE.n+1`, `FILE` becomes `FILE.1`, and the next
///   batch starts a new `FILE`. Each step is a rename of a complete, synced file, so a crash at any
///   point loses and repeats nothing.
/// - **Recovery** (`open`): the log's own last complete line is its checkpoint. A half-written last
///   line (a crash mid-write) is cut off with `ftruncate`, and so is a trailing gap record whose
///   events never made it (the gap is found again). When `FILE` is empty or missing, the newest
///   rotated file's last line is the checkpoint.
///
/// Not thread-safe: one owner (the coordinator's reading task) appends.
public final class EventLog {
    public let configuration: EventLogConfiguration
    /// The stream id of the last event in the log; nil when the log holds none.
    public private(set) var checkpoint: EventCursor?
    private var file: EventLogFile?
    /// `FILE.lock`, held with `flock` while the log is open: two coordinators pointed at one file
    /// (on one host or one shared volume) must not both append.
    private var lockDescriptor: Int32 = -1

    /// Opens the log, creating `FILE` when missing, and recovers its checkpoint.
    public init(configuration: EventLogConfiguration) throws(EventLogError) {
        guard configuration.maxBytes > 0 else {
            throw EventLogError(.invalidConfiguration, "the event log's maximum size must be positive (got \(configuration.maxBytes))")
        }
        guard configuration.keep >= 1 else {
            throw EventLogError(.invalidConfiguration, "the event log must keep at least 1 rotated file (got \(configuration.keep))")
        }
        self.configuration = configuration
        lockDescriptor = try Self.lock(configuration.path + ".lock", wait: configuration.lockWait)
        let current: EventLogFile
        do {
            current = try EventLogFile(path: configuration.path, writable: true)
        } catch {
            Glibc.close(lockDescriptor)
            throw error
        }
        file = current
        checkpoint = try Self.recover(current)
        if checkpoint == nil { checkpoint = try Self.checkpointOfRotated(configuration.rotatedPath(1)) }
        syncDirectory()
    }

    deinit { close() }

    /// The path of the file being written.
    public var path: String { configuration.path }

    /// Appends `envelopes` (after a `gap` record, when given) with one write and one fsync, then
    /// rotates if the file passed `maxBytes`. Events must follow the checkpoint in stream order.
    public func append(_ envelopes: [EventEnvelope], gap: EventGap? = nil) throws(EventLogError) {
        guard let last = envelopes.last else { return }
        let bytes: [UInt8]
        do {
            bytes = try EventLogRecord.lines(envelopes, gap: gap)
        } catch {
            throw EventLogError(.io, "cannot encode events for \(path): \(error)")
        }
        let current = try currentFile()
        try current.append(bytes)
        checkpoint = last.cursor
        if current.size > configuration.maxBytes { try rotate() }
    }

    /// Closes the current file and gives up the lock.
    public func close() {
        closeCurrentFile()
        if lockDescriptor >= 0 {
            Glibc.close(lockDescriptor)
            lockDescriptor = -1
        }
    }

    private func closeCurrentFile() {
        file?.closeFile()
        file = nil
    }

    /// Opens and locks `path`, trying again every 50 ms for up to `wait`, or says who to look for
    /// when another process keeps holding it.
    private static func lock(_ path: String, wait: Duration) throws(EventLogError) -> Int32 {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .io("cannot open \(path)", .current) }
        let deadline = ContinuousClock.now + wait
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let failure = Errno.current
            guard failure.code == EWOULDBLOCK || failure.code == EINTR, ContinuousClock.now < deadline else {
                Glibc.close(descriptor)
                if failure.code == EWOULDBLOCK {
                    throw EventLogError(
                        .locked, "another process writes this event log (it holds \(path)); run one coordinator per log", errno: failure)
                }
                throw .io("cannot lock \(path)", failure)
            }
            usleep(50_000)
        }
        return descriptor
    }

    private func currentFile() throws(EventLogError) -> EventLogFile {
        if let file { return file }
        let created = try EventLogFile(path: path, writable: true)
        syncDirectory()
        file = created
        return created
    }

    /// Shifts the rotated files up by one, deleting the oldest, and renames `FILE` to `FILE.1`.
    /// The next append creates a new `FILE`.
    private func rotate() throws(EventLogError) {
        closeCurrentFile()
        let keep = configuration.keep
        if unlink(configuration.rotatedPath(keep)) != 0, errno != ENOENT {
            throw .io("cannot delete \(configuration.rotatedPath(keep))", .current)
        }
        for index in stride(from: keep - 1, through: 1, by: -1) {
            try move(configuration.rotatedPath(index), to: configuration.rotatedPath(index + 1), missingIsFine: true)
        }
        try move(path, to: configuration.rotatedPath(1), missingIsFine: false)
        syncDirectory()
    }

    private func move(_ from: String, to: String, missingIsFine: Bool) throws(EventLogError) {
        guard rename(from, to) != 0 else { return }
        if missingIsFine, errno == ENOENT { return }
        throw .io("cannot rename \(from) to \(to)", .current)
    }

    /// Flushes the log's directory, so a created or renamed file survives a crash.
    private func syncDirectory() {
        AtomicFileWriter.forFile(path).writer.syncDirectory()
    }

    /// Cuts a half-written last line and a trailing gap record, then reads the checkpoint.
    private static func recover(_ file: EventLogFile) throws(EventLogError) -> EventCursor? {
        if !(try file.endsWithNewline()) {
            let lastNewline = try file.lastNewline(before: file.size)
            try file.truncate(to: lastNewline.map { $0 + 1 } ?? 0)
        }
        while let (start, line) = try file.lastLine() {
            switch EventLogRecord.parse(line) {
            case .event(let cursor): return cursor
            case .gap: try file.truncate(to: start)
            case nil: throw corrupt(file.path)
            }
        }
        return nil
    }

    /// The checkpoint in a rotated file (complete by construction), or nil when there is none.
    private static func checkpointOfRotated(_ path: String) throws(EventLogError) -> EventCursor? {
        let rotated: EventLogFile
        do {
            rotated = try EventLogFile(path: path, writable: false)
        } catch  where error.errno?.code == ENOENT {
            return nil
        }
        defer { rotated.closeFile() }
        guard try rotated.endsWithNewline(), let (_, line) = try rotated.lastLine() else {
            if rotated.size == 0 { return nil }
            throw corrupt(path)
        }
        guard case .event(let cursor) = EventLogRecord.parse(line) else { throw corrupt(path) }
        return cursor
    }

    private static func corrupt(_ path: String) -> EventLogError {
        EventLogError(.corrupt, "\(path): the last complete line is not an event log record; move the file aside to start a new log")
    }
}
