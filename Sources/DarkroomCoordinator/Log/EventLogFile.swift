import DarkroomSystem
import Glibc

/// One open log file: appends with fsync, and the reads and cuts recovery needs at its end.
/// Writes, syncs, cuts and closes go through `fileSystem`; reads are plain `pread`.
final class EventLogFile {
    let path: String
    let fileSystem: any FileSystemCalls
    private(set) var descriptor: Int32
    /// The file's length, kept as it is appended to or cut: what is in it and synced.
    private(set) var size: Int64
    /// A failed append's bytes could not be cut off again: the file ends in part of a batch, and
    /// nothing may be appended after it (opening the log anew cuts it).
    private(set) var isDamaged = false

    /// Opens `path` for appending (creating it when `create`), or read-only.
    init(path: String, writable: Bool, create: Bool = true, fileSystem: any FileSystemCalls) throws(EventLogError) {
        self.path = path
        self.fileSystem = fileSystem
        let flags = writable ? O_RDWR | O_APPEND | O_CLOEXEC | (create ? O_CREAT : 0) : O_RDONLY | O_CLOEXEC
        let descriptor: Int32
        do throws(Errno) { descriptor = try fileSystem.open(path, flags: flags, mode: 0o644) } catch {
            throw .io("cannot open \(path)", error)
        }
        let end = lseek(descriptor, 0, SEEK_END)
        guard end >= 0 else {
            let failure = Errno.current
            try? fileSystem.close(descriptor)
            throw .io("cannot read \(path)", failure)
        }
        self.descriptor = descriptor
        self.size = Int64(end)
    }

    deinit { closeFile() }

    /// Releases the descriptor. Every append was synced, so a failing `close` loses nothing.
    func closeFile() {
        guard descriptor >= 0 else { return }
        try? fileSystem.close(descriptor)
        descriptor = -1
    }

    /// Appends `bytes` and flushes them to the disk before returning. On failure the file is cut
    /// back to its size before the call (and that synced), so it never keeps part of a batch.
    func append(_ bytes: [UInt8]) throws(EventLogError) {
        do throws(Errno) { try fileSystem.writeAll(descriptor, bytes) } catch {
            cutBack()
            throw .io("cannot write \(path)", error)
        }
        // After a failed fsync the kernel may have dropped the written pages: the bytes are cut
        // too, rather than left for a later fsync to report as synced.
        do throws(Errno) { try fileSystem.sync(descriptor) } catch {
            cutBack()
            throw .io("cannot sync \(path)", error)
        }
        size += Int64(bytes.count)
    }

    /// Cuts whatever a failed append left after `size`; marks the file damaged when it cannot.
    private func cutBack() {
        do throws(Errno) {
            try fileSystem.truncate(descriptor, to: size)
            try fileSystem.sync(descriptor)
        } catch {
            isDamaged = true
        }
    }

    /// Cuts the file to `length` bytes and flushes that.
    func truncate(to length: Int64) throws(EventLogError) {
        do throws(Errno) {
            try fileSystem.truncate(descriptor, to: length)
            try fileSystem.sync(descriptor)
        } catch {
            throw .io("cannot cut \(path) to \(length) bytes", error)
        }
        size = length
    }

    /// `count` bytes at `offset`.
    func read(at offset: Int64, count: Int) throws(EventLogError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                SystemCall.retryingInterrupts { pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done)) }
            }
            guard got > 0 else { throw .io("cannot read \(path)", got < 0 ? .current : Errno(EIO)) }
            done += got
        }
        return bytes
    }

    /// The offset of the last `\n` before `end`, or nil when there is none; reads backwards in
    /// blocks, so a long file costs only its tail.
    func lastNewline(before end: Int64) throws(EventLogError) -> Int64? {
        var blockEnd = end
        while blockEnd > 0 {
            let blockStart = max(0, blockEnd - 65_536)
            let block = try read(at: blockStart, count: Int(blockEnd - blockStart))
            if let index = block.lastIndex(of: UInt8(ascii: "\n")) { return blockStart + Int64(index) }
            blockEnd = blockStart
        }
        return nil
    }

    /// The last complete line (without its `\n`) and where it starts, or nil for an empty file.
    /// The file must end with `\n`.
    func lastLine() throws(EventLogError) -> (start: Int64, bytes: [UInt8])? {
        guard size > 0 else { return nil }
        let start = try lastNewline(before: size - 1).map { $0 + 1 } ?? 0
        return (start, try read(at: start, count: Int(size - 1 - start)))
    }

    /// True when the file is empty or its last byte is `\n`.
    func endsWithNewline() throws(EventLogError) -> Bool {
        guard size > 0 else { return true }
        return try read(at: size - 1, count: 1) == [UInt8(ascii: "\n")]
    }
}
