import DarkroomQueue
import DarkroomSystem
import Glibc

/// The blocking half of `EventLog`: the open file, the checkpoint, appends, rotation and
/// recovery, as plain system calls through `fileSystem`. `EventLog` keeps it behind a lock and
/// calls it only on its blocking pool's thread.
///
/// A failed append leaves the file as it was: the bytes it wrote are cut off again (and the cut
/// synced) before the error is thrown, so a later append never follows half a batch and the
/// checkpoint names only events that are in the file and synced. When even the cut fails, the
/// writer refuses further appends until the log is opened again (recovery then cuts what is left).
final class EventLogWriter {
    let configuration: EventLogConfiguration
    let fileSystem: any FileSystemCalls
    /// The stream id of the last event in the log; nil when the log holds none.
    private(set) var checkpoint: EventCursor?
    private var file: EventLogFile?
    /// `FILE.lock`, held with `flock` while the log is open (taken by `EventLog`).
    private var lockDescriptor: Int32

    private init(configuration: EventLogConfiguration, fileSystem: any FileSystemCalls, file: EventLogFile, checkpoint: EventCursor?, lockDescriptor: Int32) {
        self.configuration = configuration
        self.fileSystem = fileSystem
        self.file = file
        self.checkpoint = checkpoint
        self.lockDescriptor = lockDescriptor
    }

    deinit { close() }

    /// Opens `FILE` (creating it when missing) and recovers the checkpoint. Takes over
    /// `lockDescriptor` on success only: on failure the caller still owns it.
    static func open(
        _ configuration: EventLogConfiguration, lockDescriptor: Int32, fileSystem: any FileSystemCalls
    ) throws(EventLogError) -> EventLogWriter {
        let current = try EventLogFile(path: configuration.path, writable: true, fileSystem: fileSystem)
        var checkpoint = try recover(current)
        if checkpoint == nil { checkpoint = try checkpointOfRotated(configuration.rotatedPath(1), fileSystem: fileSystem) }
        let writer = EventLogWriter(
            configuration: configuration, fileSystem: fileSystem, file: current, checkpoint: checkpoint, lockDescriptor: lockDescriptor)
        writer.syncDirectory()
        return writer
    }

    var path: String { configuration.path }

    /// Appends `envelopes` (after a `gap` record, when given) with one write and one fsync, then
    /// rotates if the file passed `maxBytes`.
    func append(_ envelopes: [EventEnvelope], gap: EventGap?) throws(EventLogError) {
        guard let last = envelopes.last else { return }
        let bytes: [UInt8]
        do {
            bytes = try EventLogRecord.lines(envelopes, gap: gap)
        } catch {
            throw EventLogError(.io, "cannot encode events for \(path): \(error)")
        }
        let current = try currentFile()
        guard !current.isDamaged else {
            throw EventLogError(
                .io, "\(path): an earlier write failed and its bytes could not be cut off again; restart the coordinator (opening the log cuts them)")
        }
        try current.append(bytes)
        checkpoint = last.cursor
        if current.size > configuration.maxBytes { try rotate() }
    }

    /// Closes the current file and gives up the lock. Every append was synced, so a failing
    /// `close` here loses nothing and is not reported.
    func close() {
        closeCurrentFile()
        if lockDescriptor >= 0 {
            try? fileSystem.close(lockDescriptor)
            lockDescriptor = -1
        }
    }

    private func closeCurrentFile() {
        file?.closeFile()
        file = nil
    }

    private func currentFile() throws(EventLogError) -> EventLogFile {
        if let file { return file }
        let created = try EventLogFile(path: path, writable: true, fileSystem: fileSystem)
        syncDirectory()
        file = created
        return created
    }

    /// Shifts the rotated files up by one, deleting the oldest, and renames `FILE` to `FILE.1`.
    /// The next append creates a new `FILE`.
    private func rotate() throws(EventLogError) {
        closeCurrentFile()
        let keep = configuration.keep
        do throws(Errno) { try fileSystem.remove(configuration.rotatedPath(keep)) } catch {
            if error.code != ENOENT { throw .io("cannot delete \(configuration.rotatedPath(keep))", error) }
        }
        for index in stride(from: keep - 1, through: 1, by: -1) {
            try move(configuration.rotatedPath(index), to: configuration.rotatedPath(index + 1), missingIsFine: true)
        }
        try move(path, to: configuration.rotatedPath(1), missingIsFine: false)
        syncDirectory()
    }

    private func move(_ from: String, to: String, missingIsFine: Bool) throws(EventLogError) {
        do throws(Errno) { try fileSystem.rename(from, to: to) } catch {
            if missingIsFine, error.code == ENOENT { return }
            throw .io("cannot rename \(from) to \(to)", error)
        }
    }

    /// Flushes the log's directory, so a created or renamed file survives a crash.
    private func syncDirectory() {
        AtomicFileWriter.forFile(path, fileSystem: fileSystem).writer.syncDirectory()
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
    private static func checkpointOfRotated(_ path: String, fileSystem: any FileSystemCalls) throws(EventLogError) -> EventCursor? {
        let rotated: EventLogFile
        do {
            rotated = try EventLogFile(path: path, writable: false, fileSystem: fileSystem)
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
